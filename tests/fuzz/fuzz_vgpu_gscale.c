/* Fuzz the GGTT write path in gScale mode, with vGPU switches and aperture
 * (BAR2) programming mixed in: attacker and victim share GM, so the
 * invariants are per owner - every resident physical entry maps the VM of
 * the vGPU owning its chunk, every private-shadow entry maps its own VM,
 * every ladder mapping of the aperture maps the VM's own RAM, the fence
 * memory pool holds only pooled fences' entries, and the victim's entries
 * are exactly what its guest wrote. The attacker may also balloon its
 * high GM (gBalloon) onto the victim's slots and back, and be moved
 * (DymGPU, its entries carried to the new range) onto any slot; with
 * non-contiguous slots (issue 17) it may grow or shrink as a set and be
 * split over up to four runs, merged, moved again - its high GM then
 * several ranges, every one of them checked like the first. */
#define FZ_GSCALE 1
#define FZ_RESTORE 1 /* the world built once, put back after each input */
#include "tests/fuzz/fuzz_vgpu_common.c"
#include "gpu/gballoon/gballoon.h"

/* The mediator's ranges of the attacker are gScale's, at most 8. */
FZ_NOCOV static void fz_check_layout(struct fz_env *e)
{
	const struct gscale_vgpu *g = &gvt_gscale(e->gvt)->vgpus[e->a->gs_id];

	if (g->nr_high != e->a->nr_high || !g->nr_high ||
	    g->nr_high > GSCALE_MAX_RANGES)
		fz_die("ranges: mediator and gScale differ", g->nr_high,
		       e->a->nr_high);
	for (uint32_t r = 0; r < g->nr_high; r++)
		if ((uint64_t)g->hr[r].first << 12 != e->a->hr[r].base ||
		    (uint64_t)g->hr[r].count << 12 != e->a->hr[r].size)
			fz_die("range differs", r, e->a->hr[r].base);
}

/* Up to four runs holding the attacker's slots, lowest first, spaced by
 * the input (possibly past the end, or adjacent: refused, nothing must
 * change then). */
static uint32_t fz_runs(struct fz_env *e, uint64_t val,
			struct vgpu_slot_run *runs)
{
	uint32_t first, total, n, at;

	if (vgpu_slots(e->a, &first, &total))
		return 0;
	n = 1 + (uint32_t)(val % 4);
	if (n > total)
		n = total;
	at = (uint32_t)(val >> 8) % gvt_gscale(e->gvt)->nr_slots;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = total;

		if (i + 1 < n) /* leave at least one slot for each run after */
			c = 1 + (uint32_t)(val >> (16 + 4 * i)) %
				    (total - (n - 1 - i));
		runs[i] = (struct vgpu_slot_run){ at, c };
		total -= c;
		at += c + (uint32_t)(val >> (40 + 3 * i)) % 6;
	}
	return n;
}

/* Non-contiguous slots: balloon as a set, or re-place onto runs (split,
 * merge, move), by the policy's path or the operator's. */
static void fz_layout_op(struct fz_env *e, uint8_t ctl, uint64_t val)
{
	struct vgpu_slot_run runs[4];
	uint64_t carried;
	uint32_t n;

	switch ((ctl >> 2) & 3) {
	case 0:
		vgpu_balloon_set(e->a, (int32_t)(val % 7) - 3, &n);
		break;
	case 1:
		vgpu_set_movable(e->a, !(val & 0x80));
		n = fz_runs(e, val, runs);
		vgpu_relocate_high(e->a, runs, n, &carried);
		break;
	case 2:
		vgpu_set_movable(e->a, true);
		n = fz_runs(e, val, runs);
		vgpu_place_runs(e->a, runs, n, &carried);
		break;
	default:
		n = fz_runs(e, val, runs);
		vgpu_set_high_runs(e->a, runs, n);
		break;
	}
	fz_check_layout(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_env *e = fz_env();
	struct fz_in in = { data, size };
	int ops = 0;
	uint32_t slot0, n0, l, r;

	fz_input_begin(e);
	if (vgpu_slots(e->a, &slot0, &n0))
		abort();
	while (in.n && ops++ < 256) {
		uint8_t ctl = (uint8_t)fz_take(&in, 1);
		uint32_t idx = (uint32_t)fz_take(&in, 3);
		uint64_t val = fz_take(&in, 8);

		switch (ctl & 3) {
		case 0: /* the low GM both share */
			idx = (uint32_t)(e->a->low_base >> 12) +
			      idx % (e->a->low_size >> 12);
			break;
		case 1: /* its high GM, any of its ranges */
			idx = (uint32_t)(e->a->hr[idx % e->a->nr_high].base >> 12) +
			      (idx >> 3) % (e->a->hr[idx % e->a->nr_high].size >> 12);
			break;
		case 2: /* a vGPU switch, a balloon, or a fence (pool path) */
			if (ctl & 0x80) { /* several ranges */
				fz_layout_op(e, ctl, val);
				continue;
			}
			if ((ctl & 0x60) == 0x60) {
				int32_t d = (int32_t)(val % 7) - 3;

				vgpu_balloon(e->a, d, &l, &r);
				continue;
			}
			if ((ctl & 0x64) == 0x40) {
				/* DymGPU's move, entries carried: onto any
				 * slot, the victim's included; pinned or not */
				uint64_t carried;

				vgpu_set_movable(e->a, val & 1);
				vgpu_move_high(e->a, (uint32_t)(val >> 8) %
						     gvt_gscale(e->gvt)->nr_slots,
					       &carried);
				continue;
			}
			if (ctl & 4) {
				uint32_t f = idx % 4;

				if (ctl & 16) { /* a plausible fence in its low GM */
					uint64_t pages = e->a->low_size >> 12;
					uint64_t first = val % pages;
					uint64_t gm = e->a->low_base + first * 4096;
					uint64_t end = gm + ((val >> 16) %
							     (pages - first)) * 4096;

					val = gm | end << 32 | (val & 0xff0) | 1;
					vgpu_mmio_write(e->a, FENCE_REG_GEN6_HI(f),
							(uint32_t)(val >> 32), 4);
				}
				vgpu_mmio_write(e->a, FENCE_REG_GEN6_LO(f) +
						(ctl & 8 ? 4 : 0), (uint32_t)val, 4);
				continue;
			}
			gvt_gscale_switch(e->gvt, idx & 1 ? e->a : e->b,
					  idx & 2 ? e->b : NULL);
			continue;
		default: /* anywhere */
			idx %= e->gvt->ggtt_entries;
			break;
		}
		if (ctl & 4)
			val = (val & (FZ_RAM - 1) & ~0xfffull) | (val >> 63);
		if (ctl & 8)
			vgpu_mmio_write(e->a, GEN9_GGTT_OFFSET + 8ull * idx +
					(ctl & 16 ? 4 : 0), (uint32_t)val, 4);
		else
			vgpu_mmio_write(e->a, GEN9_GGTT_OFFSET + 8ull * idx, val, 8);
	}
	fz_check(e);
	if (vgpu_set_high_slots(e->a, slot0, n0))
		abort();	/* the next input starts from the same layout */
	fz_check(e);
	fz_input_end(e, data, size);
	return 0;
}
