/* Differential fuzzing of scanner and executor (issue 13 item 5): the
 * input becomes an attacker vGPU's batch pages and ring; the mediator (in
 * gScale mode) scans it, and what it accepts runs on the Gen9 model. The
 * input may also rewrite its batch pages after the submission (the guest
 * racing the GPU). After each input:
 *
 *  - every memory access the model made while the attacker's work ran
 *    (the model reaches memory only through gpu_dma, hooked here) was to
 *    the attacker VM's RAM or to the mediator objects serving the
 *    attacker (its shadow contexts, rings and batch copies, its shadow
 *    page tables, the engines' status pages) - not the victim VM, not
 *    another vGPU's or the hypervisor's pages;
 *  - no privileged register changed: fences, every engine's status page
 *    address, execlist mode and interrupt masks, the GT interrupt masks,
 *    reset and forcewake requests, the PPAT;
 *  - the victim's GGTT entries and vGPU are untouched, and not a byte of
 *    its RAM changed (it is read-only: fuzz_vgpu_common.c);
 *  - no register value crosses contexts: a second context of the attacker
 *    on the same engine, new (restore inhibit), stores every register its
 *    image holds that a command may write (gpu/hw/gen9_ctx_image.h,
 *    cmd_reg_access) and must read the defaults, never what the input
 *    loaded (issue 26 §1).
 *
 * Speed: the world (model, mediator, victim, attacker and its contexts,
 * PPGTT and shadows) is built once; per input only what an input can
 * dirty is reset: the pages of the attacker's RAM anyone was handed a
 * pointer to (fake_hv_track_dirty) are restored from a snapshot, its
 * engines get a guest engine reset, an engine left busy is reset by the
 * hang path.
 *
 * Input: flags (bit 0: blitter), ring dwords (<= 200), batch dwords (u16,
 * <= 3072: two PPGTT pages at BB_VA, one GGTT page), the batch, the ring,
 * then patches of 6 bytes (u16 batch dword index, u32 value) applied after
 * the submission; the rest of the batch pages holds MI_BATCH_BUFFER_END
 * (bb_fill). Dwords 0xFAbxxxxx stand for an address (base b of
 * fzd_base(), offset xxxxx - 0x80000), 0xFB0000nn for sensitive register
 * nn, so the fuzzer reaches the interesting places; other dwords are
 * taken as they are. */
#define FZ_USE_MODEL 1
#ifndef FZD_GVIRT /* fuzz_vgpu_diff_gvirt: partitioned GM, neighbours adjacent */
#define FZ_GSCALE 1
#endif
#define FZ_RAM (2ull << 20)
struct fz_env;
static struct gpu_dma fzd_dma(struct fz_env *e);
#define FZ_DMA_HOOK fzd_dma
#include "tests/fuzz/fuzz_vgpu_common.c"
#include "gpu/hw/gen9_ctx_image.h"

#define BB_VA 0x40000000ull
#define DATA_VA 0x50000000ull
#define RD_VA 0x60000000ull /* the reader's batches, one page per engine */
#define RD_DATA_VA 0x61000000ull /* what they store, half a page each */
#define RD_MAX 480
#define RD_DONE 0x600d600du
#define BB_DWORDS (3 * 1024)
#define RING_MAX 200
#define MAX_ALLOWED 4096
/* The blitter's bytes per poll (1 MiB in the product): blits address
 * memory only through the attacker's PPGTT, which maps two runs of two
 * pages (BB_VA, DATA_VA) and nothing around them, so any blit that does
 * not fault stays inside 8 KiB and one that moves more redraws the same
 * bytes (pitch 0, overlapping rows) - up to 4 MiB per input, most of a
 * slow input's time, checked against the same few pages. 16 KiB a poll
 * still lets a blit cover a whole run in one poll, and over the 4 polls
 * the 64 KiB of a big one, so every byte and page a blit can reach is
 * still reached; only the repetition goes (and the cut-and-resume path
 * is reached by smaller blits). */
#define FZD_BLT_BYTES (16u << 10)

/* ---- the world, built once ------------------------------------------------- */

struct fzd {
	struct fz_env *e;
	int ctx[2]; /* RCS, BCS */
	uint64_t bb_gpa, gbb_gpa, data_gpa;
	uint32_t gbb_gm, data_gm;
	uint8_t *a_snap; /* attacker RAM after setup */
	uint32_t nsens;
	uint32_t sens[128]; /* register offsets */
	uint32_t sens_val[128];
	/* mediator pages the attacker's work may touch, sorted */
	uint64_t allowed[MAX_ALLOWED];
	uint32_t nallowed;
	uint64_t spt_created, spt_freed; /* when allowed[] was built */
	uint32_t sbb_gen; /* and the attacker's shadow batch pool */
	uint64_t a_hpa; /* the attacker's RAM: [a_hpa, a_hpa + FZ_RAM) */
	bool watch;
	/* the second context per engine that reads the registers back */
	int rd_ctx[2];
	uint64_t rd_bb_gpa, rd_data_gpa;
	uint32_t rd_n[2];
	uint32_t rd_reg[2][RD_MAX];
	uint64_t rd_checked, rd_skipped;
};

static struct fzd D;

static void *fzd_phys_ptr(void *ctx, uint64_t hpa, size_t len);
static uint64_t fzd_base(unsigned int b);

static struct gpu_dma fzd_dma(struct fz_env *e)
{
	struct gpu_dma d = { e, fzd_phys_ptr };

	return d;
}

static void sens_add(uint32_t off)
{
	if (D.nsens < sizeof(D.sens) / sizeof(D.sens[0]))
		D.sens[D.nsens++] = off;
}

static void sens_init(void)
{
	static const uint32_t global[] = {
		GEN6_GDRST, GEN8_PRIVATE_PAT_LO, GEN8_PRIVATE_PAT_HI,
		FORCEWAKE_RENDER_GEN9, GEN8_GT_IMR(0), GEN8_GT_IER(0),
		GEN8_GT_IMR(1), GEN8_GT_IER(1), GEN8_GT_IMR(2), GEN8_GT_IER(2),
		GEN8_GT_IMR(3), GEN8_GT_IER(3),
	};
	unsigned int i;
	int id;

	for (i = 0; i < sizeof(global) / sizeof(global[0]); i++)
		sens_add(global[i]);
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		uint32_t b = gen9_engine_mmio_base((enum gen9_engine_id)id);

		sens_add(RING_HWS_PGA(b));
		sens_add(RING_MODE_GEN7(b));
		sens_add(RING_HWSTAM(b));
	}
	for (i = 0; i < GEN9_NUM_FENCES; i++) {
		sens_add(FENCE_REG_GEN6_LO(i));
		sens_add(FENCE_REG_GEN6_LO(i) + 4);
	}
}

FZ_NOCOV static void sens_snap(void)
{
	uint32_t i;

	for (i = 0; i < D.nsens; i++)
		D.sens_val[i] = D.e->m.regs[D.sens[i] / 4];
}

FZ_NOCOV static void sens_check(void)
{
	uint32_t i;

	for (i = 0; i < D.nsens; i++)
		if (D.e->m.regs[D.sens[i] / 4] != D.sens_val[i])
			fz_die("privileged register changed", D.sens[i],
			       D.e->m.regs[D.sens[i] / 4]);
}

static void allow_obj(const struct own_obj *o)
{
	uint32_t i;

	for (i = 0; o->va && i < o->pages && D.nallowed < MAX_ALLOWED; i++)
		D.allowed[D.nallowed++] = o->hpa + (uint64_t)i * 4096;
}

FZ_NOCOV static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The attacker's mediator objects (allocated with it, never moved) and
 * the engines' status pages: sorted once. Its shadow page tables come and
 * go; they are collected again only when one was created or freed. */
FZ_NOCOV static void allowed_build(void)
{
	struct vgpu *a = D.e->a;
	int id;
	size_t i;

	if (D.nallowed && a->stats.spt_created == D.spt_created &&
	    a->stats.spt_freed == D.spt_freed && a->sbb.gen == D.sbb_gen)
		return;
	D.spt_created = a->stats.spt_created;
	D.spt_freed = a->stats.spt_freed;
	D.sbb_gen = a->sbb.gen;
	D.nallowed = 0;
	for (i = 0; i < a->sbb.budget && D.nallowed < MAX_ALLOWED; i++)
		if (a->sbb.pg[i].va)
			D.allowed[D.nallowed++] = a->sbb.pg[i].hpa;
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		allow_obj(&a->eng[id].sctx);
		allow_obj(&a->eng[id].sring);
		allow_obj(&D.e->gvt->pe[id].hwsp);
	}
	for (i = 0; i < (size_t)vslab_end(&a->spts) && D.nallowed < MAX_ALLOWED; i++) {
		const struct spt *s = vslab_get(&a->spts, i);

		if (s && s->level)
			D.allowed[D.nallowed++] = s->shadow_hpa;
	}
	qsort(D.allowed, D.nallowed, sizeof(D.allowed[0]), cmp_u64);
}

FZ_NOCOV static bool allowed_page(uint64_t page)
{
	uint32_t lo = 0, hi = D.nallowed;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (D.allowed[mid] == page)
			return true;
		if (D.allowed[mid] < page)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

FZ_NOCOV static void *fzd_phys_ptr(void *ctx, uint64_t hpa, size_t len)
{
	struct fz_env *e = ctx;
	uint64_t p;

	if (D.watch)
		for (p = hpa & ~4095ull; p < hpa + len; p += 4096)
			if (p - D.a_hpa >= FZ_RAM && !allowed_page(p))
				fz_die(fake_hv_hpa_owner(&e->hv, p) >= 0
					       ? "GPU access to another VM"
					       : "GPU access to a hypervisor page",
				       hpa, len);
	return e->hv.dma.phys_ptr(e->hv.dma.ctx, hpa, len);
}

#ifdef FZD_GVIRT
/* A third vGPU created right after the attacker, so its GM follows the
 * attacker's: its first low and high pages are bound to its RAM. */
static struct vgpu *neighbour;
static struct guest_i915 neighbour_g;

static void neighbour_build(void)
{
	struct fz_env *e = D.e;
	struct guest_i915 *g = &neighbour_g;
	uint64_t lo, hi;

	if (fake_hv_add_vm(&e->hv, 3, FZ_RAM) ||
	    vgpu_create(e->gvt, &fz_type, 3, &neighbour))
		fz_die("neighbour", 0, 0);
	fz_guest(e, g, neighbour, 3);
	lo = gi_alloc_pages(g, 1);
	hi = gi_alloc_pages(g, 1);
	gi_ggtt_bind(g, g->low_base, lo, 1);
	gi_ggtt_bind(g, g->high_base, hi, 1);
}
#endif

/* ---- no register crosses contexts ------------------------------------------ */

static void rd_add(unsigned int k, int engine, uint32_t reg)
{
	if (D.rd_n[k] < RD_MAX && (cmd_reg_access(engine, reg) & CMD_REG_W))
		D.rd_reg[k][D.rd_n[k]++] = reg;
}

/* The registers a context's image holds (engine and render state; not
 * the ring context, which the mediator sets) that a command may load. */
static void rd_regs(unsigned int k, int engine)
{
	uint32_t base = gen9_engine_mmio_base((enum gen9_engine_id)engine), r;
	struct gen9_ctx_block b[GEN9_CTX_BLOCKS];
	unsigned int j, i;

	gen9_ctx_blocks(engine, b);
	for (j = GEN9_CTX_ENGINE_STATE_BLOCK; j < GEN9_CTX_BLOCKS; j++)
		for (i = 0; i < b[j].n; i++)
			rd_add(k, engine, base + b[j].regs[i]);
	for (j = 0; engine == GEN9_RCS0 && j < GEN9_RCS_RENDER_SPANS; j++)
		for (r = gen9_rcs_render_state[j].first;
		     r <= gen9_rcs_render_state[j].last; r += 4)
			rd_add(k, engine, r);
}

/* Reader k: a new context on engine whose user batch stores every
 * register of rd_regs, then RD_DONE after them. */
static void rd_build(unsigned int k, int engine)
{
	static uint32_t bb[1024];
	uint64_t out = RD_DATA_VA + 2048ull * k;
	uint32_t i, n = 0;

	D.rd_ctx[k] = gi_ctx_create(&D.e->ga, engine);
	rd_regs(k, engine);
	if (D.rd_ctx[k] < 0 || 4 * D.rd_n[k] + 6 > 1024 || 4 * D.rd_n[k] + 4 > 2048)
		fz_die("reader", k, D.rd_n[k]);
	for (i = 0; i < D.rd_n[k]; i++) {
		bb[n++] = MI_STORE_REGISTER_MEM_GEN8;
		bb[n++] = D.rd_reg[k][i];
		bb[n++] = (uint32_t)(out + 4 * i);
		bb[n++] = (uint32_t)((out + 4 * i) >> 32);
	}
	bb[n++] = MI_STORE_DWORD_IMM_GEN4;
	bb[n++] = (uint32_t)(out + 4 * i);
	bb[n++] = (uint32_t)((out + 4 * i) >> 32);
	bb[n++] = RD_DONE;
	bb[n++] = MI_BATCH_BUFFER_END;
	fake_hv_guest_write(&D.e->hv, 1, D.rd_bb_gpa + 4096ull * k, bb, 4ull * n);
}

static void rd_init(void)
{
	struct guest_i915 *g = &D.e->ga;

	D.rd_bb_gpa = gi_alloc_pages(g, 2);
	D.rd_data_gpa = gi_alloc_pages(g, 1);
	if (!D.rd_bb_gpa || !D.rd_data_gpa)
		fz_die("reader pages", 0, 0);
	gi_ppgtt_map(g, RD_VA, D.rd_bb_gpa, 2);
	gi_ppgtt_map(g, RD_DATA_VA, D.rd_data_gpa, 1);
	rd_build(0, GEN9_RCS0);
	rd_build(1, GEN9_BCS0);
}

/* Did the input leave a value in one of reader k's registers? Only then
 * can the next context see one: every context the attacker runs is new
 * (restore inhibit), so its load sets them all to 0. The other inputs
 * skip the reader's run, which costs more than most inputs. */
FZ_NOCOV static bool rd_dirty(unsigned int k)
{
	uint32_t i;

	for (i = 0; i < D.rd_n[k]; i++)
		if (D.e->m.regs[D.rd_reg[k][i] / 4])
			return true;
	return false;
}

/* After the input: the reader runs on the input's engine and must see
 * the defaults (0) in every register. Skipped when the input's work is
 * still running or it took the attacker's vGPU down (nothing runs). */
FZ_NOCOV static void rd_check(unsigned int k)
{
	struct guest_i915 *g = &D.e->ga;
	static uint32_t out[RD_MAX + 1];
	uint32_t i;
	int c = D.rd_ctx[k];

	if (!rd_dirty(k))
		return;
	if (!gvt_idle(D.e->gvt) || vgpu_failed(D.e->a)) {
		D.rd_skipped++;
		return;
	}
	/* The input may have written the reader's image or batch (its own
	 * guest's memory, legitimately): back to what rd_build made. */
	fake_hv_restore_dirty(&D.e->hv, 1, D.a_snap);
	g->ctx[c].tail = 0;
	gi_emit_bb_start(g, c, RD_VA + 4096ull * k, true);
	gi_submit(g, c, -1);
	for (i = 0; i < 4 && (i == 0 || !gvt_idle(D.e->gvt)); i++)
		fz_run(D.e, 1);
	fake_hv_guest_read(&D.e->hv, 1, D.rd_data_gpa + 2048ull * k, out,
			   4ull * (D.rd_n[k] + 1));
	if (out[D.rd_n[k]] != RD_DONE) {
		D.rd_skipped++;
		return;
	}
	for (i = 0; i < D.rd_n[k]; i++)
		if (out[i])
			fz_die("register value crossed contexts", D.rd_reg[k][i], out[i]);
	D.rd_checked++;
}

/* What the batch pages hold where an input writes nothing:
 * MI_BATCH_BUFFER_END, so a batch ends where its input does and what the
 * scanner accepts runs on the model. Zeroes (MI_NOOP) there made every
 * batch without its own end a walk of up to 2048 no-ops into the
 * unmapped page after BB_VA's two, refused there: most of the time of
 * the 15% of inputs that did it (390 us each, against 45 us for the
 * rest), for one rejection path, and none of those batches ever ran.
 * The last BB_RUNWAY dwords of each page stay MI_NOOP, so a batch started
 * there still runs across the page end (the copy's page step) - into
 * BB_VA's second page, or into the unmapped page after it or the GM page
 * after the GGTT batch, which the scanner must refuse: every boundary the
 * no-op walk reached is still reached, by a batch start 32 bytes before
 * it rather than by the input's length. */
#define BB_RUNWAY 8

static void bb_fill(void)
{
	static uint32_t fill[1024];
	uint32_t i;

	for (i = 0; i < 1024; i++)
		fill[i] = i < 1024 - BB_RUNWAY ? MI_BATCH_BUFFER_END : MI_NOOP;
	fake_hv_guest_write(&D.e->hv, 1, D.bb_gpa, fill, 4096);
	fake_hv_guest_write(&D.e->hv, 1, D.bb_gpa + 4096, fill, 4096);
	fake_hv_guest_write(&D.e->hv, 1, D.gbb_gpa, fill, 4096);
}

static uint8_t *a_ram(void)
{
	return D.e->hv.arena + D.e->hv.vm[1].first_page * 4096;
}

static void fzd_build(void)
{
	struct fz_env *e = fz_env();
	struct guest_i915 *g;

	D.e = e;
	fz_attacker_begin(e);
	g = &e->ga;
	D.ctx[0] = gi_ctx_create(g, GEN9_RCS0);
	D.ctx[1] = gi_ctx_create(g, GEN9_BCS0);
	D.bb_gpa = gi_alloc_pages(g, 2);
	D.gbb_gpa = gi_alloc_pages(g, 1);
	D.data_gpa = gi_alloc_pages(g, 2);
	D.gbb_gm = gi_gm_alloc(g, 4096, false);
	D.data_gm = gi_gm_alloc(g, 8192, true);
	if (D.ctx[0] < 0 || D.ctx[1] < 0 || !D.bb_gpa || !D.gbb_gpa ||
	    !D.data_gpa || !D.gbb_gm || !D.data_gm)
		fz_die("attacker objects", 0, 0);
	gi_ppgtt_map(g, BB_VA, D.bb_gpa, 2);
	gi_ppgtt_map(g, DATA_VA, D.data_gpa, 2);
	gi_ggtt_bind(g, D.gbb_gm, D.gbb_gpa, 1);
	gi_ggtt_bind(g, D.data_gm, D.data_gpa, 2);
	/* The last page of each of its ranges too: accesses at the edge. */
	gi_ggtt_bind(g, g->low_base + g->low_size - 4096, D.data_gpa, 1);
	gi_ggtt_bind(g, g->high_base + g->high_size - 4096, D.data_gpa + 4096, 1);
	rd_init();
#ifdef FZD_GVIRT
	neighbour_build();
#endif
	bb_fill();
	D.a_hpa = FAKE_HPA_BASE + e->hv.vm[1].first_page * 4096;
	D.a_snap = malloc(FZ_RAM);
	if (!D.a_snap)
		fz_die("snapshot", 0, 0);
	memcpy(D.a_snap, a_ram(), FZ_RAM);
	fake_hv_restore_dirty(&e->hv, 1, D.a_snap); /* clean from here */
	sens_init();
	D.e->m.cfg.blt_bytes_per_poll = FZD_BLT_BYTES;
	if (getenv("FZD_LAYOUT"))
		for (unsigned int b = 0; b < 16; b++)
			fprintf(stderr, "base %u: 0x%llx ggtt 0x%llx\n", b,
				(unsigned long long)fzd_base(b),
				(unsigned long long)(fzd_base(b) < (4ull << 30)
					? e->ggtt[fzd_base(b) >> 12] : 0));
}

/* ---- per input --------------------------------------------------------------- */

/* Back to the state after fzd_build, as far as an input can have moved it. */
static uint64_t fzd_reset(void)
{
	struct fz_env *e = D.e;
	struct guest_i915 *g = &e->ga;
	uint32_t dom = gen9_engine_reset_domain(GEN9_RCS0) |
		       gen9_engine_reset_domain(GEN9_BCS0);
	uint64_t n;

	if (pexec_busy(e->gvt)) {
		/* Still running: the hang path resets it. */
		e->hv.now += e->gvt->p.hang_timeout_ns + 1;
		gvt_poll(e->gvt);
	}
	/* A user hang holds the vGPU off the GPU as long as it held it
	 * (vgpu_sched.c user_hang): a fresh world has no such debt. Loops
	 * the CPU never ends (gem_busy's, watched) reach the hang path. */
	e->a->hold_until = 0;
	gi_mmio_write(g, GEN6_GDRST, dom, 4);
	/* The batch pools keep pages backed at rest: back to none, as built
	 * (their GGTT entries are part of the world an input sees). */
	vgpu_sbb_trim(e->a);
	vgpu_sbb_trim(e->b);
	n = fake_hv_restore_dirty(&e->hv, 1, D.a_snap); /* what anyone touched */
	g->ctx[D.ctx[0]].tail = 0;
	g->ctx[D.ctx[1]].tail = 0;
	g->ctx[D.rd_ctx[0]].tail = 0;
	g->ctx[D.rd_ctx[1]].tail = 0;
	return n;
}

static uint64_t own_slot_gm(uint32_t slot)
{
	return D.e->gvt->own_gm_base + (uint64_t)slot * GVT_OWN_SLOT_PAGES * 4096;
}

static uint64_t fzd_base(unsigned int b)
{
	const struct guest_i915 *g = &D.e->ga, *v = &D.e->gb;

	switch (b) {
	case 0: return (uint64_t)g->low_base + g->low_size;
	case 1: return g->low_base;
	case 2: return v->low_base;
	case 3: return D.e->gvt->own_gm_base;
	case 4: return g->high_base;
	case 5: return v->high_base;
	case 6: return (uint64_t)g->high_base + g->high_size;
	case 7: return BB_VA;
	case 8: return DATA_VA;
	case 9: return D.gbb_gm;
	case 10: return D.data_gm;
	case 11: return own_slot_gm(0); /* the engines' status pages */
	case 12: return own_slot_gm(D.e->b->own_slot); /* the victim's shadows */
	case 13: return own_slot_gm(D.e->a->own_slot); /* the attacker's */
	default: return D.e->gvt->own_gm_base - 4096 * (uint64_t)(b - 13);
	}
}

static uint32_t fzd_word(uint32_t dw)
{
	if ((dw >> 24) == 0xfa)
		return (uint32_t)(fzd_base((dw >> 20) & 0xf) +
				  (int64_t)(dw & 0xfffff) - 0x80000);
	if ((dw >> 24) == 0xfb)
		return D.sens[(dw & 0xff) % D.nsens];
	return dw;
}

static void bb_write(uint32_t i, uint32_t dw)
{
	uint64_t at = i < 2048 ? D.bb_gpa + 4ull * i : D.gbb_gpa + 4ull * (i - 2048);

	uint32_t val = fzd_word(dw);

	/* The guest's CPU store: reported to the mediator when the page is
	 * write-protected, as the hypervisor does (a page table, or a
	 * looped batch the mediator watches: vgpu_bb_watch.c). */
	fake_hv_guest_store(&D.e->hv, 1, at, &val, 4);
}

/* FZD_PROFILE=1: one line per input on stderr - ns, commands the
 * scanner audited, batch bytes it copied, commands the model ran, blit
 * pixels, attacker pages restored, inputs the reader context checked so
 * far - to find what a slow input spends
 * its time on (tools: sort -k2 -n). */
#include <time.h>
struct fzd_prof {
	uint64_t t0, scanned, copied, cmds, pixels, restored;
};

FZ_NOCOV static uint64_t fzd_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

FZ_NOCOV static void fzd_prof_sample(struct fzd_prof *p)
{
	const struct gen9_model *m = &D.e->m;
	int id;

	p->t0 = fzd_ns();
	p->scanned = D.e->a->stats.cmds_scanned;
	p->copied = D.e->a->stats.bb_bytes_copied;
	p->cmds = p->pixels = 0;
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		p->cmds += m->engine[id].stats.cmds;
		p->pixels += m->engine[id].stats.blit_pixels;
	}
}

FZ_NOCOV static void fzd_prof_print(const struct fzd_prof *a, size_t size)
{
	struct fzd_prof b;

	fzd_prof_sample(&b);
	fprintf(stderr, "FZD %zu %llu %llu %llu %llu %llu %llu %llu\n", size,
		(unsigned long long)(b.t0 - a->t0),
		(unsigned long long)(b.scanned - a->scanned),
		(unsigned long long)(b.copied - a->copied),
		(unsigned long long)(b.cmds - a->cmds),
		(unsigned long long)(b.pixels - a->pixels),
		(unsigned long long)a->restored,
		(unsigned long long)D.rd_checked);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int prof = -1, rd_on = -1;
	struct fzd_prof pr;
	struct fz_in in = { data, size };
	static uint32_t bb[BB_DWORDS];
	uint32_t ring[RING_MAX + 4], flags, nring, nbb, n, i;
	struct guest_i915 *g;
	int c;

	if (!D.e)
		fzd_build();
	g = &D.e->ga;
	if (prof < 0)
		prof = getenv("FZD_PROFILE") != NULL;
	if (prof)
		fzd_prof_sample(&pr);
	pr.restored = fzd_reset();
	flags = (uint32_t)fz_take(&in, 1);
	nring = (uint32_t)fz_take(&in, 1) % RING_MAX;
	nbb = (uint32_t)fz_take(&in, 2) % BB_DWORDS;
	c = D.ctx[flags & 1];
	for (i = 0; i < nbb && in.n >= 4; i++)
		bb[i] = fzd_word((uint32_t)fz_take(&in, 4));
	/* One guest write per batch, not one per dword: the same bytes. */
	fake_hv_guest_write(&D.e->hv, 1, D.bb_gpa, bb, 4ull * (i < 2048 ? i : 2048));
	if (i > 2048)
		fake_hv_guest_write(&D.e->hv, 1, D.gbb_gpa, bb + 2048, 4ull * (i - 2048));
	for (n = 0; n < nring && in.n >= 4; n++) {
		uint32_t dw = fzd_word((uint32_t)fz_take(&in, 4));

		/* Batch starts land on our batches unless they say where. */
		if ((dw >> 23) == 0x31 && n + 2 < nring && in.n >= 4 &&
		    (in.p[3] != 0xfa)) {
			ring[n++] = dw;
			ring[n++] = dw & MI_BATCH_PPGTT ? (uint32_t)BB_VA + (dw & 0xffc)
						   : D.gbb_gm;
			dw = 0;
		}
		ring[n] = dw;
	}
	if (n & 1)
		ring[n++] = MI_NOOP;
	gi_ring_emit(g, c, ring, n);
	sens_snap();
	allowed_build();
	D.watch = true;
	gi_submit(g, c, -1);
	/* The guest rewrites its batches while the GPU has them. */
	while (in.n >= 6) {
		uint32_t idx = (uint32_t)fz_take(&in, 2) % BB_DWORDS;

		bb_write(idx, (uint32_t)fz_take(&in, 4));
	}
	allowed_build(); /* shadow tables built at dispatch */
	/* Up to 4 ms of GPU time; most inputs are done after the first. */
	for (i = 0; i < 4 && (i == 0 || !gvt_idle(D.e->gvt)); i++)
		fz_run(D.e, 1);
	D.watch = false;
	sens_check();
	if (D.e->b->failed)
		fz_die("victim vGPU failed", 0, 0);
	/* FZD_NO_READER=1 leaves the reader out: only to measure its cost. */
	if (rd_on < 0)
		rd_on = getenv("FZD_NO_READER") == NULL;
	if (rd_on)
		rd_check(flags & 1);
	if (prof)
		fzd_prof_print(&pr, size);
	return 0;
}
