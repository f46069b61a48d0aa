/* The hook table through which the mediator (the gVirt baseline in
 * gpu/vgpu) calls a research system that changes its behaviour: gHyvi
 * today (gpu/ghyvi); gBalloon and DymGPU are meant to attach the same way.
 *
 * Who attaches: whoever creates the gvt lists the systems in
 * gvt_params.ext (hv/gpu/gpu_host.c for the hypervisor, a test's world for
 * a test). With none listed, every hook below is skipped and the mediator
 * is the baseline alone; gpu/vgpu names no research system's symbol.
 *
 * Lifetime: a listed system is attached to every vGPU of the gvt when the
 * vGPU's PPGTT shadowing is set up (attach, which returns the system's
 * per-vGPU state) and detached when it is torn down, after the last shadow
 * table was freed. The mediator passes that state back to every hook;
 * vgpu_ext_state() finds it from the vGPU.
 *
 * Calls into the mediator are serialized per vGPU, so no hook runs
 * concurrently with another hook or the mediator on the same vGPU. A hook
 * may call back into the mediator's PPGTT shadowing (vgpu_priv.h: spt_*,
 * vgpu_read_gpa, the hv_ops write protection), never into another system.
 *
 * Entries are optional (NULL: not called). The PPGTT entries decide the
 * write protection of guest page tables: at most one listed system may
 * fill them (gvt_create refuses a second), and that system owns the
 * per-table area struct spt.ext.
 *
 * Planned, not yet hooks (the list; each becomes an entry here
 * when gBalloon or DymGPU moves to its own folder): vGPU switch-in and
 * switch-out, "ran" (a vGPU's time slice ended: gvt_mon_ran), GGTT write,
 * placement. */
#ifndef GPU_VGPU_VGPU_EXT_H
#define GPU_VGPU_VGPU_EXT_H

#include <stdbool.h>
#include <stdint.h>

struct vgpu;

/* Systems listed per gvt. */
#define VGPU_EXT_MAX 4

/* Per shadow table, the bytes the PPGTT system may keep in struct spt
 * (zeroed when the table is allocated). */
#define VGPU_SPT_EXT_BYTES 56

struct vgpu_ext_ops {
	const char *name;

	/* The vGPU's PPGTT shadowing is set up: make the per-vGPU state
	 * (*state). A nonzero return (-GPU_E*) fails the vGPU's creation. */
	int (*attach)(struct vgpu *v, void **state);
	/* Torn down (after every shadow table was freed); also after a
	 * failed attach of a later system. */
	void (*detach)(struct vgpu *v, void *state);

	/* ---- PPGTT shadowing (gpu/vgpu/vgpu_spt.c, vgpu_ppgtt.c) ---- */

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
};

/* The state ops's attach made for v, or NULL when ops is not attached
 * to v. */
void *vgpu_ext_state(const struct vgpu *v, const struct vgpu_ext_ops *ops);

#endif
