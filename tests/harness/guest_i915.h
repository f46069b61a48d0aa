/* An i915-like guest driver for mediator tests: it talks to its vGPU only
 * the way a stock i915 does (i915-guest §1-§8) - PCI config space, BAR0 MMIO
 * (registers and GGTT entries), its own RAM - and never looks inside the
 * mediator. It detects PVINFO (8-byte magic read, 2-byte version read),
 * balloons, writes GGTT entries, builds a 4-level PPGTT with CPU stores
 * (which trap when write-protected), creates contexts and rings, submits
 * batches through ELSP and follows the CSB in its status page. */
#ifndef TESTS_UNIT_GUEST_I915_H
#define TESTS_UNIT_GUEST_I915_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/hw/gen9_regs.h"
#include "gpu/vgpu/vgpu.h"
#include "tests/world/fake_hv_ops.h"

#define GI_RING_SIZE (4 * 4096)
#define GI_MAX_CTX 8

struct gi_ctx {
	bool used;
	int engine;
	uint32_t lrca; /* GGTT */
	uint64_t lrca_gpa;
	uint32_t pages;
	uint32_t ring_gm;
	uint64_t ring_gpa;
	uint32_t ring_size; /* bytes, a page multiple (RING_CTL) */
	uint32_t tail;
	uint32_t hw_id; /* upper descriptor dword */
};

struct gi_engine {
	bool up;
	uint32_t base;
	uint32_t hwsp_gm;
	uint64_t hwsp_gpa;
	uint8_t csb_head; /* last entry consumed */
	uint32_t csb_events, idle_to_active, completes, lite_restores;
	bool active;
};

struct guest_i915 {
	struct fake_hv *hv;
	struct vgpu *v;
	uint32_t vm;
	void (*poll)(void *arg); /* lets the GPU run (model / fake) */
	void *poll_arg;
	struct gvt *gvt;
	/* what the guest learned at probe */
	uint64_t magic;
	uint16_t version;
	uint32_t caps;
	uint64_t mappable_end, ggtt_total;
	uint32_t low_base, low_size, high_base, high_size, fences;
	/* its allocators */
	uint64_t next_gpa;
	uint64_t low_next, high_next;
	/* PPGTT */
	uint64_t pml4_gpa;
	uint64_t ppgtt_next_va;
	bool half_ggtt_writes; /* write PTEs as two 4-byte halves */
	/* The hypervisor's step after each trapped access (the mediator
	 * for what a submission posted, hv/gpu/gpu_host.c
	 * gpu_host_after_exit) left out: a test looks between the two. */
	bool no_after_exit;
	struct gi_engine eng[GEN9_NUM_ENGINES];
	struct gi_ctx ctx[GI_MAX_CTX];
	uint32_t irqs_handled;
	uint64_t msi_seen;
	uint32_t iir_seen[GEN8_GT_BANKS];
};

/* Probe like i915: -1 with a message on any mismatch. */
int gi_probe(struct guest_i915 *g, struct fake_hv *hv, struct vgpu *v,
	     uint32_t vm, struct gvt *gvt);
uint64_t gi_mmio_read(struct guest_i915 *g, uint32_t off, unsigned int size);
void gi_mmio_write(struct guest_i915 *g, uint32_t off, uint64_t val,
		   unsigned int size);
uint64_t gi_alloc_pages(struct guest_i915 *g, uint32_t n);
/* GM from its balloon holes: mappable (low) or not. */
uint32_t gi_gm_alloc(struct guest_i915 *g, uint32_t bytes, bool mappable);
void gi_ggtt_bind(struct guest_i915 *g, uint32_t gm, uint64_t gpa, uint32_t n);
/* PPGTT: create (g2v notify) and map n pages of gpa at va. */
int gi_ppgtt_create(struct guest_i915 *g);
void gi_ppgtt_map(struct guest_i915 *g, uint64_t va, uint64_t gpa, uint32_t n);
void gi_ppgtt_destroy(struct guest_i915 *g);
int gi_engine_init(struct guest_i915 *g, int engine);
void gi_irq_init(struct guest_i915 *g);
int gi_ctx_create(struct guest_i915 *g, int engine);
/* A context with a ring of ring_size bytes (i915's
 * I915_CONTEXT_PARAM_RINGSIZE: 4 KiB..512 KiB; RING_CTL allows 2 MiB). */
int gi_ctx_create_ring(struct guest_i915 *g, int engine, uint32_t ring_size);
/* Append dwords to a context's ring (tail advances, image not yet). */
void gi_ring_emit(struct guest_i915 *g, int ctx, const uint32_t *dw,
		  uint32_t n);
/* Store-dword breadcrumb for the engine: GGTT store of val at gm. */
void gi_emit_breadcrumb(struct guest_i915 *g, int ctx, uint32_t gm,
			uint32_t val);
/* MI_BATCH_BUFFER_START of a PPGTT batch at va. */
void gi_emit_bb_start(struct guest_i915 *g, int ctx, uint64_t va, bool ppgtt);
/* Write the tail to the image and ELSP (ctx1 < 0: one element). */
void gi_submit(struct guest_i915 *g, int ctx0, int ctx1);
/* Run the GPU and the mediator, take interrupts, read the CSB. */
void gi_service(struct guest_i915 *g);
/* Until the engine went idle again (CSB active->idle), at most n polls. */
int gi_wait_idle(struct guest_i915 *g, int engine, int n);
uint32_t gi_read32(struct guest_i915 *g, uint64_t gpa);
void gi_write32(struct guest_i915 *g, uint64_t gpa, uint32_t v);

#endif
