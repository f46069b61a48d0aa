/* One policy over one trace: create the vGPUs, replay SIM_SECONDS of 16 ms
 * slices (round robin over the busy vGPUs, idle ones skipped, as the
 * mediator's scheduler does), and read gScale's counters. */
#include <stdlib.h>
#include <string.h>

#include "tools/eval/gscale/eval.h"

const char *const policy_names[POL_COUNT] = {
	[POL_GVIRT] = "gvirt", [POL_BASIC] = "gscale-basic",
	[POL_GSCALE] = "gscale", [POL_PREDICT] = "gscale+predict",
};

#define SLICES (SIM_SECONDS * 1000 / SLICE_MS)

/* gVirt partitions the GGTT statically: its limit is the arithmetic of
 * gpu/vgpu (vgpu_create.c, README): low GM (256 - 128) / 64 = 2 vGPUs of
 * this type. It never copies entries at a switch. */
static int run_gvirt(int n, struct run_result *out)
{
	int max = (256 - 128) / VGPU_LOW_MIB;

	out->fits = n <= max;
	out->vgpus = out->fits ? n : max;
	return 0;
}

static int next_busy(const struct gscale *gs, int n, int from)
{
	for (int k = 1; k <= n; k++) {
		int id = (from + k + n) % n;

		if (gs->vgpus[id].busy)
			return id;
	}
	return -1;
}

static void guest_writes(struct gscale *gs, int vm, uint32_t permille,
			 uint32_t *cursor)
{
	const struct gscale_vgpu *v = &gs->vgpus[vm];
	uint32_t total = v->low.count + v->high.count;
	uint32_t k = (uint32_t)((uint64_t)total * permille / 1000);

	for (uint32_t i = 0; i < k; i++) {
		uint32_t off = (*cursor)++ % total;
		uint32_t idx = off < v->low.count
				       ? v->low.first + off
				       : v->high.first + off - v->low.count;
		/* A page of this VM: distinct per VM and entry. */
		uint64_t pte = ((uint64_t)(vm + 1) << 32 | (uint64_t)off << 12) | 1;

		gscale_guest_write(gs, vm, idx, pte);
	}
}

static void replay(struct gscale *gs, int n, const enum profile *prof)
{
	uint32_t *cursor = calloc(n, sizeof(*cursor));
	int cur = -1;

	for (int s = 0; s < SLICES; s++) {
		int next;

		for (int vm = 0; vm < n; vm++) {
			gscale_set_busy(gs, vm, profile_busy(prof[vm], vm, s));
			if (gs->vgpus[vm].busy)
				guest_writes(gs, vm,
					     profile_writes_permille(prof[vm], s),
					     &cursor[vm]);
		}
		next = next_busy(gs, n, cur < 0 ? n - 1 : cur);
		if (next < 0)
			continue;
		gscale_switch_to(gs, next);
		cur = next;
		/* While it runs, copy the one after it ahead. */
		gscale_prefetch(gs, next_busy(gs, n, cur));
	}
	free(cursor);
}

int run_policy(enum policy pol, int n, const enum profile *prof,
	       struct run_result *out)
{
	struct gscale_mem mem = ev_heap_mem;
	struct ev_model pf;
	struct gscale *gs;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (pol == POL_GVIRT)
		return run_gvirt(n, out);
	gs = calloc(1, sizeof(*gs));
	if (!gs || ev_model_init(&pf, GGTT_ENTRIES, APERTURE_BYTES))
		return -1;
	struct gscale_params p = layout(pol != POL_BASIC, pol == POL_PREDICT);
	err = gscale_init(gs, &pf.hw, &p, &mem);
	for (int vm = 0; !err && vm < n; vm++)
		if (gscale_vgpu_add(gs, MIB(VGPU_LOW_MIB), MIB(VGPU_HIGH_MIB)) < 0)
			err = -1;
	if (!err) {
		replay(gs, n, prof);
		out->fits = true;
		out->vgpus = n;
		out->switches = gs->stats.switches;
		out->copied = gs->stats.entries_copied;
		out->prefetched = gs->stats.entries_prefetched;
		out->copy_ticks = gs->stats.copy_clock;
		out->guest_writes = gs->stats.guest_writes;
	}
	gscale_fini(gs);
	free(gs);
	ev_model_fini(&pf);
	return err;
}
