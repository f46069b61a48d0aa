/* See fake_gpu_hw.h. */
#include "tests/world/fake_gpu_hw.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static struct fake_gpu *G(void *ctx)
{
	return ctx;
}

/* The engine's status page (RING_HWS_PGA, through the GGTT), or NULL
 * when it is not mapped. */
static uint32_t *hwsp(struct fake_gpu *g, uint32_t base)
{
	uint32_t gm = g->regs[RING_HWS_PGA(base) / 4] & ~(GEN9_PAGE_SIZE - 1);
	uint32_t i = gm >> GEN9_PAGE_SHIFT;

	if (i >= g->ggtt_entries || !(g->ggtt[i] & GEN8_PAGE_PRESENT))
		return NULL;
	return gpu_dma_ptr(&g->hw.dma, gen8_pte_addr(g->ggtt[i]),
			   GEN9_PAGE_SIZE);
}

/* One CSB entry in the registers and, as the hardware does, in the
 * status page's mirror (which pgpu reads). */
static void csb(struct fake_gpu *g, uint32_t base, uint32_t status, uint32_t id)
{
	uint32_t *ptr = &g->regs[RING_CONTEXT_STATUS_PTR(base) / 4];
	uint32_t wp = *ptr & 7;
	uint32_t *hws = hwsp(g, base);

	wp = wp >= 5 ? 0 : wp + 1;
	g->regs[RING_CONTEXT_STATUS_BUF_LO(base, wp) / 4] = status;
	g->regs[RING_CONTEXT_STATUS_BUF_HI(base, wp) / 4] = id;
	*ptr = (*ptr & ~7u) | wp;
	if (!hws)
		return;
	hws[I915_HWS_CSB_BUF0_INDEX + 2 * wp] = status;
	hws[I915_HWS_CSB_BUF0_INDEX + 2 * wp + 1] = id;
	hws[I915_HWS_CSB_WRITE_INDEX] = wp;
}

void fake_gpu_complete(struct fake_gpu *g, int id)
{
	uint32_t base = gen9_engine_mmio_base((enum gen9_engine_id)id);

	if (!g->pending[id])
		return;
	g->pending[id] = false;
	csb(g, base, GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE,
	    (uint32_t)(g->submitted[id] >> 32));
}

static uint32_t rd(void *ctx, uint32_t off)
{
	return G(ctx)->regs[(off & (GEN9_MMIO_SIZE - 1)) / 4];
}

static void elsp(struct fake_gpu *g, int id, uint32_t val)
{
	uint32_t base = gen9_engine_mmio_base((enum gen9_engine_id)id);
	uint32_t *e = g->elsp[id];

	e[g->elsp_n[id]++] = val;
	if (g->elsp_n[id] < 4)
		return;
	g->elsp_n[id] = 0;
	g->submitted[id] = (uint64_t)e[2] << 32 | e[3];
	g->submits[id]++;
	g->pending[id] = true;
	csb(g, base, GEN8_CTX_STATUS_IDLE_ACTIVE, 0);
	if (g->auto_complete)
		fake_gpu_complete(g, id);
}

static void wr(void *ctx, uint32_t off, uint32_t val)
{
	struct fake_gpu *g = G(ctx);
	uint32_t *r = &g->regs[(off & (GEN9_MMIO_SIZE - 1)) / 4];
	int id = gen9_engine_from_mmio(off);

	g->reg_writes++;
	if (id >= 0) {
		uint32_t rel = off - gen9_engine_mmio_base((enum gen9_engine_id)id);

		if (rel == 0x230) {
			elsp(g, id, val);
			return;
		}
		if (rel == 0x0b0) { /* RING_EIR: write 1 to clear */
			*r &= ~val;
			return;
		}
		if (rel == 0x29c || rel == 0x09c || rel == 0x3a0 || rel == 0x0d0) {
			*r = gen9_masked_update(*r, val);
			if (rel == 0x0d0 && (*r & RESET_CTL_REQUEST_RESET))
				*r |= RESET_CTL_READY_TO_RESET;
			return;
		}
	}
	switch (off) {
	case FORCEWAKE_RENDER_GEN9:
		*r = gen9_masked_update(*r, val);
		g->regs[FORCEWAKE_ACK_RENDER_GEN9 / 4] = *r;
		return;
	case FORCEWAKE_GT_GEN9:
		*r = gen9_masked_update(*r, val);
		g->regs[FORCEWAKE_ACK_GT_GEN9 / 4] = *r;
		return;
	case FORCEWAKE_MEDIA_GEN9:
		*r = gen9_masked_update(*r, val);
		g->regs[FORCEWAKE_ACK_MEDIA_GEN9 / 4] = *r;
		return;
	case GEN6_GDRST:
		*r = 0; /* done at once */
		for (id = 0; id < GEN9_NUM_ENGINES; id++)
			if (val & gen9_engine_reset_domain((enum gen9_engine_id)id))
				g->pending[id] = false;
		return;
	case GFX_FLSH_CNTL_GEN6:
		g->flushes++;
		return;
	case GEN8_RTCR: case GEN8_BTCR: case GEN8_M1TCR: case GEN8_M2TCR:
	case GEN8_VTCR:
		*r = 0;
		return;
	default:
		*r = val;
	}
}

static uint64_t ggtt_rd(void *ctx, uint32_t i)
{
	return G(ctx)->ggtt[i];
}

static void ggtt_wr(void *ctx, uint32_t i, uint64_t pte)
{
	G(ctx)->ggtt[i] = pte;
	G(ctx)->ggtt_writes++;
}

static const struct gpu_hw_ops fake_ops = {
	.read32 = rd,
	.write32 = wr,
	.ggtt_read = ggtt_rd,
	.ggtt_write = ggtt_wr,
};

/* Registers and GGTT are mapped, not malloc'ed: page-aligned and whole
 * pages, so a fuzz target can track stores into them (page_track.h). */
static void *map_zero(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int fake_gpu_init(struct fake_gpu *g, uint32_t aperture_mib, uint32_t ggtt_mib,
		  const struct gpu_dma *dma)
{
	struct gpu_hw_info *info = &g->hw.info;

	memset(g, 0, sizeof(*g));
	g->regs = map_zero(GEN9_MMIO_SIZE);
	g->ggtt_entries = ggtt_mib * 256;
	g->ggtt = map_zero(g->ggtt_entries * 8ull);
	if (!g->regs || !g->ggtt)
		return -1;
	g->auto_complete = true;
	g->hw.ops = &fake_ops;
	g->hw.ctx = g;
	g->hw.dma = *dma;
	info->name = "fake";
	info->vendor_id = 0x8086;
	info->device_id = 0x1912;
	info->revision = 7;
	info->gt = GEN9_GT2;
	info->engine_mask = BIT(GEN9_RCS0) | BIT(GEN9_BCS0) | BIT(GEN9_VCS0) |
			    BIT(GEN9_VECS0);
	info->ggc = (3 << BDW_GMCH_GGMS_SHIFT) | (0x01 << BDW_GMCH_GMS_SHIFT);
	info->ggtt_size = (uint64_t)ggtt_mib << 20;
	info->ggtt_entries = g->ggtt_entries;
	info->aperture_base = 0xc0000000ull;
	info->aperture_size = (uint64_t)aperture_mib << 20;
	info->num_fences = 32;
	/* Something recognisable in snapshot ranges. */
	g->regs[0xc800 / 4] = 0x11223344;
	g->regs[GEN8_FUSE2 / 4] = 0x0e000000;
	for (int id = 0; id < GEN9_NUM_ENGINES; id++)
		g->regs[RING_CONTEXT_STATUS_PTR(gen9_engine_mmio_base(id)) / 4] = 0x707;
	return 0;
}

void fake_gpu_fini(struct fake_gpu *g)
{
	if (g->regs)
		munmap(g->regs, GEN9_MMIO_SIZE);
	if (g->ggtt)
		munmap(g->ggtt, g->ggtt_entries * 8ull);
}
