/* Loops with no conditional end: the guest's CPU ends them by rewriting a
 * command of the running batch (docs/gpu-spinner.md, "Busy batches").
 *
 * IGT's gem_busy benchmark, and older IGT spinners, submit a user batch
 * whose only way out is the CPU writing MI_BATCH_BUFFER_END over one of
 * its commands while the GPU loops over it. The GPU here runs a checked
 * copy (vgpu_cmd_scan.c), which no guest write reaches. So while a
 * request whose copy holds such a loop is queued or running, the guest
 * pages of the loop's body are write-protected through hv_ops, the same
 * path strict PPGTT shadowing uses (vgpu_spt.c), and each store the
 * hypervisor reports (vgpu_page_write) is looked at once it is in guest
 * memory: a dword that now reads MI_BATCH_BUFFER_END and that the
 * scanner decoded as a command header becomes MI_BATCH_BUFFER_END in the
 * copy too. Ending a batch at a command boundary runs nothing new: the
 * GPU returns to what called it (the ring after its batch start, or the
 * first-level copy after the call), which was scanned. Any other store
 * changes nothing the GPU runs and is counted.
 *
 * Runs (struct bbw_seg) are recorded for every user batch during the scan
 * (a bit per command header), and kept only for a loop the scanner
 * accepted without a conditional end: at most VGPU_BBW_MAX per vGPU,
 * held by the workload until its pool pages go back (completed, failed,
 * dropped by a reset: vgpu_sbb_release), whose copies they point into. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "mini/string.h"

/* ---- recording while scanning -------------------------------------------- */

/* The command header at dword dw of guest page gfn is at that dword's
 * page offset + delta in pool page `page`. brk: a new copy began, so
 * runs recorded before it are not extended (loop bodies begin at a
 * copy). False when the scan's runs are full. */
bool bbw_note(struct vgpu *v, uint32_t *nsegs, bool brk, uint64_t gfn,
	      int32_t page, int32_t delta, uint32_t dw)
{
	struct bbw_seg *sg = *nsegs ? &v->scan_segs[*nsegs - 1] : NULL;

	if (brk || !sg || sg->gfn != gfn || sg->page != page ||
	    sg->delta != delta) {
		if (*nsegs >= VGPU_SCAN_SEGS)
			return false;
		sg = &v->scan_segs[(*nsegs)++];
		memset(sg, 0, sizeof(*sg));
		sg->gfn = gfn;
		sg->page = page;
		sg->delta = delta;
	}
	sg->hdr[dw / 32] |= 1u << (dw % 32);
	return true;
}

/* ---- watching ------------------------------------------------------------ */

bool bbw_holds(const struct vgpu *v, uint64_t gfn)
{
	uint32_t i;

	for (i = 0; i < VGPU_BBW_MAX; i++)
		if ((v->bbw_used >> i & 1) && v->bbw[i].gfn == gfn)
			return true;
	return false;
}

static void protect(struct vgpu *v, uint64_t gfn, bool on)
{
	const struct hv_if *hv = &v->gvt->hv;

	if (on)
		hv->ops->wp_page(hv->ctx, v->vm, gfn << 12);
	else
		hv->ops->unwp_page(hv->ctx, v->vm, gfn << 12);
}

static uint32_t free_slots(const struct vgpu *v)
{
	uint32_t i, n = 0;

	for (i = 0; i < VGPU_BBW_MAX; i++)
		n += !(v->bbw_used >> i & 1);
	return n;
}

/* Keep the scan's runs [first, end) for w and protect their pages; all or
 * nothing: -GPU_ENOSPC when the vGPU's slots cannot hold them. */
int bbw_commit(struct vgpu *v, struct workload *w, uint32_t first,
	       uint32_t end)
{
	uint32_t k, i = 0;

	if (end <= first || end - first > free_slots(v))
		return -GPU_ENOSPC;
	for (k = first; k < end; k++) {
		while (v->bbw_used >> i & 1)
			i++;
		v->bbw[i] = v->scan_segs[k];
		v->bbw_used |= 1u << i;
		w->bbw_mask |= 1u << i;
		/* Protecting a protected page is no error (hv_ops.h). */
		protect(v, v->bbw[i].gfn, true);
	}
	return 0;
}

/* w's copies are going back to the pool: stop watching them. A page stays
 * protected while another watched run or a strict page table is on it. */
void bbw_release(struct vgpu *v, struct workload *w)
{
	uint32_t i;

	for (i = 0; i < VGPU_BBW_MAX && w->bbw_mask; i++) {
		if (!(w->bbw_mask >> i & 1))
			continue;
		w->bbw_mask &= ~(1u << i);
		v->bbw_used &= ~(1u << i);
		if (!bbw_holds(v, v->bbw[i].gfn) &&
		    !spt_gfn_strict(v, v->bbw[i].gfn))
			protect(v, v->bbw[i].gfn, false);
	}
}

/* The vGPU goes away: work abandoned on the GPU still holds runs, whose
 * pages are unprotected with the pool (vgpu_sbb_fini). */
void bbw_fini(struct vgpu *v)
{
	struct workload all;

	memset(&all, 0, sizeof(all));
	all.bbw_mask = v->bbw_used;
	bbw_release(v, &all);
}

/* ---- guest stores ----------------------------------------------------------- */

/* The copy's dword is what the command streamer fetches next time round
 * the loop. The model reads it from memory at each fetch. On hardware the
 * store must be in memory before the command streamer's next fetch of
 * that line: the line is flushed (the pool pages are written by the CPU
 * and read by the GPU like every copy the scanner makes before
 * submission, but this one may be on the GPU already); a prefetched
 * older copy of the dword ends the batch one pass later at most. */
static void end_in_copy(struct vgpu *v, const struct bbw_seg *sg,
			uint32_t dw)
{
	uint8_t *at = vgpu_sbb_va(v, sg->page) + (int32_t)(dw * 4) + sg->delta;
	uint32_t end = MI_BATCH_BUFFER_END;

	memcpy(at, &end, 4);
#if defined(__x86_64__)
	__asm__ volatile("mfence; clflush %0; mfence" : "+m"(*(volatile uint8_t *)at)
			 :: "memory");
#endif
	v->stats.batch_ends_mirrored++;
}

/* Dword dw of guest page gfn changed: end every watched copy that has a
 * command there, if the guest wrote MI_BATCH_BUFFER_END. Returns how
 * many it ended. */
static uint32_t mirror_dword(struct vgpu *v, uint64_t gfn, uint32_t dw)
{
	uint32_t i, val, n = 0;

	if (vgpu_read_gpa(v, (gfn << 12) + 4ull * dw, &val, 4) ||
	    val != MI_BATCH_BUFFER_END)
		return 0;
	for (i = 0; i < VGPU_BBW_MAX; i++) {
		const struct bbw_seg *sg = &v->bbw[i];

		if ((v->bbw_used >> i & 1) && sg->gfn == gfn &&
		    (sg->hdr[dw / 32] >> (dw % 32) & 1)) {
			end_in_copy(v, sg, dw);
			n++;
		}
	}
	return n;
}

/* A reported store of len bytes at gpa, inside one page, already in guest
 * memory (vgpu_ppgtt.c vgpu_page_write splits wider ones). */
void bbw_page_write(struct vgpu *v, uint64_t gpa, uint32_t len)
{
	uint32_t dw, first = (uint32_t)(gpa & 0xfff) / 4;
	uint32_t last = (uint32_t)((gpa & 0xfff) + len - 1) / 4, ended = 0;

	if (!len || !bbw_holds(v, gpa >> 12))
		return;
	for (dw = first; dw <= last; dw++)
		ended += mirror_dword(v, gpa >> 12, dw);
	if (!ended)
		v->stats.batch_writes_ignored++;
}
