/* The physical Gen9 GPU driver over gpu_hw (docs/gen9-facts.md,
 * cited per function as gen9-facts §N).
 * Protocols follow what i915 does on gen9, since that is what the
 * hardware is known to accept. */
#include "gpu/hw/pgpu.h"
#include "mini/stdlib.h"
#include "mini/string.h"

/* ---- probe ------------------------------------------------------------ */

static uint16_t cfg16(const uint8_t *cfg, unsigned int off)
{
	return (uint16_t)(cfg[off] | (cfg[off + 1] << 8));
}

static uint32_t cfg32(const uint8_t *cfg, unsigned int off)
{
	return cfg16(cfg, off) | ((uint32_t)cfg16(cfg, off + 2) << 16);
}

/* A 64-bit memory BAR (type bits 2:1 = 2), as both GPU BARs are. */
static int bar64(const uint8_t *cfg, unsigned int off, uint64_t *base)
{
	uint32_t lo = cfg32(cfg, off);

	if ((lo & 1) || ((lo >> 1) & 3) != 2)
		return -GPU_EINVAL;
	*base = (((uint64_t)cfg32(cfg, off + 4) << 32) | lo) &
		GEN9_PCI_BAR_MEM_MASK;
	return 0;
}

int pgpu_decode_config(const uint8_t *cfg, size_t len, uint64_t bar2_size,
		       struct gpu_hw_info *info)
{
	uint16_t did;

	if (!cfg || !info || len < GEN9_PCI_CFG_SIZE)
		return -GPU_EINVAL;
	memset(info, 0, sizeof(*info));
	did = cfg16(cfg, GEN9_PCI_DEVICE);
	if (cfg16(cfg, GEN9_PCI_VENDOR) != PCI_VENDOR_ID_INTEL ||
	    !gen9_is_supported_device(did) || cfg[0x0b] != 0x03)
		return -GPU_ENODEV;
	if (bar64(cfg, GEN9_PCI_BAR0, &info->gttmmadr) ||
	    bar64(cfg, GEN9_PCI_BAR2, &info->aperture_base))
		return -GPU_EINVAL;
	info->vendor_id = PCI_VENDOR_ID_INTEL;
	info->device_id = did;
	info->revision = cfg[GEN9_PCI_REVISION];
	info->gt = gen9_device_gt(did);
	info->engine_mask = gen9_device_engine_mask(did);
	info->ggc = cfg16(cfg, GEN9_PCI_GGC);
	info->ggtt_size = gen9_ggc_ggtt_size(info->ggc);
	if (!info->ggtt_size)
		return -GPU_ENODEV; /* GGMS = 0: no GTT, BIOS disabled it */
	info->ggtt_entries = (uint32_t)(info->ggtt_size / GEN9_PAGE_SIZE);
	info->stolen_size = gen9_ggc_stolen_size(info->ggc);
	info->stolen_base = cfg32(cfg, GEN9_PCI_BDSM) & GEN9_BDSM_MASK;
	info->aperture_size = bar2_size ? bar2_size
					: gen9_msac_aperture_size(cfg[GEN9_PCI_MSAC]);
	/* i915 clamps the mappable end to the GGTT size. */
	if (info->aperture_size > info->ggtt_size)
		info->aperture_size = info->ggtt_size;
	info->num_fences = GEN9_NUM_FENCES;
	return 0;
}

static void csb_forget(struct pgpu_engine *e)
{
	e->csb_head = GEN8_CSB_ENTRIES - 1; /* next entry read is 0 */
	e->active = false;
	memset(e->port, 0, sizeof(e->port));
	memset(e->pending, 0, sizeof(e->pending));
}

static const uint32_t fw_req_reg[GEN9_FW_DOMAINS] = {
	[GEN9_FW_RENDER] = FORCEWAKE_RENDER_GEN9,
	[GEN9_FW_GT] = FORCEWAKE_GT_GEN9,
	[GEN9_FW_MEDIA] = FORCEWAKE_MEDIA_GEN9,
};
static const uint32_t fw_ack_reg[GEN9_FW_DOMAINS] = {
	[GEN9_FW_RENDER] = FORCEWAKE_ACK_RENDER_GEN9,
	[GEN9_FW_GT] = FORCEWAKE_ACK_GT_GEN9,
	[GEN9_FW_MEDIA] = FORCEWAKE_ACK_MEDIA_GEN9,
};

static void irq_reset(struct pgpu *p)
{
	int n;

	pgpu_irq_master_disable(p);
	for (n = 0; n < GEN8_GT_BANKS; n++) {
		gpu_hw_write32(p->hw, GEN8_GT_IMR(n), ~0u);
		gpu_hw_write32(p->hw, GEN8_GT_IER(n), 0);
		/* Twice: IIR may queue a second event (gen9-facts §7.2) */
		gpu_hw_write32(p->hw, GEN8_GT_IIR(n), ~0u);
		gpu_hw_write32(p->hw, GEN8_GT_IIR(n), ~0u);
		p->irq_mask[n] = 0;
	}
}

int pgpu_init(struct pgpu *p, struct gpu_hw *hw)
{
	int id, d;

	if (!p || !hw || !hw->ops)
		return -GPU_EINVAL;
	memset(p, 0, sizeof(*p));
	p->hw = hw;
	if (!gen9_is_supported_device(hw->info.device_id) ||
	    !hw->info.ggtt_entries)
		return -GPU_ENODEV;
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pgpu_engine *e = &p->engine[id];

		e->present = hw->info.engine_mask & BIT(id);
		e->base = gen9_engine_mmio_base((enum gen9_engine_id)id);
		csb_forget(e);
	}
	/* Whatever firmware left requested is dropped (i915 does the same
	 * at init: _MASKED_BIT_DISABLE(0xffff)). */
	for (d = 0; d < GEN9_FW_DOMAINS; d++)
		gpu_hw_write32(hw, fw_req_reg[d], _MASKED_BIT_DISABLE(0xffff));
	irq_reset(p);
	if (gpu_hw_read32(hw, FPGA_DBG) & FPGA_DBG_RM_NOCLAIM)
		gpu_hw_write32(hw, FPGA_DBG, FPGA_DBG_RM_NOCLAIM);
	return 0;
}

/* ---- forcewake: gen9-facts §8 -------------------------------------------- */

static int fw_wait_ack(struct pgpu *p, int d, uint32_t want)
{
	return gpu_hw_wait_for(p->hw, fw_ack_reg[d], FORCEWAKE_KERNEL, want,
			       PGPU_FORCEWAKE_TIMEOUT_US);
}

/* i915's gen9 "fallback" sequence: wait for the previous release to be
 * acknowledged, request, wait for the ack; if it does not come, pulse the
 * fallback bit once to kick the hardware and wait again. */
static int fw_domain_get(struct pgpu *p, int d)
{
	struct gpu_hw *hw = p->hw;

	if (fw_wait_ack(p, d, 0))
		goto timeout;
	gpu_hw_write32(hw, fw_req_reg[d], _MASKED_BIT_ENABLE(FORCEWAKE_KERNEL));
	if (!fw_wait_ack(p, d, FORCEWAKE_KERNEL))
		return 0;
	gpu_hw_write32(hw, fw_req_reg[d],
		       _MASKED_BIT_ENABLE(FORCEWAKE_KERNEL_FALLBACK));
	gpu_hw_udelay(hw, 10);
	gpu_hw_write32(hw, fw_req_reg[d],
		       _MASKED_BIT_DISABLE(FORCEWAKE_KERNEL_FALLBACK));
	if (!fw_wait_ack(p, d, FORCEWAKE_KERNEL))
		return 0;
	gpu_hw_write32(hw, fw_req_reg[d], _MASKED_BIT_DISABLE(FORCEWAKE_KERNEL));
timeout:
	p->stats.fw_timeouts++;
	return -GPU_ETIMEDOUT;
}

void pgpu_forcewake_put(struct pgpu *p, uint32_t domains)
{
	int d;

	for (d = 0; d < GEN9_FW_DOMAINS; d++) {
		if (!(domains & BIT(d)) || !p->fw_count[d])
			continue;
		if (--p->fw_count[d] == 0)
			gpu_hw_write32(p->hw, fw_req_reg[d],
				       _MASKED_BIT_DISABLE(FORCEWAKE_KERNEL));
	}
}

int pgpu_forcewake_get(struct pgpu *p, uint32_t domains)
{
	uint32_t got = 0;
	int d, ret;

	for (d = 0; d < GEN9_FW_DOMAINS; d++) {
		if (!(domains & BIT(d)))
			continue;
		if (p->fw_count[d] == 0) {
			ret = fw_domain_get(p, d);
			if (ret) {
				pgpu_forcewake_put(p, got);
				return ret;
			}
		}
		p->fw_count[d]++;
		got |= BIT(d);
	}
	p->stats.fw_gets++;
	return 0;
}

struct fw_range {
	uint32_t start, end; /* inclusive */
	uint8_t domains;
};

#define R GEN9_FW_RENDER_BIT
#define G GEN9_FW_GT_BIT
#define M GEN9_FW_MEDIA_BIT
/* i915's __gen9_fw_ranges (intel_uncore.c), as it is; gen9-facts §8. */
static const struct fw_range gen9_fw_ranges[] = {
	{ 0x00000, 0x00aff, G }, { 0x00b00, 0x01fff, 0 },
	{ 0x02000, 0x026ff, R }, { 0x02700, 0x02fff, G },
	{ 0x03000, 0x03fff, R }, { 0x04000, 0x051ff, G },
	{ 0x05200, 0x07fff, R }, { 0x08000, 0x0812f, G },
	{ 0x08130, 0x0813f, M }, { 0x08140, 0x0815f, R },
	{ 0x08160, 0x082ff, G }, { 0x08300, 0x084ff, R },
	{ 0x08500, 0x087ff, G }, { 0x08800, 0x089ff, M },
	{ 0x08a00, 0x08bff, G }, { 0x08c00, 0x08cff, R },
	{ 0x08d00, 0x093ff, G }, { 0x09400, 0x097ff, R | M },
	{ 0x09800, 0x0afff, G }, { 0x0b000, 0x0b47f, R },
	{ 0x0b480, 0x0cfff, G }, { 0x0d000, 0x0d7ff, M },
	{ 0x0d800, 0x0dfff, G }, { 0x0e000, 0x0e8ff, R },
	{ 0x0e900, 0x11fff, G }, { 0x12000, 0x13fff, M },
	{ 0x14000, 0x19fff, G }, { 0x1a000, 0x1e9ff, M },
	{ 0x1ea00, 0x243ff, G }, { 0x24400, 0x247ff, R },
	{ 0x24800, 0x2ffff, G }, { 0x30000, 0x3ffff, M },
};
#undef R
#undef G
#undef M

static int cmp_fw_range(const void *key, const void *element)
{
	uint32_t off = *(const uint32_t *)key;
	const struct fw_range *r = element;

	return off < r->start ? -1 : off > r->end;
}

uint32_t pgpu_fw_domains_for_reg(uint32_t off)
{
	const struct fw_range *r;

	/* The display range and above need none (NEEDS_FORCE_WAKE). */
	if (off >= 0x40000)
		return 0;
	r = bsearch(&off, gen9_fw_ranges,
		    sizeof(gen9_fw_ranges) / sizeof(gen9_fw_ranges[0]),
		    sizeof(gen9_fw_ranges[0]), cmp_fw_range);
	return r ? r->domains : 0;
}

/* ---- GGTT and fences: gen9-facts §2, §3 ---------------------------------- */

int pgpu_ggtt_write(struct pgpu *p, uint32_t index, uint64_t pte)
{
	int ret = gpu_hw_ggtt_write(p->hw, index, pte);

	if (!ret)
		p->stats.ggtt_writes++;
	return ret;
}

uint64_t pgpu_ggtt_read(struct pgpu *p, uint32_t index)
{
	return gpu_hw_ggtt_read(p->hw, index);
}

void pgpu_ggtt_flush(struct pgpu *p)
{
	gpu_hw_ggtt_flush(p->hw);
	p->stats.ggtt_flushes++;
}

int pgpu_ggtt_write_range(struct pgpu *p, uint32_t first,
			  const uint64_t *ptes, uint32_t n)
{
	uint32_t i;

	if (first > p->hw->info.ggtt_entries ||
	    n > p->hw->info.ggtt_entries - first)
		return -GPU_ERANGE;
	for (i = 0; i < n; i++)
		pgpu_ggtt_write(p, first + i, ptes[i]);
	pgpu_ggtt_flush(p);
	return 0;
}

uint64_t pgpu_fence_encode(uint32_t start, uint32_t size, uint32_t stride,
			   bool tiling_y)
{
	uint32_t tile_w = tiling_y ? 128 : 512;
	uint64_t val;

	if ((start | size) & (GEN9_PAGE_SIZE - 1) || !size ||
	    (uint64_t)start + size > (1ull << 32) || !stride ||
	    stride % tile_w || stride / 128 > GEN7_FENCE_MAX_PITCH_VAL)
		return 0;
	val = (uint64_t)(start + size - GEN9_PAGE_SIZE) << 32;
	val |= start;
	val |= (uint64_t)(stride / 128 - 1) << GEN6_FENCE_PITCH_SHIFT;
	if (tiling_y)
		val |= 1ull << I965_FENCE_TILING_Y_SHIFT;
	return val | I965_FENCE_REG_VALID;
}

/* i915's order, so a half-written fence is never live: invalidate (LO =
 * 0), write HI, then LO with the valid bit, each followed by a read. */
int pgpu_fence_write(struct pgpu *p, unsigned int i, uint64_t val)
{
	struct gpu_hw *hw = p->hw;

	if (i >= hw->info.num_fences)
		return -GPU_EINVAL;
	gpu_hw_write32(hw, FENCE_REG_GEN6_LO(i), 0);
	gpu_hw_posting_read(hw, FENCE_REG_GEN6_LO(i));
	gpu_hw_write32(hw, FENCE_REG_GEN6_HI(i), (uint32_t)(val >> 32));
	gpu_hw_write32(hw, FENCE_REG_GEN6_LO(i), (uint32_t)val);
	gpu_hw_posting_read(hw, FENCE_REG_GEN6_LO(i));
	p->stats.fence_writes++;
	return 0;
}

uint64_t pgpu_fence_read(struct pgpu *p, unsigned int i)
{
	if (i >= p->hw->info.num_fences)
		return 0;
	return ((uint64_t)gpu_hw_read32(p->hw, FENCE_REG_GEN6_HI(i)) << 32) |
	       gpu_hw_read32(p->hw, FENCE_REG_GEN6_LO(i));
}
