/* The predictive gate: predictive copy only while it pays, per target vGPU
 * (issue 31). The bound it keeps is stated in gpu/gscale/gscale.h. */
#include "gpu/gscale/gscale.h"

int gscale_pf_init(struct gscale *gs)
{
	gs->pf_guess = -1;
	gs->pf_for = gs->mem.alloc(gs->mem.ctx,
				   gs->nr_chunks * sizeof(gs->pf_for[0]));
	if (!gs->pf_for)
		return -GPU_ENOMEM;
	for (uint32_t c = 0; c < gs->nr_chunks; c++)
		gs->pf_for[c] = GSCALE_NO_OWNER;
	return 0;
}

void gscale_pf_fini(struct gscale *gs)
{
	if (gs->pf_for)
		gs->mem.free(gs->mem.ctx, gs->pf_for,
			     gs->nr_chunks * sizeof(gs->pf_for[0]));
	gs->pf_for = NULL;
}

uint64_t gscale_pf_bound(const struct gscale_vgpu *v)
{
	const struct gscale_pf *p = &v->pf;
	uint64_t g = p->grants < GSCALE_PF_MAX_GRANTS ? p->grants
						      : GSCALE_PF_MAX_GRANTS;

	return GSCALE_PF_BUDGET + p->hit / GSCALE_PF_HIT_SHARE +
	       g * GSCALE_PF_GRANT;
}

int64_t gscale_pf_allowance(const struct gscale_vgpu *v)
{
	return (int64_t)gscale_pf_bound(v) -
	       (int64_t)(v->pf.wasted + v->pf.pending);
}

static uint16_t *mark(struct gscale *gs, uint32_t c)
{
	return &gs->pf_for[c - gs->first_chunk];
}

/* The chunk copied ahead for m is lost before m switched in. */
static void lose(struct gscale *gs, uint16_t m)
{
	struct gscale_vgpu *t = &gs->vgpus[m];

	if (t->present && t->pf.pending) {
		t->pf.pending--;
		t->pf.wasted++;
	}
	gs->stats.pf_wasted_chunks++;
}

void gscale_pf_take(struct gscale *gs, uint32_t c, struct gscale_vgpu *v,
		    bool ahead, bool copied)
{
	uint16_t *m = mark(gs, c);

	if (*m != GSCALE_NO_OWNER && *m != v->id)
		lose(gs, *m);
	if (*m == v->id)
		return; /* still pending for v */
	*m = GSCALE_NO_OWNER;
	if (ahead && copied) {
		*m = (uint16_t)v->id;
		v->pf.pending++;
	}
}

void gscale_pf_resident(struct gscale *gs, uint32_t c, struct gscale_vgpu *v)
{
	uint16_t *m = mark(gs, c);

	if (*m != v->id)
		return;
	*m = GSCALE_NO_OWNER;
	if (v->pf.pending)
		v->pf.pending--;
	v->pf.hit++;
	gs->stats.pf_hit_chunks++;
}

void gscale_pf_drop(struct gscale *gs, uint32_t c)
{
	uint16_t *m = mark(gs, c);

	if (*m != GSCALE_NO_OWNER)
		lose(gs, *m);
	*m = GSCALE_NO_OWNER;
}

void gscale_pf_switch(struct gscale *gs, int id)
{
	struct gscale_vgpu *g;

	if (gs->pf_guess < 0)
		return;
	g = &gs->vgpus[gs->pf_guess];
	gs->pf_guess = -1;
	if (!g->present)
		return;
	if (g->id != id) {
		g->pf.streak = 0;
		return;
	}
	gs->stats.pf_probe_hits++;
	if (++g->pf.streak >= GSCALE_PF_PROBE_STREAK) {
		g->pf.streak = 0;
		g->pf.grants++;
	}
}

bool gscale_pf_admit(struct gscale *gs, struct gscale_vgpu *v)
{
	gs->pf_guess = v->id; /* scored at the next switch: the probe */
	if (gscale_pf_allowance(v) > 0)
		return true;
	gs->stats.pf_paused++;
	return false;
}
