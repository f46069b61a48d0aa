/* The i915-like guest; see guest_i915.h. Values and sequences follow
 * docs/i915-guest-facts.md (cited i915-guest §N). */
#include "tests/harness/guest_i915.h"

#include <stdio.h>
#include <string.h>

#include "gpu/hw/gen9_cmds.h"

#define PG 4096u
#define BAR0_GGTT 0x800000u
#define PV 0x78000u
#define MSI_ADDR 0xfee00000u
#define MSI_DATA 0x4041u

static int fail(const char *what)
{
	fprintf(stderr, "guest_i915: %s\n", what);
	return -1;
}

uint64_t gi_mmio_read(struct guest_i915 *g, uint32_t off, unsigned int size)
{
	uint64_t val = 0;

	vgpu_mmio_read(g->v, off, &val, size);
	return val;
}

void gi_mmio_write(struct guest_i915 *g, uint32_t off, uint64_t val,
		   unsigned int size)
{
	vgpu_mmio_write(g->v, off, val, size);
	/* Then, as the hypervisor after the exit and before the next entry
	 * (hv/gpu/gpu_host.c gpu_host_after_exit): the scheduler for a
	 * submission the write posted. */
	if (!g->no_after_exit && gvt_posted(g->gvt))
		gvt_poll(g->gvt);
}

static uint32_t cfg_read(struct guest_i915 *g, uint32_t off, unsigned int size)
{
	uint32_t v = 0;

	vgpu_cfg_read(g->v, off, &v, size);
	return v;
}

uint32_t gi_read32(struct guest_i915 *g, uint64_t gpa)
{
	uint32_t v;

	fake_hv_guest_read(g->hv, g->vm, gpa, &v, 4);
	return v;
}

void gi_write32(struct guest_i915 *g, uint64_t gpa, uint32_t v)
{
	fake_hv_guest_write(g->hv, g->vm, gpa, &v, 4);
}

uint64_t gi_alloc_pages(struct guest_i915 *g, uint32_t n)
{
	uint64_t gpa = g->next_gpa;

	g->next_gpa += (uint64_t)n * PG;
	if (g->next_gpa > g->hv->vm[g->vm].ram_size) {
		fprintf(stderr, "guest_i915: out of guest RAM\n");
		return 0;
	}
	return gpa;
}

/* ---- probe (i915-guest §2, §3, §6, §7) ---------------------------------- */

static int pci_setup(struct guest_i915 *g)
{
	uint32_t lo, hi;

	if (cfg_read(g, 0, 2) != 0x8086 || (cfg_read(g, 0x0a, 2)) != 0x0300)
		return fail("not an Intel VGA device");
	/* Size BAR2 as the PCI core does: all ones, read back. */
	vgpu_cfg_write(g->v, 0x18, 0xffffffff, 4);
	vgpu_cfg_write(g->v, 0x1c, 0xffffffff, 4);
	lo = cfg_read(g, 0x18, 4);
	hi = cfg_read(g, 0x1c, 4);
	g->mappable_end = ~(((uint64_t)hi << 32 | (lo & ~0xfu))) + 1;
	vgpu_cfg_write(g->v, 0x18, 0xe000000c, 4);
	vgpu_cfg_write(g->v, 0x1c, 0, 4);
	vgpu_cfg_write(g->v, 0x10, 0xd0000004, 4);
	vgpu_cfg_write(g->v, 0x14, 0, 4);
	vgpu_cfg_write(g->v, 0x04, 0x0006, 2); /* memory + bus master */
	/* GGC: GTT size from GGMS (i915-guest §6.2). */
	g->ggtt_total = ((1ull << ((cfg_read(g, 0x50, 2) >> 6) & 3)) << 20) / 8 * PG;
	/* MSI: one vector (pci_enable_msi). */
	vgpu_cfg_write(g->v, GEN9_PCI_MSI_ADDR, MSI_ADDR, 4);
	vgpu_cfg_write(g->v, GEN9_PCI_MSI_DATA, MSI_DATA, 2);
	vgpu_cfg_write(g->v, GEN9_PCI_MSI_CTRL, 1, 2);
	return 0;
}

/* intel_vgpu_detect(): readq magic, readw version, readl caps. */
static int detect(struct guest_i915 *g)
{
	g->magic = gi_mmio_read(g, PV, 8);
	if (g->magic != 0x4776544776544776ull)
		return fail("no PVINFO magic");
	g->version = (uint16_t)gi_mmio_read(g, PV + 8, 2);
	if (g->version < 1)
		return fail("PVINFO version");
	g->caps = (uint32_t)gi_mmio_read(g, PV + 0x10, 4);
	if (!(g->caps & (1u << 2)) || !(g->caps & (1u << 3)))
		return fail("vGPU lacks full PPGTT or HWSP emulation");
	return 0;
}

/* intel_vgt_balloon()'s validation (i915-guest §3). */
static int balloon(struct guest_i915 *g)
{
	g->low_base = (uint32_t)gi_mmio_read(g, PV + 0x40, 4);
	g->low_size = (uint32_t)gi_mmio_read(g, PV + 0x44, 4);
	g->high_base = (uint32_t)gi_mmio_read(g, PV + 0x48, 4);
	g->high_size = (uint32_t)gi_mmio_read(g, PV + 0x4c, 4);
	if ((uint64_t)g->low_base + g->low_size > g->mappable_end ||
	    g->high_base < g->mappable_end ||
	    (uint64_t)g->high_base + g->high_size > g->ggtt_total)
		return fail("Invalid ballooning configuration!");
	g->fences = (uint32_t)gi_mmio_read(g, PV + 0x50, 4);
	g->low_next = g->low_base;
	g->high_next = g->high_base;
	return 0;
}

int gi_probe(struct guest_i915 *g, struct fake_hv *hv, struct vgpu *v,
	     uint32_t vm, struct gvt *gvt)
{
	uint64_t t;
	int i;

	memset(g->eng, 0, sizeof(g->eng));
	memset(g->ctx, 0, sizeof(g->ctx));
	g->hv = hv;
	g->v = v;
	g->vm = vm;
	g->gvt = gvt;
	g->next_gpa = 0x100000; /* leave the first MiB alone, like firmware */
	if (pci_setup(g) || detect(g))
		return -1;
	/* sanity_check_mmio_access: FORCEWAKE_MT must not read all ones. */
	if ((uint32_t)gi_mmio_read(g, FORCEWAKE_GT_GEN9, 4) == 0xffffffffu)
		return fail("MMIO dead");
	/* sanitize_gpu: full reset, poll for the bit to clear. */
	gi_mmio_write(g, GEN6_GDRST, GEN6_GRDOM_FULL, 4);
	for (i = 0; i < 10 && (gi_mmio_read(g, GEN6_GDRST, 4) & 1); i++)
		;
	if (gi_mmio_read(g, GEN6_GDRST, 4) & 1)
		return fail("GDRST stuck");
	if (balloon(g))
		return -1;
	/* the PCODE mailbox handshake must complete */
	gi_mmio_write(g, GEN6_PCODE_DATA, 0, 4);
	gi_mmio_write(g, GEN6_PCODE_MAILBOX, GEN6_PCODE_READY | 6, 4);
	t = gi_mmio_read(g, GEN6_PCODE_MAILBOX, 4);
	if (t & GEN6_PCODE_READY)
		return fail("pcode busy");
	gi_irq_init(g);
	g->msi_seen = hv->vm[vm].msi_count;
	return 0;
}

/* ---- GGTT (i915-guest §3, gen9-facts §2) -------------------------------- */

uint32_t gi_gm_alloc(struct guest_i915 *g, uint32_t bytes, bool mappable)
{
	uint64_t *next = mappable ? &g->low_next : &g->high_next;
	uint64_t end = mappable ? (uint64_t)g->low_base + g->low_size
				: (uint64_t)g->high_base + g->high_size;
	uint64_t at = *next;

	bytes = (bytes + PG - 1) & ~(PG - 1);
	if (at + bytes > end)
		return 0;
	*next += bytes;
	return (uint32_t)at;
}

void gi_ggtt_bind(struct guest_i915 *g, uint32_t gm, uint64_t gpa, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint32_t off = BAR0_GGTT + ((gm >> 12) + i) * 8;
		uint64_t pte = (gpa + (uint64_t)i * PG) | 1;

		if (g->half_ggtt_writes) {
			gi_mmio_write(g, off, (uint32_t)pte, 4);
			gi_mmio_write(g, off + 4, pte >> 32, 4);
		} else {
			gi_mmio_write(g, off, pte, 8);
		}
	}
	gi_mmio_write(g, GFX_FLSH_CNTL_GEN6, GFX_FLSH_CNTL_EN, 4);
}

/* ---- PPGTT (i915-guest §2.4, gen9-facts §5.1) --------------------------- */

static void pt_store(struct guest_i915 *g, uint64_t gpa, uint64_t val)
{
	fake_hv_guest_store(g->hv, g->vm, gpa, &val, 8);
}

static uint64_t pt_read(struct guest_i915 *g, uint64_t gpa)
{
	uint64_t v;

	fake_hv_guest_read(g->hv, g->vm, gpa, &v, 8);
	return v;
}

int gi_ppgtt_create(struct guest_i915 *g)
{
	g->pml4_gpa = gi_alloc_pages(g, 1);
	if (!g->pml4_gpa)
		return -1;
	g->ppgtt_next_va = 0x100000000ull; /* above 4 GiB: needs all levels */
	/* gen8_ppgtt_notify_vgt: root to pdp[0], then the doorbell. */
	gi_mmio_write(g, PV + 0x838, (uint32_t)g->pml4_gpa, 4);
	gi_mmio_write(g, PV + 0x83c, g->pml4_gpa >> 32, 4);
	gi_mmio_write(g, PV + 0x818, 4, 4);
	return 0;
}

void gi_ppgtt_destroy(struct guest_i915 *g)
{
	gi_mmio_write(g, PV + 0x838, (uint32_t)g->pml4_gpa, 4);
	gi_mmio_write(g, PV + 0x83c, g->pml4_gpa >> 32, 4);
	gi_mmio_write(g, PV + 0x818, 5, 4);
}

/* Table below entry i of the table at gpa, created on demand. */
static uint64_t pt_next(struct guest_i915 *g, uint64_t table, unsigned int i)
{
	uint64_t e = pt_read(g, table + 8ull * i);

	if (!(e & 1)) {
		uint64_t page = gi_alloc_pages(g, 1);

		e = page | 3; /* present, writable */
		pt_store(g, table + 8ull * i, e);
	}
	return e & 0x3ffffffff000ull;
}

void gi_ppgtt_map(struct guest_i915 *g, uint64_t va, uint64_t gpa, uint32_t n)
{
	uint32_t k;

	for (k = 0; k < n; k++, va += PG, gpa += PG) {
		uint64_t pdp = pt_next(g, g->pml4_gpa, (va >> 39) & 511);
		uint64_t pd = pt_next(g, pdp, (va >> 30) & 511);
		uint64_t pt = pt_next(g, pd, (va >> 21) & 511);

		pt_store(g, pt + 8 * ((va >> 12) & 511), gpa | 3);
	}
}

/* ---- engines and interrupts (i915-guest §7 step 9-10, §8) --------------- */

void gi_irq_init(struct guest_i915 *g)
{
	static const int bank[] = { 0, 1, 3 };
	uint32_t irqs = GEN8_ENGINE_DEFAULT_IRQS | GEN8_ENGINE_DEFAULT_IRQS << 16;
	unsigned int i;

	gi_mmio_write(g, GEN8_MASTER_IRQ, 0, 4);
	for (i = 0; i < 3; i++) {
		gi_mmio_write(g, GEN8_GT_IER(bank[i]), irqs, 4);
		gi_mmio_write(g, GEN8_GT_IMR(bank[i]), ~irqs, 4);
	}
	gi_mmio_write(g, GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL, 4);
}

int gi_engine_init(struct guest_i915 *g, int engine)
{
	struct gi_engine *e = &g->eng[engine];
	uint32_t i, ff = ~0u;

	e->base = gen9_engine_mmio_base((enum gen9_engine_id)engine);
	e->hwsp_gpa = gi_alloc_pages(g, 1);
	e->hwsp_gm = gi_gm_alloc(g, PG, false);
	if (!e->hwsp_gpa || !e->hwsp_gm)
		return -1;
	gi_ggtt_bind(g, e->hwsp_gm, e->hwsp_gpa, 1);
	gi_mmio_write(g, RING_HWSTAM(e->base), ~0u, 4);
	gi_mmio_write(g, RING_MODE_GEN7(e->base),
		      _MASKED_BIT_ENABLE(GFX_RUN_LIST_ENABLE), 4);
	gi_mmio_write(g, RING_MI_MODE(e->base), _MASKED_BIT_DISABLE(STOP_RING), 4);
	gi_mmio_write(g, RING_HWS_PGA(e->base), e->hwsp_gm, 4);
	/* CSB reset: read = write = 5, stale slots all ones (i915-guest §8). */
	gi_mmio_write(g, RING_CONTEXT_STATUS_PTR(e->base), GEN8_CSB_PTR_RESET_VALUE, 4);
	for (i = 0; i < 12; i++)
		gi_write32(g, e->hwsp_gpa + (I915_HWS_CSB_BUF0_INDEX + i) * 4, ff);
	gi_write32(g, e->hwsp_gpa + I915_HWS_CSB_WRITE_INDEX * 4, 5);
	e->csb_head = 5;
	e->up = true;
	return 0;
}

static void ctx_image(struct guest_i915 *g, struct gi_ctx *c)
{
	uint32_t base = gen9_engine_mmio_base((enum gen9_engine_id)c->engine);
	uint64_t st = c->lrca_gpa + LRC_STATE_OFFSET;

	gi_write32(g, st + CTX_LRI_HEADER_0 * 4, GEN9_CTX_LRI_HEADER_0_VAL);
	gi_write32(g, st + (CTX_CONTEXT_CONTROL - 1) * 4, base + 0x244);
	gi_write32(g, st + CTX_CONTEXT_CONTROL * 4,
		   _MASKED_BIT_ENABLE(CTX_CTRL_INHIBIT_SYN_CTX_SWITCH |
				      CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT) |
			   _MASKED_BIT_DISABLE(CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT |
					       CTX_CTRL_RS_CTX_ENABLE));
	gi_write32(g, st + CTX_RING_HEAD * 4, 0);
	gi_write32(g, st + CTX_RING_TAIL * 4, 0);
	gi_write32(g, st + CTX_RING_START * 4, c->ring_gm);
	gi_write32(g, st + CTX_RING_CTL * 4, RING_CTL_SIZE(c->ring_size) | RING_VALID);
	gi_write32(g, st + CTX_PDP0_UDW * 4, (uint32_t)(g->pml4_gpa >> 32));
	gi_write32(g, st + CTX_PDP0_LDW * 4, (uint32_t)g->pml4_gpa);
}

int gi_ctx_create(struct guest_i915 *g, int engine)
{
	return gi_ctx_create_ring(g, engine, GI_RING_SIZE);
}

int gi_ctx_create_ring(struct guest_i915 *g, int engine, uint32_t ring_size)
{
	int i;
	struct gi_ctx *c;

	for (i = 0; i < GI_MAX_CTX && g->ctx[i].used; i++)
		;
	if (i == GI_MAX_CTX)
		return -1;
	c = &g->ctx[i];
	c->used = true;
	c->engine = engine;
	c->pages = engine == GEN9_RCS0 ? 22 : 2;
	c->lrca_gpa = gi_alloc_pages(g, c->pages);
	c->lrca = gi_gm_alloc(g, c->pages * PG, false);
	c->ring_size = ring_size;
	c->ring_gpa = gi_alloc_pages(g, ring_size / PG);
	c->ring_gm = gi_gm_alloc(g, ring_size, false);
	if (!c->lrca_gpa || !c->lrca || !c->ring_gpa || !c->ring_gm)
		return -1;
	c->hw_id = (uint32_t)(i + 1) << 5 | (uint32_t)engine;
	gi_ggtt_bind(g, c->lrca, c->lrca_gpa, c->pages);
	gi_ggtt_bind(g, c->ring_gm, c->ring_gpa, ring_size / PG);
	ctx_image(g, c);
	return i;
}

void gi_ring_emit(struct guest_i915 *g, int ctx, const uint32_t *dw, uint32_t n)
{
	struct gi_ctx *c = &g->ctx[ctx];
	uint32_t i;

	for (i = 0; i < n; i++) {
		gi_write32(g, c->ring_gpa + c->tail, dw[i]);
		c->tail = (c->tail + 4) % c->ring_size;
	}
}

void gi_emit_bb_start(struct guest_i915 *g, int ctx, uint64_t va, bool ppgtt)
{
	uint32_t cs[6] = {
		MI_ARB_ON_OFF | MI_ARB_ENABLE,
		MI_BATCH_BUFFER_START_GEN8 | (ppgtt ? MI_BATCH_PPGTT : 0),
		(uint32_t)va, (uint32_t)(va >> 32),
		MI_ARB_ON_OFF | MI_ARB_DISABLE,
		MI_NOOP,
	};

	gi_ring_emit(g, ctx, cs, 6);
}

/* gen8_emit_fini_breadcrumb: a GGTT store of the seqno, then a user
 * interrupt; PIPE_CONTROL on RCS, MI_FLUSH_DW elsewhere (gen9-facts §6.3). */
void gi_emit_breadcrumb(struct guest_i915 *g, int ctx, uint32_t gm, uint32_t val)
{
	if (g->ctx[ctx].engine == GEN9_RCS0) {
		uint32_t cs[8] = {
			GFX_OP_PIPE_CONTROL(6),
			PIPE_CONTROL_CS_STALL | PIPE_CONTROL_QW_WRITE |
				PIPE_CONTROL_GLOBAL_GTT_IVB | PIPE_CONTROL_FLUSH_ENABLE,
			gm, 0, val, 0,
			MI_USER_INTERRUPT, MI_NOOP,
		};

		gi_ring_emit(g, ctx, cs, 8);
	} else {
		uint32_t cs[6] = {
			(MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW,
			gm | MI_FLUSH_DW_USE_GTT, 0, val,
			MI_USER_INTERRUPT, MI_NOOP,
		};

		gi_ring_emit(g, ctx, cs, 6);
	}
}

static uint64_t desc_of(struct guest_i915 *g, int ctx)
{
	struct gi_ctx *c = &g->ctx[ctx];

	return c->lrca | GEN8_CTX_VALID | GEN8_CTX_PRIVILEGE |
	       INTEL_LEGACY_64B_CONTEXT << GEN8_CTX_ADDRESSING_MODE_SHIFT |
	       (uint64_t)c->hw_id << 32;
}

void gi_submit(struct guest_i915 *g, int ctx0, int ctx1)
{
	struct gi_ctx *c0 = &g->ctx[ctx0];
	uint32_t base = gen9_engine_mmio_base((enum gen9_engine_id)c0->engine);
	uint64_t d0 = desc_of(g, ctx0), d1 = ctx1 >= 0 ? desc_of(g, ctx1) : 0;

	gi_write32(g, c0->lrca_gpa + LRC_STATE_OFFSET + CTX_RING_TAIL * 4, c0->tail);
	if (ctx1 >= 0)
		gi_write32(g, g->ctx[ctx1].lrca_gpa + LRC_STATE_OFFSET + CTX_RING_TAIL * 4,
			   g->ctx[ctx1].tail);
	/* write_desc(): element 1 first, upper dword first (i915-guest §8). */
	gi_mmio_write(g, RING_ELSP(base), d1 >> 32, 4);
	gi_mmio_write(g, RING_ELSP(base), (uint32_t)d1, 4);
	gi_mmio_write(g, RING_ELSP(base), d0 >> 32, 4);
	gi_mmio_write(g, RING_ELSP(base), (uint32_t)d0, 4);
}

/* ---- servicing ---------------------------------------------------------- */

static void take_irq(struct guest_i915 *g)
{
	uint32_t master, iir;
	unsigned int b;

	gi_mmio_write(g, GEN8_MASTER_IRQ, 0, 4);
	master = (uint32_t)gi_mmio_read(g, GEN8_MASTER_IRQ, 4);
	for (b = 0; b < GEN8_GT_BANKS; b++) {
		iir = (uint32_t)gi_mmio_read(g, GEN8_GT_IIR(b), 4);
		if (!iir)
			continue;
		g->iir_seen[b] |= iir;
		gi_mmio_write(g, GEN8_GT_IIR(b), iir, 4);
	}
	(void)master;
	g->irqs_handled++;
	gi_mmio_write(g, GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL, 4);
}

static void read_csb(struct guest_i915 *g, struct gi_engine *e)
{
	uint32_t wp = gi_read32(g, e->hwsp_gpa + I915_HWS_CSB_WRITE_INDEX * 4);

	if (wp >= GEN8_CSB_ENTRIES)
		return;
	while (e->csb_head != wp) {
		uint32_t st;

		e->csb_head = (uint8_t)((e->csb_head + 1) % GEN8_CSB_ENTRIES);
		st = gi_read32(g, e->hwsp_gpa + (I915_HWS_CSB_BUF0_INDEX + 2u * e->csb_head) * 4);
		e->csb_events++;
		if (st & GEN8_CTX_STATUS_IDLE_ACTIVE) {
			e->idle_to_active++;
			e->active = true;
		}
		if (st & GEN8_CTX_STATUS_LITE_RESTORE)
			e->lite_restores++;
		if (st & GEN8_CTX_STATUS_COMPLETE)
			e->completes++;
		if (st & GEN8_CTX_STATUS_ACTIVE_IDLE)
			e->active = false;
	}
}

void gi_service(struct guest_i915 *g)
{
	int id;

	if (g->poll)
		g->poll(g->poll_arg);
	gvt_poll(g->gvt);
	if (g->hv->vm[g->vm].msi_count != g->msi_seen) {
		g->msi_seen = g->hv->vm[g->vm].msi_count;
		take_irq(g);
	}
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (g->eng[id].up)
			read_csb(g, &g->eng[id]);
}

int gi_wait_idle(struct guest_i915 *g, int engine, int n)
{
	while (n-- > 0) {
		gi_service(g);
		if (!g->eng[engine].active && g->eng[engine].completes)
			return 0;
	}
	return -1;
}
