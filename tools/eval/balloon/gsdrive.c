/* The real copy path: gpu/gscale over the Gen9 model's GGTT, with the
 * study's layout (64 MiB slots, 54 of them). gScale tracks one contiguous
 * high range per vGPU, so a guest with a set of slots ("ours") is one
 * gScale vGPU per run of consecutive slots: the first carries the guest's
 * low GM, the others a one-chunk (2 MiB) stub of it - the only part of the
 * measurement the emulation adds (counted apart, see gsd_switch). */
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "tools/eval/balloon/bal.h"

int gsd_init(struct gsd *d)
{
	struct gscale_mem gm = ev_heap_mem;
	/* gScale's layout on a 4 GiB GGTT / 256 MiB aperture (as
	 * tools/eval/gscale): host 128 MiB low + 384 MiB high, fence pool
	 * 32 MiB, guests share the other 96 MiB of low GM and 3456 MiB of
	 * high GM = 54 slots. */
	struct gscale_params p = {
		.low = { MIB(128 + 32), MIB(256 - 128 - 32) },
		.high = { MIB(256 + 384), MIB(M_SLOTS * SLOT_MIB) },
		.slot_entries = SE,
		.slot_sharing = true,
	};

	memset(d, 0, sizeof(*d));
	if (ev_model_init(&d->em, GGTT_ENTRIES, APERTURE_BYTES))
		return -1;
	if (gscale_init(&d->gs, &d->em.hw, &p, &gm))
		return -1;
	return d->gs.nr_slots == M_SLOTS ? 0 : -1;
}

void gsd_fini(struct gsd *d)
{
	gscale_fini(&d->gs);
	ev_model_fini(&d->em);
}

int gsd_add_auto(struct gsd *d, int vm, uint32_t slots)
{
	int id = gscale_vgpu_add(&d->gs, LOW_E, slots * SE);

	if (id < 0)
		return id;
	d->piece[vm][0] = id;
	d->npieces[vm] = 1;
	if (vm >= d->n)
		d->n = vm + 1;
	return (int)d->gs.vgpus[id].slot;
}

static int add_at(struct gsd *d, uint32_t low, const struct ncs_run *r)
{
	int id = gscale_vgpu_add(&d->gs, low, r->count * SE);

	if (id < 0)
		return id;
	if (gscale_vgpu_set_high(&d->gs, id, r->first, r->count * SE)) {
		gscale_vgpu_remove(&d->gs, id);
		return -1;
	}
	return id;
}

/* Any change costs the guest every high-GM entry it had resident (gScale
 * scrubs a resized range whole): piece 0 is re-homed with
 * gscale_vgpu_set_high (the mediator's ballooning path), the others are
 * made anew. */
int gsd_set(struct gsd *d, int vm, const struct ncs_set *set)
{
	struct ncs_run runs[GSD_MAX_RUNS];
	uint32_t nr = ncs_runs(set, M_SLOTS, runs, GSD_MAX_RUNS);
	bool current = false;

	if (!nr || nr > GSD_MAX_RUNS)
		return -1;
	for (int i = 0; i < d->npieces[vm]; i++)
		current |= d->gs.current == d->piece[vm][i];
	if (current)
		d->gs.current = -1; /* we copy it back in ourselves below */
	if (!d->npieces[vm]) {
		int id = add_at(d, LOW_E, &runs[0]);

		if (id < 0)
			return id;
		d->piece[vm][0] = id;
		d->npieces[vm] = 1;
	} else if (gscale_vgpu_set_high(&d->gs, d->piece[vm][0], runs[0].first,
					runs[0].count * SE)) {
		return -1;
	}
	for (int i = 1; i < d->npieces[vm]; i++)
		gscale_vgpu_remove(&d->gs, d->piece[vm][i]);
	d->npieces[vm] = 1;
	for (uint32_t i = 1; i < nr; i++) {
		int id = add_at(d, GSCALE_CHUNK_ENTRIES, &runs[i]);

		if (id < 0)
			return id;
		d->piece[vm][d->npieces[vm]++] = id;
	}
	if (vm >= d->n)
		d->n = vm + 1;
	return 0;
}

/* High-GM chunks of id that do not hold its entries: what a switch to it
 * copies there. (Low GM is not counted this way: gScale skips low chunks
 * that still hold what id last saw, gscale_gen.c, so the entries copied
 * minus the missing low chunks is no longer the high part.) */
static uint32_t high_missing(const struct gscale *gs, int id)
{
	const struct gscale_vgpu *v = &gs->vgpus[id];
	uint32_t c0 = v->high.first / GSCALE_CHUNK_ENTRIES, n = 0;

	for (uint32_t c = c0; c < c0 + v->high.count / GSCALE_CHUNK_ENTRIES; c++)
		n += gs->owner[c - gs->first_chunk] != id;
	return n;
}

uint64_t gsd_switch(struct gsd *d, int vm)
{
	uint64_t high = 0;

	for (int i = 0; i < d->npieces[vm]; i++) {
		int id = d->piece[vm][i];
		struct gscale_vgpu *v = &d->gs.vgpus[id];
		uint64_t e0 = v->entries_copied, c0 = d->gs.stats.copy_clock;
		uint64_t hi = (uint64_t)high_missing(&d->gs, id) *
			      GSCALE_CHUNK_ENTRIES, got;

		if (d->gs.current == id)
			continue; /* resident: gscale_switch_to does nothing */
		gscale_switch_to(&d->gs, id);
		got = v->entries_copied - e0;
		/* The copy must have made every high chunk id's, and copied at
		 * least those: else report a count the slot model cannot
		 * match, so the run stops. */
		high += high_missing(&d->gs, id) || got < hi ? UINT32_MAX : hi;
		d->all_copied += got;
		d->ticks += d->gs.stats.copy_clock - c0;
	}
	d->high_copied += high;
	return high;
}
