/* Workloads: one context descriptor from an ELSP write, turned into
 * something safe to run (the submission flow of docs/architecture.md, "2.–5.").
 *
 * At submission (the guest's ELSP write) the mediator snapshots what it
 * needs from the guest's context image (ring registers, PPGTT root),
 * copies the ring segment head..tail into the vGPU's shadow ring and scans
 * that copy, and finds or builds the shadow PPGTT. At dispatch it fills
 * the vGPU's shadow context for the engine: register-state page rebuilt
 * from a fixed template with the guest's values, except the ring (now the
 * shadow ring), the PPGTT root (now the shadow root) and, on RCS, the
 * indirect / per-context workaround batches (now their scanned copies,
 * vgpu_scan_wa_ctx); the engine-state pages
 * copied from the guest. On completion the guest's image gets the new ring
 * head and the engine state back, never a host address. */
#include "gpu/hw/gen9_ctx_image.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/cmd/cmd.h"
#include "mini/stdio.h"
#include "mini/string.h"

#define STATE_DWORDS 1024
#define SRING_SIZE(e) vgpu_sring_size(e)

static uint32_t ctx_pages(const struct vgpu_engine *e)
{
	return e->id == GEN9_RCS0 ? VGPU_CTX_MAX_PAGES : 2;
}

static struct workload *wl_at(struct vgpu_engine *e, unsigned int i)
{
	return &e->wl[(e->wl_head + i) % VGPU_WL_QUEUE];
}

/* ---- the register-state page template -------------------------------- */

/* The LRI blocks are the one layout the model uses too
 * (gpu/hw/gen9_ctx_image.h); every block is posted except RCS's
 * R_PWR_CLK_STATE, as i915 writes them. */
static uint32_t block_header(int engine, unsigned int k, uint8_t n)
{
	if (engine == GEN9_RCS0 && k == 2)
		return MI_LOAD_REGISTER_IMM(n);
	return MI_LOAD_REGISTER_IMM(n) | MI_LRI_FORCE_POSTED;
}

/* st holds the guest's register-state page. Keep only its value dwords;
 * headers and register offsets are ours, so a guest cannot make the
 * context restore load registers of its choosing. */
static void sanitize_state(uint32_t *st, int engine, uint32_t base)
{
	struct gen9_ctx_block b[GEN9_CTX_BLOCKS];
	unsigned int k, i, from = 0;

	/* The blocks lie in ascending order, each header, then offset and
	 * value pairs (gpu/hw/gen9_ctx_image.h): only the gaps are cleared
	 * and only the headers and offsets written, so the work per
	 * submission is the blocks' 68 registers, not a walk over all
	 * 1,024 dwords (issue 31: 12.5 k instructions per request). */
	gen9_ctx_blocks(engine, b);
	for (k = 0; k < GEN9_CTX_BLOCKS; k++) {
		memset(&st[from], 0, (b[k].at - from) * 4); /* also MI_NOOP */
		st[b[k].at] = block_header(engine, k, b[k].n);
		for (i = 0; i < b[k].n; i++)
			st[b[k].at + 1 + 2 * i] = base + b[k].regs[i];
		from = b[k].at + 1 + 2u * b[k].n;
	}
	memset(&st[from], 0, (STATE_DWORDS - from) * 4);
	st[GEN9_CTX_REG_STATE_DWORDS] = MI_BATCH_BUFFER_END;
}

void vgpu_ctx_state_template(uint32_t *st, int engine, uint32_t base)
{
	memset(st, 0, STATE_DWORDS * 4);
	sanitize_state(st, engine, base);
}

/* ---- submission --------------------------------------------------------- */

static const struct workload *last_of_ctx(struct vgpu_engine *e, uint32_t lrca)
{
	unsigned int i;

	for (i = e->wl_count; i-- > 0;)
		if (wl_at(e, i)->lrca == lrca && !wl_at(e, i)->abandoned)
			return wl_at(e, i);
	return NULL;
}

/* Guest ring bytes [head, tail) (wrapping at its size) to the shadow ring
 * at s_head + pad (wrapping at ours). */
static int copy_ring(struct vgpu *v, struct vgpu_engine *e, struct workload *w,
		     uint32_t pad)
{
	uint32_t done = 0, ssize = SRING_SIZE(e), len = w->s_len - pad;

	while (done < len) {
		uint32_t gpos = (w->head + done) % w->ring_size;
		uint32_t spos = (w->s_head + pad + done) % ssize;
		uint32_t n = len - done;
		int ret;

		if (n > w->ring_size - gpos)
			n = w->ring_size - gpos;
		if (n > ssize - spos)
			n = ssize - spos;
		if (n > VGPU_PAGE - spos % VGPU_PAGE) /* a grown ring's pages */
			n = VGPU_PAGE - spos % VGPU_PAGE;
		ret = vgpu_gm_rw(v, w->ring_start + gpos, vgpu_sring_at(v, e, spos),
				 n, false);
		if (ret)
			return ret;
		done += n;
	}
	return 0;
}

static int read_context(struct vgpu *v, struct vgpu_engine *e,
			struct workload *w, uint64_t *root)
{
	uint32_t st[CTX_PDP0_LDW + 1];
	const struct workload *prev;
	int ret;

	if (!vgpu_gm_valid(v, w->lrca, (uint64_t)ctx_pages(e) * VGPU_PAGE))
		return -GPU_EPERM;
	ret = vgpu_gm_rw(v, w->lrca + LRC_STATE_OFFSET, st, sizeof(st), false);
	if (ret)
		return ret;
	w->ctx_ctrl = st[CTX_CONTEXT_CONTROL];
	w->ring_start = st[CTX_RING_START] & GEN8_CTX_LRCA_MASK;
	w->ring_ctl = st[CTX_RING_CTL];
	w->ring_size = (w->ring_ctl & RING_NR_PAGES) + VGPU_PAGE;
	w->tail = st[CTX_RING_TAIL] & TAIL_ADDR;
	/* The image's head is stale while earlier work of the same context
	 * is still queued: continue where that one ends (GVT does the same). */
	prev = last_of_ctx(e, w->lrca);
	w->head = prev ? prev->tail : st[CTX_RING_HEAD] & HEAD_ADDR;
	*root = ((uint64_t)st[CTX_PDP0_UDW] << 32 | st[CTX_PDP0_LDW]);
	if (e->id == GEN9_RCS0) { /* only the render image has them */
		w->wa_ictx = st[CTX_RCS_INDIRECT_CTX];
		w->wa_ictx_off = st[CTX_RCS_INDIRECT_CTX_OFFSET];
		w->wa_per_ctx = st[CTX_BB_PER_CTX_PTR];
	}
	if (!vgpu_gm_valid(v, w->ring_start, w->ring_size) ||
	    w->head >= w->ring_size || w->tail >= w->ring_size)
		return -GPU_EPERM;
	return 0;
}

/* Back to the 64 KiB ring at rest once the engine's queue is empty: the
 * pool pages of a grown ring go back to the VM's budget. */
static void sring_rest(struct vgpu *v, struct vgpu_engine *e)
{
	if (e->wl_count)
		return;
	if (e->sr_first >= 0)
		vgpu_sbb_put_run(v, e->sr_first, e->sr_pages);
	e->sr_first = -1;
	e->sr_gm = e->sring.gm;
	e->sr_pages = e->sring.pages;
}

/* A segment the ring cannot hold. Behind earlier work of this engine it
 * waits (-GPU_ENOSPC: that work completes and frees the ring). With the
 * engine's ring empty - nothing on the GPU reads it, so no live byte
 * moves - the ring becomes one of the size the segment needs, from the
 * VM's shadow batch pool (vgpu_own_gm.c): the guest sized its ring up to
 * 2 MiB (RING_CTL), and a resource the hypervisor sized is never the
 * guest's fault (GVT-g's shadow rings are as large as the largest guest
 * ring, drivers/gpu/drm/i915/gvt/scheduler.c). The pages are exact, not a
 * power of two: the engine wraps at RING_CTL's length, any page count. */
static int sring_grow(struct vgpu *v, struct vgpu_engine *e,
		      struct workload *w, uint32_t need)
{
	uint32_t pages = (need + VGPU_PAGE - 1) / VGPU_PAGE;
	int32_t first;
	int ret;

	if (e->wl_count || e->sring_used)
		return -GPU_ENOSPC;
	if (pages > VGPU_SRING_MAX_PAGES)
		return -GPU_E2BIG;
	ret = vgpu_sbb_take_run(v, pages, &first);
	if (ret)
		return ret;
	e->sr_first = first;
	e->sr_gm = vgpu_sbb_gm(v, first);
	e->sr_pages = pages;
	e->sring_tail = 0;
	w->sring_pages = pages;
	v->stats.sring_grows++;
	if (pages > v->stats.sring_pages_peak)
		v->stats.sring_pages_peak = pages;
	return 0;
}

static uint32_t seg_len(const struct workload *w)
{
	return (w->tail - w->head + w->ring_size) % w->ring_size +
	       (w->head % 8 ? 4 : 0);
}

/* Element 1 of the pair w starts: its segment's length, 0 when its
 * context cannot be read (it is refused when queued). A ring grown for
 * the pair at once lets element 1 follow element 0 without waiting; grown
 * for element 0 alone, element 1 waits for element 0's completion
 * (vgpu_execlist.c execlist_queue, QUEUED_FIRST) and then grows again. */
static uint32_t pair1_len(struct vgpu *v, struct vgpu_engine *e,
			  const struct workload *w)
{
	struct workload t;
	uint64_t root;

	if (!w->pair1 || !w->schedule_in)
		return 0;
	memset(&t, 0, sizeof(t));
	t.lrca = (uint32_t)w->pair1 & GEN8_CTX_LRCA_MASK;
	if (t.lrca == w->lrca || read_context(v, e, &t, &root))
		return 0;
	return seg_len(&t);
}

/* The shadow ring is kept in qwords: RING_TAIL holds a qword offset
 * (TAIL_ADDR), so a segment ending one dword into a qword would be read
 * 4 bytes short, and the next one's head, past that tail, would run the
 * engine round the whole ring over bytes nobody scanned. The guest's tail
 * is a qword offset; its head need not be (the context image says), so a
 * head at an odd dword gets a MI_NOOP in front. A qword stays free behind
 * the copy so a full ring never looks empty (tail == head). */
static int queue_ring(struct vgpu *v, struct vgpu_engine *e, struct workload *w)
{
	uint32_t pad = w->head % 8 ? 4 : 0, need, both;
	int ret;

	w->s_len = seg_len(w);
	need = w->s_len + 8;
	if (e->wl_count) {
		if (need + e->sring_used > SRING_SIZE(e))
			return -GPU_ENOSPC; /* behind earlier work: it waits */
	} else {
		/* The engine's ring is empty: room for the whole pair if a
		 * ring can hold it, else for w. */
		both = need + pair1_len(v, e, w);
		ret = both > SRING_SIZE(e) ? sring_grow(v, e, w, both) : 0;
		if (ret && need > SRING_SIZE(e))
			ret = sring_grow(v, e, w, need);
		else if (ret)
			ret = 0; /* w fits as it is; element 1 waits or fails */
		if (ret == -GPU_E2BIG)
			v->stats.sring_too_big++;
		if (ret)
			return ret;
	}
	w->s_head = e->sring_tail;
	w->s_tail = (e->sring_tail + w->s_len) % SRING_SIZE(e);
	if (pad)
		*(uint32_t *)vgpu_sring_at(v, e, w->s_head) = MI_NOOP;
	return copy_ring(v, e, w, pad);
}

static void reject_log(struct vgpu *v, struct vgpu_engine *e,
		       const struct scan_result *r)
{
	char where[96];

	vgpu_warn(v, "%s: workload rejected: %s%s%s (%s)",
		  gen9_engine_name((enum gen9_engine_id)e->id),
		  r->wa ? r->wa : "", r->wa ? ": " : "",
		  r->why ? r->why : "?", vgpu_scan_where(r, where, sizeof(where)));
}

int vgpu_workload_create(struct vgpu *v, struct vgpu_engine *e, uint64_t desc,
			 uint64_t pair1, bool schedule_in)
{
	struct workload *w;
	struct scan_result res;
	uint64_t root, t0;
	bool scanned = false;
	int ret;

	if (e->wl_count >= VGPU_WL_QUEUE)
		return -GPU_EAGAIN;	/* the queue is full of earlier work */
	w = wl_at(e, e->wl_count);
	memset(w, 0, sizeof(*w));
	w->desc = desc;
	w->pair1 = pair1;
	w->lrca = (uint32_t)desc & GEN8_CTX_LRCA_MASK;
	w->ctx_id = (uint32_t)(desc >> GEN8_CTX_ID_SHIFT);
	w->schedule_in = schedule_in;
	w->sbb_first = -1;
	w->t_queued = gvt_now(v->gvt);
	ret = read_context(v, e, w, &root);
	if (ret)
		return ret;
	w->mm = vgpu_mm_get(v, root, false);
	if (w->mm < 0)
		return w->mm;
	ret = queue_ring(v, e, w);
	if (!ret) {
		t0 = vgpu_time_start(v);
		/* The context's workaround batches first: a bad one refuses
		 * the workload as a bad kernel command does (they are the
		 * kernel's, and every restore of every render context runs
		 * them, so no request is to blame). */
		ret = vgpu_scan_wa_ctx(v, e, w, vgpu_sbb_alloc, &res);
		if (!ret)
			ret = vgpu_scan_workload(v, e, w, vgpu_sbb_alloc, &res);
		vgpu_time_add(v, &v->stats.ns_scan, t0);
		scanned = true;
	}
	if (ret && scanned && res.user_fault) {
		vgpu_user_fault_cut(v, e, w, &res);
		ret = 0;
	}
	if (ret) {
		/* A refused scan's copies are garbage: give their pages back,
		 * and a ring grown for this segment (the engine's queue is
		 * empty then). */
		vgpu_sbb_release(v, w);
		sring_rest(v, e);
		vgpu_mm_put(v, w->mm);
		/* Out of shadow space behind earlier work of this vGPU: the
		 * shadow ring comes back as this engine's work completes, the
		 * batch pool (which also backs grown rings) as any engine's
		 * does, so this waits rather than fails (a busy but honest
		 * guest keeps its queues full). With nothing held it can
		 * never fit: refused. A request larger than the whole pool
		 * fails alone (-GPU_E2BIG: the scanner made it a user fault)
		 * or, in the kernel's own ring or batches, is refused as any
		 * other bad kernel command: a ring segment needs a ring of
		 * its size, at most 2 MiB, from the pool (-GPU_E2BIG from
		 * queue_ring when it is larger than the VM's budget). */
		if (ret == -GPU_ENOSPC && (e->wl_count || v->sbb.used)) {
			if (scanned && res.reason == -GPU_ENOSPC)
				v->stats.sbb_waits++;
			if (!scanned)
				v->stats.sring_waits++;
			return -GPU_EAGAIN;
		}
		if (scanned)
			reject_log(v, e, &res);
		else if (ret == -GPU_E2BIG || ret == -GPU_ENOSPC ||
			 ret == -GPU_ENOMEM)
			vgpu_warn(v, "%s: ring segment of %u bytes refused: no "
				  "shadow ring for it (%d; budget %u KiB)",
				  gen9_engine_name((enum gen9_engine_id)e->id),
				  w->s_len, ret, vgpu_batch_budget(v));
		v->stats.workloads_rejected++;
		return ret;
	}
	w->events = res.events;
	v->stats.ring_bytes_copied += w->s_len;
	v->stats.bb_bytes_copied += res.bb_bytes_copied;
	e->sring_tail = w->s_tail;
	e->sring_used += w->s_len;
	e->wl_count++;
	v->stats.workloads++;
	return 0;
}

/* ---- dispatch and completion -------------------------------------------- */

static int copy_engine_pages(struct vgpu *v, struct vgpu_engine *e,
			     uint32_t lrca, bool to_guest)
{
	uint32_t p = LRC_STATE_PN + 1;

	/* One call: vgpu_gm_rw copies the guest-physically contiguous
	 * pages of the image in one go, each page's entry checked. */
	return vgpu_gm_rw(v, lrca + p * VGPU_PAGE, e->sctx.va + p * VGPU_PAGE,
			  (size_t)(ctx_pages(e) - p) * VGPU_PAGE, to_guest);
}

/* The render context's workaround batches: the scanned copies, never
 * the guest's (its pointers were zeroed by sanitize_state); the offset in
 * the restore where the indirect one runs is the guest's, it names no
 * memory. Other engines have none (the dwords are not theirs). */
static void wa_pointers(struct vgpu *v, const struct vgpu_engine *e,
			const struct workload *w, uint32_t *st)
{
	if (e->id != GEN9_RCS0)
		return;
	st[CTX_RCS_INDIRECT_CTX] = 0;
	st[CTX_RCS_INDIRECT_CTX_OFFSET] = 0;
	st[CTX_BB_PER_CTX_PTR] = 0;
	if (w->wa_ictx_gm) {
		st[CTX_RCS_INDIRECT_CTX] =
			w->wa_ictx_gm | (w->wa_ictx & CTX_INDIRECT_SIZE_MASK);
		st[CTX_RCS_INDIRECT_CTX_OFFSET] =
			w->wa_ictx_off & CTX_INDIRECT_OFFSET_MASK;
	}
	if (w->wa_per_gm)
		st[CTX_BB_PER_CTX_PTR] = w->wa_per_gm | CTX_PER_CTX_VALID;
	if (w->wa_ictx_gm || w->wa_per_gm)
		v->stats.wa_run++;
}

/* A preempted workload goes back on as it left (vgpu_sched.c): its shadow
 * context holds where it stopped, so nothing is rebuilt from the guest's
 * image and the guest is told nothing (its context never stopped, as far
 * as it sees); the state is restored (the guest's first-run inhibit no
 * longer applies). Its shadow PPGTT may have been synced or rebuilt
 * meanwhile: the root is written again. */
static void resume_state(uint32_t *st, struct workload *w, uint64_t root)
{
	st[CTX_CONTEXT_CONTROL] =
		(st[CTX_CONTEXT_CONTROL] & ~(uint32_t)CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT) |
		_MASKED_BIT_DISABLE(CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT);
	st[CTX_PDP0_UDW] = (uint32_t)(root >> 32);
	st[CTX_PDP0_LDW] = (uint32_t)root;
	w->preempted = false;
}

int vgpu_workload_prepare(struct vgpu *v, struct vgpu_engine *e,
			  struct workload *w)
{
	uint32_t *st = (uint32_t *)(e->sctx.va + LRC_STATE_OFFSET);
	uint64_t root;
	int ret;

	ret = vgpu_mm_prepare(v, w->mm, &root);
	if (ret)
		return ret;
	if (w->preempted) {
		resume_state(st, w, root);
		return 0;
	}
	if (e->last_lrca != w->lrca) {
		ret = copy_engine_pages(v, e, w->lrca, false);
		if (ret)
			return ret;
		e->last_lrca = w->lrca;
	}
	ret = vgpu_gm_rw(v, w->lrca + LRC_STATE_OFFSET, st, VGPU_PAGE, false);
	if (ret)
		return ret;
	sanitize_state(st, e->id, e->base);
	st[CTX_CONTEXT_CONTROL] = w->ctx_ctrl;
	st[CTX_RING_HEAD] = w->s_head;
	st[CTX_RING_TAIL] = w->s_tail;
	/* The ring the engine runs: at rest or grown (queue_ring). */
	st[CTX_RING_START] = e->sr_gm;
	st[CTX_RING_CTL] = RING_CTL_SIZE(SRING_SIZE(e)) | RING_VALID;
	/* A new workload starts in the ring: where a preempted one stood
	 * in its batches is the engine's to save and restore (vgpu_sched.c
	 * resumes those without coming here), never the guest's to say. */
	st[CTX_BB_ADDR] = st[CTX_BB_ADDR_UDW] = st[CTX_BB_STATE] = 0;
	st[CTX_SBB_ADDR] = st[CTX_SBB_ADDR_UDW] = st[CTX_SBB_STATE] = 0;
	wa_pointers(v, e, w, st);
	st[CTX_PDP0_UDW] = (uint32_t)(root >> 32);
	st[CTX_PDP0_LDW] = (uint32_t)root;
	st[CTX_PDP1_UDW] = st[CTX_PDP1_LDW] = 0;
	st[CTX_PDP2_UDW] = st[CTX_PDP2_LDW] = 0;
	st[CTX_PDP3_UDW] = st[CTX_PDP3_LDW] = 0;
	w->dispatched = true;
	w->t_dispatched = gvt_now(v->gvt);
	return 0;
}

/* Engine state back to the guest's image; ring head = where the
 * workload ended, in the guest's ring. */
static void write_back(struct vgpu *v, struct vgpu_engine *e, struct workload *w)
{
	uint32_t *st = (uint32_t *)(e->sctx.va + LRC_STATE_OFFSET);
	uint32_t head = w->tail, ts = st[CTX_TIMESTAMP];
	uint64_t img = w->lrca + LRC_STATE_OFFSET;

	if (w->ctx_ctrl & CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT)
		return;
	vgpu_gm_rw(v, img + CTX_RING_HEAD * 4, &head, 4, true);
	vgpu_gm_rw(v, img + CTX_TIMESTAMP * 4, &ts, 4, true);
	vgpu_gm_rw(v, img + (CTX_LRI_HEADER_3 + 2) * 4, &st[CTX_LRI_HEADER_3 + 2],
		   (GEN9_CTX_REG_STATE_DWORDS - CTX_LRI_HEADER_3 - 2) * 4, true);
	copy_engine_pages(v, e, w->lrca, true);
}

static void wl_pop(struct vgpu *v, struct vgpu_engine *e, struct workload *w)
{
	e->sring_used -= w->s_len;
	vgpu_mm_put(v, w->mm);
	vgpu_sbb_release(v, w);
	e->wl_head = (e->wl_head + 1) % VGPU_WL_QUEUE;
	e->wl_count--;
	sring_rest(v, e);
}

void vgpu_workload_complete(struct vgpu *v, struct vgpu_engine *e,
			    struct workload *w, int status)
{
	uint64_t t0 = vgpu_time_start(v);
	const struct workload *next;

	if (w->t_dispatched)
		v->stats.ns_on_hw += t0 - w->t_dispatched;
	if (w->abandoned) {
		wl_pop(v, e, w);
		vgpu_execlist_retry_deferred(v, e);
		return;
	}
	if (w->user_fault && !status) {
		uint32_t events = w->events;

		wl_pop(v, e, w);
		vgpu_user_fault_raise(v, e, events);
		vgpu_execlist_retry_deferred(v, e); /* other engines' waits */
		return;
	}
	if (status) {
		v->stats.workloads_failed++;
		wl_pop(v, e, w);
		vgpu_fail(v, e->id, "workload failed on the GPU");
		return;
	}
	write_back(v, e, w);
	next = e->wl_count > 1 ? wl_at(e, 1) : NULL;
	/* Next element is the same context (lite restore): no switch. */
	if (!next || next->lrca != w->lrca)
		vgpu_emulate_schedule_out(v, e, w);
	if (w->events)
		vgpu_raise_engine_irq(v, e->id, w->events);
	v->stats.workloads_done++;
	wl_pop(v, e, w);
	vgpu_execlist_retry_deferred(v, e);
	vgpu_time_add(v, &v->stats.ns_complete, t0);
}

/* Take back the workload queued last, not yet dispatched (element 0 of an
 * ELSP pair whose element 1 has to wait: the pair waits whole), with its
 * shadow batch pages. */
void vgpu_workload_unqueue_last(struct vgpu *v, struct vgpu_engine *e)
{
	struct workload *w = wl_at(e, e->wl_count - 1);

	e->sring_tail = w->s_head;
	e->sring_used -= w->s_len;
	v->stats.ring_bytes_copied -= w->s_len;
	vgpu_mm_put(v, w->mm);
	vgpu_sbb_release(v, w);
	e->wl_count--;
	v->stats.workloads--;
	sring_rest(v, e);
}

/* Forget queued work; what is on the GPU now finishes silently. */
void vgpu_workload_drop_all(struct vgpu *v, struct vgpu_engine *e)
{
	e->n_deferred = 0;
	while (e->wl_count) {
		struct workload *w = wl_at(e, e->wl_count - 1);

		if (w->dispatched && !w->preempted) { /* on the GPU */
			w->abandoned = true;
			/* Everything queued behind it is gone. */
			break;
		}
		e->sring_tail = w->s_head;
		e->sring_used -= w->s_len;
		vgpu_mm_put(v, w->mm);
		vgpu_sbb_release(v, w);
		e->wl_count--;
	}
	sring_rest(v, e);
}

/* A rejected or failed workload fails this vGPU only: nothing more of it
 * runs until the guest resets the GPU; the guest sees an engine error
 * interrupt and a ring that stops (its hang check then resets). */
void vgpu_fail(struct vgpu *v, int engine, const char *why)
{
	int id;

	if (v->failed)
		return;
	v->failed = true;
	v->fault_engine = engine;
	v->t_fault = gvt_now(v->gvt);
	snprintf(v->fault_why, sizeof(v->fault_why), "%s: %s",
		 gen9_engine_name((enum gen9_engine_id)engine), why);
	vgpu_err(v, "%s: %s; vGPU stopped until it is reset",
		 gen9_engine_name((enum gen9_engine_id)engine), why);
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (v->eng[id].present)
			vgpu_workload_drop_all(v, &v->eng[id]);
	vreg_set(v, RING_EIR(gen9_engine_mmio_base((enum gen9_engine_id)engine)),
		 I915_ERROR_INSTRUCTION);
	vgpu_raise_engine_irq(v, engine, GT_CS_MASTER_ERROR_INTERRUPT);
}
