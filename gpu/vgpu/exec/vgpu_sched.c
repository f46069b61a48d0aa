/* The vGPU scheduler: round robin over vGPUs with queued work, a fixed
 * time slice (16 ms default), idle vGPUs skipped, and vGPU-granular
 * ("gang") switching as GVT does: the GPU's MMIO state belongs to one vGPU
 * at a time, so a switch waits until every engine has left the current
 * owner's work, then swaps the switched registers (vgpu_mmio_switch.c).
 *
 * With gvt_params.preempt (off by default for now: docs/vgpu-reset.md
 * "Preemption") the GPU is taken back by preemption: when the owner's
 * slice is over and
 * another vGPU waits, each engine still running the owner's work is asked
 * to give it up at its next arbitration point (pexec_preempt: MI_ARB_CHECK
 * with arbitration on, the return from a batch to the ring - i915 puts one
 * before and after every request). The workload leaves the GPU with its
 * state in its shadow context, stays at the head of its queue and goes
 * back on, as it is, at the vGPU's next slice; the guest sees nothing of
 * it. So a long honest stream of requests is shared, never cut.
 *
 * GPU time is still bounded: work that reaches no arbitration point
 * within overrun_ns of the slice's end is reset (engine reset; its request
 * fails, the guest sees an engine error), and so is work that runs past
 * the hang timeout; alone on the GPU a workload is asked to yield at half
 * the hang timeout, so only work without progress meets it. Whose fault a
 * reset is depends on where the engine stopped (ACTHD): inside a user
 * (PPGTT) batch it is that request's - not counted as a fault of the vGPU,
 * but the vGPU is held off the GPU as long as the hang held the engine, so
 * however often a guest hangs, the engine is reset at most once per two
 * such spells and the others get the time between; in the guest kernel's
 * ring or a privileged batch it is a fault (vgpu_reset.c's window), and an
 * overrun there counts towards max_overruns, which fails the vGPU for good.
 * README.md "Bounded GPU time" has the reasoning. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/display/display.h"

static struct workload *queue_head(struct vgpu *v, int engine)
{
	struct vgpu_engine *e = &v->eng[engine];

	return e->wl_count ? &e->wl[e->wl_head] : NULL;
}

static bool on_gpu(const struct workload *w)
{
	return w->dispatched && !w->preempted;
}

/* Work not yet on the GPU: only the head of an engine's queue can be in
 * flight, so anything behind a head on the GPU counts, and a preempted
 * head too. */
static bool has_queued(struct vgpu *v)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct vgpu_engine *e = &v->eng[id];
		struct workload *w = e->present ? queue_head(v, id) : NULL;

		if (w && e->wl_count > (on_gpu(w) ? 1u : 0u))
			return true;
	}
	return false;
}

/* The id in LEFT (bit id - 1) next after AFTER (0..64), wrapping round,
 * taken out of LEFT; 0 once LEFT is empty. Walks the vGPUs there are
 * (gvt->vgpu_ids), not all GVT_MAX_VGPUS slots, on every poll. */
static int id_after(uint64_t *left, int after)
{
	uint64_t later = after >= GVT_MAX_VGPUS ? 0 : *left & (~0ull << after);
	uint64_t from = later ? later : *left;
	int id;

	if (!from)
		return 0;
	id = __builtin_ctzll(from) + 1;
	*left &= ~(1ull << (id - 1));
	return id;
}

/* Paying for a user hang's engine time (user_hang). */
static bool held(struct gvt *gvt, const struct vgpu *v)
{
	return v->hold_until && gvt_now(gvt) < v->hold_until;
}

/* ---- completions ------------------------------------------------------- */

/* The engine's workload leaves it, whatever the reason; its vGPU is
 * charged the time it ran. */
static struct workload *off_engine(struct gvt *gvt, int id, struct vgpu **v)
{
	struct pexec_engine *pe = &gvt->pe[id];
	struct workload *w = pe->inflight;

	*v = pe->owner_vgpu;
	pe->inflight = NULL;
	pe->owner_vgpu = NULL;
	vgpu_ext_ran(*v, pe->t_submit, gvt_now(gvt));
	return w;
}

static void finish(struct gvt *gvt, int engine, int status)
{
	struct vgpu *v;
	struct workload *w = off_engine(gvt, engine, &v);

	if (v && w)
		vgpu_workload_complete(v, &v->eng[engine], w, status);
}

/* Someone other than v has work the GPU has not taken yet. */
static bool others_wait(struct gvt *gvt, const struct vgpu *v)
{
	return gvt->next_owner && gvt->next_owner != v;
}

/* The owner's slice is over, a neighbour waits and the owner's work has
 * had overrun_ns more to drain. */
static bool overran(struct gvt *gvt, const struct vgpu *v, uint64_t now)
{
	return v && gvt->owner == v && others_wait(gvt, v) &&
	       now - gvt->slice_start >=
		       gvt->p.timeslice_ns + gvt->p.overrun_ns;
}

/* Count an overrun against v; true when it is the max_overruns-th. */
static bool charge_overrun(struct gvt *gvt, struct vgpu *v, int engine)
{
	if (v->failed || v->banned)
		return false; /* one offence per failure, however many engines */
	v->overruns++;
	v->stats.overruns++;
	vgpu_err(v, "vm %u %s: GPU time overrun %u of %u (slice %llu us + "
		 "%llu us while vGPU %d waits): workload reset",
		 v->vm, gen9_engine_name((enum gen9_engine_id)engine),
		 v->overruns, gvt->p.max_overruns,
		 (unsigned long long)(gvt->p.timeslice_ns / 1000),
		 (unsigned long long)(gvt->p.overrun_ns / 1000),
		 gvt->next_owner->id);
	return v->overruns >= gvt->p.max_overruns;
}

/* Failed for good: queued work dropped now, and enforce_bans keeps it
 * failed across guest resets. */
static void ban(struct vgpu *v)
{
	int id;

	v->banned = true;
	v->failed = true;
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (v->eng[id].present)
			vgpu_workload_drop_all(v, &v->eng[id]);
	vgpu_err(v, "vm %u: failed for good after %u GPU time overruns; a "
		 "guest reset no longer revives it", v->vm, v->overruns);
}

static void reset_inflight(struct gvt *gvt, int id, int status)
{
	struct pexec_engine *pe = &gvt->pe[id];
	struct workload *w = pe->inflight;
	struct vgpu *v = pe->owner_vgpu;

	pexec_reset_engine(gvt, id);
	vgpu_ext_ran(v, pe->t_submit, gvt_now(gvt));
	if (v && w)
		vgpu_workload_complete(v, &v->eng[id], w, status);
}

/* ---- whose hang ---------------------------------------------------------- */

/* Where the engine stopped - ACTHD, the command it was executing - says
 * whose a hang is: inside a shadow-pool page of this workload that holds
 * only user batch copies (the pool keeps the two apart), that request's;
 * in the ring, a privileged batch or anywhere unknown, the guest kernel's
 * (the stricter rule). */
static bool stopped_in_user_batch(struct gvt *gvt, int id,
				  const struct workload *w)
{
	struct vgpu *v = gvt->pe[id].owner_vgpu;
	uint32_t at = gpu_hw_read32(gvt->hw, RING_ACTHD(gvt->pe[id].base));

	return v && w && vgpu_sbb_user_at(v, w, at);
}

#define USER_HANG_LOGGED 8

/* A hang inside a user batch: the engine is reset and the request fails
 * as after any hang (the guest's i915 blames it), but the vGPU's fault is
 * marked the user's (vgpu_reset.c does not count it), and the vGPU pays
 * the engine time: held off the GPU as long as the hang held it. */
static void user_hang(struct gvt *gvt, int id, int status, const char *what)
{
	struct pexec_engine *pe = &gvt->pe[id];
	struct vgpu *v = pe->owner_vgpu;
	uint64_t now = gvt_now(gvt), spell = now - pe->t_submit;
	bool was_failed = v->failed;

	v->stats.user_hangs++;
	v->stats.ns_held += spell;
	v->hold_until = now + spell;
	if (v->stats.user_hangs <= USER_HANG_LOGGED)
		vgpu_warn(v, "vm %u %s: user batch %s after %llu us: engine "
			  "reset, its request fails (not counted as a fault; "
			  "vGPU held off the GPU as long)%s", v->vm,
			  gen9_engine_name((enum gen9_engine_id)id), what,
			  (unsigned long long)(spell / 1000),
			  v->stats.user_hangs == USER_HANG_LOGGED
				  ? " (further ones are only counted)" : "");
	reset_inflight(gvt, id, status);
	if (!was_failed && v->failed)
		v->fault_user = true;
}

/* No arbitration point within overrun_ns past the slice while another
 * vGPU waits: preemption could not take the engine, a reset does. */
static void overrun(struct gvt *gvt, int id)
{
	struct pexec_engine *pe = &gvt->pe[id];
	struct vgpu *v = pe->owner_vgpu;
	bool banned;

	if (stopped_in_user_batch(gvt, id, pe->inflight)) {
		user_hang(gvt, id, -GPU_ETIMEDOUT,
			  "reached no arbitration point past its slice");
		return;
	}
	banned = charge_overrun(gvt, v, id);
	reset_inflight(gvt, id, -GPU_ETIMEDOUT);
	if (banned)
		ban(v);
}

static void hang(struct gvt *gvt, int id, int r)
{
	struct pexec_engine *pe = &gvt->pe[id];
	struct vgpu *v = pe->owner_vgpu;
	const char *what = r == -GPU_ETIMEDOUT ? "hung (no progress)" :
			   r < 0 ? "faulted" : "hung";

	if (v && stopped_in_user_batch(gvt, id, pe->inflight)) {
		user_hang(gvt, id, r < 0 ? r : -GPU_ETIMEDOUT, what);
		return;
	}
	gvt_log(gvt, HV_LOG_ERR, v ? v->id : 0, "%s: workload %s, engine reset",
		gen9_engine_name((enum gen9_engine_id)id), what);
	reset_inflight(gvt, id, r < 0 ? r : -GPU_ETIMEDOUT);
}

/* ---- preemption --------------------------------------------------------------- */

/* A context that asked not to be saved cannot be continued. */
static bool preemptible(struct gvt *gvt, const struct workload *w)
{
	return gvt->p.preempt &&
	       !(w->ctx_ctrl & CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT);
}

static void request_preempt(struct gvt *gvt, int id)
{
	struct pexec_engine *pe = &gvt->pe[id];

	if (pe->inflight && !pe->preempting && preemptible(gvt, pe->inflight) &&
	    !pexec_preempt(gvt, id))
		pe->owner_vgpu->stats.preempt_requests++;
}

/* The workload left the GPU at an arbitration point: it stays at the
 * head of its queue and goes back on at its vGPU's next turn. */
static void preempted(struct gvt *gvt, int id)
{
	struct vgpu *v;
	struct workload *w = off_engine(gvt, id, &v);

	v->stats.preemptions++;
	if (w->abandoned) /* its guest reset the engine meanwhile */
		vgpu_workload_complete(v, &v->eng[id], w, 0);
	else
		w->preempted = true;
}

/* Alone on the GPU for half the hang timeout: asked to yield, it proves
 * progress at its next arbitration point and goes straight back on. */
static bool probe_due(struct gvt *gvt, const struct pexec_engine *pe,
		      uint64_t now)
{
	return !pe->preempting && now - pe->t_submit >= gvt->p.hang_timeout_ns / 2;
}

static void collect(struct gvt *gvt)
{
	uint64_t now = gvt_now(gvt);
	uint64_t limit = gvt->p.hang_timeout_ns;
	int id, r;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pexec_engine *pe = &gvt->pe[id];
		struct vgpu *v = pe->owner_vgpu;

		if (!pe->inflight && !pe->preempting)
			continue;
		r = pexec_poll(gvt, id);
		if (!pe->inflight) {
			/* Only our empty context was still on; it ends at
			 * once, or the engine is not sane: reset it. */
			if (pe->preempting && now - pe->t_preempt > limit)
				pexec_reset_engine(gvt, id);
			continue;
		}
		if (r == 1)
			finish(gvt, id, 0);
		else if (r == PEXEC_PREEMPTED)
			preempted(gvt, id);
		else if (r == 0 && overran(gvt, v, now))
			overrun(gvt, id);
		else if (r < 0 || now - pe->t_submit > limit)
			hang(gvt, id, r);
		else if (probe_due(gvt, pe, now))
			request_preempt(gvt, id);
	}
}

/* A banned vGPU stays failed whatever the guest resets: what it queued
 * since is dropped and nothing of it is scheduled again. */
static void enforce_bans(struct gvt *gvt)
{
	uint64_t left = gvt->vgpu_ids;
	int i = 0, id;

	while ((i = id_after(&left, i))) {
		struct vgpu *v = gvt->vgpu[i];

		if (!v->banned)
			continue;
		v->failed = true;
		for (id = 0; id < GEN9_NUM_ENGINES; id++)
			if (v->eng[id].present && v->eng[id].wl_count)
				vgpu_workload_drop_all(v, &v->eng[id]);
	}
}

/* ---- picking the owner ------------------------------------------------------ */

/* Round robin from the vGPU after `after`: each one there is, once. */
static struct vgpu *next_with_work(struct gvt *gvt, int after)
{
	uint64_t left = gvt->vgpu_ids;
	int id = after;

	while ((id = id_after(&left, id))) {
		if (!gvt->vgpu[id]->failed &&
		    !held(gvt, gvt->vgpu[id]) && has_queued(gvt->vgpu[id]))
			return gvt->vgpu[id];
	}
	return NULL;
}

static void switch_to(struct gvt *gvt, struct vgpu *next, uint64_t now)
{
	struct vgpu *prev = gvt->owner;
	uint64_t t0 = now;

	if (prev)
		prev->slice_used_ns += now - gvt->slice_start;
	gvt_mmio_switch(gvt, prev, next);
	if (gvt->gm) /* switch-in: gScale makes next's GM resident */
		gvt_gm_ops(gvt)->gm_switch(gvt, gvt_gm_state(gvt), next,
					   next_with_work(gvt, next->id));
	gvt->owner = next;
	gvt->rr_last = next->id;
	gvt->slice_start = now;
	next->stats.vgpu_switches++;
	next->stats.ns_switch += gvt_now(gvt) - t0;
}

/* A switch once decided stays decided: the owner gets nothing new onto
 * the GPU while its work drains (it used to keep dispatching if it queued
 * more meanwhile, while dispatch() refused it for the pending switch: the
 * GPU then sat idle until the slice expired). */
static void schedule(struct gvt *gvt)
{
	struct vgpu *cur = gvt->owner, *next = gvt->next_owner;
	uint64_t now = gvt_now(gvt);
	bool expired = now - gvt->slice_start >= gvt->p.timeslice_ns;
	int id;

	if (next && next->failed)
		next = gvt->next_owner = NULL;
	if (!next) {
		if (cur && has_queued(cur) && !cur->failed && !expired &&
		    !held(gvt, cur))
			return; /* keep the slice */
		next = next_with_work(gvt, cur ? cur->id : gvt->rr_last);
		if (!next || next == cur) {
			if (next == cur && cur)
				gvt->slice_start = now; /* alone: a fresh slice */
			return;
		}
		gvt->next_owner = next;
	}
	if (cur && expired)
		for (id = 0; id < GEN9_NUM_ENGINES; id++)
			if (gvt->pe[id].owner_vgpu == cur)
				request_preempt(gvt, id);
	if (pexec_busy(gvt))
		return; /* the owner's work leaves the GPU first */
	gvt->next_owner = NULL;
	switch_to(gvt, next, now);
}

/* ---- dispatch ------------------------------------------------------------------ */

static void tlb_invalidate(struct gvt *gvt, int engine)
{
	static const uint32_t reg[GEN9_NUM_ENGINES] = {
		GEN8_RTCR, GEN8_BTCR, GEN8_M1TCR, GEN8_M2TCR, GEN8_VTCR };

	gpu_hw_write32(gvt->hw, reg[engine], 1);
	gpu_hw_wait_for(gvt->hw, reg[engine], 1, 0, 1000);
}

static void dispatch(struct gvt *gvt)
{
	struct vgpu *v = gvt->owner;
	int id, ret;

	if (!v || gvt->next_owner || v->failed || held(gvt, v))
		return;
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct vgpu_engine *e = &v->eng[id];
		struct workload *w;
		bool again;
		uint64_t t0;

		if (!e->present || gvt->pe[id].inflight || gvt->pe[id].preempting)
			continue;
		w = queue_head(v, id);
		if (!w || on_gpu(w))
			continue;
		t0 = vgpu_time_start(v);
		again = w->preempted;
		ret = vgpu_workload_prepare(v, e, w);
		if (ret) {
			vgpu_workload_complete(v, e, w, ret);
			return; /* v failed; nothing more of it runs */
		}
		if (e->tlb_inval) {
			tlb_invalidate(gvt, id);
			e->tlb_inval = false;
		}
		if (w->schedule_in && !again)
			vgpu_emulate_schedule_in(v, e, w);
		ret = pexec_submit(gvt, id, v, w, e->sctx.gm);
		if (ret) {
			/* A wedged GPU (vgpu_pexec_full.c): fails as i915
			 * fails requests on a wedged GT. */
			if (gvt->wedged)
				gvt->wedged_fails++;
			vgpu_workload_complete(v, e, w, ret);
			return;
		}
		vgpu_ext_dispatch(v, gvt->pe[id].t_submit);
		vgpu_reset_back_on_gpu(v);
		vgpu_time_add(v, &v->stats.ns_dispatch, t0);
	}
}

void gvt_poll(struct gvt *gvt)
{
	gvt->poll_calls++;
	(void)__atomic_exchange_n(&gvt->posted, 0, __ATOMIC_ACQUIRE);
	collect(gvt);
	enforce_bans(gvt);
	schedule(gvt);
	dispatch(gvt);
	gvt_display_tick(gvt); /* vblanks due on running pipes */
}

uint64_t gvt_posted(const struct gvt *gvt)
{
	return __atomic_load_n(&gvt->posted, __ATOMIC_ACQUIRE);
}

int gvt_owner_id(const struct gvt *gvt)
{
	return gvt->owner ? gvt->owner->id : 0;
}

bool gvt_idle(const struct gvt *gvt)
{
	int id = 0;

	uint64_t left = gvt->vgpu_ids;

	if (pexec_busy(gvt))
		return false;
	while ((id = id_after(&left, id)))
		if (has_queued(gvt->vgpu[id]))
			return false;
	return true;
}

