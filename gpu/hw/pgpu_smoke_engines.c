/* The smoke test's engine steps (pgpu_smoke.h): a logical ring context
 * per step, built as i915 builds a context that has no saved state yet
 * (engine state restore inhibited, the ring-context registers with their
 * MMIO offsets for the hardware's LRI), submitted through the pGPU
 * driver's ELSP path and waited for on the CSB (read over MMIO, which
 * every Gen9 has). */
#include "gpu/hw/gen9_cmds.h"
#include "gpu/hw/pgpu_smoke_priv.h"
#include "mini/stdio.h"
#include "mini/string.h"

#define RING_BYTES 4096u
#define STORE_VALUE(id) (0x5a5a0000u | 0x100u * (uint32_t)(id) | 0x42u)
#define BLIT_GVA 0x10000ull /* PPGTT address of the two surfaces */
#define BLIT_W 64
#define BLIT_H 16
#define BLIT_PITCH (BLIT_W * 4)
#define BLIT_COLOUR 0xff20c0e0u
#define MI_LRI_POSTED (1u << 12)

static const enum gen9_engine_id smoke_engine_ids[] = {
	GEN9_RCS0, GEN9_BCS0, GEN9_VCS0, GEN9_VCS1, GEN9_VECS0,
};

struct smoke_ctx {
	enum gen9_engine_id id;
	struct smoke_buf img, ring;
	uint32_t ctx_id, tail;
};

/* ---- context image ------------------------------------------------------ */

/* Value slot (odd dword) and register (offset from the engine base) of the
 * ring-context part of the state page, in i915's gen8/gen9 order. */
struct lrc_reg {
	uint8_t dw;
	uint16_t reg;
};

static const struct lrc_reg lrc_regs0[] = {
	{ 0x03, 0x244 }, { 0x05, 0x034 }, { 0x07, 0x030 }, { 0x09, 0x038 },
	{ 0x0b, 0x03c }, { 0x0d, 0x168 }, { 0x0f, 0x140 }, { 0x11, 0x110 },
	{ 0x13, 0x11c }, { 0x15, 0x114 }, { 0x17, 0x118 },
	/* render only: BB_PER_CTX_PTR, INDIRECT_CTX, INDIRECT_CTX_OFFSET */
	{ 0x19, 0x1c0 }, { 0x1b, 0x1c4 }, { 0x1d, 0x1c8 },
};

static const struct lrc_reg lrc_regs1[] = {
	{ 0x23, 0x3a8 }, /* CTX_TIMESTAMP */
	{ 0x25, 0x28c }, { 0x27, 0x288 }, { 0x29, 0x284 }, { 0x2b, 0x280 },
	{ 0x2d, 0x27c }, { 0x2f, 0x278 }, { 0x31, 0x274 }, { 0x33, 0x270 },
};

static uint32_t lri(unsigned int n)
{
	return MI_LOAD_REGISTER_IMM(n) | MI_LRI_POSTED;
}

static void fill_state(struct smoke_ctx *c, uint64_t pml4)
{
	uint32_t *st = (uint32_t *)(c->img.va + LRC_STATE_OFFSET);
	uint32_t base = gen9_engine_mmio_base(c->id);
	unsigned int n0 = c->id == GEN9_RCS0 ? 14 : 11;

	st[CTX_LRI_HEADER_0] = lri(n0);
	for (unsigned int i = 0; i < n0; i++)
		st[lrc_regs0[i].dw - 1] = base + lrc_regs0[i].reg;
	st[CTX_LRI_HEADER_1] = lri(9);
	for (unsigned int i = 0; i < 9; i++)
		st[lrc_regs1[i].dw - 1] = base + lrc_regs1[i].reg;
	/* A context with no saved engine state: restore inhibited, as i915
	 * sets up a context before its default state exists. */
	st[CTX_CONTEXT_CONTROL] =
		_MASKED_BIT_ENABLE(CTX_CTRL_INHIBIT_SYN_CTX_SWITCH |
				   CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT) |
		_MASKED_BIT_DISABLE(CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT |
				    CTX_CTRL_RS_CTX_ENABLE);
	st[CTX_RING_START] = c->ring.gm;
	st[CTX_RING_CTL] = RING_CTL_SIZE(RING_BYTES) | RING_VALID;
	st[CTX_PDP0_UDW] = (uint32_t)(pml4 >> 32);
	st[CTX_PDP0_LDW] = (uint32_t)pml4;
}

static int ctx_make(struct smoke *s, enum gen9_engine_id id, uint64_t pml4,
		    struct smoke_ctx *c)
{
	unsigned int pages = (id == GEN9_RCS0 ? GEN9_LR_CONTEXT_RENDER_SIZE
					      : GEN8_LR_CONTEXT_OTHER_SIZE) /
			     GEN9_PAGE_SIZE;
	int ret;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->ctx_id = s->next_ctx_id++;
	ret = smoke_buf(s, pages, true, &c->img);
	if (!ret)
		ret = smoke_buf(s, RING_BYTES / GEN9_PAGE_SIZE, true, &c->ring);
	if (!ret)
		fill_state(c, pml4);
	return ret;
}

static void emit(struct smoke_ctx *c, const uint32_t *dw, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		((uint32_t *)c->ring.va)[c->tail / 4] = dw[i];
		c->tail += 4;
	}
	if (c->tail & 7) { /* the tail is qword aligned */
		((uint32_t *)c->ring.va)[c->tail / 4] = MI_NOOP;
		c->tail += 4;
	}
}

/* What the engine was doing when it did not finish: for the log. */
static void engine_state(struct smoke *s, enum gen9_engine_id id, char *buf,
			 size_t len)
{
	struct gpu_hw *hw = s->p->hw;
	uint32_t b = gen9_engine_mmio_base(id);

	snprintf(buf, len, "ACTHD %08x HEAD %08x TAIL %08x EIR %08x "
		 "EXECLIST_STATUS %08x CSB_PTR %08x",
		 gpu_hw_read32(hw, RING_ACTHD(b)), gpu_hw_read32(hw, RING_HEAD(b)),
		 gpu_hw_read32(hw, RING_TAIL(b)), gpu_hw_read32(hw, RING_EIR(b)),
		 gpu_hw_read32(hw, RING_EXECLIST_STATUS_LO(b)),
		 gpu_hw_read32(hw, RING_CONTEXT_STATUS_PTR(b)));
}

/* Submit c and wait for its COMPLETE on the CSB. 0 or -GPU_ETIMEDOUT. */
static int ctx_run(struct smoke *s, struct smoke_ctx *c, uint64_t *us)
{
	uint32_t *st = (uint32_t *)(c->img.va + LRC_STATE_OFFSET);
	uint64_t t0 = smoke_now(s), desc;
	struct pgpu_csb_event ev[GEN8_CSB_ENTRIES];
	int ret;

	st[CTX_RING_TAIL] = c->tail;
	desc = pgpu_lrc_descriptor(c->img.gm, c->ctx_id,
				   INTEL_LEGACY_64B_CONTEXT);
	ret = pgpu_execlist_submit(s->p, c->id, desc, 0);
	while (!ret) {
		int n = pgpu_csb_process(s->p, c->id, ev, GEN8_CSB_ENTRIES);

		for (int i = 0; i < n; i++)
			if ((ev[i].status & GEN8_CTX_STATUS_COMPLETE) &&
			    ev[i].ctx_id == c->ctx_id)
				goto done;
		if (smoke_now(s) - t0 > PGPU_SMOKE_TIMEOUT_US)
			ret = -GPU_ETIMEDOUT;
		gpu_hw_udelay(s->p->hw, 10);
		if (s->env->irq_window)
			s->env->irq_window(s->env->ctx);
	}
done:
	*us = smoke_now(s) - t0;
	return ret;
}

/* Engine bring-up for the test: its status page, execlists on, the CSB
 * read over MMIO. Needs forcewake for the engine's domains. */
static bool engine_up(struct smoke *s, enum gen9_engine_id id)
{
	struct smoke_buf hwsp;

	if (s->engine_up[id])
		return true;
	if ((gen9_engine_fw_domains(id) & s->fw_acked) !=
		    gen9_engine_fw_domains(id) ||
	    smoke_buf(s, 1, true, &hwsp) ||
	    pgpu_engine_init(s->p, id, hwsp.gm, NULL))
		return false;
	s->engine_up[id] = true;
	return true;
}

/* ---- MI_STORE_DWORD_IMM on every engine -------------------------------- */

static void store_on(struct smoke *s, enum gen9_engine_id id)
{
	char name[32], why[160];
	uint32_t gm = s->target.gm + 4 * (uint32_t)id, *dst;
	uint32_t cmd[4] = { MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, gm, 0,
			    STORE_VALUE(id) };
	struct smoke_ctx c;
	uint64_t us = 0;
	int ret;

	snprintf(name, sizeof(name), "store %s", gen9_engine_name(id));
	if (!s->target.va || !engine_up(s, id)) {
		smoke_say(s, SMOKE_SKIP, name, 0, "engine not up (forcewake "
			  "or memory failed above)");
		return;
	}
	ret = ctx_make(s, id, 0, &c);
	if (ret) {
		smoke_say(s, SMOKE_FAIL, name, 0, "no memory for a context");
		return;
	}
	emit(&c, cmd, 4);
	ret = ctx_run(s, &c, &us);
	dst = (uint32_t *)(s->target.va + 4 * (uint32_t)id);
	if (!ret && *dst == STORE_VALUE(id)) {
		smoke_say(s, SMOKE_PASS, name, us, "%08x at GGTT %x", *dst, gm);
		return;
	}
	engine_state(s, id, why, sizeof(why));
	smoke_say(s, SMOKE_FAIL, name, us, "%s; memory holds %08x, want %08x; "
		  "%s", ret ? "no completion within 100 ms" : "completed",
		  *dst, STORE_VALUE(id), why);
}

void smoke_engines(struct smoke *s)
{
	for (unsigned int k = 0; k < sizeof(smoke_engine_ids) /
					     sizeof(smoke_engine_ids[0]); k++)
		if (s->p->engine[smoke_engine_ids[k]].present)
			store_on(s, smoke_engine_ids[k]);
}

/* ---- the blitter ------------------------------------------------------- */

static uint64_t *table(struct smoke *s, uint64_t *parent, unsigned int i)
{
	struct smoke_buf t;

	if (smoke_buf(s, 1, false, &t))
		return NULL;
	parent[i] = t.hpa | GEN8_PAGE_PRESENT | GEN8_PAGE_RW;
	return (uint64_t *)t.va;
}

/* A 4-level PPGTT mapping BLIT_GVA.. onto surf's pages; its PML4 hpa. */
static uint64_t blit_ppgtt(struct smoke *s, const struct smoke_buf *surf)
{
	struct smoke_buf root;
	uint64_t *pdp, *pd, *pt;

	if (smoke_buf(s, 1, false, &root))
		return 0;
	pdp = table(s, (uint64_t *)root.va, 0);
	pd = pdp ? table(s, pdp, 0) : NULL;
	pt = pd ? table(s, pd, 0) : NULL;
	if (!pt)
		return 0;
	for (unsigned int i = 0; i < surf->pages; i++)
		pt[(BLIT_GVA >> 12) + i] = (surf->hpa + i * 4096ull) |
					   GEN8_PAGE_PRESENT | GEN8_PAGE_RW;
	return root.hpa;
}

static void emit_blits(struct smoke_ctx *c)
{
	uint64_t src = BLIT_GVA, dst = BLIT_GVA + GEN9_PAGE_SIZE;
	const uint32_t fill[7] = {
		XY_COLOR_BLT_CMD | BLT_WRITE_RGBA,
		BR13_32BPP | ROP_PATCOPY << BR13_ROP_SHIFT | BLIT_PITCH,
		0, BLIT_H << 16 | BLIT_W, (uint32_t)src, (uint32_t)(src >> 32),
		BLIT_COLOUR,
	};
	const uint32_t flush[4] = { MI_FLUSH_DW + 1, 0, 0, 0 };
	const uint32_t copy[10] = {
		XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA,
		BR13_32BPP | ROP_SRCCOPY << BR13_ROP_SHIFT | BLIT_PITCH,
		2 << 16 | 4, 10 << 16 | 36, (uint32_t)dst, (uint32_t)(dst >> 32),
		0, BLIT_PITCH, (uint32_t)src, (uint32_t)(src >> 32),
	};

	emit(c, fill, 7);
	emit(c, flush, 4);
	emit(c, copy, 10);
	emit(c, flush, 4);
}

/* Pixels wrong: the source not all colour, or the destination not colour
 * exactly inside (4,2)-(36,10). */
static unsigned int blit_errors(const uint32_t *src, const uint32_t *dst)
{
	unsigned int bad = 0;

	for (int y = 0; y < BLIT_H; y++)
		for (int x = 0; x < BLIT_W; x++) {
			bool in = x >= 4 && x < 36 && y >= 2 && y < 10;

			bad += src[y * BLIT_W + x] != BLIT_COLOUR;
			bad += dst[y * BLIT_W + x] != (in ? BLIT_COLOUR : 0);
		}
	return bad;
}

void smoke_blit(struct smoke *s)
{
	struct smoke_buf surf;
	struct smoke_ctx c;
	uint64_t pml4, us = 0;
	unsigned int bad;
	char why[160];
	int ret;

	if (!s->p->engine[GEN9_BCS0].present || !engine_up(s, GEN9_BCS0)) {
		smoke_say(s, SMOKE_SKIP, "blit BCS", 0, "blitter not up");
		return;
	}
	ret = smoke_buf(s, 2, false, &surf);
	pml4 = ret ? 0 : blit_ppgtt(s, &surf);
	if (!pml4 || ctx_make(s, GEN9_BCS0, pml4, &c)) {
		smoke_say(s, SMOKE_FAIL, "blit BCS", 0, "no memory");
		return;
	}
	emit_blits(&c);
	ret = ctx_run(s, &c, &us);
	bad = blit_errors((uint32_t *)surf.va,
			  (uint32_t *)(surf.va + GEN9_PAGE_SIZE));
	if (!ret && !bad) {
		smoke_say(s, SMOKE_PASS, "blit BCS", us, "XY_COLOR_BLT %dx%d "
			  "+ XY_SRC_COPY_BLT 32x8: all %d pixels right",
			  BLIT_W, BLIT_H, 2 * BLIT_W * BLIT_H);
		return;
	}
	engine_state(s, GEN9_BCS0, why, sizeof(why));
	smoke_say(s, SMOKE_FAIL, "blit BCS", us, "%s, %u of %d pixels wrong "
		  "(first src %08x dst(4,2) %08x); %s", ret ? "no completion "
		  "within 100 ms" : "completed", bad, 2 * BLIT_W * BLIT_H,
		  ((uint32_t *)surf.va)[0],
		  ((uint32_t *)(surf.va + GEN9_PAGE_SIZE))[2 * BLIT_W + 4], why);
}

/* ---- the MSI ------------------------------------------------------------ */

/* A context switch on the blitter with its interrupt unmasked must reach
 * the CPU as the MSI; the GT interrupts are masked again afterwards. */
void smoke_msi(struct smoke *s)
{
	struct pgpu_irq_status st;
	uint32_t cmd[4] = { MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT,
			    s->target.gm + 0x100, 0, 0x1ac };
	uint64_t before, us = 0, t0;
	struct smoke_ctx c;
	int ret;

	if (!s->env->irqs) {
		smoke_say(s, SMOKE_SKIP, "msi", 0, "no interrupt delivery "
			  "here (polling backend)");
		return;
	}
	if (!s->target.va || !engine_up(s, GEN9_BCS0) ||
	    ctx_make(s, GEN9_BCS0, 0, &c)) {
		smoke_say(s, SMOKE_SKIP, "msi", 0, "blitter not up");
		return;
	}
	before = s->env->irqs(s->env->ctx);
	pgpu_irq_setup(s->p, GT_CONTEXT_SWITCH_INTERRUPT);
	pgpu_irq_master_enable(s->p);
	emit(&c, cmd, 4);
	ret = ctx_run(s, &c, &us);
	t0 = smoke_now(s);
	while (!ret && s->env->irqs(s->env->ctx) == before &&
	       smoke_now(s) - t0 < PGPU_SMOKE_TIMEOUT_US) {
		gpu_hw_udelay(s->p->hw, 10);
		if (s->env->irq_window)
			s->env->irq_window(s->env->ctx);
	}
	(void)pgpu_irq_handle(s->p, &st);
	pgpu_irq_master_disable(s->p);
	pgpu_irq_setup(s->p, 0);
	smoke_say(s, !ret && s->env->irqs(s->env->ctx) > before ? SMOKE_PASS
								 : SMOKE_FAIL,
		  "msi", us, "%llu MSI(s) for a blitter context switch%s",
		  (unsigned long long)(s->env->irqs(s->env->ctx) - before),
		  ret ? " (the store did not complete)" : "");
}

/* ---- engine reset ------------------------------------------------------ */

/* Every engine the test used goes back to reset state (RESET_CTL
 * handshake, GDRST), as the mediator expects to find them. */
void smoke_reset(struct smoke *s)
{
	for (int id = 0; id < GEN9_NUM_ENGINES; id++) {
		char name[32];
		uint64_t t0 = smoke_now(s);
		int ret;

		if (!s->engine_up[id])
			continue;
		snprintf(name, sizeof(name), "reset %s",
			 gen9_engine_name((enum gen9_engine_id)id));
		ret = pgpu_engine_reset(s->p, (enum gen9_engine_id)id);
		smoke_say(s, ret ? SMOKE_FAIL : SMOKE_PASS, name,
			  smoke_now(s) - t0, "RING_RESET_CTL handshake + GDRST "
			  "%s", ret == -GPU_ETIMEDOUT ? "timed out" :
			  ret ? "failed" : "done");
	}
}
