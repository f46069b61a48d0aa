/* Fuzz the GGTT write path in gScale mode, with vGPU switches and aperture
 * (BAR2) programming mixed in: attacker and victim share GM, so the
 * invariants are per owner - every resident physical entry maps the VM of
 * the vGPU owning its chunk, every private-shadow entry maps its own VM,
 * every ladder mapping of the aperture maps the VM's own RAM, the fence
 * memory pool holds only pooled fences' entries, and the victim's entries
 * are exactly what its guest wrote. The attacker may also balloon its
 * high GM (gBalloon) onto the victim's slots and back, and be moved
 * (DymGPU, its entries carried to the new range) onto any slot. */
#define FZ_GSCALE 1
#include "tests/fuzz/fuzz_vgpu_common.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_env *e = fz_env();
	struct fz_in in = { data, size };
	int ops = 0;
	uint32_t slot0, n0, l, r;

	fz_attacker_begin(e);
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
		case 1: /* its high GM */
			idx = (uint32_t)(e->a->high_base >> 12) +
			      idx % (e->a->high_size >> 12);
			break;
		case 2: /* a vGPU switch, a balloon, or a fence (pool path) */
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
						     e->gvt->gs->nr_slots,
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
	fz_attacker_end(e);
	fz_check(e);
	return 0;
}
