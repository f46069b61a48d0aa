/* Model lifetime and its gpu_hw face: init, poll, identification, the PCI
 * config space it would present, and the backend ops. */
#include "gpu/model/model_internal.h"
#include "gpu/model/uncore.h"
#include "mini/string.h"

#define MODEL_DEFAULT_DID 0x1912 /* SKL DT GT2 */
#define MODEL_DEFAULT_REV 0x07 /* H0 stepping (intel_step.c skl_revids) */
#define MODEL_DEFAULT_GTTMMADR 0xf0000000ull
#define MODEL_DEFAULT_GMADR 0xe0000000ull

static uint64_t ggtt_bytes(const struct gen9_model *m)
{
	return (uint64_t)m->ggtt_entries * GEN9_PAGE_SIZE;
}

static int check_mem(const struct gen9_model_mem *mem)
{
	if (!mem || !mem->regs || !mem->ggtt)
		return -GPU_EINVAL;
	if (!mem->ggtt_entries || (mem->ggtt_entries % GEN8_PTES_PER_PAGE) ||
	    mem->ggtt_entries > GEN9_MODEL_GGTT_MAX_ENTRIES)
		return -GPU_EINVAL;
	return 0;
}

/* GMS encoding of the stolen size, or -1 if not representable (§1.3). */
static int stolen_gms(uint64_t size)
{
	if (size == 0)
		return 0;
	if (!(size % (32ull << 20)) && size / (32ull << 20) < 0xf0)
		return (int)(size / (32ull << 20));
	if (!(size % (4ull << 20)) && size / (4ull << 20) <= 15)
		return (int)(0xef + size / (4ull << 20));
	return -1;
}

static int apply_defaults(struct gen9_model *m)
{
	struct gen9_model_config *c = &m->cfg;

	if (!c->device_id)
		c->device_id = MODEL_DEFAULT_DID;
	if (!c->revision)
		c->revision = MODEL_DEFAULT_REV;
	if (!c->gttmmadr)
		c->gttmmadr = MODEL_DEFAULT_GTTMMADR;
	if (!c->gmadr)
		c->gmadr = MODEL_DEFAULT_GMADR;
	if (!c->cmd_budget)
		c->cmd_budget = GEN9_MODEL_DEFAULT_BUDGET;
	if (!c->blt_bytes_per_poll)
		c->blt_bytes_per_poll = GEN9_MODEL_BLT_BYTES_PER_POLL;
	if (!c->aperture_size)
		c->aperture_size = ggtt_bytes(m) < (256ull << 20) ? ggtt_bytes(m)
								  : 256ull << 20;
	if (!gen9_is_supported_device(c->device_id) ||
	    c->aperture_size > ggtt_bytes(m) || stolen_gms(c->stolen_size) < 0)
		return -GPU_EINVAL;
	return 0;
}

/* Values a freshly powered device reads back (gen9-facts §8). */
static void reset_registers(struct gen9_model *m)
{
	memset(m->regs, 0, GEN9_MODEL_REGS_BYTES);
	if (m->reg_dirty)
		memset(m->reg_dirty, 1, GEN9_MODEL_REG_PAGES);
	model_irq_reset(m);
	/* One slice (bit 25); subslice 3 fused off: a GT2 with 3 subslices.
	 * The model's choice: docs/gen9-facts.md §8 says only that i915
	 * reads these fuses. */
	mreg_set(m, GEN8_FUSE2, (1u << 25) | (1u << 23));
	mreg_set(m, GEN6_DSMBASE, (uint32_t)m->cfg.stolen_base);
	/* what the BIOS leaves on Skylake: i915 derives the timestamp
	 * frequency it reports from it (model_internal.h MODEL_CS_TS_MHZ) */
	mreg_set(m, CTC_MODE, MODEL_CTC_MODE_RESET);
}

int gen9_model_init(struct gen9_model *m, const struct gen9_model_config *cfg,
		    const struct gen9_model_mem *mem, const struct gpu_dma *dma)
{
	int ret = check_mem(mem);
	int id;

	if (ret || !m || !dma || !dma->phys_ptr)
		return -GPU_EINVAL;
	memset(m, 0, sizeof(*m));
	if (cfg)
		m->cfg = *cfg;
	m->dma = *dma;
	m->regs = mem->regs;
	m->ggtt = mem->ggtt;
	m->ggtt_entries = mem->ggtt_entries;
	ret = apply_defaults(m);
	if (ret)
		return ret;
	memset(m->ggtt, 0, (size_t)m->ggtt_entries * sizeof(uint64_t));
	reset_registers(m);
	m->engine_mask = gen9_device_engine_mask(m->cfg.device_id);
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct gen9_model_engine *e = &m->engine[id];

		e->id = (enum gen9_engine_id)id;
		e->base = gen9_engine_mmio_base(e->id);
		e->present = m->engine_mask & BIT(id);
		if (e->present)
			model_engine_reset(m, e);
		e->stats.resets = 0;
	}
	return model_regmap_build(m);
}

void gen9_model_poll(struct gen9_model *m)
{
	int id;

	/* An irq_notify callback may poll again: do not nest. */
	if (m->in_poll)
		return;
	m->in_poll = true;
	m->stats.polls++;
	model_uncore_tick(m);
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		model_engine_run(m, &m->engine[id]);
	m->in_poll = false;
}

void gen9_model_udelay(struct gen9_model *m, uint32_t us)
{
	m->now_us += us;
	gen9_model_poll(m);
}

static uint16_t model_ggc(const struct gen9_model *m)
{
	uint32_t ggms = 1;

	/* Smallest GSM (2/4/8 MiB) that holds our entries. */
	while (ggms < 3 && (uint64_t)m->ggtt_entries * 8 > (1ull << ggms) << 20)
		ggms++;
	return (uint16_t)(((uint32_t)stolen_gms(m->cfg.stolen_size)
			   << BDW_GMCH_GMS_SHIFT) |
			  (ggms << BDW_GMCH_GGMS_SHIFT));
}

void gen9_model_info(const struct gen9_model *m, struct gpu_hw_info *info)
{
	memset(info, 0, sizeof(*info));
	info->name = "gen9-model";
	info->is_model = true;
	info->vendor_id = PCI_VENDOR_ID_INTEL;
	info->device_id = m->cfg.device_id;
	info->revision = m->cfg.revision;
	info->gt = gen9_device_gt(m->cfg.device_id);
	info->engine_mask = m->engine_mask;
	info->ggc = model_ggc(m);
	info->gttmmadr = m->cfg.gttmmadr;
	info->ggtt_size = ggtt_bytes(m);
	info->ggtt_entries = m->ggtt_entries;
	info->aperture_base = m->cfg.gmadr;
	info->aperture_size = m->cfg.aperture_size;
	info->stolen_base = m->cfg.stolen_base;
	info->stolen_size = m->cfg.stolen_size;
	info->num_fences = GEN9_NUM_FENCES;
}

static void put16(uint8_t *cfg, unsigned int off, uint16_t v)
{
	cfg[off] = (uint8_t)v;
	cfg[off + 1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *cfg, unsigned int off, uint32_t v)
{
	put16(cfg, off, (uint16_t)v);
	put16(cfg, off + 2, (uint16_t)(v >> 16));
}

/* MSAC APSZ for a power-of-two aperture of 128 MiB .. 4 GiB. */
static uint8_t model_msac(uint64_t size)
{
	uint8_t apsz = 0;

	while (size > (128ull << 20) && apsz < 0x1f) {
		apsz = (uint8_t)((apsz << 1) | 1);
		size >>= 1;
	}
	return apsz;
}

/* Config space layout of gen9-facts §1.2, capability chain 0x40 -> 0x70 ->
 * 0xAC (MSI) -> 0xD0 (PM). */
void gen9_model_pci_config(const struct gen9_model *m, uint8_t *cfg)
{
	uint64_t bar0 = m->cfg.gttmmadr | 0x4; /* 64-bit memory */
	uint64_t bar2 = m->cfg.gmadr | 0xc; /* 64-bit prefetchable */

	memset(cfg, 0, GEN9_PCI_CFG_SIZE);
	put16(cfg, GEN9_PCI_VENDOR, PCI_VENDOR_ID_INTEL);
	put16(cfg, GEN9_PCI_DEVICE, m->cfg.device_id);
	put16(cfg, GEN9_PCI_COMMAND, GEN9_PCI_CMD_MEM | GEN9_PCI_CMD_MASTER);
	put16(cfg, 0x06, 0x0010); /* status: capability list */
	cfg[GEN9_PCI_REVISION] = m->cfg.revision;
	cfg[0x0b] = 0x03; /* class VGA, subclass/prog-if 0 */
	put32(cfg, GEN9_PCI_BAR0, (uint32_t)bar0);
	put32(cfg, GEN9_PCI_BAR0 + 4, (uint32_t)(bar0 >> 32));
	put32(cfg, GEN9_PCI_BAR2, (uint32_t)bar2);
	put32(cfg, GEN9_PCI_BAR2 + 4, (uint32_t)(bar2 >> 32));
	put16(cfg, GEN9_PCI_SUBSYS_VENDOR, PCI_VENDOR_ID_INTEL);
	cfg[GEN9_PCI_CAP_PTR] = 0x40;
	cfg[0x40] = 0x09; cfg[0x41] = 0x70; /* vendor specific (CAPID0) */
	put16(cfg, GEN9_PCI_GGC, model_ggc(m));
	put32(cfg, GEN9_PCI_BDSM, (uint32_t)m->cfg.stolen_base & GEN9_BDSM_MASK);
	cfg[GEN9_PCI_MSAC] = model_msac(m->cfg.aperture_size);
	cfg[0x70] = 0x10; cfg[0x71] = 0xac; /* PCIe */
	cfg[0xac] = 0x05; cfg[0xad] = 0xd0; /* MSI, 32-bit address */
	cfg[0xd0] = 0x01; cfg[0xd1] = 0x00; /* PM, end of list */
}

/* ---- gpu_hw backend ---------------------------------------------------- */

static uint32_t op_read32(void *ctx, uint32_t off)
{
	return gen9_model_read32(ctx, off);
}

static void op_write32(void *ctx, uint32_t off, uint32_t val)
{
	gen9_model_write32(ctx, off, val);
}

static uint64_t op_ggtt_read(void *ctx, uint32_t index)
{
	return gen9_model_ggtt_read(ctx, index);
}

static void op_ggtt_write(void *ctx, uint32_t index, uint64_t pte)
{
	gen9_model_ggtt_write(ctx, index, pte);
}

static void op_ggtt_write_range(void *ctx, uint32_t first,
				const uint64_t *ptes, uint32_t count)
{
	gen9_model_ggtt_write_range(ctx, first, ptes, count);
}

static int op_aperture_rw(void *ctx, uint64_t off, void *buf, size_t len,
			  bool write)
{
	return gen9_model_aperture_rw(ctx, off, buf, len, write);
}

static void op_poll(void *ctx)
{
	gen9_model_poll(ctx);
}

static void op_udelay(void *ctx, uint32_t us)
{
	gen9_model_udelay(ctx, us);
}

void gen9_model_track_dirty(struct gen9_model *m, uint8_t *dirty)
{
	m->reg_dirty = dirty;
}

void gen9_model_attach(struct gen9_model *m, struct gpu_hw *hw)
{
	m->ops.read32 = op_read32;
	m->ops.write32 = op_write32;
	m->ops.ggtt_read = op_ggtt_read;
	m->ops.ggtt_write = op_ggtt_write;
	m->ops.ggtt_write_range = op_ggtt_write_range;
	m->ops.aperture_rw = op_aperture_rw;
	m->ops.poll = op_poll;
	m->ops.udelay = op_udelay;
	memset(hw, 0, sizeof(*hw));
	hw->ops = &m->ops;
	hw->ctx = m;
	hw->dma = m->dma;
	gen9_model_info(m, &hw->info);
}
