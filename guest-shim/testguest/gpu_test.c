/* The test guest's GPU test (mode=gpu, mode=gpu-attack): drives its vGPU
 * at 00:02.0 the way a stock i915 does (docs/i915-guest-facts.md):
 * PCI config space, BAR0 registers and GGTT entries, PVINFO, a 4-level
 * PPGTT built with CPU stores (which the mediator traps), one blitter
 * context submitted through ELSP, the CSB in the status page, MSI.
 *
 * mode=gpu: ROUNDS times, blit a pattern unique to this VM and round from
 * a source to a destination buffer and store a seqno; read the destination
 * back through the aperture (BAR2, the ladder mapping) and check it.
 * mode=gpu-attack: the same setup, then a GGTT entry naming memory outside
 * the VM (must not be reachable: reads all ones through the aperture), then
 * a batch that writes ELSP with MI_LOAD_REGISTER_IMM (a privileged
 * register: the mediator must refuse it and the hypervisor stop this VM).
 * The device layer (setup, binding, submission on any engine) is shared
 * with mode=gpu-hostile through gpu_dev.h. */
#include "guest-shim/include/g9hv/gen9_hw.h"
#include "guest-shim/testguest/gpu_dev.h"
#include "guest-shim/testguest/gpu_test.h"
#include "guest-shim/testguest/tg.h"
#include "mini/string.h"

#define PG		4096u
#define BAR0_GPA	0xc0000000ull	/* 16 MiB, placed by us as firmware would */
#define BAR2_GPA	0xd0000000ull	/* the aperture */
#define BAR0_GGTT	0x800000u
#define PV		0x78000u
#define PV_MAGIC	0x4776544776544776ull
#define MSI_ADDR	0xfee00000u
#define ARENA_GPA	0x800000ull	/* GPU objects: 8 MiB up in our RAM */
#define RING_BYTES	(4 * PG)
#define CTX_PAGES	2		/* BCS logical context */
#define BUF_PAGES	4		/* 1024 x 4 pixels, 32 bpp */
#define BUF_PITCH	4096u
#define ROUNDS		4
#define BATCH_VA	0x100000000ull	/* above 4 GiB: all four levels */
#define SRC_VA		0x100200000ull
#define DST_VA		0x100400000ull
#define WAIT_YIELDS	200000

static struct gpu {
	volatile uint8_t *bar0, *bar2;
	uint64_t mappable_end;
	uint32_t low_base, low_size, high_base, high_size;
	uint64_t next_gpa;
	uint32_t low_next, high_next;
	uint64_t pml4, hwsp, lrca, ring, batch, src[2], dst, seq;
	uint32_t hwsp_gm, lrca_gm, ring_gm, dst_gm, seq_gm, tail;
	uint8_t csb_head;
	uint32_t completes;
	uint32_t base, ctx_pages;	/* the engine in use (BCS unless switched) */
	int engine;
} g;

/* ---- config space and registers ----------------------------------------- */

static uint32_t cfg_read(unsigned dev, unsigned off)
{
	outl(0xcf8, 0x80000000u | dev << 11 | (off & 0xfc));
	return inl(0xcfc);
}

static void cfg_write(unsigned dev, unsigned off, uint32_t val)
{
	outl(0xcf8, 0x80000000u | dev << 11 | (off & 0xfc));
	outl(0xcfc, val);
}

static uint32_t rd32(uint32_t off)
{
	return *(volatile uint32_t *)(g.bar0 + off);
}

static uint64_t rd64(uint32_t off)
{
	return *(volatile uint64_t *)(g.bar0 + off);
}

static void wr32(uint32_t off, uint32_t val)
{
	*(volatile uint32_t *)(g.bar0 + off) = val;
}

static void wr64(uint32_t off, uint64_t val)
{
	*(volatile uint64_t *)(g.bar0 + off) = val;
}

static uint32_t *ram32(uint64_t gpa)
{
	return (uint32_t *)(uintptr_t)gpa;
}

static uint64_t alloc_pages(uint32_t n)
{
	uint64_t gpa = g.next_gpa;

	g.next_gpa += (uint64_t)n * PG;
	memset((void *)(uintptr_t)gpa, 0, (size_t)n * PG);
	return gpa;
}

static uint32_t gm_alloc(uint32_t bytes, bool mappable)
{
	uint32_t *next = mappable ? &g.low_next : &g.high_next;
	uint32_t at = *next;

	*next += bytes;
	return at;
}

/* ---- probe: PCI, PVINFO, ballooning (i915-guest §2, §3, §6) ------------- */

static bool pci_setup(void)
{
	uint32_t id = cfg_read(2, 0), cls = cfg_read(2, 8) >> 16;
	uint32_t isa = cfg_read(0x1f, 0);

	tg_check("gpu-pci", (id & 0xffff) == 0x8086 && cls == 0x0300 &&
		 (isa & 0xffff) == 0x8086 && ((isa >> 16) & 0xff80) == 0xa100,
		 "00:02.0 %08x class %04x, 00:1f.0 %08x", id, cls, isa);
	if ((id & 0xffff) != 0x8086)
		return false;
	cfg_write(2, 0x18, 0xffffffffu);	/* size BAR2 like the PCI core */
	cfg_write(2, 0x1c, 0xffffffffu);
	g.mappable_end = ~((uint64_t)cfg_read(2, 0x1c) << 32 |
			   (cfg_read(2, 0x18) & ~0xfu)) + 1;
	cfg_write(2, 0x10, (uint32_t)BAR0_GPA | 4);
	cfg_write(2, 0x14, 0);
	cfg_write(2, 0x18, (uint32_t)BAR2_GPA | 0xc);
	cfg_write(2, 0x1c, 0);
	cfg_write(2, 0x04, 0x0006);		/* memory + bus master */
	cfg_write(2, GEN9_PCI_MSI_ADDR, MSI_ADDR);
	cfg_write(2, GEN9_PCI_MSI_DATA, TG_MSI_VECTOR);
	cfg_write(2, GEN9_PCI_MSI_CAP, cfg_read(2, GEN9_PCI_MSI_CAP) |
		  1u << 16);			/* MSI enable */
	g.bar0 = (volatile uint8_t *)(uintptr_t)BAR0_GPA;
	g.bar2 = (volatile uint8_t *)(uintptr_t)BAR2_GPA;
	return true;
}

/* intel_vgpu_detect() and intel_vgt_balloon()'s checks. */
static bool pvinfo(void)
{
	uint64_t magic = rd64(PV);
	uint32_t caps = rd32(PV + 0x10);

	g.low_base = rd32(PV + 0x40);
	g.low_size = rd32(PV + 0x44);
	g.high_base = rd32(PV + 0x48);
	g.high_size = rd32(PV + 0x4c);
	tg_check("gpu-pvinfo", magic == PV_MAGIC && (caps & 0xc) == 0xc &&
		 g.low_size && g.high_size &&
		 g.low_base + (uint64_t)g.low_size <= g.mappable_end &&
		 g.high_base >= g.mappable_end,
		 "magic %llx caps %x low %x+%x high %x+%x aperture %llx",
		 (unsigned long long)magic, caps, g.low_base, g.low_size,
		 g.high_base, g.high_size, (unsigned long long)g.mappable_end);
	g.low_next = g.low_base;
	g.high_next = g.high_base;
	return magic == PV_MAGIC;
}

/* ---- GGTT, PPGTT, engine, context (i915-guest §2.4, §7, §8) ------------- */

static void ggtt_bind(uint32_t gm, uint64_t gpa, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		wr64(BAR0_GGTT + ((gm >> 12) + i) * 8, (gpa + i * PG) | 1);
	wr32(GFX_FLSH_CNTL_GEN6, GFX_FLSH_CNTL_EN);
}

static uint64_t pt_next(uint64_t table, unsigned i)
{
	volatile uint64_t *e = (volatile uint64_t *)(uintptr_t)(table + 8ull * i);

	if (!(*e & 1))
		*e = alloc_pages(1) | 3;	/* trapped once the table is shadowed */
	return *e & 0x3ffffffff000ull;
}

static void ppgtt_map(uint64_t va, uint64_t gpa, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++, va += PG, gpa += PG) {
		uint64_t pdp = pt_next(g.pml4, (va >> 39) & 511);
		uint64_t pd = pt_next(pdp, (va >> 30) & 511);
		uint64_t pt = pt_next(pd, (va >> 21) & 511);

		*(volatile uint64_t *)(uintptr_t)(pt + 8 * ((va >> 12) & 511)) =
			gpa | 3;
	}
}

static void ppgtt_create(void)
{
	g.pml4 = alloc_pages(1);
	wr32(PV + 0x838, (uint32_t)g.pml4);	/* gen8_ppgtt_notify_vgt */
	wr32(PV + 0x83c, (uint32_t)(g.pml4 >> 32));
	wr32(PV + 0x818, 4);			/* VGT_G2V_PPGTT_L4_CREATE */
}

static void irq_init(void)
{
	uint32_t irqs = GEN8_ENGINE_DEFAULT_IRQS | GEN8_ENGINE_DEFAULT_IRQS << 16;

	wr32(GEN8_MASTER_IRQ, 0);
	wr32(GEN8_GT_IER(0), irqs);		/* RCS + BCS */
	wr32(GEN8_GT_IMR(0), ~irqs);
	wr32(GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL);
}

/* The engine's registers and status page as i915's execlists resume
 * sets them (at init and after an engine reset). */
static void engine_program(uint32_t base)
{
	wr32(RING_HWSTAM(base), ~0u);
	wr32(RING_MODE_GEN7(base), _MASKED_BIT_ENABLE(GFX_RUN_LIST_ENABLE));
	wr32(RING_MI_MODE(base), _MASKED_BIT_DISABLE(STOP_RING));
	wr32(RING_HWS_PGA(base), g.hwsp_gm);
	wr32(RING_CONTEXT_STATUS_PTR(base), GEN8_CSB_PTR_RESET_VALUE);
	for (unsigned i = 0; i < 12; i++)
		ram32(g.hwsp)[I915_HWS_CSB_BUF0_INDEX + i] = ~0u;
	ram32(g.hwsp)[I915_HWS_CSB_WRITE_INDEX] = 5;
	g.csb_head = 5;
}

static void engine_init(uint32_t base)
{
	g.hwsp = alloc_pages(1);
	g.hwsp_gm = gm_alloc(PG, false);
	ggtt_bind(g.hwsp_gm, g.hwsp, 1);
	engine_program(base);
}

/* What i915 does on a CS error interrupt (the hypervisor reset our vGPU
 * and says so in RING_EIR): acknowledge EIR, reset the engine through
 * RESET_CTL and GDRST, program it again, and skip the guilty request
 * (the context resumes at the ring's tail, as reset_rewind does). */
bool gpu_dev_recover(void)
{
	uint32_t eir = rd32(RING_EIR(g.base));

	if (!eir)
		return false;
	wr32(RING_EIR(g.base), eir);
	wr32(RING_RESET_CTL(g.base),
	     _MASKED_BIT_ENABLE(RESET_CTL_REQUEST_RESET));
	wr32(GEN6_GDRST, gen9_engine_reset_domain((enum gen9_engine_id)g.engine));
	for (int i = 0; i < 100 && rd32(GEN6_GDRST); i++)
		;
	wr32(RING_RESET_CTL(g.base),
	     _MASKED_BIT_DISABLE(RESET_CTL_REQUEST_RESET));
	engine_program(g.base);
	ram32(g.lrca + LRC_STATE_OFFSET)[CTX_RING_HEAD] = g.tail;
	return true;
}

static void context_create(uint32_t base)
{
	uint32_t *st;

	g.lrca = alloc_pages(g.ctx_pages);
	g.lrca_gm = gm_alloc(g.ctx_pages * PG, false);
	g.ring = alloc_pages(RING_BYTES / PG);
	g.ring_gm = gm_alloc(RING_BYTES, false);
	ggtt_bind(g.lrca_gm, g.lrca, g.ctx_pages);
	ggtt_bind(g.ring_gm, g.ring, RING_BYTES / PG);
	st = ram32(g.lrca + LRC_STATE_OFFSET);
	st[CTX_LRI_HEADER_0] = GEN9_CTX_LRI_HEADER_0_VAL;
	st[CTX_CONTEXT_CONTROL - 1] = base + 0x244;
	st[CTX_CONTEXT_CONTROL] =
		_MASKED_BIT_ENABLE(CTX_CTRL_INHIBIT_SYN_CTX_SWITCH |
				   CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT) |
		_MASKED_BIT_DISABLE(CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT |
				    CTX_CTRL_RS_CTX_ENABLE);
	st[CTX_RING_START] = g.ring_gm;
	st[CTX_RING_CTL] = RING_CTL_SIZE(RING_BYTES) | RING_VALID;
	st[CTX_PDP0_UDW] = (uint32_t)(g.pml4 >> 32);
	st[CTX_PDP0_LDW] = (uint32_t)g.pml4;
}

static bool gpu_setup(void)
{
	uint32_t base = BLT_RING_BASE;

	g.next_gpa = ARENA_GPA;
	g.base = base;
	g.engine = GEN9_BCS0;
	g.ctx_pages = CTX_PAGES;
	if (!pci_setup() || !pvinfo())
		return false;
	wr32(GEN6_GDRST, GEN6_GRDOM_FULL);	/* sanitize, as i915 does */
	for (int i = 0; i < 100 && (rd32(GEN6_GDRST) & 1); i++)
		;
	irq_init();
	wrmsr(0x80f, 0x100 | 0xff);		/* x2APIC SVR: APIC on */
	engine_init(base);
	ppgtt_create();
	context_create(base);
	g.batch = alloc_pages(1);
	g.src[0] = alloc_pages(BUF_PAGES);
	g.src[1] = alloc_pages(BUF_PAGES);
	g.dst = alloc_pages(BUF_PAGES);
	g.seq = alloc_pages(1);
	g.seq_gm = gm_alloc(PG, false);
	g.dst_gm = gm_alloc(BUF_PAGES * PG, true);	/* CPU-visible */
	ggtt_bind(g.seq_gm, g.seq, 1);
	ggtt_bind(g.dst_gm, g.dst, BUF_PAGES);
	ppgtt_map(BATCH_VA, g.batch, 1);
	ppgtt_map(SRC_VA, g.src[0], BUF_PAGES);
	ppgtt_map(DST_VA, g.dst, BUF_PAGES);
	return true;
}

/* ---- submission ------------------------------------------------------- */

static void ring_emit(const uint32_t *dw, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		ram32(g.ring)[g.tail / 4] = dw[i];
		g.tail = (g.tail + 4) % RING_BYTES;
	}
}

/* BB_START of the PPGTT batch, then gen8's breadcrumb on a non-render
 * engine: MI_FLUSH_DW storing the seqno through the GGTT, user interrupt. */
static void submit(uint32_t seqno)
{
	uint32_t cs[12] = {
		MI_ARB_ON_OFF | MI_ARB_ENABLE,
		MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
		(uint32_t)BATCH_VA, (uint32_t)(BATCH_VA >> 32),
		MI_ARB_ON_OFF | MI_ARB_DISABLE,
		MI_NOOP,
		(MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW,
		g.seq_gm | MI_FLUSH_DW_USE_GTT, 0, seqno,
		MI_USER_INTERRUPT, MI_NOOP,
	};

	gpu_dev_submit(cs, 12);
}

void gpu_dev_submit(const uint32_t *cs, uint32_t n)
{
	uint64_t desc = g.lrca_gm | GEN8_CTX_VALID | GEN8_CTX_PRIVILEGE |
			INTEL_LEGACY_64B_CONTEXT << GEN8_CTX_ADDRESSING_MODE_SHIFT |
			(uint64_t)(1u << 5 | (uint32_t)g.engine) << 32;

	ring_emit(cs, n);
	ram32(g.lrca + LRC_STATE_OFFSET)[CTX_RING_TAIL] = g.tail;
	wr32(RING_ELSP(g.base), 0);	/* element 1: none */
	wr32(RING_ELSP(g.base), 0);
	wr32(RING_ELSP(g.base), (uint32_t)(desc >> 32));
	wr32(RING_ELSP(g.base), (uint32_t)desc);
}

/* Interrupts on: the vGPU's MSI wakes us; yield so the GPU gets time. */
static bool wait_seqno(uint32_t seqno)
{
	volatile uint32_t *seq = ram32(g.seq);

	__asm__ volatile("sti");
	for (int i = 0; i < WAIT_YIELDS && *seq != seqno; i++) {
		hypercall(G9HV_HC_YIELD, 0, 0, 0);
		/* An engine error (the vGPU was reset) ends the wait, as
		 * i915's CS error interrupt does: nothing more will come. */
		if (i % 64 == 63 && rd32(RING_EIR(g.base)))
			break;
	}
	__asm__ volatile("cli");
	return *seq == seqno;
}

/* What the CSB says since last time: completed contexts. */
static void read_csb(void)
{
	uint32_t wp = ram32(g.hwsp)[I915_HWS_CSB_WRITE_INDEX];

	while (wp < GEN8_CSB_ENTRIES && g.csb_head != wp) {
		g.csb_head = (uint8_t)((g.csb_head + 1) % GEN8_CSB_ENTRIES);
		if (ram32(g.hwsp)[I915_HWS_CSB_BUF0_INDEX + 2 * g.csb_head] &
		    GEN8_CTX_STATUS_COMPLETE)
			g.completes++;
	}
}

static void write_batch(const uint32_t *dw, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		ram32(g.batch)[i] = dw[i];
}

static void blit_batch(void)
{
	const uint32_t cs[11] = {
		XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA,
		BR13_32BPP | 0xccu << BR13_ROP_SHIFT | BUF_PITCH,
		0, (BUF_PAGES << 16) | (BUF_PITCH / 4),	/* x1y1, x2y2 */
		(uint32_t)DST_VA, (uint32_t)(DST_VA >> 32),
		0, BUF_PITCH,				/* src x1y1, pitch */
		(uint32_t)SRC_VA, (uint32_t)(SRC_VA >> 32),
		MI_BATCH_BUFFER_END,
	};

	write_batch(cs, 11);
}

static uint32_t pattern(uint32_t vm, uint32_t round, uint32_t i)
{
	return 0x9e3779b9u * (vm * 131u + round * 7u + 1u) ^ i;
}

/* One round: pattern -> src (CPU), blit src -> dst (GPU), dst through the
 * aperture (CPU) must hold this VM's pattern for this round. */
static bool blit_round_checked(uint32_t vm, uint32_t round, bool report)
{
	uint32_t n = BUF_PAGES * PG / 4, bad = 0;
	volatile uint32_t *ap = (volatile uint32_t *)(g.bar2 + g.dst_gm);

	/* Alternate source pages: the PTE rewrites a media driver makes all
	 * the time, trapped (strict) or reconstructed (gHyvi). */
	ppgtt_map(SRC_VA, g.src[round & 1], BUF_PAGES);
	for (uint32_t i = 0; i < n; i++)
		ram32(g.src[round & 1])[i] = pattern(vm, round, i);
	blit_batch();
	submit(round + 1);
	if (!wait_seqno(round + 1)) {
		tg_check("gpu-seqno", false, "round %u: seqno %u never came",
			 round, ram32(g.seq)[0]);
		return false;
	}
	read_csb();	/* each round: the CSB holds six events only */
	for (uint32_t i = 0; i < n; i++)
		bad += ap[i] != pattern(vm, round, i);
	if (report || bad)
		tg_check("gpu-blit-aperture", !bad, "round %u: %u of %u dwords "
			 "wrong through the aperture", round, bad, n);
	return !bad;
}

uint32_t gpu_dev_blit_round(uint32_t vm, uint32_t round)
{
	uint32_t n = BUF_PAGES * PG / 4, bad = 0;
	volatile uint32_t *ap = (volatile uint32_t *)(g.bar2 + g.dst_gm);

	ppgtt_map(SRC_VA, g.src[round & 1], BUF_PAGES);
	for (uint32_t i = 0; i < n; i++)
		ram32(g.src[round & 1])[i] = pattern(vm, round, i);
	blit_batch();
	submit(round + 1);
	if (!wait_seqno(round + 1))
		return ~0u;
	read_csb();
	for (uint32_t i = 0; i < n; i++)
		bad += ap[i] != pattern(vm, round, i);
	return bad;
}

/* Told that our high GM moved: every GM address we keep there goes where
 * map says (the same high offset of the new ranges); the registers and
 * the context image that hold such addresses follow. The GGTT entries
 * were carried by the hypervisor: nothing is bound again. */
void gpu_dev_rebase(uint64_t (*map)(void *ctx, uint64_t gm), void *ctx)
{
	g.hwsp_gm = (uint32_t)map(ctx, g.hwsp_gm);
	g.lrca_gm = (uint32_t)map(ctx, g.lrca_gm);
	g.ring_gm = (uint32_t)map(ctx, g.ring_gm);
	g.seq_gm = (uint32_t)map(ctx, g.seq_gm);
	g.high_next = (uint32_t)map(ctx, g.high_next);
	g.high_base = rd32(PV + 0x48);
	g.high_size = rd32(PV + 0x4c);
	wr32(RING_HWS_PGA(g.base), g.hwsp_gm);
	ram32(g.lrca + LRC_STATE_OFFSET)[CTX_RING_START] = g.ring_gm;
}

static bool blit_round(uint32_t vm, uint32_t round)
{
	return blit_round_checked(vm, round, true);
}

static bool blit_round_quiet(uint32_t vm, uint32_t round)
{
	return blit_round_checked(vm, round, false);
}

void gpu_test(uint32_t vm)
{
	bool ok = true;

	if (!gpu_setup())
		return;
	for (uint32_t r = 0; r < ROUNDS && ok; r++)
		ok = blit_round(vm, r);
	tg_check("gpu-csb", g.completes >= ROUNDS, "%u completions in the CSB",
		 g.completes);
	tg_check("gpu-msi", tg_msis > 0, "%llu MSIs",
		 (unsigned long long)tg_msis);
	tg_printf("GPU test: vm %u, %u rounds done\n", vm, ROUNDS);
}

/* mode=gpu with the word "fence" (issue 16): an X-tiled fence (stride
 * 1024) over two pages of low GM backed by two fresh pages of ours; words
 * written through the aperture at linear offsets land in our pages where
 * the X tiling puts them on every backend: through gScale's fence pool
 * and the physical aperture (the iGPU, the model behind MMIO), or, on the
 * plain model, which has none, detiled by the mediator itself
 * (gpu/gscale/mediator/gscale_ap_detile.c). Words at their linear offsets fail. */
void gpu_fence_test(void)
{
	static const uint32_t pts[4][2] = {
		{ 600, 5 }, { 40, 3 }, { 700, 2 }, { 100, 6 },
	};
	uint32_t gm = gm_alloc(2 * PG, true), tiled = 0, linear = 0;
	uint64_t mem = alloc_pages(2);

	ggtt_bind(gm, mem, 2);
	wr32(FENCE_REG_GEN6_LO(0), 0);	/* i915's order (gen9-facts §3) */
	wr32(FENCE_REG_GEN6_HI(0), ((gm + PG) & 0xfffff000u) | (1024 / 128 - 1));
	wr32(FENCE_REG_GEN6_LO(0), gm | 1);
	for (int k = 0; k < 4; k++) {
		uint32_t x = pts[k][0], y = pts[k][1], lin = y * 1024 + x;
		uint32_t t = ((y / 8) * 2 + x / 512) * PG + (y % 8) * 512 + x % 512;
		uint32_t v = 0xf00d0000u | lin;

		*(volatile uint32_t *)(g.bar2 + gm + lin) = v;
		tiled += ram32(mem + t)[0] == v;
		linear += ram32(mem + lin)[0] == v;
	}
	wr32(FENCE_REG_GEN6_LO(0), 0);
	tg_check("gpu-fence-aperture", tiled == 4,
		 "%s: %u of 4 words where the X tiling puts them, %u at their "
		 "linear offsets", tiled == 4 ? "detiled" : "not detiled",
		 tiled, linear);
}

void gpu_demo(uint32_t vm)
{
	uint32_t rounds = 0, bad = 0;

	tg_timer_start(10);
	for (uint32_t r = ROUNDS;; r++) {
		uint64_t next = tg_ticks + 1;

		bad += !blit_round_quiet(vm, r);
		if (++rounds % 100 == 0)
			tg_printf("GPU demo: vm %u: %u more blits, %u wrong\n", vm,
				  rounds, bad);
		__asm__ volatile("sti");
		while (tg_ticks < next)
			__asm__ volatile("hlt");
		__asm__ volatile("cli");
	}
}

uint32_t gpu_pvinfo_read(uint32_t off)
{
	return rd32(PV + off);
}

/* ---- benchmark (mode=bench gpu) ---------------------------------------- */

#define GPU_BENCH_N 2000

static void bench_line(const char *what, uint32_t n, uint64_t t0)
{
	uint64_t t = rdtsc() - t0;

	tg_printf("BENCH %s %u %llu %llu\n", what, n, (unsigned long long)t,
		  (unsigned long long)(t / n));
}

/* Round trips of the vGPU paths, timed by the guest's TSC: a register read
 * and a GGTT entry write (BAR0 traps into the mediator), a store to a
 * shadowed page-table page (trapped under strict, plain under gHyvi), and a
 * whole blit round (submit, the GPU runs, seqno back, aperture check). */
void gpu_bench(uint32_t vm)
{
	volatile uint64_t *pte;
	uint64_t t0, pt;
	uint32_t n = 0;

	if (!gpu_setup())
		return;
	blit_round(vm, 0);	/* everything shadowed and resident */
	t0 = rdtsc();
	for (int i = 0; i < GPU_BENCH_N; i++)
		(void)rd32(RING_HWSTAM(BLT_RING_BASE));
	bench_line("vgpu-reg-read", GPU_BENCH_N, t0);
	t0 = rdtsc();
	for (int i = 0; i < GPU_BENCH_N; i++)
		wr64(BAR0_GGTT + (g.dst_gm >> 12) * 8, g.dst | 1);
	bench_line("vgpu-ggtt-write", GPU_BENCH_N, t0);
	pt = pt_next(pt_next(pt_next(g.pml4, (SRC_VA >> 39) & 511),
			     (SRC_VA >> 30) & 511), (SRC_VA >> 21) & 511);
	pte = (volatile uint64_t *)(uintptr_t)(pt + 8 * ((SRC_VA >> 12) & 511));
	t0 = rdtsc();
	for (int i = 0; i < GPU_BENCH_N; i++)
		*pte = *pte;
	bench_line("vgpu-pte-store", GPU_BENCH_N, t0);
	t0 = rdtsc();
	for (uint32_t r = 1; r <= 20; r++)
		n += blit_round_quiet(vm, r);
	bench_line("vgpu-blit-round", 20, t0);
	tg_check("gpu-bench", n == 20, "%u of 20 blit rounds right", n);
}

/* ---- attacks ---------------------------------------------------------- */

void gpu_attack(uint64_t mem_bytes)
{
	uint32_t gm;
	volatile uint32_t *ap;

	if (!gpu_setup())
		return;
	/* A GGTT entry naming guest-physical memory we do not have (another
	 * VM's, if the mediator believed us): never reachable. */
	gm = gm_alloc(PG, true);
	ggtt_bind(gm, mem_bytes + (64ull << 20), 1);
	ap = (volatile uint32_t *)(g.bar2 + gm);
	tg_check("attack-foreign-ggtt", ap[0] == 0xffffffffu &&
		 ap[1023] == 0xffffffffu, "aperture over the foreign entry "
		 "reads %08x", ap[0]);
	/* A privileged register write from the ring (which runs privileged;
	 * from a PPGTT batch it would be dropped, as Gen9 drops it): refused;
	 * the hypervisor stops this VM (vgpu_faults=1), so the check below
	 * only runs if it did not. */
	const uint32_t lri_elsp[10] = {
		MI_LOAD_REGISTER_IMM(1), RING_ELSP(BLT_RING_BASE), 0, MI_NOOP,
		(MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW,
		g.seq_gm | MI_FLUSH_DW_USE_GTT, 0, 1, MI_USER_INTERRUPT, MI_NOOP,
	};

	tg_printf("submitting a ring segment that writes ELSP\n");
	gpu_dev_submit(lri_elsp, 10);
	wait_seqno(1);
	tg_check("attack-privileged", false, "still running: seqno %u",
		 ram32(g.seq)[0]);
}

/* ---- for gpu_hostile.c (gpu_dev.h) ------------------------------------- */

bool gpu_dev_setup(void)
{
	return gpu_setup();
}

void gpu_dev_ranges(struct gpu_ranges *r)
{
	r->low_base = g.low_base;
	r->low_size = g.low_size;
	r->high_base = g.high_base;
	r->high_size = g.high_size;
	r->seq_gm = g.seq_gm;
	r->seq = g.seq;
	r->batch = g.batch;
	r->batch_va = BATCH_VA;
	r->engine = g.engine;
	r->base = g.base;
}

uint64_t gpu_dev_alloc(uint32_t pages)
{
	return alloc_pages(pages);
}

uint32_t gpu_dev_gm(uint32_t bytes, bool mappable)
{
	return gm_alloc(bytes, mappable);
}

void gpu_dev_ggtt_bind(uint32_t gm, uint64_t gpa, uint32_t pages)
{
	ggtt_bind(gm, gpa, pages);
}

void gpu_dev_ppgtt_map(uint64_t va, uint64_t gpa, uint32_t pages)
{
	ppgtt_map(va, gpa, pages);
}

/* A status page and a context (with its own ring) on another engine; the
 * same PPGTT. Later submissions go there. */
void gpu_dev_use_engine(int engine, uint32_t base, uint32_t ctx_pages)
{
	g.engine = engine;
	g.base = base;
	g.ctx_pages = ctx_pages;
	g.tail = 0;
	engine_init(base);
	context_create(base);
}

bool gpu_dev_wait(uint32_t seqno)
{
	return wait_seqno(seqno);
}

uint32_t gpu_dev_reg(uint32_t off)
{
	return rd32(off);
}

void gpu_dev_reg_write(uint32_t off, uint32_t val)
{
	wr32(off, val);
}
