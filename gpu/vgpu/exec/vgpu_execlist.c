/* Per-engine registers and virtual execlists (i915-guest §8, gen9-facts
 * §4.3-4.5).
 *
 * The guest submits by writing four dwords to ELSP (element 1 first, each
 * upper dword first); the fourth makes two descriptors, each a workload.
 * What the guest then sees is emulated as GVT does: the virtual Context
 * Status Buffer gets the events of the real execlist protocol - written
 * both to the CSB registers and to the guest's status page (dwords
 * 0x10-0x1b, write pointer 0x1f: HWSP_EMULATION) - and each is followed by
 * a virtual context-switch interrupt. Events are produced when the
 * workload is dispatched (schedule-in) and when it completes
 * (schedule-out), never from the guest's own MMIO. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/cmd/cmd.h"
#include "mini/string.h"

#define CTX_ID(desc) ((uint32_t)((desc) >> GEN8_CTX_ID_SHIFT))
#define LRCA(desc) ((uint32_t)(desc) & GEN8_CTX_LRCA_MASK)

static struct vgpu_engine *engine_of(struct vgpu *v, uint32_t off)
{
	int id = gen9_engine_from_mmio(off);

	if (id < 0 || !v->eng[id].present)
		return NULL;
	return &v->eng[id];
}

/* ---- virtual CSB -------------------------------------------------------- */

void vgpu_csb_write(struct vgpu *v, struct vgpu_engine *e, uint32_t status,
		    uint32_t ctx_id)
{
	uint32_t base = e->base, ptr = vreg(v, RING_CONTEXT_STATUS_PTR(base));
	uint8_t wp = e->csb_wptr;
	uint32_t hws = vreg(v, RING_HWS_PGA(base)) & GEN8_CTX_LRCA_MASK;
	uint32_t hw[2] = { status, ctx_id };

	wp = (wp >= GEN8_CSB_ENTRIES - 1) ? 0 : wp + 1; /* 7 = none -> 0 */
	e->csb_wptr = wp;
	vreg_set(v, RING_CONTEXT_STATUS_BUF_LO(base, wp), status);
	vreg_set(v, RING_CONTEXT_STATUS_BUF_HI(base, wp), ctx_id);
	vreg_set(v, RING_CONTEXT_STATUS_PTR(base),
		 (ptr & ~(uint32_t)GEN8_CSB_WRITE_PTR_MASK) | wp);
	/* i915 reads the HWSP mirror, not the registers (i915-guest §8). */
	if (vgpu_gm_valid(v, hws, VGPU_PAGE)) {
		uint32_t wpd = wp;

		vgpu_gm_rw(v, hws + (I915_HWS_CSB_BUF0_INDEX + 2u * wp) * 4, hw,
			   sizeof(hw), true);
		vgpu_gm_rw(v, hws + I915_HWS_CSB_WRITE_INDEX * 4, &wpd, 4, true);
	}
	v->stats.csb_events++;
}

static void ctx_switch_irq(struct vgpu *v, struct vgpu_engine *e)
{
	vgpu_raise_engine_irq(v, e->id, GT_CONTEXT_SWITCH_INTERRUPT);
}

/* Element 0 of a pair reaches the hardware. */
void vgpu_emulate_schedule_in(struct vgpu *v, struct vgpu_engine *e,
			      const struct workload *w)
{
	struct vexeclist_slot *run = e->running >= 0 ? &e->slot[e->running] : NULL;
	int free_slot = e->running == 0 ? 1 : 0;

	if (run && LRCA(run->desc[run->cur]) == w->lrca) {
		/* Lite restore: the running context got a new tail. */
		run->desc[0] = w->desc;
		run->desc[1] = w->pair1;
		run->cur = 0;
		vgpu_csb_write(v, e, GEN8_CTX_STATUS_PREEMPTED |
					     GEN8_CTX_STATUS_LITE_RESTORE,
			       CTX_ID(w->desc));
	} else {
		/* Anything still marked running has completed by now. */
		e->slot[free_slot].valid = true;
		e->slot[free_slot].desc[0] = w->desc;
		e->slot[free_slot].desc[1] = w->pair1;
		e->slot[free_slot].cur = 0;
		if (run)
			run->valid = false;
		e->running = free_slot;
		vgpu_csb_write(v, e, GEN8_CTX_STATUS_IDLE_ACTIVE, 0);
	}
	v->stats.ctx_switches++;
	ctx_switch_irq(v, e);
}

/* The running element finished. */
void vgpu_emulate_schedule_out(struct vgpu *v, struct vgpu_engine *e,
			       const struct workload *w)
{
	struct vexeclist_slot *run;

	if (e->running < 0)
		return;
	run = &e->slot[e->running];
	if (run->cur == 0 && (run->desc[1] & GEN8_CTX_VALID)) {
		vgpu_csb_write(v, e, GEN8_CTX_STATUS_COMPLETE |
					     GEN8_CTX_STATUS_ELEMENT_SWITCH,
			       CTX_ID(w->desc));
		run->cur = 1;
	} else {
		vgpu_csb_write(v, e, GEN8_CTX_STATUS_COMPLETE |
					     GEN8_CTX_STATUS_ACTIVE_IDLE,
			       CTX_ID(w->desc));
		run->valid = false;
		e->running = -1;
	}
	v->stats.ctx_switches++;
	ctx_switch_irq(v, e);
}

static uint32_t execlist_status_lo(const struct vgpu_engine *e)
{
	const struct vexeclist_slot *run;

	if (e->running < 0)
		return 0;
	run = &e->slot[e->running];
	return RING_EXECLIST0_VALID | RING_EXECLIST0_ACTIVE |
	       (run->cur ? EXECLIST_STATUS_CURRENT_PTR : 0) |
	       (e->running ? EXECLIST_STATUS_WRITE_PTR : 0);
}

static uint32_t execlist_status_hi(const struct vgpu_engine *e)
{
	const struct vexeclist_slot *run;

	if (e->running < 0)
		return 0;
	run = &e->slot[e->running];
	return CTX_ID(run->desc[run->cur]);
}

/* ---- submission --------------------------------------------------------- */

static int desc_check(struct vgpu *v, uint64_t desc)
{
	unsigned int mode = (desc & GEN8_CTX_ADDRESSING_MODE_MASK) >>
			    GEN8_CTX_ADDRESSING_MODE_SHIFT;

	/* GVT: every element must be a PPGTT (privilege bit) context;
	 * only 4-level (legacy 64-bit) PPGTT is offered here. */
	if (!(desc & GEN8_CTX_PRIVILEGE)) {
		vgpu_warn(v, "GGTT context submitted: 0x%llx", (unsigned long long)desc);
		return -GPU_EPERM;
	}
	if (mode != INTEL_LEGACY_64B_CONTEXT) {
		vgpu_warn(v, "addressing mode %u not supported", mode);
		return -GPU_ENOTSUP;
	}
	return 0;
}

/* execlist_queue: element 0 is queued, element 1 waits for its space. */
#define QUEUED_FIRST 1

/* Nothing of this vGPU but the element just queued on e: no completion
 * is coming that could make room for anything else. */
static bool only_work(const struct vgpu *v, const struct vgpu_engine *e)
{
	for (int id = 0; id < GEN9_NUM_ENGINES; id++)
		if (v->eng[id].present &&
		    v->eng[id].wl_count != (&v->eng[id] == e ? 1u : 0u))
			return false;
	return true;
}

/* Both elements of an ELSP pair, or neither: -GPU_EAGAIN when the pair
 * has to wait for shadow space that earlier work still holds. When the
 * only thing holding it is element 0 itself (the two fit the budget one
 * at a time, not together), element 0 stays queued and element 1 waits
 * for its completion (QUEUED_FIRST): the hardware runs them one after the
 * other anyway, and the guest sees the pair's usual events (element
 * switch, then idle: vgpu_emulate_schedule_out). Undoing element 0 would
 * leave the pair waiting for a completion that never comes. second: desc0
 * is such an element 1, queued without a schedule-in of its own. */
static int execlist_queue(struct vgpu *v, struct vgpu_engine *e,
			  uint64_t desc0, uint64_t desc1, bool second)
{
	int ret = desc_check(v, desc0);

	if (!ret && desc1)
		ret = desc_check(v, desc1);
	if (!ret)
		ret = vgpu_workload_create(v, e, desc0, desc1, !second);
	if (ret || !desc1)
		return ret;
	ret = vgpu_workload_create(v, e, desc1, 0, false);
	if (ret != -GPU_EAGAIN)
		return ret;
	if (only_work(v, e))
		return QUEUED_FIRST;
	vgpu_workload_unqueue_last(v, e);
	return -GPU_EAGAIN;
}

/* Waiting pairs keep their order, vGPU-wide: a new one queues behind
 * them. An honest i915 has at most one pair per engine unacknowledged
 * (it waits for the CSB event of the last); more than VGPU_DEFER_MAX is
 * an execlist protocol the vGPU does not follow. */
static void execlist_defer(struct vgpu *v, struct vgpu_engine *e,
			   uint64_t desc0, uint64_t desc1, bool second)
{
	if (e->n_deferred == VGPU_DEFER_MAX) {
		vgpu_fail(v, e->id, "too many submissions waiting for shadow space");
		return;
	}
	e->deferred[e->n_deferred].desc0 = desc0;
	e->deferred[e->n_deferred].desc1 = desc1;
	e->deferred[e->n_deferred].second = second;
	e->deferred[e->n_deferred].seq = v->sbb.defer_seq++;
	e->n_deferred++;
	v->stats.elsp_deferred++;
}

/* The engine whose first waiting pair came first, or NULL. */
static struct vgpu_engine *oldest_waiter(struct vgpu *v)
{
	struct vgpu_engine *best = NULL;
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct vgpu_engine *e = &v->eng[id];

		if (e->present && e->n_deferred &&
		    (!best || e->deferred[0].seq < best->deferred[0].seq))
			best = e;
	}
	return best;
}

/* After a completion (any engine: the batch pool is the vGPU's): queue
 * what waited, oldest first across engines, while it fits. The oldest
 * that does not fit stops the rest, so a large request is not starved
 * by smaller ones behind it; each pass is bounded by the waiting pairs
 * (VGPU_DEFER_MAX per engine). */
void vgpu_execlist_retry_deferred(struct vgpu *v, struct vgpu_engine *done)
{
	struct vgpu_engine *e;

	(void)done;
	/* A shadow PPGTT released by the completion (vgpu_mm_put) may be
	 * what pairs of other engines wait for: all engines are tried. */
	v->mm_wake = false;
	while (!v->failed && (e = oldest_waiter(v))) {
		int ret = execlist_queue(v, e, e->deferred[0].desc0,
					 e->deferred[0].desc1,
					 e->deferred[0].second);

		if (ret == -GPU_EAGAIN)
			return;
		if (ret == QUEUED_FIRST) {
			/* Element 1 keeps the pair's place in line. */
			e->deferred[0].desc0 = e->deferred[0].desc1;
			e->deferred[0].desc1 = 0;
			e->deferred[0].second = true;
			continue;
		}
		e->n_deferred--;
		memmove(&e->deferred[0], &e->deferred[1],
			e->n_deferred * sizeof(e->deferred[0]));
		if (ret) {
			e->n_deferred = 0;
			vgpu_fail(v, e->id, "submission rejected");
		}
	}
}

static void execlist_submit(struct vgpu *v, struct vgpu_engine *e,
			    uint64_t desc0, uint64_t desc1)
{
	int ret;

	v->stats.elsp_submits++;
	if (v->failed || !(desc0 & GEN8_CTX_VALID)) {
		v->stats.elsp_dropped++;
		return;
	}
	if (!(desc1 & GEN8_CTX_VALID))
		desc1 = 0;
	ret = oldest_waiter(v) ? -GPU_EAGAIN
			       : execlist_queue(v, e, desc0, desc1, false);
	if (ret == -GPU_EAGAIN) {
		execlist_defer(v, e, desc0, desc1, false);
		return;
	}
	if (ret == QUEUED_FIRST) {
		execlist_defer(v, e, desc1, 0, true);
		ret = 0;
	}
	if (ret) {
		vgpu_fail(v, e->id, "submission rejected");
		return;
	}
	gvt_post(v->gvt, v); /* the scheduler runs after the trap */
}

int vgpu_elsp_write(struct vgpu *v, struct vgpu_engine *e, uint32_t val)
{
	uint64_t desc0, desc1;

	e->elsp[e->elsp_n++] = val;
	if (e->elsp_n < 4)
		return 0;
	e->elsp_n = 0;
	desc1 = (uint64_t)e->elsp[0] << 32 | e->elsp[1];
	desc0 = (uint64_t)e->elsp[2] << 32 | e->elsp[3];
	execlist_submit(v, e, desc0, desc1);
	return 0;
}

/* ---- engine register block ---------------------------------------------- */

int vgpu_engine_reg_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	struct vgpu_engine *e = engine_of(v, off);
	uint32_t rel;

	if (!e) {
		*val = 0; /* absent engine (VCS1 on GT2): reads as nothing */
		return 0;
	}
	rel = off - e->base;
	switch (rel) {
	case 0x230: /* ELSP is write-only */
		*val = 0;
		return 0;
	case 0x234:
		*val = execlist_status_lo(e);
		return 0;
	case 0x238:
		*val = execlist_status_hi(e);
		return 0;
	case 0x358: /* timestamps are live */
	case 0x35c:
		*val = gpu_hw_read32(v->gvt->hw, off);
		return 0;
	case 0x09c: /* MI_MODE: idle as soon as asked to stop */
		*val = vreg(v, off) & 0xffff;
		if (*val & STOP_RING)
			*val |= MODE_IDLE;
		return 0;
	default:
		*val = vreg(v, off);
		return 0;
	}
}

static int hws_pga_write(struct vgpu *v, struct vgpu_engine *e, uint32_t val)
{
	(void)e;
	if (!vgpu_gm_valid(v, val & GEN8_CTX_LRCA_MASK, VGPU_PAGE)) {
		vgpu_warn(v, "status page 0x%x outside the vGPU, ignored", val);
		v->stats.mmio_ro_dropped++;
		return 0;
	}
	vreg_set(v, RING_HWS_PGA(e->base), val);
	return 0;
}

static int ring_mode_write(struct vgpu *v, struct vgpu_engine *e, uint32_t val)
{
	uint32_t off = RING_MODE_GEN7(e->base);
	uint32_t mode = gen9_masked_update(vreg(v, off), val);

	if ((mode & GFX_RUN_LIST_ENABLE) && !v->pv_notified)
		/* GVT enters failsafe here: the guest is not GVT-aware. */
		vgpu_warn(v, "execlists enabled without reading PVINFO");
	vreg_set(v, off, mode);
	return 0;
}

static int nonpriv_write(struct vgpu *v, struct vgpu_engine *e, uint32_t off,
			 uint32_t val)
{
	/* Whitelists a register for non-privileged batches: GVT's list
	 * (force_nonpriv_write). 0 clears a slot and grants nothing. A
	 * refused value leaves the slot as it was; logged once per vGPU. */
	if (val && !nonpriv_slot_allowed(e->id, val)) {
		if (!v->stats.nonpriv_refused)
			vgpu_warn(v, "%s: FORCE_TO_NONPRIV slot 0x%x: register 0x%x is "
				  "not on the whitelist, refused",
				  gen9_engine_name((enum gen9_engine_id)e->id), off, val);
		v->stats.nonpriv_refused++;
		v->stats.mmio_ro_dropped++;
		return 0;
	}
	return mmio_default_write(v, off, val);
}

int vgpu_engine_reg_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	struct vgpu_engine *e = engine_of(v, off);
	uint32_t rel;

	if (!e)
		return 0;
	rel = off - e->base;
	if (rel >= 0x4d0 && rel < 0x500)
		return nonpriv_write(v, e, off, val);
	switch (rel) {
	case 0x230:
		return vgpu_elsp_write(v, e, val);
	case 0x234:
	case 0x238:
	case 0x358:
	case 0x35c:
		v->stats.mmio_ro_dropped++;
		return 0;
	case 0x080:
		return hws_pga_write(v, e, val);
	case 0x29c:
		return ring_mode_write(v, e, val);
	case 0x09c: /* MI_MODE */
	case 0x244: /* CONTEXT_CONTROL */
		vreg_set(v, off, gen9_masked_update(vreg(v, off), val));
		return 0;
	case 0x0b0: /* RING_EIR: write 1 to clear, as i915's CS error
		     * handler acknowledges it */
		vreg_set(v, off, vreg(v, off) & ~val);
		return 0;
	case 0x3a0: /* CSB pointer: the guest may move both pointers */
		vreg_set(v, off, gen9_masked_update(vreg(v, off), val));
		e->csb_wptr = vreg(v, off) & GEN8_CSB_PTR_MASK;
		return 0;
	case 0x0d0: { /* RING_RESET_CTL: ready as soon as requested */
		uint32_t r = gen9_masked_update(vreg(v, off), val);

		r &= ~RESET_CTL_READY_TO_RESET;
		if (r & RESET_CTL_REQUEST_RESET)
			r |= RESET_CTL_READY_TO_RESET;
		vreg_set(v, off, r);
		return 0;
	}
	default:
		return mmio_default_write(v, off, val);
	}
}

/* ---- life cycle --------------------------------------------------------- */

/* The CSB and ELSP side of an engine reset; what runs is kept. */
static void engine_csb_reset(struct vgpu *v, struct vgpu_engine *e)
{
	e->elsp_n = 0;
	e->csb_wptr = GEN8_CSB_PTR_NONE;
	vreg_set(v, RING_CONTEXT_STATUS_PTR(e->base),
		 GEN8_CSB_PTR_NONE << GEN8_CSB_READ_PTR_SHIFT | GEN8_CSB_PTR_NONE);
	vreg_set(v, RING_EXECLIST_STATUS_LO(e->base), 0);
	vreg_set(v, RING_RESET_CTL(e->base), 0);
	e->last_lrca = 0;
}

static void engine_virtual_reset(struct vgpu *v, struct vgpu_engine *e)
{
	engine_csb_reset(v, e);
	e->running = -1;
	memset(e->slot, 0, sizeof(e->slot));
}

/* The mediator reset engines in mask after a fault: their queued work is
 * gone, but what the guest sees of the execlist stays as a hung engine
 * shows it until the guest resets the engine itself (GDRST): the context
 * reported running (RING_EXECLIST_STATUS_HI) is how i915 finds the
 * request to blame (execlists_reset_prepare -> active_context). */
void vgpu_execlist_stop(struct vgpu *v, uint32_t mask)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct vgpu_engine *e = &v->eng[id];

		if (!e->present || !(mask & BIT(id)))
			continue;
		vgpu_workload_drop_all(v, e);
		engine_csb_reset(v, e);
	}
	v->failed = false;
	v->fault_user = false;
	/* Pairs of other engines may have waited for pool pages the
	 * dropped work held. */
	vgpu_execlist_retry_deferred(v, NULL);
}

/* GDRST: forget queued work and the virtual execlist state of the
 * engines in mask (BIT(engine id)); a full reset also drops shadow
 * PPGTTs and restores registers below the interrupt block (GVT). */
void vgpu_execlist_reset(struct vgpu *v, uint32_t mask)
{
	int id;

	vgpu_execlist_stop(v, mask);
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (v->eng[id].present && (mask & BIT(id)))
			engine_virtual_reset(v, &v->eng[id]);
	if (mask == ~0u) {
		vgpu_ppgtt_reset(v);
		vgpu_vreg_reset(v, GEN8_MASTER_IRQ);
		vgpu_pvinfo_init(v);
		for (id = 0; id < GEN9_NUM_ENGINES; id++)
			if (v->eng[id].present)
				engine_virtual_reset(v, &v->eng[id]);
	}
	v->failed = false;
	v->fault_user = false;
}

int vgpu_engines_init(struct vgpu *v)
{
	struct gvt *gvt = v->gvt;
	uint32_t cursor = 0;
	int id, ret;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct vgpu_engine *e = &v->eng[id];
		uint32_t ctx_pages = id == GEN9_RCS0 ? VGPU_CTX_MAX_PAGES : 2;

		e->id = id;
		e->base = gen9_engine_mmio_base((enum gen9_engine_id)id);
		e->present = gvt->engine_mask & BIT(id);
		e->sr_first = -1;
		if (!e->present)
			continue;
		ret = gvt_own_obj_alloc(gvt, v->own_slot, &cursor, ctx_pages, &e->sctx);
		if (!ret)
			ret = gvt_own_obj_alloc(gvt, v->own_slot, &cursor,
						VGPU_SRING_PAGES, &e->sring);
		if (ret)
			return ret;
		e->sr_gm = e->sring.gm;
		e->sr_pages = e->sring.pages;
		engine_virtual_reset(v, e);
	}
	return 0;
}

void vgpu_engines_fini(struct vgpu *v)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct vgpu_engine *e = &v->eng[id];

		gvt_own_obj_free(v->gvt, &e->sctx);
		gvt_own_obj_free(v->gvt, &e->sring);
		/* a grown ring's pages are the pool's: vgpu_sbb_fini */
		e->sr_first = -1;
	}
}
