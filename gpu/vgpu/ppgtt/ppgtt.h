/* PPGTT shadowing (gpu/vgpu/ppgtt/, docs/shadow-ppgtt.md): slabs, shadow
 * page tables and shadow roots. Private to the mediator; gHyvi works on
 * these tables through the hook table (gpu/vgpu/vgpu_ext.h). */
#ifndef GPU_VGPU_PPGTT_PPGTT_H
#define GPU_VGPU_PPGTT_PPGTT_H

#include "gpu/vgpu/vgpu_priv.h"

/* The area's part of the register table (vgpu_ppgtt_regs.c,
 * mmio/mmio.h): PVINFO's PPGTT notifications. */
extern const struct mmio_part ppgtt_regs_part;
/* ---- PPGTT (vgpu_spt.c, vgpu_ppgtt.c) ----------------------------------- */

/* Slabs (vgpu_slab.c). alloc: a zeroed object, SPT_NONE when the budget
 * or max objects are reached. get: NULL for an index in no chunk (for
 * walks over [0, vslab_end)). */
int vslab_init(struct vgpu *v, struct vslab *sl, uint32_t size, uint32_t max);
void vslab_fini(struct vgpu *v, struct vslab *sl);
int32_t vslab_alloc(struct vgpu *v, struct vslab *sl);
void vslab_free(struct vgpu *v, struct vslab *sl, int32_t i);
void *vslab_get(const struct vslab *sl, int32_t i);
/* The user's flag of live object i (cleared when i is freed); the flags
 * of chunk c, bit k for object c * VSLAB_PER + k, 0 for a chunk that is
 * gone. */
void vslab_flag(struct vslab *sl, int32_t i, bool on);
uint64_t vslab_flags(const struct vslab *sl, uint32_t c);
static inline int32_t vslab_end(const struct vslab *sl)
{
	return (int32_t)(sl->span * VSLAB_PER);
}

/* Whether index i's chunk still exists (chunks are freed when empty). */
static inline bool vslab_has(const struct vslab *sl, int32_t i)
{
	return i >= 0 && i < vslab_end(sl) && sl->dir[(uint32_t)i / VSLAB_PER];
}
/* Budgeted pages of shadow page-table memory (vgpu_slab.c). */
void *spt_page_alloc(struct vgpu *v, size_t n, uint64_t *hpa);
void spt_page_free(struct vgpu *v, void *p, size_t n);
void *spt_snap_alloc(struct vgpu *v);
void vgpu_spt_fini(struct vgpu *v);
int vgpu_mm_init(struct vgpu *v);

int vgpu_ppgtt_init(struct vgpu *v);
void vgpu_ppgtt_fini(struct vgpu *v);
void vgpu_ppgtt_reset(struct vgpu *v);
int32_t spt_lookup(struct vgpu *v, uint64_t gfn, int level);
int32_t spt_alloc(struct vgpu *v, uint64_t gfn, int level);
void spt_put(struct vgpu *v, int32_t idx);
void spt_free(struct vgpu *v, int32_t idx);
void spt_repair(struct vgpu *v, int32_t idx);
void spt_kill(struct vgpu *v, int32_t idx);
int spt_fill(struct vgpu *v, int32_t idx);
int spt_update_entry(struct vgpu *v, int32_t idx, unsigned int i);
/* Entry i of table s is not usable until the next submission re-reads
 * it (half written, or no shadow memory for the table below): its bit
 * in s->post, then spt_post_flag(s) so that the pass finds the table. */
void spt_post_flag(struct vgpu *v, const struct spt *s);
int32_t spt_get_shadow(struct vgpu *v, uint64_t gpa, int level);
/* Find or build the shadow of guest PML4 root; returns mm index. */
int vgpu_mm_get(struct vgpu *v, uint64_t root_gpa, bool g2v);
void vgpu_mm_put(struct vgpu *v, int mm);
int vgpu_mm_destroy_g2v(struct vgpu *v, uint64_t root_gpa);
/* Before the GPU uses mm: finish half-written entries, rebuild after an
 * untrack. Returns the shadow root's host-physical address via *root. */
int vgpu_mm_prepare(struct vgpu *v, int mm, uint64_t *root);
/* Validate and translate guest value g into entry i of table idx: the
 * one writer of shadow entries (a trap, a fill, a repair, gHyvi's diff).
 * -GPU_EINVAL: a value no page table holds (the caller untracks the
 * table); -GPU_ENOSPC: no shadow memory for the table below, the entry
 * is marked to be re-read before the next submission. */
int spt_set(struct vgpu *v, int32_t idx, unsigned int i, uint64_t g);
/* The shadow value entry i of table idx must hold for guest value g;
 * false when the entry cannot be checked (child missing). */
bool spt_expected(struct vgpu *v, int32_t idx, uint64_t g, uint64_t *want);


/* Walk the guest's own tables (for the scanner). */
int vgpu_ppgtt_gva_to_gpa(struct vgpu *v, uint64_t root_gpa, uint64_t gva,
			  uint64_t *gpa);

/* Loops with no conditional end, watched (vgpu_bb_watch.c): the scanner
 * notes them, the workload holds them, and their guest pages stay
 * write-protected beside the strict tables'. */
bool bbw_note(struct vgpu *v, uint32_t *nsegs, bool brk, uint64_t gfn,
	      int32_t page, int32_t delta, uint32_t dw);
int bbw_commit(struct vgpu *v, struct workload *w, uint32_t first,
	       uint32_t end);
void bbw_release(struct vgpu *v, struct workload *w);
void bbw_fini(struct vgpu *v);
bool bbw_holds(const struct vgpu *v, uint64_t gfn);
void bbw_page_write(struct vgpu *v, uint64_t gpa, uint32_t len);
/* Some live strict (protected) table shadows guest page gfn (vgpu_spt.c). */
bool spt_gfn_strict(struct vgpu *v, uint64_t gfn);
#endif
