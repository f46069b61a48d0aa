/* Fuzz the command scanner: the input becomes the ring segment and the
 * contents of two PPGTT batch pages and one GGTT (privileged) batch page
 * of the attacker vGPU - on RCS also its context's indirect-context
 * and/or per-context workaround batch - then it is submitted on RCS or
 * BCS. The scanner
 * must terminate, and whatever it accepts really runs on the Gen9 model
 * without breaking the invariant, also when the attacker rewrites its
 * batches after submitting them (fuzz_vgpu_common.c: nothing of the
 * victim VM changes); a rejection fails only the attacker.
 *
 * Speed: the attacker, its contexts and batch pages are built once (a
 * vGPU create/destroy per input was 45% of the time); each input starts
 * from a guest reset of its engines and the pages of its RAM anyone
 * touched (fake_hv_track_dirty) restored from a snapshot, as
 * fuzz_vgpu_diff does.
 *
 * Display flips (MI_DISPLAY_FLIP, issue 29): in the ring they point at the
 * attacker's page, so accepted flips change its display registers; the
 * dictionary (fuzz_vgpu_scan.dict) holds their headers. */
#define FZ_USE_MODEL 1
/* vGPUs of 2 + 4 MiB GM: the check after each input walks every entry of
 * both vGPUs' ranges, 20 k of them with GVT-like 8 + 32 MiB (28% of an
 * input's time); what the inputs reach (their own pages) is the same. */
#define FZ_SMALL_VGPU 1
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
	static uint32_t pages[3 * 1024]; /* 2 PPGTT pages, then the GGTT one */
	uint32_t i;

	for (i = 0; i < 3 * 1024; i++)
		pages[i] = evil[i % 7];
	/* Three guest stores, not 3072 (the same bytes land). */
	fake_hv_guest_write(&e->hv, 1, bb, pages, 8192);
	fake_hv_guest_write(&e->hv, 1, gbb, pages + 2048, 4096);
}

static struct {
	int ctx[2]; /* RCS, BCS */
	uint64_t bb, gbb;
	uint32_t gm;
	uint8_t *snap; /* attacker RAM after setup */
} S;

static uint8_t *attacker_ram(struct fz_env *e)
{
	return e->hv.arena + e->hv.vm[1].first_page * 4096;
}

static void scan_build(struct fz_env *e)
{
	struct guest_i915 *g = &e->ga;

	fz_attacker_begin(e);
	S.ctx[0] = gi_ctx_create(g, GEN9_RCS0);
	S.ctx[1] = gi_ctx_create(g, GEN9_BCS0);
	S.bb = gi_alloc_pages(g, 2);
	S.gbb = gi_alloc_pages(g, 1);
	S.gm = gi_gm_alloc(g, 4096, false);
	if (S.ctx[0] < 0 || S.ctx[1] < 0 || !S.bb || !S.gbb || !S.gm)
		fz_die("attacker objects", 0, 0);
	gi_ppgtt_map(g, BB_VA, S.bb, 2);
	gi_ggtt_bind(g, S.gm, S.gbb, 1);
	/* Batch ends everywhere, so short inputs make complete batches. */
	for (uint32_t i = 0; i < 3 * 1024; i++)
		gi_write32(g, i < 2048 ? S.bb + 4ull * i : S.gbb + 4ull * (i - 2048),
			   MI_BATCH_BUFFER_END);
	S.snap = malloc(FZ_RAM);
	if (!S.snap)
		fz_die("snapshot", 0, 0);
	memcpy(S.snap, attacker_ram(e), FZ_RAM);
	fake_hv_restore_dirty(&e->hv, 1, S.snap); /* clean from here */
}

/* Back to the state after scan_build, as far as an input moved it. */
static void scan_reset(struct fz_env *e)
{
	struct guest_i915 *g = &e->ga;

	if (pexec_busy(e->gvt)) {
		/* Still running: the hang path resets it. */
		e->hv.now += e->gvt->p.hang_timeout_ns + 1;
		gvt_poll(e->gvt);
	}
	gi_mmio_write(g, GEN6_GDRST,
		      gen9_engine_reset_domain(GEN9_RCS0) |
			      gen9_engine_reset_domain(GEN9_BCS0), 4);
	fake_hv_restore_dirty(&e->hv, 1, S.snap);
	g->ctx[S.ctx[0]].tail = 0;
	g->ctx[S.ctx[1]].tail = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_env *e = fz_env();
	struct guest_i915 *g = &e->ga;
	struct fz_in in = { data, size };
	static uint32_t bb[3 * 1024];
	uint32_t ring[256], n, i;
	int c, k, mode;

	if (!e->a)
		scan_build(e);
	scan_reset(e);
	mode = (int)fz_take(&in, 1);
	c = S.ctx[mode & 1];
	/* Batches first (up to 3 pages from the input), then the ring. */
	n = (uint32_t)(fz_take(&in, 2) % (3 * 1024));
	for (i = 0; i < n && in.n >= 4; i++)
		bb[i] = (uint32_t)fz_take(&in, 4);
	/* One guest write per batch, not one per dword: the same bytes. */
	fake_hv_guest_write(&e->hv, 1, S.bb, bb, 4ull * (i < 2048 ? i : 2048));
	if (i > 2048)
		fake_hv_guest_write(&e->hv, 1, S.gbb, bb + 2048, 4ull * (i - 2048));
	for (n = 0; n < 254 && in.n >= 4; n++) {
		uint32_t dw = (uint32_t)fz_take(&in, 4);

		/* Make batch starts land on our batches more often. */
		if ((dw >> 23) == 0x31 && n + 2 < 254) {
			ring[n++] = dw;
			ring[n++] = dw & (1u << 8) ? (uint32_t)BB_VA + (dw & 0xffc) : S.gm;
			dw = dw & (1u << 8) ? (uint32_t)(BB_VA >> 32) : 0;
		}
		/* A display flip names the attacker's own page (a flip the
		 * scanner performs) with the input's pitch and tiling; the
		 * flip type comes from the header's bits 14:13. */
		if ((dw >> 23) == MI_OP_DISPLAY_FLIP && n + 2 < 254) {
			ring[n++] = dw;
			ring[n++] = (uint32_t)fz_take(&in, 4);
			dw = S.gm | ((dw >> 13) & 3);
		}
		ring[n] = dw;
	}
	if (n & 1)
		ring[n++] = MI_NOOP;
	/* The render context's workaround batches (vgpu_scan_wa_ctx): the
	 * GGTT batch page named by the image as the indirect context batch
	 * (mode bits 4-7: its size in cachelines) and/or the per-context
	 * one; the snapshot restores the image for the next input. */
	if ((mode & 0x0c) && c == S.ctx[0]) {
		uint64_t st = g->ctx[c].lrca_gpa + LRC_STATE_OFFSET;
		uint32_t cl = ((uint32_t)mode >> 4) & CTX_INDIRECT_SIZE_MASK;

		if (mode & 4)
			gi_write32(g, st + CTX_RCS_INDIRECT_CTX * 4,
				   S.gm | (cl ? cl : 1));
		if (mode & 8)
			gi_write32(g, st + CTX_BB_PER_CTX_PTR * 4,
				   S.gm | CTX_PER_CTX_VALID);
	}
	gi_ring_emit(g, c, ring, n);
	gi_submit(g, c, -1);
	if (mode & 2)
		rewrite_batches(e, S.bb, S.gbb);
	/* Up to 8 ms of GPU time; most inputs are done after the first. */
	for (k = 0; k < 8 && (k == 0 || !gvt_idle(e->gvt)); k++)
		fz_run(e, 1);
	fz_check(e);
	return 0;
}
