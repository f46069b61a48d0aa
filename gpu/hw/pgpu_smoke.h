/* The hardware smoke test (hv.cfg gpu_smoke=yes): the first thing to run
 * on a Skylake box. After the takeover and before the mediator exists it
 * prints what the GPU is (ids, stepping, slice/subslice/EU fuses), its
 * stolen memory (GGC, BDSM, DSMBASE), the forcewake acks per domain, then
 * exercises the GGTT, the aperture, fence detiling, one MI_STORE_DWORD_IMM
 * on each engine into a page of ours through the GGTT, the MSI, and on the
 * blitter one XY_COLOR_BLT + XY_SRC_COPY_BLT whose pixels are checked;
 * every engine is reset at the end so the mediator starts from clean
 * engines. Each step prints one line, "PASS", "FAIL" or "SKIP", with its
 * time and, on FAIL, the registers that say why.
 *
 * Pure: it runs on any gpu_hw through the pGPU driver, with pages, time,
 * output and interrupts from the environment (the hypervisor's in
 * hv/gpu/gpu_host.c, plain memory and the model in the host test). */
#ifndef GPU_HW_PGPU_SMOKE_H
#define GPU_HW_PGPU_SMOKE_H

#include <stdint.h>

#include "gpu/hw/pgpu.h"

/* GGTT entries the test uses from env->ggtt_first (inside the aperture). */
#define PGPU_SMOKE_GGTT_PAGES 64
/* How long an engine gets for one step. */
#define PGPU_SMOKE_TIMEOUT_US 100000

struct pgpu_smoke_env {
	void *ctx;
	/* n zeroed, physically contiguous 4 KiB pages the GPU may read and
	 * write: CPU pointer, host-physical address in *hpa. NULL if none. */
	void *(*alloc)(void *ctx, unsigned int n, uint64_t *hpa);
	void (*free)(void *ctx, void *va, unsigned int n);
	uint64_t (*now_us)(void *ctx);
	/* One line of output, without its newline. */
	void (*line)(void *ctx, const char *text);
	/* MSIs taken so far, and a chance to take pending ones; NULL: the
	 * interrupt step is skipped. */
	uint64_t (*irqs)(void *ctx);
	void (*irq_window)(void *ctx);
	uint32_t ggtt_first; /* first of PGPU_SMOKE_GGTT_PAGES free entries */
};

struct pgpu_smoke_result {
	unsigned int pass, fail, skip;
};

/* Runs every step (a failed one does not stop the others, except that a
 * step needing an engine nobody could wake is skipped). Leaves forcewake
 * released, the GGTT entries it used empty, the fence it used cleared,
 * GT interrupts masked and every engine reset. 0 when nothing failed,
 * else -GPU_EIO. */
int pgpu_smoke_run(struct pgpu *p, const struct pgpu_smoke_env *env,
		   struct pgpu_smoke_result *r);

/* The stepping i915 names for a Skylake revision id ("?" if none). */
const char *pgpu_skl_stepping(uint8_t revision);

#endif
