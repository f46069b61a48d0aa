/* gHyvi's state and what its files share; not for the mediator, hv/ or
 * other research systems (tests include it to look at state). */
#ifndef GPU_GHYVI_GHYVI_PRIV_H
#define GPU_GHYVI_GHYVI_PRIV_H

#include "gpu/ghyvi/ghyvi.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"

/* Relaxed tables (and STATIC pins) per vGPU: the rest stay strict. */
#define GHYVI_MAX_RELAXED 2048

/* Window sizes 1..32 exactly, then 33-64, 65-128, ..., 1025 and more. */
#define GHYVI_EXACT 32
#define GHYVI_BINS (GHYVI_EXACT + 6)
#define GHYVI_TOUCHED 64 /* more in one window: learnt at their next trap */

/* gHyvi per-vGPU state (ghyvi_relax.c), made by the attach hook. */
struct ghyvi {
	struct vgpu_ghyvi_params p; /* defaults resolved */
	int32_t rhead; /* relaxed list */
	uint32_t nrelaxed;
	uint64_t *pins; /* STATIC: pinned guest frames */
	uint32_t npins;
	size_t pin_pages;
	int32_t *work; /* reconstruction work list (GHYVI_MAX_RELAXED) */
	size_t work_pages;
	uint64_t *buf; /* one guest table page */
	uint32_t vstamp;
	/* ADAPTIVE: windows between submissions so far, and how many stores
	 * a table's busy window held, vGPU-wide (decaying histogram: x16
	 * counts and sums of window sizes per bin; ghyvi_adapt.c). */
	uint32_t seg;
	uint64_t hcnt[GHYVI_BINS], hsum[GHYVI_BINS], htotal;
	uint64_t smass[GHYVI_BINS], ssum[GHYVI_BINS]; /* suffix sums */
	bool hdirty;
	int32_t touched[GHYVI_TOUCHED]; /* strict tables trapped this window */
	uint32_t ntouched;
};

/* gHyvi per shadow table, in the table's struct spt.ext (the baseline
 * keeps the two fields it acts on itself: spt.relaxed, the table is not
 * write-protected, and spt.snap, the snapshot spt_fill writes). */
struct ghyvi_spt {
	uint64_t win_start;
	uint32_t cool; /* consecutive quiet reconstructions */
	uint32_t win_traps; /* traps in the current rate window */
	int32_t rprev, rnext; /* relaxed list */
	uint32_t vstamp; /* verifier walk */
	uint32_t relax_at; /* own relax threshold (back-off), 0 = default */
	uint32_t absorbed; /* entries changed while relaxed this period */
	/* ADAPTIVE (ghyvi_adapt.c): this table's stores in the current
	 * window between submissions, what its busy windows held (moving
	 * mean x16, over nobs windows), its last busy window (+1; 0: none)
	 * and how often a busy window followed a busy one (moving rate
	 * x16). */
	uint32_t seg, seg_traps, ew16, lastw;
	uint16_t nobs, cont16;
};
_Static_assert(sizeof(struct ghyvi_spt) <= VGPU_SPT_EXT_BYTES,
	       "gHyvi's per-table state must fit struct spt.ext");

/* v's gHyvi state; NULL when gHyvi is not attached to v. */
static inline struct ghyvi *ghyvi_of(const struct vgpu *v)
{
	return vgpu_ext_state(v, &ghyvi_ext_ops);
}

/* gHyvi's part of shadow table idx. */
static inline struct ghyvi_spt *GS(struct vgpu *v, int32_t idx)
{
	return (struct ghyvi_spt *)(void *)SPT(v, idx).ext;
}

/* Hooks (ghyvi_relax.c, ghyvi_verify.c), the entries of ghyvi_ext_ops. */
int ghyvi_attach(struct vgpu *v, void **state);
void ghyvi_detach(struct vgpu *v, void *state);
/* A new table was allocated on gfn: relax it at birth (FULL, pinned, or
 * its frame already relaxed)? Decides and links; spt_fill fills snap. */
bool ghyvi_on_alloc(struct vgpu *v, void *state, int32_t idx);
/* The table is going away / stops being a table. */
void ghyvi_on_free(struct vgpu *v, void *state, int32_t idx);
/* A trap was applied to the tables on gfn (strict path). */
void ghyvi_on_trap(struct vgpu *v, void *state, uint64_t gfn);
/* Before the GPU uses the vGPU's shadow: reconstruct every relaxed page. */
void ghyvi_reconstruct(struct vgpu *v, void *state);
/* Test mode (p.verify): refuse the tree of mm when it differs from the
 * guest's tables (-GPU_EIO). */
int ghyvi_check(struct vgpu *v, void *state, int mm);

/* Diff table idx against its snapshot; re-shadow changed entries.
 * Returns entries re-translated; may kill idx (check ->dead). */
uint32_t ghyvi_diff_table(struct vgpu *v, int32_t idx, const uint64_t *guest);

/* ADAPTIVE (ghyvi_adapt.c). A store to strict table idx trapped: relax
 * its frame now? */
bool ghyvi_adapt_trap(struct vgpu *v, int32_t idx);
/* Relaxed table idx was protected and diffed at a submission: relax it
 * again for the next window (likely busy)? */
bool ghyvi_adapt_stay(struct vgpu *v, int32_t idx);
/* Relaxed table idx was reconstructed; `changed` entries had changed. */
void ghyvi_adapt_window(struct vgpu *v, int32_t idx, uint32_t changed);
/* The window ends (a submission): record the strict tables trapped in it
 * now rather than at their next trap. */
void ghyvi_adapt_close(struct vgpu *v);
/* Forget what was learnt (a policy change). */
void ghyvi_adapt_reset(struct vgpu *v);
/* The costs in use (defaults filled in). */
void ghyvi_adapt_costs(struct vgpu_ghyvi_costs *c);

/* Verifier: mismatching entries in the tree of mm (ghyvi_verify.c). */
uint32_t ghyvi_verify_mm(struct vgpu *v, int mm);

#endif
