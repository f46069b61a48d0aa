/* DymGPU attached to the mediator (gpu/vgpu/vgpu_ext.h): its per-gvt
 * state under gScale, and the monitor (gpu/policy/monitor.h, DymGPU
 * paper §III-A) fed at the scheduler's points: a workload dispatched (the
 * vGPU is active), a workload off the GPU ("ran": its busy time, into
 * DymGPU's 1 s buckets over a 20 s window), a switch-in (GGTT entries
 * copied, time). GM use is the mediator's count of present entries in the
 * vGPU's private shadow (v->gm_present), read at each period. */
#include "gpu/dymgpu/dymgpu_priv.h"
#include "mini/string.h"

static int gvt_attach(struct gvt *gvt, const void *params, void **state)
{
	const struct dymgpu_params *dp = params;
	struct mon_params mp = { .window_ns = dp ? dp->window_ms * 1000000ull
						 : 0 };
	uint32_t pages = (sizeof(struct dymgpu) + VGPU_PAGE - 1) / VGPU_PAGE;
	struct gvt_status st;
	struct dymgpu *d;
	uint64_t now;

	memset(&st, 0, sizeof(st));
	gvt_get_status(gvt, &st);
	*state = NULL;
	if (!st.gscale)
		return 0;	/* gVirt: no slots to place on */
	now = gvt_now(gvt);
	d = gvt_pages(gvt, pages, NULL);
	if (!d)
		return -GPU_ENOMEM;
	memset(d, 0, pages * VGPU_PAGE);
	if (mon_init(&d->mon, &mp, now) || dyml_init(&d->dyml, NULL, st.nr_slots)) {
		gvt_free_pages(gvt, d, pages);
		return -GPU_EINVAL;
	}
	d->pages = pages;
	d->off = dp && dp->off;
	d->start_ns = d->last_tick = now;
	*state = d;
	return 0;
}

static void gvt_detach(struct gvt *gvt, void *state)
{
	struct dymgpu *d = state;

	if (d)
		gvt_free_pages(gvt, d, d->pages);
}

/* Every per-vGPU hook gets the gvt's state (NULL: not gScale). */
static int attach(struct vgpu *v, void **state)
{
	*state = dymgpu_of(v->gvt);
	return 0;
}

/* The vGPU is destroyed: out of the monitor and the policy. */
static void detach(struct vgpu *v, void *state)
{
	struct dymgpu *d = state;

	if (!d || v->id <= 0 || v->id > GVT_MAX_VGPUS)
		return;
	mon_remove(&d->mon, (uint32_t)v->id);
	dyml_remove(&d->dyml, (uint32_t)v->id);
}

uint32_t dymgpu_nslots(const struct vgpu *v)
{
	uint32_t first, n;

	return vgpu_slots(v, &first, &n) ? 0 : n;
}

void dymgpu_sync_layout(struct dymgpu *d, struct vgpu *v)
{
	struct vgpu_slot_run runs[VGPU_MAX_RANGES];
	uint64_t set[DYML_SET_WORDS] = { 0 };
	uint32_t n = vgpu_slot_runs(v, runs, VGPU_MAX_RANGES);

	if (n == 1) {
		dyml_sync(&d->dyml, (uint32_t)v->id, runs[0].first,
			  runs[0].count);
		return;
	}
	for (uint32_t r = 0; r < n; r++)
		for (uint32_t x = runs[r].first;
		     x < runs[r].first + runs[r].count && x < DYML_MAX_SLOTS; x++)
			set[x / 64] |= 1ull << (x % 64);
	dyml_sync_set(&d->dyml, (uint32_t)v->id, set);
}

bool dymgpu_track(struct dymgpu *d, struct vgpu *v)
{
	uint32_t first, n;

	if (v->gs_id < 0 || v->id <= 0 || v->id > GVT_MAX_VGPUS)
		return false;
	if (d->mon.v[v->id].present)
		return true;
	mon_add(&d->mon, (uint32_t)v->id, gvt_now(v->gvt));
	vgpu_slots(v, &first, &n);
	dyml_add(&d->dyml, (uint32_t)v->id, first, n, v->movable);
	dymgpu_sync_layout(d, v);
	memset(&d->last[v->id], 0, sizeof(d->last[0]));
	return true;
}

/* ---- the scheduler's points ------------------------------------------ */

static void dispatch(struct vgpu *v, void *state, uint64_t t)
{
	if (state && dymgpu_track(state, v))
		mon_submit(&((struct dymgpu *)state)->mon, (uint32_t)v->id, t);
}

static void ran(struct vgpu *v, void *state, uint64_t start, uint64_t end)
{
	if (state && dymgpu_track(state, v))
		mon_gpu_busy(&((struct dymgpu *)state)->mon, (uint32_t)v->id,
			     start, end);
}

static void switch_in(struct vgpu *v, void *state, uint64_t n, uint64_t ns)
{
	if (state && dymgpu_track(state, v))
		mon_copy(&((struct dymgpu *)state)->mon, (uint32_t)v->id, n, ns);
}

/* The monitor's utilization, what vgpu_place_info reports (gBalloon's
 * weights, through vgpu_ext_util). */
static bool util(const struct vgpu *v, void *state, uint32_t *permille)
{
	struct vgpu_place_info pi;

	(void)state;
	if (vgpu_place_info(v, &pi))
		return false;
	*permille = pi.util_permille;
	return true;
}

const struct vgpu_ext_ops dymgpu_ext_ops = {
	.name = "dymgpu",
	.gvt_attach = gvt_attach,
	.gvt_detach = gvt_detach,
	.attach = attach,
	.detach = detach,
	.dispatch = dispatch,
	.ran = ran,
	.switch_in = switch_in,
	.util = util,
};
