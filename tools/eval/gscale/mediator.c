/* The mediator-level runs: the same profiles replayed through the whole
 * mediator (gvt_create / vgpu_create in gScale mode over the Gen9 model),
 * synthetic guests writing GGTT entries through BAR0 (the real trap path:
 * validate, translate, private shadow, physical GGTT when resident, ladder
 * mapping in EPT), and every vGPU switch done as the scheduler's switch_to
 * does it (register switch, gScale copy, fence load, predictive copy of the
 * next vGPU with work). Measured on that path with rdtsc: the whole switch
 * and, inside it, the copy (gpu/gscale's own clock). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/model/gen9_model.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "tools/eval/gscale/eval.h"
#include "tests/world/evguest.h"

#define MED_MAX 64

FILE *med_series;
#define SLICES (SIM_SECONDS * 1000 / SLICE_MS)

struct med {
	struct model_world mw;
	uint64_t tsc0;
	double ns_per_tick;
	int n;
	struct vgpu *v[MED_MAX];
	struct evguest g[MED_MAX];
	uint32_t cursor[MED_MAX];
};

/* The mediator's clock: real time (TSC), so its own timers measure real
 * work, plus the simulated time the replay adds to the fake's now. */
static uint64_t tsc_clock(void *arg)
{
	struct med *w = arg;

	return (uint64_t)((double)(__rdtsc() - w->tsc0) * w->ns_per_tick);
}

static int med_init(struct med *w, int n, enum policy pol)
{
	struct gvt_params p = { 0 };
	struct gscale_settings gs = { .on = pol != POL_GVIRT,
				      .basic = pol == POL_BASIC,
				      .predictive = pol == POL_PREDICT,
				      .slot_mib = SLOT_MIB };

	memset(w, 0, sizeof(*w));
	p.ext[0] = &dymgpu_ext_ops;	/* its monitor, as in the hypervisor */
	p.ext[1] = &gscale_ext_ops;
	p.ext_params[1] = &gs;	/* read during gvt_create only */
	w->ns_per_tick = 1e9 / tsc_hz();
	w->tsc0 = __rdtsc();
	w->n = evg_world(&w->mw,
			 (struct mw_config){ .aperture_mib = APERTURE_BYTES >> 20,
					     .params = &p,
					     .clock = tsc_clock,
					     .clock_arg = w },
			 n, w->v, w->g);
	return w->n < 0 ? -1 : 0;
}

/* A guest binds permille of its GM (low first, then high), cycling over
 * its RAM pages: the GGTT writes its driver makes. */
static void guest_binds(struct med *w, int i, uint32_t permille)
{
	struct evguest *g = &w->g[i];
	uint32_t low = (uint32_t)(g->low_size >> 12);
	uint32_t total = low + (uint32_t)(g->high_size >> 12);
	uint32_t k = (uint32_t)((uint64_t)total * permille / 1000);

	for (uint32_t x = 0; x < k; x++) {
		uint32_t off = w->cursor[i]++ % total;
		uint64_t gm = off < low ? g->low_base + ((uint64_t)off << 12)
					: g->high_base +
						  ((uint64_t)(off - low) << 12);

		evg_bind(g, gm, (uint64_t)(off % 256) << 12);
	}
}

static uint32_t initial_permille(enum profile p)
{
	switch (p) {
	case P_3D:
		return 500; /* half of its GM bound at start */
	case P_VALLEY:
		return 1000 / 18; /* scene 1 */
	case P_2D:
		return 100;
	case P_IDLE:
		return 20; /* a frame buffer */
	default:
		return 0; /* CPU-only: the driver never binds */
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *a, size_t n)
{
	if (!n)
		return 0;
	qsort(a, n, sizeof(*a), cmp_u64);
	return a[n / 2];
}

int med_run(enum policy pol, int n, const enum profile *prof,
	    struct med_result *out)
{
	struct med *w = calloc(1, sizeof(*w));
	uint64_t *sw_ticks = calloc(SLICES, 8), *cp_ticks = calloc(SLICES, 8);
	uint64_t *cp_entries = calloc(SLICES, 8);
	double tick_per_ns = tsc_hz() / 1e9;
	bool busy[MED_MAX];
	int cur = -1;
	size_t ns = 0;

	memset(out, 0, sizeof(*out));
	if (!w || !sw_ticks || !cp_ticks || !cp_entries || med_init(w, n, pol))
		return -1;
	out->supported = w->n + (int)gvt_room_for(w->mw.gvt, &vgpu_type_v5_8,
						  NULL);
	out->fits = w->n == n;
	if (!out->fits)
		goto done;
	for (int i = 0; i < n; i++)
		guest_binds(w, i, initial_permille(prof[i]));
	for (int s = 0; s < SLICES; s++) {
		struct vgpu *next, *after;
		uint64_t t0, c0, e0;
		int nx, af;

		for (int i = 0; i < n; i++) {
			busy[i] = profile_busy(prof[i], i, s);
			if (busy[i])
				guest_binds(w, i,
					    profile_writes_permille(prof[i], s));
		}
		w->mw.hv.now += (uint64_t)SLICE_MS * 1000000;
		nx = ev_next_busy(busy, n, cur < 0 ? n - 1 : cur);
		if (nx < 0 || nx == cur)
			continue; /* idle GPU, or alone: no switch */
		af = ev_next_busy(busy, n, nx);
		next = w->v[nx];
		after = af >= 0 && af != nx ? w->v[af] : NULL;
		c0 = gvt_gscale(w->mw.gvt) ? gvt_gscale(w->mw.gvt)->stats.copy_clock : 0;
		e0 = next->stats.gm_entries_copied;
		/* vgpu_sched.c switch_to(), GPU-state part. */
		t0 = __rdtsc();
		gvt_mmio_switch(w->mw.gvt, w->mw.gvt->owner, next);
		gvt_gscale_switch(w->mw.gvt, next, after);
		w->mw.gvt->owner = next;
		sw_ticks[ns] = __rdtsc() - t0;
		cp_ticks[ns] = gvt_gscale(w->mw.gvt) ? (uint64_t)((double)(
				       gvt_gscale(w->mw.gvt)->stats.copy_clock - c0) *
						       tick_per_ns)
					  : 0;
		cp_entries[ns] = next->stats.gm_entries_copied - e0;
		out->switches++;
		out->copied += cp_entries[ns];
		out->switch_ticks += sw_ticks[ns];
		out->copy_ticks += cp_ticks[ns];
		ns++;
		if (med_series)
			fprintf(med_series, "%zu %.5f %llu\n", ns,
				100.0 * (double)cp_ticks[ns - 1] /
					(tsc_hz() * SLICE_MS / 1000.0),
				(unsigned long long)cp_entries[ns - 1]);
		cur = nx;
	}
	if (med_series)
		fprintf(med_series, "\n\n");
	if (gvt_gscale(w->mw.gvt))
		out->prefetched = gvt_gscale(w->mw.gvt)->stats.entries_prefetched;
	for (int i = 0; i < n; i++) {
		const struct vgpu_stats *st = vgpu_get_stats(w->v[i]);

		out->guest_writes += st->ggtt_writes;
		out->ladder_updates += st->ladder_updates;
	}
	out->foreign_maps = w->mw.hv.foreign_maps;
	out->med_switch_ticks = median(sw_ticks, ns);
	out->med_copy_ticks = median(cp_ticks, ns);
	out->med_entries = median(cp_entries, ns);
done:
	mw_fini(&w->mw);
	free(w);
	free(sw_ticks);
	free(cp_ticks);
	free(cp_entries);
	return 0;
}
