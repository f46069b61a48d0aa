/* The world the i915 replay tests share (test_i915_replay, test_vgpu_spinner,
 * test_vgpu_wsim, test_vgpu_busy_loop): the real mediator on the software
 * Gen9 model, and on it guests whose i915-like driver
 * (tests/harness/guest_i915.h) has probed its vGPU, built a PPGTT and
 * created one context per engine, with a timeline page bound in the GGTT
 * for the seqnos; plus the request i915 6.1 builds around a user batch
 * (tests/harness/i915_shapes.h): invalidate flush, init breadcrumb, batch
 * start without arbitration, fini breadcrumb (test_vgpu_mm_lru and
 * test_drm_client_batches, whose worlds differ, take only the request:
 * iw_emit_request_at).
 *
 * cmocka setup helpers: a failure to build anything fails the test. */
#ifndef TESTS_HARNESS_I915_WORLD_H
#define TESTS_HARNESS_I915_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/cmd/cmd.h"
#include "gpu/vgpu/display/display.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "tests/harness/guest_i915.h"
#include "tests/harness/i915_shapes.h"
#include "tests/world/model_world.h"

/* One guest: its vGPU, its i915, a context per engine and the seqno of
 * its last request there, breadcrumbs in the timeline page. */
struct iw_guest {
	uint32_t vm;
	struct vgpu *v;
	struct guest_i915 g;
	int ctx[GEN9_NUM_ENGINES];
	uint32_t seqno[GEN9_NUM_ENGINES];
	uint32_t tl_gm; /* timeline HWSP page (GGTT), seqno slots */
	uint64_t tl_gpa;
	uint64_t batch_gpa; /* the test's batch pages (iw_map), if any */
};

/* The model world with a pool and RAM of these sizes (mw_config). */
void iw_world_init(struct model_world *mw, uint32_t pool_mib, uint32_t ram_mib);
/* Stops the mediator, checks no page is left in use, frees the world. */
void iw_world_fini(struct model_world *mw);

/* A test's cmocka state: size bytes, zeroed, whose first member is the
 * struct model_world, built by iw_world_init. */
void *iw_state_new(size_t size, uint32_t pool_mib, uint32_t ram_mib);
/* cmocka teardown for such a state: iw_world_fini, then freed. */
int iw_teardown(void **state);

/* VM vm with 16 MiB of RAM and a small vGPU, probed by the guest's i915
 * (polling the model), a PPGTT, RCS, BCS, VCS and VECS up with a
 * context each, the timeline page allocated and bound. */
void iw_guest_up(struct model_world *mw, struct iw_guest *q, uint32_t vm);
/* pages new guest pages mapped at va in the guest's PPGTT: their gpa. */
uint64_t iw_map(struct iw_guest *q, uint64_t va, uint32_t pages);

/* The timeline's seqno slot of an engine: 64 bytes apart, so MI_FLUSH_DW
 * addresses keep bit 5 clear (gen8_emit_ggtt_write's rule). */
uint32_t iw_slot(int engine);
/* The seqno the GPU last wrote there, where i915 reads it. */
uint32_t iw_seqno_now(struct iw_guest *q, int engine);

/* gen8_emit_flush_rcs / _xcs, by engine. */
void iw_emit_flush(struct i915_cs *cs, int engine, unsigned int mode);
/* The fini breadcrumb of q->seqno[engine] (gen8_emit_fini_breadcrumb_*). */
void iw_emit_fini(struct iw_guest *q, struct i915_cs *cs, int engine);
/* Appends the request i915 builds for an execbuf of the batch at
 * batch_va, its breadcrumbs seqno at GGTT address hwsp: invalidate flush
 * (execlists_request_alloc), init breadcrumb, batch start without
 * arbitration (no preemption on a vGPU), fini breadcrumb. */
void iw_emit_request_at(struct i915_cs *cs, int engine, uint32_t hwsp,
			uint32_t seqno, uint64_t batch_va);
/* The same with seqno q->seqno[engine] in q's timeline. */
void iw_emit_request(struct iw_guest *q, struct i915_cs *cs, int engine,
		     uint64_t batch_va);
/* The next seqno's request for the batch at batch_va, alone in a
 * segment, written to the context's ring and submitted. */
void iw_submit(struct iw_guest *q, int engine, uint64_t batch_va);

#endif
