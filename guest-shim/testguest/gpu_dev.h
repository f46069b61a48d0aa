/* The GPU test's device layer (gpu_test.c), shared with the hostile mode
 * (gpu_hostile.c): the same probe, GGTT/PPGTT binding and submission an
 * i915-like guest does, without the blit test around it. */
#ifndef TESTGUEST_GPU_DEV_H
#define TESTGUEST_GPU_DEV_H

#include <stdbool.h>
#include <stdint.h>

struct gpu_ranges {
	uint32_t low_base, low_size, high_base, high_size; /* PVINFO */
	uint32_t seq_gm;	/* a GGTT page of ours, at guest-physical seq */
	uint64_t seq;
	uint64_t batch, batch_va;	/* one page, mapped in the PPGTT */
	int engine;
	uint32_t base;
};

/* PCI, PVINFO, reset, IRQs, BCS status page and context, the PPGTT with
 * the batch page mapped; false without a vGPU. */
bool gpu_dev_setup(void);
void gpu_dev_ranges(struct gpu_ranges *r);
uint64_t gpu_dev_alloc(uint32_t pages);	/* guest RAM, zeroed */
uint32_t gpu_dev_gm(uint32_t bytes, bool mappable);	/* our graphics memory */
void gpu_dev_ggtt_bind(uint32_t gm, uint64_t gpa, uint32_t pages);
void gpu_dev_ppgtt_map(uint64_t va, uint64_t gpa, uint32_t pages);
/* Switch submissions to another engine: new status page, context, ring. */
void gpu_dev_use_engine(int engine, uint32_t base, uint32_t ctx_pages);
/* Append n dwords to the ring and submit the context through ELSP. */
void gpu_dev_submit(const uint32_t *cs, uint32_t n);
/* Wait (yielding, MSIs on) until the seq page's first dword is seqno. */
bool gpu_dev_wait(uint32_t seqno);
uint32_t gpu_dev_reg(uint32_t off);	/* BAR0: the vGPU's view */
/* After the vGPU was reset under us (RING_EIR set): i915's recovery (engine
 * reset via GDRST, engine programmed again, guilty request skipped). false
 * when the engine reports no error. */
bool gpu_dev_recover(void);
void gpu_dev_reg_write(uint32_t off, uint32_t val);
/* One blit round of the GPU test: the dwords wrong through the aperture,
 * ~0u when the seqno never came. */
uint32_t gpu_dev_blit_round(uint32_t vm, uint32_t round);
/* Our high GM moved: every GM address we keep there goes through map
 * (status page, context, ring, seqno page, allocator), HWS_PGA and the
 * context image's RING_START follow. */
void gpu_dev_rebase(uint64_t (*map)(void *ctx, uint64_t gm), void *ctx);

#endif
