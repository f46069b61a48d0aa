/* Fuzz the Gen9 model's command streamer: the input becomes a ring page,
 * a batch page (reachable through both the GGTT and the PPGTT) and a data
 * page; the context runs for a few polls on an engine the input picks.
 * Whatever the bytes say, the model must neither touch memory outside
 * what gpu_dma hands out nor run unbounded.
 *
 * Speed: the model is initialised once; after each input only what it
 * dirtied goes back to the state after init - the model struct (a copy),
 * the register pages it marked in reg_dirty, the GGTT and the pages. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gpu/hw/gen9_cmds.h"
#include "gpu/model/gen9_model.h"

#define PHYS_BASE 0x100000ull
#define PHYS_PAGES 16
#define GGTT_ENTRIES 512
/* The blitter's bytes per poll (1 MiB in the product). Blits reach memory
 * through the PPGTT, which maps the 64 KiB of phys[] and nothing else, so
 * a blit that moves more redraws the same bytes (pitch 0, overlapping
 * rows): up to 8 MiB per input over 8 polls, most of the time of the
 * inputs that did it, for no new address or branch. 16 KiB a poll still
 * covers all of phys[] within one input (POLLS x 16 KiB = 64 KiB, and
 * every poll runs at least one whole row), and cuts blits into polls
 * (the resume path) from 16 KiB on instead of 1 MiB. */
#define BLT_BYTES (16u << 10)
/* Commands per engine per poll, and polls per input. Measured on a
 * 3-minute corpus, a quarter of the inputs ran the whole 8 x 256: zeroes
 * (MI_NOOP) to the end of the mapped pages or a batch chain looping, most
 * of the target's time for the same few commands. 4 x 64 still runs a
 * full ring (at most 127 qwords) and what it calls, and every poll of a
 * looping input still ends at the budget, which is what the target
 * checks; only the repetition goes. */
#define CMD_BUDGET 64
#define POLLS 4
/* Where the input writes nothing, the batch page holds
 * MI_BATCH_BUFFER_END (zeroes were MI_NOOPs that ran on into the data
 * page and beyond, so the ring never got its batch back): a batch there
 * returns to the ring. Its last BB_RUNWAY dwords stay MI_NOOP, so a batch
 * started there still runs across the page end into PG_DATA. */
#define BB_RUNWAY 8

static uint32_t regs[GEN9_MODEL_REGS_DWORDS];
static uint32_t regs0[GEN9_MODEL_REGS_DWORDS]; /* after init */
static uint8_t reg_dirty[GEN9_MODEL_REG_PAGES];
static uint64_t ggtt[GGTT_ENTRIES];
static uint8_t phys[PHYS_PAGES][4096] __attribute__((aligned(4096)));
static struct gen9_model M, M0;

enum { PG_PML4, PG_PDP, PG_PD, PG_PT, PG_LRC0, PG_LRC1, PG_RING, PG_BATCH,
       PG_DATA, PG_HWSP };

static void *phys_ptr(void *ctx, uint64_t hpa, size_t len)
{
	(void)ctx;
	if (hpa < PHYS_BASE || len > sizeof(phys) ||
	    hpa - PHYS_BASE > sizeof(phys) - len)
		return NULL;
	return (uint8_t *)phys + (hpa - PHYS_BASE);
}

static uint64_t pa(int page)
{
	return PHYS_BASE + (uint64_t)page * 4096;
}

static uint64_t *tbl(int page)
{
	return (uint64_t *)phys[page];
}

static void build(uint32_t engine, uint32_t tail)
{
	uint32_t base = gen9_engine_mmio_base((enum gen9_engine_id)engine);
	uint32_t *st = (uint32_t *)phys[PG_LRC1];
	int i;

	/* GGTT page i -> phys page i; PPGTT 0..0xfffff -> the same pages. */
	for (i = 0; i < PHYS_PAGES; i++)
		ggtt[i] = pa(i) | GEN8_PAGE_PRESENT;
	tbl(PG_PML4)[0] = pa(PG_PDP) | 3;
	tbl(PG_PDP)[0] = pa(PG_PD) | 3;
	tbl(PG_PD)[0] = pa(PG_PT) | 3;
	for (i = 0; i < PHYS_PAGES; i++)
		tbl(PG_PT)[i] = pa(i) | 3;
	st[CTX_RING_HEAD] = 0;
	st[CTX_RING_TAIL] = tail;
	st[CTX_RING_START] = PG_RING * 4096;
	st[CTX_RING_CTL] = RING_VALID; /* one page */
	st[CTX_PDP0_LDW] = (uint32_t)pa(PG_PML4);
	gen9_model_write32(&M, RING_MODE_GEN7(base),
			   _MASKED_BIT_ENABLE(GFX_RUN_LIST_ENABLE));
	gen9_model_write32(&M, RING_HWS_PGA(base), PG_HWSP * 4096);
	gen9_model_write32(&M, GEN8_GT_IMR(0), 0);
	gen9_model_write32(&M, GEN8_GT_IER(0), ~0u);
	gen9_model_write32(&M, GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL);
}

/* The model as gen9_model_init leaves it, at the cost of what the last
 * input changed. */
static void model_fresh(const struct gen9_model_config *cfg)
{
	static bool ready;
	struct gen9_model_mem mem = { regs, ggtt, GGTT_ENTRIES };
	struct gpu_dma dma = { NULL, phys_ptr };
	unsigned int p;

	if (!ready) {
		if (gen9_model_init(&M, cfg, &mem, &dma))
			__builtin_trap();
		gen9_model_track_dirty(&M, reg_dirty);
		M0 = M;
		memcpy(regs0, regs, sizeof(regs));
		memset(reg_dirty, 0, sizeof(reg_dirty));
		ready = true;
		return;
	}
	M = M0;
	for (p = 0; p < GEN9_MODEL_REG_PAGES; p++)
		if (reg_dirty[p]) {
			memcpy(&regs[p * 1024], &regs0[p * 1024], 4096);
			reg_dirty[p] = 0;
		}
	memset(ggtt, 0, sizeof(ggtt));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gen9_model_config cfg = { .cmd_budget = CMD_BUDGET,
					  .blt_bytes_per_poll = BLT_BYTES };
	static const uint32_t engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0,
					    GEN9_VECS0 };
	uint32_t engine, tail, base;
	uint64_t desc;
	size_t n;
	int i;

	if (size < 4)
		return 0;
	memset(phys, 0, sizeof(phys));
	for (i = 0; i < 1024 - BB_RUNWAY; i++)
		((uint32_t *)phys[PG_BATCH])[i] = MI_BATCH_BUFFER_END;
	model_fresh(&cfg);
	engine = engines[data[0] & 3];
	tail = (data[1] & 0x7f) * 8; /* qword aligned, within the page */
	data += 4;
	size -= 4;
	n = size < 3 * 4096 ? size : 3 * 4096;
	memcpy(phys[PG_RING], data, n < 4096 ? n : 4096);
	if (n > 4096)
		memcpy(phys[PG_BATCH], data + 4096, n - 4096 < 4096 ? n - 4096 : 4096);
	if (n > 8192)
		memcpy(phys[PG_DATA], data + 8192, n - 8192);
	build(engine, tail);
	base = gen9_engine_mmio_base((enum gen9_engine_id)engine);
	desc = GEN8_CTX_VALID | GEN8_CTX_PRIVILEGE |
	       ((uint64_t)INTEL_LEGACY_64B_CONTEXT << 3) | (PG_LRC0 * 4096) |
	       (1ull << 32);
	gen9_model_write32(&M, RING_ELSP(base), 0);
	gen9_model_write32(&M, RING_ELSP(base), 0);
	gen9_model_write32(&M, RING_ELSP(base), (uint32_t)(desc >> 32));
	gen9_model_write32(&M, RING_ELSP(base), (uint32_t)desc);
	for (i = 0; i < POLLS; i++)
		gen9_model_poll(&M);
	/* Bounded: never more than the budget per poll per engine. */
	if (M.engine[engine].stats.cmds > (uint64_t)POLLS * cfg.cmd_budget + 8)
		__builtin_trap();
	return 0;
}
