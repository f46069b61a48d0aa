#ifndef GPU_GHYVI_GHYVI_H
#define GPU_GHYVI_GHYVI_H

#include "gpu/vgpu/vgpu.h"

/* gHyvi: hybrid strict / relaxed PPGTT shadowing, what hv/ and the tests
 * use. A research system attached to the mediator through its hook table
 * (gpu/vgpu/vgpu_ext.h): list ghyvi_ext_ops in gvt_params.ext and every
 * vGPU of the gvt gets gHyvi's state (README.md in this folder).
 *
 * Strict (gVirt): every guest page-table page with a shadow is
 * write-protected and each store traps. Relaxed (gHyvi; the paper's
 * §4.2, summarized in gpu/ghyvi/README.md): the page is snapshotted and
 * unprotected; stores no longer trap; before any workload of the vGPU
 * reaches the hardware (vgpu_mm_prepare) every relaxed page is diffed
 * against its snapshot and only the changed entries are validated and
 * translated again, exactly as a trapped store would be (an entry naming memory outside the VM is dropped,
 * a value no page table holds untracks the page). The policy decides which
 * pages go relaxed and whether they stay relaxed (§4.5). A new vGPU starts
 * STRICT (the gVirt baseline, unchanged); vgpu_ghyvi_set() changes it, at
 * any time (hv.cfg vgpu_ppgtt=, the shell's `ppgtt`). */
enum vgpu_ppgtt_policy {
	VGPU_PPGTT_STRICT = 0,  /* gVirt: trap every store */
	VGPU_PPGTT_FULL,        /* every table page relaxed, all diffed at
				 * each submission */
	VGPU_PPGTT_STATIC,      /* N pinned hot pages relaxed for good */
	VGPU_PPGTT_DYNAMIC,     /* a page relaxes when written; stays relaxed
				 * (until it cools, if cooling is on) */
	VGPU_PPGTT_DYNAMIC_SEGMENTED, /* as DYNAMIC, but the relaxed list is
				 * reset (pages re-protected) after each
				 * reconstruction: the paper's choice */
	VGPU_PPGTT_ADAPTIVE,    /* per table, by cost: relax when the stores
				 * expected in this submission's window pay
				 * for a relax, protect again when staying
				 * relaxed has cost what a re-protect does
				 * (gpu/ghyvi/ghyvi_adapt.c): gHyvi's default */
};
#define VGPU_PPGTT_DEFAULT_POLICY VGPU_PPGTT_ADAPTIVE
#define VGPU_PPGTT_NR_POLICIES (VGPU_PPGTT_ADAPTIVE + 1)
#define GHYVI_NEVER 0xffffffffu

/* Zero fields take the defaults (gpu/ghyvi/README.md). */
struct vgpu_ghyvi_params {
	enum vgpu_ppgtt_policy policy;
	uint32_t static_pages;  /* STATIC: N (default 200, the paper's best) */
	/* Adaptive switch to relaxed (DYNAMIC*): a strict page relaxes at its
	 * relax_traps-th trap within relax_window_ns (default 1, the paper's
	 * "on the first write"; window 1 ms). With back-off (default on), a
	 * page whose relaxed period absorbed fewer than 2 stores doubles its
	 * own threshold (up to 64); one that absorbed 8 or more returns to
	 * relax_traps. */
	uint32_t relax_traps;
	uint64_t relax_window_ns;
	/* Adaptive switch back (DYNAMIC): a relaxed page whose reconstruction
	 * re-translated fewer than cool_entries entries cool_rounds times in a
	 * row is protected again (default 1 entry, 8 rounds: untouched for 8
	 * submissions). GHYVI_NEVER: never (the paper's dynamic partial). */
	uint32_t cool_entries;
	uint32_t cool_rounds;
	/* Test mode: at every vgpu_mm_prepare compare every shadow entry with
	 * what the guest's table says now; a difference refuses the workload
	 * (-GPU_EIO) and counts verify_mismatch. */
	bool verify;
	bool no_backoff; /* the paper's fixed threshold */
	/* ADAPTIVE: what each step costs, in one unit (0 = the defaults,
	 * Bochs instruction counts from make bench; gpu/ghyvi/README.md). */
	struct vgpu_ghyvi_costs {
		uint32_t trap;     /* a trapped store, exit + shadowing */
		uint32_t ept;      /* an EPT permission change + INVEPT */
		uint32_t snapshot; /* copying a table page at a relax */
		uint32_t diff;     /* reading + comparing a relaxed page */
		uint32_t entry;    /* re-translating a changed entry */
	} cost;
};

/* The hooks to list in gvt_params.ext (gpu/vgpu/vgpu_ext.h). Without
 * them a vGPU has no gHyvi: vgpu_ghyvi_get reports STRICT, vgpu_ghyvi_set
 * and vgpu_ghyvi_pin refuse (-GPU_EINVAL), the others return 0. */
extern const struct vgpu_ext_ops ghyvi_ext_ops;

/* Change the policy at run time: every relaxed page is first reconstructed
 * and protected again (consistent strict state), then the new policy is
 * applied. -GPU_EINVAL for an unknown policy. */
int vgpu_ghyvi_set(struct vgpu *v, const struct vgpu_ghyvi_params *p);
void vgpu_ghyvi_get(const struct vgpu *v, struct vgpu_ghyvi_params *p);
/* STATIC: name a hot page-table page (guest-physical) from a profile; the
 * first static_pages names are kept. Pages not named fill the set on their
 * first trap. -GPU_ENOSPC when the set is full. */
int vgpu_ghyvi_pin(struct vgpu *v, uint64_t gpa);
/* Number of table pages relaxed now. */
uint32_t vgpu_ghyvi_relaxed(const struct vgpu *v);
/* Run the verifier now (whatever p.verify says): mismatching entries. */
uint32_t vgpu_ghyvi_verify(struct vgpu *v);

#endif
