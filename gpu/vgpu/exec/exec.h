/* Execution (gpu/vgpu/exec/): virtual execlists, workloads and their shadow
 * contexts and rings, the shadow batch pool, the physical engines, the
 * scheduler, reset, and watched loops. Private to the mediator. */
#ifndef GPU_VGPU_EXEC_EXEC_H
#define GPU_VGPU_EXEC_EXEC_H

#include "gpu/vgpu/vgpu_priv.h"

/* The area's part of the register table (vgpu_exec_regs.c, mmio/mmio.h):
 * the engines' register blocks (vgpu_execlist.c) and GDRST. */
extern const struct mmio_part exec_regs_part;
int vgpu_engine_reg_read(struct vgpu *v, uint32_t off, uint32_t *val);
int vgpu_engine_reg_write(struct vgpu *v, uint32_t off, uint32_t val);
/* ---- execlists, workloads, scanner, scheduler --------------------------- */

int vgpu_engines_init(struct vgpu *v);
void vgpu_engines_fini(struct vgpu *v);
void vgpu_execlist_reset(struct vgpu *v, uint32_t engine_mask);
void vgpu_execlist_stop(struct vgpu *v, uint32_t engine_mask);
int vgpu_elsp_write(struct vgpu *v, struct vgpu_engine *e, uint32_t val);
void vgpu_emulate_schedule_in(struct vgpu *v, struct vgpu_engine *e,
			      const struct workload *w);
void vgpu_emulate_schedule_out(struct vgpu *v, struct vgpu_engine *e,
			       const struct workload *w);
void vgpu_csb_write(struct vgpu *v, struct vgpu_engine *e, uint32_t status,
		    uint32_t ctx_id);

int vgpu_workload_create(struct vgpu *v, struct vgpu_engine *e,
			 uint64_t desc, uint64_t pair1, bool schedule_in);
/* The shadow context for w's run on the GPU: a new workload's from the
 * guest's image, a preempted one's resumed from where it stopped. */
int vgpu_workload_prepare(struct vgpu *v, struct vgpu_engine *e,
			  struct workload *w);
void vgpu_workload_complete(struct vgpu *v, struct vgpu_engine *e,
			    struct workload *w, int status);
void vgpu_workload_drop_all(struct vgpu *v, struct vgpu_engine *e);
void vgpu_workload_unqueue_last(struct vgpu *v, struct vgpu_engine *e);
void vgpu_execlist_retry_deferred(struct vgpu *v, struct vgpu_engine *e);
void vgpu_fail(struct vgpu *v, int engine, const char *why);


/* A refused user batch (the scanner's result, cmd/cmd.h): run the ring up
 * to it, then fail its request as after a hang (vgpu_user_fault.c). */
struct scan_result;
void vgpu_user_fault_cut(struct vgpu *v, struct vgpu_engine *e,
			 struct workload *w, struct scan_result *r);
void vgpu_user_fault_raise(struct vgpu *v, struct vgpu_engine *e,
			   uint32_t events);
/* Physical execution (vgpu_pexec.c). */
int pexec_init(struct gvt *gvt);
void pexec_fini(struct gvt *gvt);
int pexec_submit(struct gvt *gvt, int engine, struct vgpu *v,
		 struct workload *w, uint32_t lrca);
/* 1 when the in-flight workload finished, 0 if still running,
 * PEXEC_PREEMPTED when it left the GPU at an arbitration point (it goes
 * back on with pexec_submit of the same context), < 0 on an error. */
#define PEXEC_PREEMPTED 2
int pexec_poll(struct gvt *gvt, int engine);
/* Ask the engine to give up the in-flight workload at its next
 * arbitration point. 0, or -GPU_EBUSY to try again at a later poll. */
int pexec_preempt(struct gvt *gvt, int engine);
bool pexec_csb_done(struct gvt *gvt, struct pexec_engine *pe);
int pexec_engine_setup(struct gvt *gvt, struct pexec_engine *pe);
/* Physical resets (vgpu_pexec_full.c, above vgpu_pexec.c): one engine,
 * and, when its reset fails, the whole GPU (pexec_full_reset, guilty =
 * the engine whose reset failed). */
void pexec_reset_engine(struct gvt *gvt, int engine);
void pexec_full_reset(struct gvt *gvt, int guilty);
bool pexec_busy(const struct gvt *gvt);

/* An empty register-state page of the shadow context template: LRI
 * headers, register offsets, zero values (vgpu_workload.c). */
void vgpu_ctx_state_template(uint32_t *st, int engine, uint32_t base);

/* A vGPU leaves the GPU: its engines reset, ownership handed back
 * (vgpu_reset.c, which the scheduler calls and which calls no scheduler
 * function). */
void gvt_sched_remove(struct gvt *gvt, struct vgpu *v);
/* v's work reached the GPU: the end of a reset, if one was under way
 * (vgpu_reset.c logs how long the vGPU was out). */
void vgpu_reset_back_on_gpu(struct vgpu *v);


/* Mediator GM (vgpu_own_gm.c). */
int gvt_own_obj_alloc(struct gvt *gvt, uint32_t slot, uint32_t *cursor,
		      uint32_t pages, struct own_obj *o);
void gvt_own_obj_free(struct gvt *gvt, struct own_obj *o);
/* Shadow batch pool (vgpu_own_gm.c). alloc: a page for w, -GPU_E2BIG when
 * w alone would exceed the budget (it can never fit), -GPU_ENOSPC when
 * other work holds the rest (it comes back as that work completes). */
int vgpu_sbb_init(struct vgpu *v, uint32_t kib);
void vgpu_sbb_fini(struct vgpu *v);
int vgpu_sbb_alloc(struct vgpu *v, struct workload *w, bool user);
void vgpu_sbb_release(struct vgpu *v, struct workload *w);

void vgpu_sbb_trim(struct vgpu *v);
/* True when GGTT address gm lies in a page of w's copies that holds only
 * user (non-privileged) batches: a hang there is that request's. */
bool vgpu_sbb_user_at(const struct vgpu *v, const struct workload *w,
		      uint64_t gm);
/* A run of n contiguous pool pages (one GGTT range) for a grown shadow
 * ring, all backed: -GPU_E2BIG when n exceeds the budget (it can never
 * fit), -GPU_ENOSPC when work holds pages in the way (they come back as
 * it completes), -GPU_ENOMEM when the host is out. put gives it back. */
int vgpu_sbb_take_run(struct vgpu *v, uint32_t n, int32_t *first);
void vgpu_sbb_put_run(struct vgpu *v, int32_t first, uint32_t n);

#endif
