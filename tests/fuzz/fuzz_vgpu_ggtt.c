/* Fuzz the GGTT write path: 4- and 8-byte writes, any order of halves,
 * entries inside, around and far from the vGPU's slices, values naming
 * guest RAM, other VMs' RAM, MMIO holes and garbage. Invariant:
 * fuzz_vgpu_common.c, plus the guest reads back exactly what it wrote for
 * committed entries in its slices. */
#define FZ_RESTORE 1 /* the world built once, put back after each input */
#include "tests/fuzz/fuzz_vgpu_common.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_env *e = fz_env();
	struct fz_in in = { data, size };
	int ops = 0;

	fz_input_begin(e);
	while (in.n && ops++ < 512) {
		uint8_t ctl = (uint8_t)fz_take(&in, 1);
		uint32_t idx = (uint32_t)fz_take(&in, 3);
		uint64_t val = fz_take(&in, 8);
		uint64_t off;

		switch (ctl & 3) {
		case 0: /* its low slice */
			idx = (uint32_t)(e->a->low_base >> 12) + idx % (e->a->low_size >> 12);
			break;
		case 1: /* its high slice */
			idx = (uint32_t)(e->a->high_base >> 12) + idx % (e->a->high_size >> 12);
			break;
		case 2: /* the victim's slice */
			idx = (uint32_t)(e->b->low_base >> 12) + idx % 64;
			break;
		default: /* anywhere */
			idx %= e->gvt->ggtt_entries;
			break;
		}
		if (ctl & 4)
			val = (val & (FZ_RAM - 1) & ~0xfffull) | (val >> 63); /* plausible */
		off = GEN9_GGTT_OFFSET + 8ull * idx;
		if (ctl & 8)
			vgpu_mmio_write(e->a, off + (ctl & 16 ? 4 : 0), (uint32_t)val, 4);
		else
			vgpu_mmio_write(e->a, off, val, 8);
		if ((ctl & 0xe0) == 0xe0)
			vgpu_mmio_write(e->a, GFX_FLSH_CNTL_GEN6, 1, 4);
	}
	fz_check(e);
	fz_input_end(e, data, size);
	return 0;
}
