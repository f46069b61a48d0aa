/* The smoke test's environment in the hypervisor (gpu_smoke.h). */
#include "gpu/hw/pgpu_smoke.h"
#include "hv/console/console.h"
#include "hv/gpu/gpu_smoke.h"
#include "hv/cpu/host_irq.h"
#include "hv/mm/mem.h"
#include "hv/platform/tsc.h"
#include "hv/vtd/vtd.h"
#include "hv/cpu/x86.h"

/* GGTT entries the test borrows: 8 MiB into the aperture, inside what
 * the firmware's framebuffer used (the takeover switched it off) and what
 * the mediator rewrites when it comes up after the test. */
#define SMOKE_GGTT_FIRST ((8u << 20) >> 12)

static uint64_t (*count_irqs)(void);
static int status;

static void *env_alloc(void *ctx, unsigned int n, uint64_t *hpa)
{
	void *p = page_alloc_contig(n);

	(void)ctx;
	if (p) {
		*hpa = hv_pa(p);
		/* The test's batches and targets are read and written by the
		 * GPU: with VT-d on, they must be in its domain. */
		vtd_gpu_pages(*hpa, n, true);
	}
	return p;
}

static void env_free(void *ctx, void *va, unsigned int n)
{
	(void)ctx;
	vtd_gpu_pages(hv_pa(va), n, false);	/* before reuse */
	page_free_contig(va, n);
}

static uint64_t env_now_us(void *ctx)
{
	uint64_t hz = tsc_hz();

	(void)ctx;
	return hz ? rdtsc() / (hz / 1000000 ? hz / 1000000 : 1) : 0;
}

static void env_line(void *ctx, const char *text)
{
	(void)ctx;
	kprintf("%s\n", text);
}

static uint64_t env_irqs(void *ctx)
{
	(void)ctx;
	return count_irqs();
}

static void env_irq_window(void *ctx)
{
	(void)ctx;
	host_irq_window();
}

unsigned int gpu_smoke_run(struct pgpu *p, uint64_t (*irqs)(void))
{
	struct pgpu_smoke_env env = {
		.alloc = env_alloc, .free = env_free, .now_us = env_now_us,
		.line = env_line, .irq_window = env_irq_window,
		.ggtt_first = SMOKE_GGTT_FIRST,
	};
	struct pgpu_smoke_result r;

	count_irqs = irqs;
	if (irqs)
		env.irqs = env_irqs;
	pgpu_smoke_run(p, &env, &r);
	status = r.fail ? 1 : 0;
	return r.fail;
}

int gpu_smoke_status(void)
{
	return status;
}
