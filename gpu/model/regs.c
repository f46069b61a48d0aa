/* The BAR0 register file: 2 MiB of dwords, with side effects for the
 * registers the model implements. Every other offset is plain storage
 * (reads return what was last written, 0 at first) and is counted, so a
 * test or the shell can see which registers a driver touched that the
 * model knows nothing about. */
#include "gpu/model/model_internal.h"
#include "gpu/model/uncore.h"

struct reg_range {
	uint32_t first, last; /* inclusive */
};

/* Registers outside the engine blocks that the model implements or
 * deliberately stores (gen9-facts §2, §3, §7, §8, §10). */
static const struct reg_range known[] = {
	{ FORCEWAKE_ACK_RENDER_GEN9, FORCEWAKE_ACK_MEDIA_GEN9 },
	{ GEN8_RING_FAULT_REG, GEN8_RING_FAULT_REG },
	{ GEN8_PRIVATE_PAT_LO, GEN8_PRIVATE_PAT_HI },
	{ GEN8_RTCR, GEN8_VTCR },
	{ GEN8_FAULT_TLB_DATA0, GEN8_FAULT_TLB_DATA1 },
	{ GEN8_FUSE2, GEN8_FUSE2 },
	{ GEN9_EU_DISABLE(0), GEN9_EU_DISABLE(2) },
	{ GEN6_GDRST, GEN6_RSTCTL },
	{ FORCEWAKE_GT_GEN9, FORCEWAKE_GT_GEN9 },
	{ CTC_MODE, CTC_MODE },
	{ FORCEWAKE_MEDIA_GEN9, FORCEWAKE_MEDIA_GEN9 },
	{ FORCEWAKE_RENDER_GEN9, FORCEWAKE_RENDER_GEN9 },
	{ FPGA_DBG, FPGA_DBG },
	{ GEN8_MASTER_IRQ, GEN8_MASTER_IRQ },
	{ GEN8_GT_ISR(0), GEN8_GT_IER(GEN8_GT_BANKS - 1) },
	{ GEN8_DE_PIPE_ISR(0), GEN8_PCU_IER },
	{ SDEISR, SDEIER },
	{ FENCE_REG_GEN6_LO(0), FENCE_REG_GEN6_HI(GEN9_NUM_FENCES - 1) },
	{ GFX_FLSH_CNTL_GEN6, GFX_FLSH_CNTL_GEN6 },
	{ GEN6_DSMBASE, GEN6_DSMBASE },
	{ GEN6_GSMBASE, GEN6_GSMBASE },
	{ GEN6_STOLEN_RESERVED, GEN6_STOLEN_RESERVED },
	{ FORCEWAKE_ACK_GT_GEN9, FORCEWAKE_ACK_GT_GEN9 },
	{ GEN6_PCODE_MAILBOX, GEN6_PCODE_DATA1 },
};

/* reg_page kinds besides 0 (plain storage) and 1 + engine id. */
#define PAGE_KNOWN 0x80u

_Static_assert(GEN9_RING_REG_SPAN % 4096 == 0, "engine blocks are whole pages");
_Static_assert(GEN9_NUM_ENGINES < PAGE_KNOWN, "engine kinds below PAGE_KNOWN");

/* Mark dword off known in its page's map, taking a map for the page if
 * it has none yet. */
static int mark_known(struct gen9_model *m, uint32_t *maps, uint32_t off)
{
	uint8_t *kind = &m->reg_page[off >> 12];
	uint32_t dw = (off & 0xfff) >> 2;

	if (!*kind) {
		if (*maps == GEN9_MODEL_KNOWN_PAGES)
			return -GPU_EINVAL;
		*kind = (uint8_t)(PAGE_KNOWN | (*maps)++);
	}
	m->reg_known[*kind & ~PAGE_KNOWN][dw / 64] |= 1ull << (dw % 64);
	return 0;
}

/* Built once per model: the known list and the engine blocks become
 * one table lookup per access instead of a walk over both (a vGPU
 * switch's 1,290 accesses spent half their time walking the list). A
 * present engine's page wins over the list, as the walk tested engines
 * first. */
int model_regmap_build(struct gen9_model *m)
{
	uint32_t maps = 0, off, p;
	size_t i;
	int id;

	memset(m->reg_page, 0, sizeof(m->reg_page));
	memset(m->reg_known, 0, sizeof(m->reg_known));
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		for (off = known[i].first; off <= known[i].last; off += 4)
			if (mark_known(m, &maps, off))
				return -GPU_EINVAL;
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		uint32_t base = m->engine[id].base;

		if (!m->engine[id].present)
			continue;
		if (base & 0xfff)
			return -GPU_EINVAL;
		for (p = base >> 12; p < (base + GEN9_RING_REG_SPAN) >> 12; p++)
			m->reg_page[p] = (uint8_t)(1 + id);
	}
	return 0;
}

static struct gen9_model_engine *engine_at(struct gen9_model *m, uint32_t off)
{
	uint8_t kind = m->reg_page[off >> 12];

	if (!kind || kind > GEN9_NUM_ENGINES)
		return NULL;
	return &m->engine[kind - 1];
}

bool model_reg_is_known(const struct gen9_model *m, uint32_t off)
{
	uint8_t kind;
	uint32_t dw = (off & 0xfff) >> 2;

	if (off >= GEN9_MMIO_SIZE)
		return false;
	kind = m->reg_page[off >> 12];
	if (kind & PAGE_KNOWN)
		return (m->reg_known[kind & ~PAGE_KNOWN][dw / 64] >> (dw % 64)) & 1;
	return kind != 0;
}

static bool engine_idle(const struct gen9_model *m,
			const struct gen9_model_engine *e)
{
	return !e->active ||
	       (mreg(m, RING_MI_MODE(e->base)) & STOP_RING);
}

static uint32_t engine_read(struct gen9_model *m, struct gen9_model_engine *e,
			    uint32_t off)
{
	uint32_t r = off - e->base;

	switch (r) {
	case 0x230: /* RING_ELSP is write-only */
		return 0;
	case 0x234:
		return model_execlist_status_lo(e);
	case 0x238:
		return model_execlist_status_hi(e);
	case 0x09c: /* RING_MI_MODE: MODE_IDLE is status */
		return (mreg(m, off) & ~MODE_IDLE) |
		       (engine_idle(m, e) ? MODE_IDLE : 0);
	case 0x358:
		return (uint32_t)model_timestamp(m);
	case 0x35c:
		return (uint32_t)(model_timestamp(m) >> 32);
	case 0x3a8: /* CTX_TIMESTAMP: the running context's clock */
		return model_ctx_ts_read(m, e);
	default:
		return mreg(m, off);
	}
}

uint32_t gen9_model_read32(struct gen9_model *m, uint32_t off)
{
	struct gen9_model_engine *e;

	if ((off & 3) || off >= GEN9_MMIO_SIZE) {
		m->stats.unknown_reads++;
		m->stats.last_unknown = off;
		return 0;
	}
	m->stats.reg_reads++;
	e = engine_at(m, off);
	if (e)
		return engine_read(m, e, off);
	if (off == GEN8_MASTER_IRQ)
		return model_irq_master_read(m);
	if (!model_reg_is_known(m, off)) {
		m->stats.unknown_reads++;
		m->stats.last_unknown = off;
	}
	return mreg(m, off);
}

static void masked_write(struct gen9_model *m, uint32_t off, uint32_t val)
{
	mreg_set(m, off, gen9_masked_update(mreg(m, off), val));
}

static void engine_write(struct gen9_model *m, struct gen9_model_engine *e,
			 uint32_t off, uint32_t val)
{
	uint32_t r = off - e->base;

	switch (r) {
	case 0x230:
		model_elsp_write(m, e, val);
		return;
	case 0x234: case 0x238: /* execlist status: read-only */
		return;
	case 0x0b0: /* RING_EIR: write 1 to clear */
		mreg_set(m, off, mreg(m, off) & ~val);
		return;
	case 0x0d0:
		model_reset_ctl_write(m, e, val);
		return;
	case 0x09c: case 0x244: case 0x29c: case 0x3a0:
		/* MI_MODE, CONTEXT_CONTROL, GFX_MODE, CSB pointer: masked */
		masked_write(m, off, val);
		return;
	case 0x0a8: /* RING_IMR */
		mreg_set(m, off, val);
		return;
	case 0x3a8:
		model_ctx_ts_write(m, e, val);
		return;
	default:
		break;
	}
	if (off == BCS_SWCTRL) {
		masked_write(m, off, val);
		return;
	}
	if (r >= 0x370 && r < 0x3a0) /* CSB entries are the hardware's */
		return;
	mreg_set(m, off, val);
}

static bool uncore_write(struct gen9_model *m, uint32_t off, uint32_t val)
{
	bool ack;
	int d = model_fw_domain(off, &ack);

	if (d >= 0) {
		if (!ack)
			model_fw_write(m, d, val);
		return true;
	}
	switch (off) {
	case GEN6_GDRST:
		model_gdrst_write(m, val);
		return true;
	case GEN6_PCODE_MAILBOX:
		model_pcode_write(m, val);
		return true;
	case GFX_FLSH_CNTL_GEN6:
		/* No TLB to flush; counted so tests can see the protocol. */
		m->stats.ggtt_flushes++;
		mreg_set(m, off, 0);
		return true;
	case GEN8_RTCR: case GEN8_M1TCR: case GEN8_M2TCR: case GEN8_BTCR:
	case GEN8_VTCR:
		/* Invalidation completes at once: the bit reads back 0. */
		m->stats.tlb_invalidates++;
		mreg_set(m, off, 0);
		return true;
	case FPGA_DBG: /* write 1 to clear; the model never sets it */
		mreg_set(m, off, mreg(m, off) & ~val);
		return true;
	default:
		return false;
	}
}

/* The interrupt and uncore registers: true when off was one. */
static bool special_write(struct gen9_model *m, uint32_t off, uint32_t val)
{
	if (model_irq_is_reg(off)) {
		model_irq_write(m, off, val);
		return true;
	}
	return uncore_write(m, off, val);
}

void gen9_model_write32(struct gen9_model *m, uint32_t off, uint32_t val)
{
	struct gen9_model_engine *e;

	if ((off & 3) || off >= GEN9_MMIO_SIZE) {
		m->stats.unknown_writes++;
		m->stats.last_unknown = off;
		return;
	}
	m->stats.reg_writes++;
	e = engine_at(m, off);
	if (e) {
		engine_write(m, e, off, val);
		return;
	}
	/* Interrupt and uncore registers are all on pages with known
	 * registers (test_gen9_model_regmap holds it): on a plain page
	 * neither can match. */
	if (m->reg_page[off >> 12] && special_write(m, off, val))
		return;
	if (!model_reg_is_known(m, off)) {
		m->stats.unknown_writes++;
		m->stats.last_unknown = off;
	}
	mreg_set(m, off, val);
}
