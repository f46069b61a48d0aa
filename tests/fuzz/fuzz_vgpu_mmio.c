/* Fuzz the MMIO write path of one vGPU (registers, PVINFO incl. g2v,
 * ELSP, interrupts, fences, GGTT window, config space) interleaved with
 * guest CPU stores into its RAM (which trap on shadowed page tables) and
 * scheduler polls. Invariant: fuzz_vgpu_common.c. */
#define FZ_RESTORE 1 /* the world built once, put back after each input */
#include "tests/fuzz/fuzz_vgpu_common.c"

/* Offsets worth hitting more often than a uniform 16 MiB would. */
static const uint32_t hot[] = {
	0x78000, 0x78008, 0x78010, 0x78838, 0x7883c, 0x78818, 0x78804,
	0x2230, 0x2234, 0x2080, 0x229c, 0x23a0, 0x2244, 0x209c, 0x20d0, 0x24d0,
	0x22230, 0x22080, 0x44200, 0x44300, 0x44304, 0x44308, 0x4430c,
	0x100000, 0x100004, 0x100008, 0xa188, 0xa278, 0x941c, 0x101008,
	0x138124, 0x45404, 0x4260, 0x40e0, 0xc800, 0x800000,
	/* Port D's AUX channel (the virtual monitor) and the interrupt
	 * registers its sends raise into. */
	0x64310, 0x64314, 0x44444, 0x44448, 0xc4000,
	/* Port D's DDI buffer and DP transport, pipes A-C (PIPEDSL,
	 * PIPECONF, frame counter, plane 1's and the cursor's surface and
	 * live surface) and pipe A's interrupt bank. */
	0x64300, 0x64340, 0x64344, 0x70000, 0x70008, 0x71008, 0x72008,
	0x70040, 0x70084, 0x7019c, 0x701ac, 0x7029c, 0x44404, 0x44408,
};

/* The running-pipe counts agree with the pipes (vgpu_display.c): the
 * vblank tick skips a vGPU whose count is 0. */
static void check_pipes(struct fz_env *e)
{
	uint32_t on = 0;
	unsigned p;

	for (p = 0; p < VDISP_PIPES; p++)
		on += e->a->pipe[p].on;
	if (on != e->a->pipes_on || on > e->gvt->disp_pipes_on)
		fz_die("pipes_on", on, e->a->pipes_on);
}

static void one_op(struct fz_env *e, struct fz_in *in)
{
	unsigned int op = (unsigned int)fz_take(in, 1);
	unsigned int size = 1u << (fz_take(in, 1) & 3);
	uint32_t off = (uint32_t)fz_take(in, 4);
	uint64_t val = fz_take(in, 8), r;

	switch (op % 8) {
	case 0: case 1: /* hot register */
		off = hot[off % (sizeof(hot) / sizeof(hot[0]))] + (off >> 24 & 0xc);
		vgpu_mmio_write(e->a, off & ~(size - 1), val, size);
		break;
	case 2: /* anywhere in BAR0 */
		off &= 0xffffff;
		vgpu_mmio_write(e->a, off & ~(size - 1), val, size);
		break;
	case 3: /* GGTT entry near the vGPU's slices */
		off = 0x800000 + (uint32_t)((e->a->low_base >> 12) * 8) +
		      (off % 0x80000) - 0x1000;
		vgpu_mmio_write(e->a, off & ~(size - 1), val, size >= 4 ? size : 8);
		break;
	case 4: /* guest CPU store into the first 256 KiB of its RAM */
		off = 0x100000 + (off % 0x40000);
		size = size == 1 ? 16 : size;
		if (off + size <= FZ_RAM) {
			uint64_t two[2] = { val, ~val };

			fake_hv_guest_store(&e->hv, 1, off & ~(size - 1), two, size);
		}
		break;
	case 5:
		vgpu_cfg_write(e->a, off & 0xff & ~(size - 1), (uint32_t)val,
			       size > 4 ? 4 : size);
		break;
	case 6:
		vgpu_mmio_read(e->a, off & 0xffffff & ~(size - 1), &r, size);
		break;
	default:
		gvt_poll(e->gvt);
		e->hv.now += val & 0xfffffff;
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_env *e = fz_env();
	struct fz_in in = { data, size };
	int ops = 0;

	fz_input_begin(e);
	while (in.n && ops++ < 256)
		one_op(e, &in);
	gvt_poll(e->gvt);
	check_pipes(e);
	fz_check(e);
	fz_input_end(e, data, size);
	return 0;
}
