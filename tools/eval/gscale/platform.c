/* The evaluated platform: a Gen9 model with a 4 GiB GGTT and a 256 MiB
 * aperture, and the GM layout of gVirt/gScale on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "tools/eval/gscale/eval.h"

static void *no_dma(void *ctx, uint64_t hpa, size_t len)
{
	(void)ctx;
	(void)hpa;
	(void)len;
	return NULL; /* the evaluation never runs commands */
}

int platform_init(struct platform *pf)
{
	static struct gpu_dma dma = { NULL, no_dma };
	struct gen9_model_config cfg = { .aperture_size = APERTURE_BYTES };
	struct gen9_model_mem mem;

	memset(pf, 0, sizeof(*pf));
	pf->regs = calloc(1, GEN9_MODEL_REGS_BYTES);
	pf->ggtt = calloc(GGTT_ENTRIES, sizeof(uint64_t));
	if (!pf->regs || !pf->ggtt)
		return -1;
	mem.regs = pf->regs;
	mem.ggtt = pf->ggtt;
	mem.ggtt_entries = GGTT_ENTRIES;
	if (gen9_model_init(&pf->model, &cfg, &mem, &dma))
		return -1;
	gen9_model_attach(&pf->model, &pf->hw);
	return 0;
}

void platform_fini(struct platform *pf)
{
	free(pf->regs);
	free(pf->ggtt);
}

/* gScale's layout (seeds/gscale.txt, figure 9): the host keeps the first
 * 128 MiB of the aperture and 384 MiB of high GM; a fence memory pool of
 * 32 MiB follows the host's low part; guests share the rest of the
 * aperture (96 MiB) and the rest of high GM, cut into slots. */
struct gscale_params layout(bool sharing, bool predictive)
{
	return (struct gscale_params){
		.low = { MIB(128 + 32), MIB(256 - 128 - 32) },
		.high = { MIB(256 + 384), MIB(4096 - 256 - 384) },
		.slot_entries = MIB(SLOT_MIB),
		.slot_sharing = sharing,
		.predictive = predictive,
	};
}

uint64_t rdtsc_now(void *ctx)
{
	(void)ctx;
	return __rdtsc();
}

/* TSC ticks per second, against CLOCK_MONOTONIC over 200 ms (once). */
double tsc_hz(void)
{
	static double hz;
	struct timespec a, b;
	uint64_t t0, t1;

	if (hz)
		return hz;
	clock_gettime(CLOCK_MONOTONIC, &a);
	t0 = __rdtsc();
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 2e8);
	t1 = __rdtsc();
	hz = (t1 - t0) /
	     (((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e9);
	return hz;
}
