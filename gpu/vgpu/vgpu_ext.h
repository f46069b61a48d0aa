/* The hook table through which the mediator (the gVirt baseline in
 * gpu/vgpu) calls a research system that changes its behaviour or watches
 * it: gHyvi (gpu/ghyvi) owns the PPGTT entries, DymGPU (gpu/dymgpu) fills
 * the scheduler's and the per-gvt ones. gBalloon (gpu/gballoon) fills
 * none: nothing in the mediator calls it; it drives the mediator from
 * outside and reads vgpu_ext_util.
 *
 * Who attaches: whoever creates the gvt lists the systems in
 * gvt_params.ext (hv/gpu/gpu_host.c for the hypervisor, a test's world for
 * a test). With none listed, every hook below is skipped and the mediator
 * is the baseline alone; gpu/vgpu names no research system's symbol.
 *
 * Lifetime: a listed system is attached to the gvt when gvt_create has
 * set up the GM layout, the shared-GM system first (gvt_attach, with its parameters from
 * gvt_params.ext_params, returns the per-gvt state) and detached in
 * gvt_destroy after every vGPU is gone. It is attached to every vGPU of the
 * gvt when the vGPU's PPGTT shadowing is set up (attach, which returns the
 * system's per-vGPU state) and detached when it is torn down, after the
 * last shadow table was freed, in vgpu_destroy. The mediator passes the
 * per-vGPU state back to every per-vGPU hook; vgpu_ext_state() finds it
 * from the vGPU, vgpu_ext_gvt_state() the per-gvt one from the gvt.
 *
 * Calls into the mediator are serialized per vGPU, so no hook runs
 * concurrently with another hook or the mediator on the same vGPU. A hook
 * may call back into the mediator (vgpu.h, vgpu_priv.h: the PPGTT
 * shadowing's spt_*, vgpu_read_gpa, the hv_ops write protection; the slot
 * view vgpu_slots / vgpu_slot_runs; gvt_now), never into another system.
 *
 * Entries are optional (NULL: not called). The PPGTT entries decide the
 * write protection of guest page tables: at most one listed system may
 * fill them (gvt_create refuses a second), and that system owns the
 * per-table area struct spt.ext.
 *
 * gScale (gpu/gscale) fills the shared-GM entries: room, place,
 * unplace, ggtt_write, fence_map, aperture_map, aperture_page, gm_switch,
 * gm_status (below); the baseline calls its mediator part through them only.
 *
 * Considered and not entries, because no system needs them: switch-out
 * (what DymGPU learns of a vGPU leaving the GPU is "ran", per workload),
 * and placement as a policy (the mediator never asks where a running
 * vGPU goes: DymGPU and placement=dymgpu re-place vGPUs from outside with
 * vgpu_relocate_high / vgpu_set_high_runs; `place` is where a new vGPU's
 * GM comes from). */
#ifndef GPU_VGPU_VGPU_EXT_H
#define GPU_VGPU_VGPU_EXT_H

#include <stdbool.h>
#include <stdint.h>

struct gvt;
struct vgpu;
struct vgpu_type;
struct gvt_status;

/* Systems listed per gvt. */
#define VGPU_EXT_MAX 4

/* Per shadow table, the bytes the PPGTT system may keep in struct spt
 * (zeroed when the table is allocated). */
#define VGPU_SPT_EXT_BYTES 56

struct vgpu_ext_ops {
	const char *name;

	/* ---- per gvt (gpu/vgpu/vgpu_create.c) ---- */

	/* gvt_create set up the GM layout (and the shared-GM system, for
	 * the others):
	 * make the per-gvt state (*state) from params (the system's own
	 * struct, gvt_params.ext_params at the system's index; may be NULL).
	 * A nonzero return (-GPU_E*) fails gvt_create. */
	int (*gvt_attach)(struct gvt *gvt, const void *params, void **state);
	/* gvt_destroy, after every vGPU was destroyed; also after a failed
	 * gvt_attach of a later system. */
	void (*gvt_detach)(struct gvt *gvt, void *state);

	/* ---- per vGPU ---- */

	/* The vGPU's PPGTT shadowing is set up: make the per-vGPU state
	 * (*state). A nonzero return (-GPU_E*) fails the vGPU's creation. */
	int (*attach)(struct vgpu *v, void **state);
	/* Torn down (after every shadow table was freed); also after a
	 * failed attach of a later system. */
	void (*detach)(struct vgpu *v, void *state);

	/* ---- PPGTT shadowing (gpu/vgpu/ppgtt/vgpu_spt.c, vgpu_ppgtt.c) ---- */

	/* Shadow table idx was just allocated (not filled yet). true: the
	 * system keeps it unprotected (it sets spt.relaxed and may give it a
	 * snapshot, spt.snap, which spt_fill writes); false: the baseline
	 * write-protects its guest frame. */
	bool (*spt_new)(struct vgpu *v, void *state, int32_t idx);
	/* Table idx is freed or stops being a table (untracked): the
	 * system lets go of it (the relaxed list, its snapshot). */
	void (*spt_gone)(struct vgpu *v, void *state, int32_t idx);
	/* A trapped guest store to page-table frame gfn was applied to
	 * every shadow table on it ("PPGTT write"). */
	void (*ppgtt_write)(struct vgpu *v, void *state, uint64_t gfn);
	/* A workload of the vGPU is about to reach the GPU
	 * (vgpu_mm_prepare), before half-written entries are finished and
	 * untracked tables repaired: bring unprotected tables up to date. */
	void (*ppgtt_sync)(struct vgpu *v, void *state);
	/* The tree of shadow mm record mm is complete and about to be handed
	 * to the GPU. Nonzero (-GPU_E*) refuses the workload. */
	int (*ppgtt_check)(struct vgpu *v, void *state, int mm);

	/* ---- scheduler (gpu/vgpu/exec/vgpu_sched.c, vgpu_gscale.c) ---- */

	/* A workload of v was handed to the GPU, at t (its submission
	 * time): the vGPU is active. */
	void (*dispatch)(struct vgpu *v, void *state, uint64_t t);
	/* "ran": a workload of v left the GPU (completed, preempted, reset
	 * or dropped); it was on the GPU from start to end. The scheduler's
	 * account of the vGPU's GPU time, per workload. */
	void (*ran)(struct vgpu *v, void *state, uint64_t start, uint64_t end);
	/* Switch-in (gScale only): v is the GPU's owner from now, and
	 * gScale copied `entries` of its GGTT entries into the hardware for
	 * it, in ns. */
	void (*switch_in)(struct vgpu *v, void *state, uint64_t entries,
			  uint64_t ns);

	/* ---- shared GM (gScale fills them; gpu/gscale/mediator/) ----
	 * At most one listed system may fill them (gvt_create refuses a
	 * second). It is attached to the gvt before every other system, and
	 * only if its gvt_attach made a state (non-NULL): GM is then shared
	 * and these entries replace the baseline's partitioned GM; with no
	 * such system, or its state NULL (gScale's settings off), none is
	 * called. `state` is the per-gvt one. All must be filled. */

	/* How many more vGPUs of type t the shared GM takes; *why names the
	 * binding resource ("gm-share", "fences"). */
	uint32_t (*room)(const struct gvt *gvt, void *state,
			 const struct vgpu_type *t, const char **why);
	/* Placement: give the new vGPU v its GM (low and high) and fences,
	 * or a nonzero -GPU_E* (the creation fails, nothing kept). */
	int (*place)(struct gvt *gvt, void *state, struct vgpu *v,
		     const struct vgpu_type *t);
	/* v is destroyed: its GM goes back. */
	void (*unplace)(struct gvt *gvt, void *state, struct vgpu *v);
	/* "GGTT write": translated entry `host` for GM index `index` of v
	 * reaches the hardware through the system (gpu/vgpu/gtt/
	 * vgpu_ggtt.c); the baseline never writes it to the GGTT itself. */
	void (*ggtt_write)(struct vgpu *v, void *state, uint32_t index,
			   uint64_t host);
	/* Guest fence i of v, validated value f: the value the hardware
	 * fence gets (gpu/vgpu/gtt/vgpu_fence.c). */
	uint64_t (*fence_map)(struct vgpu *v, void *state, unsigned int i,
			      uint64_t f);
	/* The guest's aperture (BAR2) is mapped: map every page of its low
	 * GM in EPT (gpu/vgpu/mmio/vgpu_cfg.c). */
	void (*aperture_map)(struct vgpu *v, void *state);
	/* A trapped guest access to the aperture page of GM index `index`:
	 * map that one page. */
	void (*aperture_page)(struct vgpu *v, void *state, uint32_t index);
	/* Switch-in: next becomes the GPU's owner (gpu/vgpu/exec/
	 * vgpu_sched.c); its GM becomes resident. after: the vGPU expected
	 * next after it (NULL: none). */
	void (*gm_switch)(struct gvt *gvt, void *state, struct vgpu *next,
			  struct vgpu *after);
	/* gvt_get_status (gpu/vgpu/vgpu_status.c): fill the shared GM's
	 * part of st (gscale, slots, copies). */
	void (*gm_status)(const struct gvt *gvt, void *state,
			  struct gvt_status *st);

	/* ---- queries ---- */

	/* v's GPU utilization as the system measures it, permille (true),
	 * or false when it has no figure for v. What another system weighs
	 * vGPUs by, through vgpu_ext_util, without naming the one that
	 * measures (gBalloon's slot sets by DymGPU's monitor). */
	bool (*util)(const struct vgpu *v, void *state, uint32_t *permille);
};

/* The state ops's attach made for v, or NULL when ops is not attached
 * to v. */
void *vgpu_ext_state(const struct vgpu *v, const struct vgpu_ext_ops *ops);
/* The state ops's gvt_attach made, or NULL when ops is not listed. */
void *vgpu_ext_gvt_state(const struct gvt *gvt,
			 const struct vgpu_ext_ops *ops);
/* v's GPU utilization from the first attached system that measures it
 * (the util entry), permille; 0 when none does. */
uint32_t vgpu_ext_util(const struct vgpu *v);

#endif
