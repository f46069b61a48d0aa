/* Fuzz the command scanner: the input becomes the ring segment and the
 * contents of two PPGTT batch pages and one GGTT (privileged) batch page
 * of the attacker vGPU, then it is submitted on RCS or BCS. The scanner
 * must terminate, and whatever it accepts really runs on the Gen9 model
 * without breaking the invariant, also when the attacker rewrites its
 * batches after submitting them (fuzz_vgpu_common.c: nothing of the
 * victim VM changes); a rejection fails only the attacker. */
#define FZ_USE_MODEL 1
#include "tests/fuzz/fuzz_vgpu_common.c"

#define BB_VA 0x40000000ull

/* TOCTOU: once submitted, the attacker rewrites all its batch pages with
 * GGTT stores into the victim's graphics memory and a write of the
 * engine's status-page register. Only the checked copies may run, so the
 * invariant must hold whatever the scanner accepted. */
/* The victim's GM address of its first RAM-backed page (found once in
 * its GGTT range), so a store there would change its memory. */
static uint32_t victim_gm(struct fz_env *e)
{
	static uint32_t found;
	uint64_t i, first = e->b->low_base >> 12;

	for (i = first; !found && i < first + (e->b->low_size >> 12); i++)
		if (fz_victim_entry(e, (uint32_t)i) == e->b_ggtt[0])
			found = (uint32_t)(i << 12);
	return found ? found : (uint32_t)e->b->low_base;
}

static void rewrite_batches(struct fz_env *e, uint64_t bb, uint64_t gbb)
{
	uint32_t victim = victim_gm(e);
	const uint32_t evil[7] = {
		MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, victim, 0, 0xbadbad,
		MI_LOAD_REGISTER_IMM(1), RING_HWS_PGA(RENDER_RING_BASE), 0,
	};
	uint32_t i;

	for (i = 0; i < 3 * 1024; i++)
		gi_write32(&e->ga, i < 2048 ? bb + 4ull * i : gbb + 4ull * (i - 2048),
			   evil[i % 7]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_env *e = fz_env();
	struct guest_i915 *g = &e->ga;
	struct fz_in in = { data, size };
	uint32_t ring[256], gm, n, i;
	uint64_t bb, gbb;
	int engine, c, mode;

	fz_attacker_begin(e);
	mode = (int)fz_take(&in, 1);
	engine = mode & 1 ? GEN9_BCS0 : GEN9_RCS0;
	c = gi_ctx_create(g, engine);
	bb = gi_alloc_pages(g, 2);
	gbb = gi_alloc_pages(g, 1);
	gm = gi_gm_alloc(g, 4096, false);
	if (c < 0 || !bb || !gbb || !gm)
		fz_die("attacker objects", 0, 0);
	gi_ppgtt_map(g, BB_VA, bb, 2);
	gi_ggtt_bind(g, gm, gbb, 1);
	/* Batches first (up to 3 pages from the input, the rest batch
	 * ends so short inputs make complete batches), then the ring. */
	for (i = 0; i < 3 * 1024; i++)
		gi_write32(g, i < 2048 ? bb + 4ull * i : gbb + 4ull * (i - 2048),
			   MI_BATCH_BUFFER_END);
	n = (uint32_t)(fz_take(&in, 2) % (3 * 1024));
	for (i = 0; i < n && in.n >= 4; i++) {
		uint32_t dw = (uint32_t)fz_take(&in, 4);
		uint64_t at = i < 2048 ? bb + 4ull * i : gbb + 4ull * (i - 2048);

		gi_write32(g, at, dw);
	}
	for (n = 0; n < 254 && in.n >= 4; n++) {
		uint32_t dw = (uint32_t)fz_take(&in, 4);

		/* Make batch starts land on our batches more often. */
		if ((dw >> 23) == 0x31 && n + 2 < 254) {
			ring[n++] = dw;
			ring[n++] = dw & (1u << 8) ? (uint32_t)BB_VA + (dw & 0xffc) : gm;
			dw = dw & (1u << 8) ? (uint32_t)(BB_VA >> 32) : 0;
		}
		ring[n] = dw;
	}
	if (n & 1)
		ring[n++] = MI_NOOP;
	gi_ring_emit(g, c, ring, n);
	gi_submit(g, c, -1);
	if (mode & 2)
		rewrite_batches(e, bb, gbb);
	fz_run(e, 8);
	fz_check(e);
	fz_attacker_end(e);
	fz_check(e);
	return 0;
}
