/* mode=gpu-hostile: the test guest as an attacker of its neighbours'
 * graphics memory and of the physical GPU's registers (issue 13). Each
 * step tries one attack class from a non-privileged (PPGTT) batch or the
 * ring, then checks from the inside what it can see and logs
 * "CHECK hostile-<step>: PASS|FAIL (...)". PASS means the attack was
 * contained: the GPU did what Gen9 does for a non-privileged batch, inside
 * this VM's own memory. Steps the mediator refuses get this VM's vGPU
 * reset (failed for good, and the VM stopped, when repeated): they are
 * placed last, and a case gives them to separate VMs with
 * "steps=NAME,NAME".
 *
 * Steps (in this order):
 *   a-ggtt    MI_STORE_DATA_IMM and MI_STORE_REGISTER_MEM with the GGTT bit
 *             in a PPGTT batch, at GM outside our ranges (past our low GM;
 *             "victim=HEX", a neighbour's GM, e.g. its seqno page): both
 *             stores must land in our own pages, mapped at those addresses
 *             in our PPGTT
 *   c-chain   a PPGTT batch chains (MI_BATCH_BUFFER_START, GGTT) to a batch
 *             in our GGTT: the batch at that address in our PPGTT must run
 *   d-toctou  a benign batch submitted, then rewritten in RAM (privileged
 *             LRI, GGTT store) while the GPU works: the benign one runs
 *   a-pipe    (render engine) PIPE_CONTROL qword, GGTT bit, PPGTT batch,
 *             at hypervisor GM: lands in our own PPGTT page
 *   e-edge    (render engine) PIPE_CONTROL qword from the ring at the last
 *             4 bytes of our low GM: the 8 bytes land in our last page
 *   b-fence   MI_LOAD_REGISTER_IMM to fence 0 from a PPGTT batch
 *   b-hws     ... to the engine's HWS_PGA
 *   b-imr     ... to GT_IMR(0)
 *             (dropped as Gen9 drops them: the batch completes, the
 *             register is unchanged)
 *   b-ring    the LRI to fence 0 from the ring (privileged): refused
 *   f-loop    a batch that jumps to itself, three times: each fails just
 *             its own request (the engine reports an error, we recover as
 *             i915 does), no fault counts against the vGPU, and the next
 *             batch runs
 *   g-ring3   b-ring three times without recovering
 * b-ring is refused: the vGPU is reset (z-recover checks we are told and
 * the next batch runs) or, repeated (g-ring3), failed for good and this
 * VM stopped. */
#include "guest-shim/include/g9hv/gen9_hw.h"
#include "guest-shim/testguest/gpu_dev.h"
#include "guest-shim/testguest/gpu_test.h"
#include "guest-shim/testguest/tg.h"
#include "mini/string.h"

#define PG		4096u
#define RCS_CTX_PAGES	22	/* gen9 render context image */
#define GPR0(base)	((base) + 0x600)
#define V_SDI		0xa77ac4a1u
#define V_SRM		0xa77ac4a2u
#define V_PIPE_LO	0xa77ac4a3u
#define V_PIPE_HI	0xa77ac4a4u
#define V_EDGE_LO	0xed9e0001u
#define V_EDGE_HI	0xed9e0002u
#define V_CHAIN_GGTT	0xc0ffee01u
#define V_CHAIN_PPGTT	0xc0ffee02u
#define V_BENIGN	0xb0b00001u
#define V_EVIL		0xbad0bad0u
#define CHAIN_MARK	0x100	/* byte offset in the seq page */
#define TOCTOU_REWRITES	2000

static struct gpu_ranges r;
static uint32_t seqno;
static uint64_t victim;	/* "victim=HEX": a neighbour's GM to aim at */
static const char *opts;	/* the command line, for steps' options */

/* Privileged registers as the vGPU shows them through BAR0, taken before
 * each step: a contained step must leave them as they were. */
#define NR_WATCHED 4
static uint32_t watched[NR_WATCHED], before[NR_WATCHED];

static void watch(void)
{
	watched[0] = FENCE_REG_GEN6_LO(0);
	watched[1] = FENCE_REG_GEN6_HI(0);
	watched[2] = RING_HWS_PGA(r.base);
	watched[3] = GEN8_GT_IMR(0);
	for (int i = 0; i < NR_WATCHED; i++)
		before[i] = gpu_dev_reg(watched[i]);
}

/* The first watched register that changed, or 0. */
static uint32_t changed(void)
{
	for (int i = 0; i < NR_WATCHED; i++)
		if (gpu_dev_reg(watched[i]) != before[i])
			return watched[i];
	return 0;
}

/* For a check's text: which register changed, if any. */
static const char *regs_note(void)
{
	uint32_t reg = changed();

	if (!reg)
		return "fence/HWS_PGA/GT_IMR unchanged";
	tg_printf("hostile: register %x changed to %08x\n", reg,
		  gpu_dev_reg(reg));
	return "a register CHANGED";
}

static volatile uint32_t *ram(uint64_t gpa)
{
	return (volatile uint32_t *)(uintptr_t)gpa;
}

/* A fresh zeroed page of ours, mapped in our PPGTT at graphics address va
 * (which the attacker also names with the GGTT bit). */
static uint64_t landing(uint64_t va)
{
	uint64_t gpa = gpu_dev_alloc(1);

	gpu_dev_ppgtt_map(va & ~(uint64_t)(PG - 1), gpa, 1);
	return gpa + (va & (PG - 1));
}

static void put_batch(uint64_t gpa, const uint32_t *dw, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		ram(gpa)[i] = dw[i];
}

/* After the commands: the seqno through the GGTT (the ring is privileged)
 * and a user interrupt; 6 dwords. */
static uint32_t breadcrumb(uint32_t *cs)
{
	cs[0] = MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT;
	cs[1] = r.seq_gm;
	cs[2] = 0;
	cs[3] = ++seqno;
	cs[4] = MI_USER_INTERRUPT;
	cs[5] = MI_NOOP;
	return 6;
}

/* Run our PPGTT batch page from the ring; returns the seqno to wait for. */
static uint32_t submit_batch(void)
{
	uint32_t cs[12] = {
		MI_ARB_ON_OFF | MI_ARB_ENABLE,
		MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
		(uint32_t)r.batch_va, (uint32_t)(r.batch_va >> 32),
		MI_ARB_ON_OFF | MI_ARB_DISABLE, MI_NOOP,
	};

	breadcrumb(cs + 6);
	gpu_dev_submit(cs, 12);
	return seqno;
}

static bool run_batch(const uint32_t *dw, uint32_t n)
{
	put_batch(r.batch, dw, n);
	return gpu_dev_wait(submit_batch());
}

static const char *done(bool ok)
{
	return ok ? "GPU done" : "GPU never finished";
}

/* ---- contained attacks --------------------------------------------------- */

static void step_ggtt_stores(void)
{
	uint64_t t1 = (uint64_t)r.low_base + r.low_size;	/* past our low GM */
	uint64_t t2 = victim;	/* a neighbour's GM */
	uint64_t l1 = landing(t1), l2 = landing(t2);
	const uint32_t bb[] = {
		MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, (uint32_t)t1,
		(uint32_t)(t1 >> 32), V_SDI,
		MI_LOAD_REGISTER_IMM(1), GPR0(r.base), V_SRM,
		MI_STORE_REGISTER_MEM_GEN8 | MI_SRM_LRM_GLOBAL_GTT,
		GPR0(r.base), (uint32_t)t2, (uint32_t)(t2 >> 32),
		MI_BATCH_BUFFER_END,
	};
	bool ok;

	tg_printf("hostile: a-ggtt: SDI and SRM with the GGTT bit from a PPGTT "
		  "batch at GM %llx and %llx (outside our ranges)\n",
		  (unsigned long long)t1, (unsigned long long)t2);
	ok = run_batch(bb, sizeof(bb) / 4);
	tg_check("hostile-a-ggtt", ok && ram(l1)[0] == V_SDI &&
		 ram(l2)[0] == V_SRM && !changed(), "contained: %s, our PPGTT "
		 "pages there hold %08x %08x, %s", done(ok), ram(l1)[0], ram(l2)[0], regs_note());
}

static void step_chain(void)
{
	uint32_t gm = gpu_dev_gm(PG, false);
	uint64_t gbb = gpu_dev_alloc(1), pbb = gpu_dev_alloc(1);
	uint64_t mark_va = r.batch_va + 0x10000000ull;
	uint64_t mark = landing(mark_va);
	volatile uint32_t *ggtt_mark = ram(r.seq + CHAIN_MARK);
	const uint32_t ggtt_bb[] = {	/* what the attacker wants to run */
		MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, r.seq_gm + CHAIN_MARK, 0,
		V_CHAIN_GGTT, MI_BATCH_BUFFER_END,
	};
	const uint32_t ppgtt_bb[] = {	/* what Gen9 runs: same address, PPGTT */
		MI_STORE_DWORD_IMM_GEN4, (uint32_t)mark_va,
		(uint32_t)(mark_va >> 32), V_CHAIN_PPGTT, MI_BATCH_BUFFER_END,
	};
	const uint32_t bb[] = {
		MI_BATCH_BUFFER_START_GEN8, gm, 0,	/* GGTT: "secure" */
	};
	bool ok;

	gpu_dev_ggtt_bind(gm, gbb, 1);
	put_batch(gbb, ggtt_bb, 5);
	gpu_dev_ppgtt_map(gm, pbb, 1);
	put_batch(pbb, ppgtt_bb, 5);
	tg_printf("hostile: c-chain: PPGTT batch chains to a GGTT batch at GM "
		  "%x\n", gm);
	ok = run_batch(bb, 3);
	tg_check("hostile-c-chain", ok && ram(mark)[0] == V_CHAIN_PPGTT &&
		 *ggtt_mark != V_CHAIN_GGTT && !changed(), "contained: %s, PPGTT "
		 "batch ran (%08x), GGTT one not (%08x), %s", done(ok),
		 ram(mark)[0], *ggtt_mark, regs_note());
}

static void step_toctou(void)
{
	uint64_t va = r.batch_va + 0x20000000ull, land = landing(va);
	uint64_t t1 = victim;
	uint32_t n = 0, want;
	const uint32_t benign[] = {
		MI_STORE_DWORD_IMM_GEN4, (uint32_t)va, (uint32_t)(va >> 32),
		V_BENIGN, MI_BATCH_BUFFER_END,
	};
	const uint32_t evil[2][7] = {
		{ MI_LOAD_REGISTER_IMM(1), FENCE_REG_GEN6_LO(0), 0x1000 | 1,
		  MI_STORE_DWORD_IMM_GEN4, (uint32_t)va, (uint32_t)(va >> 32),
		  V_EVIL },
		{ MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, (uint32_t)t1, 0, V_EVIL,
		  MI_STORE_DWORD_IMM_GEN4, (uint32_t)va, (uint32_t)(va >> 32) },
	};
	volatile uint32_t *seq = ram(r.seq);
	bool ok;

	tg_printf("hostile: d-toctou: a benign batch through ELSP, then "
		  "rewritten with an LRI to fence 0 and a GGTT store\n");
	put_batch(r.batch, benign, 5);
	want = submit_batch();
	/* Rewrite while the GPU may not have run it yet. */
	__asm__ volatile("sti");
	while (*seq != want && n < TOCTOU_REWRITES) {
		put_batch(r.batch, evil[n & 1], 7);
		ram(r.batch)[7] = (n & 1) ? V_EVIL : MI_BATCH_BUFFER_END;
		ram(r.batch)[8] = MI_BATCH_BUFFER_END;
		n++;
		hypercall(G9HV_HC_YIELD, 0, 0, 0);
	}
	__asm__ volatile("cli");
	ok = gpu_dev_wait(want);
	/* n >= 1: at least one rewrite came before the GPU was done, or the
	 * step proved nothing. */
	tg_check("hostile-d-toctou", ok && n >= 1 && ram(land)[0] == V_BENIGN &&
		 !changed(), "contained: %s, %u rewrite(s) before it was, "
		 "marker %08x (the checked bytes ran), %s", done(ok), n,
		 ram(land)[0], regs_note());
}

static void use_render(void)
{
	if (r.engine == GEN9_RCS0)
		return;
	gpu_dev_use_engine(GEN9_RCS0, RENDER_RING_BASE, RCS_CTX_PAGES);
	gpu_dev_ranges(&r);
	tg_printf("hostile: now on the render engine\n");
}

static void step_pipe_ggtt(void)
{
	uint64_t t = 0x3000;	/* the hypervisor's own GM (shadow contexts) */
	uint64_t l = landing(t);
	const uint32_t bb[] = {
		GFX_OP_PIPE_CONTROL(6),
		PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_GLOBAL_GTT_IVB |
		PIPE_CONTROL_CS_STALL, (uint32_t)t, (uint32_t)(t >> 32),
		V_PIPE_LO, V_PIPE_HI, MI_BATCH_BUFFER_END, MI_NOOP,
	};
	bool ok;

	tg_printf("hostile: a-pipe: PIPE_CONTROL qword with the GGTT bit from a "
		  "PPGTT batch at GM %llx (hypervisor GM)\n",
		  (unsigned long long)t);
	ok = run_batch(bb, 8);
	tg_check("hostile-a-pipe", ok && ram(l)[0] == V_PIPE_LO &&
		 ram(l)[1] == V_PIPE_HI && !changed(), "contained: %s, our "
		 "PPGTT page there holds %08x %08x, %s", done(ok),
		 ram(l)[0], ram(l)[1], regs_note());
}

static void step_edge(void)
{
	uint32_t last = r.low_base + r.low_size - PG;
	uint32_t at = r.low_base + r.low_size - 4;
	uint64_t page = gpu_dev_alloc(1);
	volatile uint32_t *p = ram(page);
	uint32_t cs[12] = {
		GFX_OP_PIPE_CONTROL(6),
		PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_GLOBAL_GTT_IVB |
		PIPE_CONTROL_CS_STALL, at, 0, V_EDGE_LO, V_EDGE_HI,
	};
	bool ok;

	gpu_dev_ggtt_bind(last, page, 1);
	breadcrumb(cs + 6);
	tg_printf("hostile: e-edge: PIPE_CONTROL qword from the ring at GM %x, "
		  "4 bytes before the end of our low GM\n", at);
	gpu_dev_submit(cs, 12);
	ok = gpu_dev_wait(seqno);
	tg_check("hostile-e-edge", ok && p[1022] == V_EDGE_LO &&
		 p[1023] == V_EDGE_HI && !changed(), "contained: %s, our GM's "
		 "last 8 bytes hold %08x %08x, %s", done(ok), p[1022], p[1023], regs_note());
}

/* ---- privileged registers ------------------------------------------------ */

/* From a PPGTT batch: Gen9 drops an LRI to a register outside the
 * FORCE_TO_NONPRIV whitelist, and so does the mediator's copy (on every
 * engine, the blitter included): the batch completes, the register (as
 * the vGPU shows it) is unchanged, nothing is reset. */
static void step_lri(const char *step, const char *check, uint32_t reg,
		     uint32_t val)
{
	uint32_t was = gpu_dev_reg(reg), after;
	const uint32_t bb[] = { MI_LOAD_REGISTER_IMM(1), reg, val,
				MI_BATCH_BUFFER_END };
	bool ok;

	tg_printf("hostile: %s: MI_LOAD_REGISTER_IMM %x <- %08x from a PPGTT "
		  "batch (the vGPU shows %08x)\n", step, reg, val, was);
	ok = run_batch(bb, 4);
	after = gpu_dev_reg(reg);
	tg_check(check, ok && after == was, "contained: %s, register %x "
		 "%08x -> %08x (dropped, as Gen9 drops it)", done(ok), reg,
		 was, after);
}

static void step_fence(void)
{
	step_lri("b-fence", "hostile-b-fence", FENCE_REG_GEN6_LO(0), 0x00100000u | 1);
}

static void step_hws(void)
{
	step_lri("b-hws", "hostile-b-hws", RING_HWS_PGA(r.base), 0x1000);
}

static void step_imr(void)
{
	step_lri("b-imr", "hostile-b-imr", GEN8_GT_IMR(0), 0);
}

/* ---- attacks the mediator refuses (the vGPU is reset) -------------------- */

/* The same LRI to fence 0 from the ring, which runs privileged: the
 * mediator refuses the workload and resets our vGPU (z-recover follows). */
static void step_ring_lri(void)
{
	uint32_t reg = FENCE_REG_GEN6_LO(0), val = 0x00100000u | 1;
	uint32_t was = gpu_dev_reg(reg), after;
	uint32_t cs[10] = { MI_LOAD_REGISTER_IMM(1), reg, val, MI_NOOP };
	bool ok;

	breadcrumb(cs + 4);
	tg_printf("hostile: b-ring: MI_LOAD_REGISTER_IMM %x <- %08x from the "
		  "ring (the vGPU shows %08x)\n", reg, val, was);
	gpu_dev_submit(cs, 10);
	ok = gpu_dev_wait(seqno);
	after = gpu_dev_reg(reg);
	/* A reset may put an engine register back to its default: not the
	 * LRI. */
	tg_check("hostile-b-ring", !ok && after != val, "contained: %s, "
		 "register %x %08x -> %08x (refused, not %08x)", done(ok), reg,
		 was, after, val);
}

/* A user batch that jumps to itself: the mediator stops following it and
 * fails just that request, as a hang of it would on the hardware (the
 * ring ran up to the batch start, then the engine reports an error); no
 * fault counts against the vGPU. Three times, recovering as i915 does
 * after each, then a batch runs. */
static void step_loop(void)
{
	const uint32_t bb[] = {
		MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
		(uint32_t)r.batch_va, (uint32_t)(r.batch_va >> 32),
	};
	const uint32_t ok_bb[] = { MI_NOOP, MI_BATCH_BUFFER_END };
	unsigned back = 0, told = 0;
	bool ran;

	for (int i = 0; i < 3; i++) {
		tg_printf("hostile: f-loop: a batch that jumps to itself, try "
			  "%d\n", i + 1);
		back += run_batch(bb, 3);
		told += gpu_dev_recover();
	}
	ran = run_batch(ok_bb, 2);
	tg_check("hostile-f-loop", back == 0 && told == 3 && ran, "contained: "
		 "the endless batch finished %u of 3 times, engine error "
		 "reported %u of 3 times, next batch: %s", back, told, done(ran));
}

/* The refused ring LRI three times without recovering: the third fault
 * in the window fails the vGPU for good and the hypervisor stops this
 * VM, so nothing after the first try prints. */
static void step_ring_thrice(void)
{
	for (int i = 0; i < 3; i++) {
		uint32_t cs[10] = { MI_LOAD_REGISTER_IMM(1), FENCE_REG_GEN6_LO(0),
				    1, MI_NOOP };

		tg_printf("hostile: g-ring3: refused ring LRI, try %d\n", i + 1);
		breadcrumb(cs + 4);
		gpu_dev_submit(cs, 10);
		gpu_dev_wait(seqno);
		/* Not recovered: the refusals after the first find the vGPU
		 * failed, until the policy resets it. */
		for (int k = 0; k < 64; k++)
			hypercall(G9HV_HC_YIELD, 0, 0, 0);
	}
	tg_check("hostile-g-ring3", false, "still running after three refused "
		 "workloads");
}

/* After a refused step: the hypervisor reset our vGPU and told us (RING_EIR,
 * a CS error interrupt); we recover as i915 does and the next batch must
 * run. */
static void step_recover(void)
{
	const uint32_t bb[] = { MI_NOOP, MI_BATCH_BUFFER_END };
	bool told = gpu_dev_recover(), ran;

	tg_printf("hostile: z-recover: engine error %s, engine reset, next "
		  "batch\n", told ? "reported" : "NOT reported");
	ran = run_batch(bb, 2);
	tg_check("hostile-z-recover", told && ran, "vGPU reset and told: %s, "
		 "next batch: %s", told ? "yes" : "no", done(ran));
}

/* ---- p-plane: the display plane aimed past our GM ----------------------- */

/* Pipe A's plane 1 (Skylake's registers; pipe A stays off, so each
 * PLANE_SURF write latches at once). */
#define PLANE_CTL_A	0x70180u
#define PLANE_STRIDE_A	0x70188u
#define PLANE_SIZE_A	0x70190u
#define PLANE_OFFSET_A	0x701a4u
#define PLANE_SURF_A	0x7019cu
#define PLANE_SURFLIVE_A 0x701acu
#define PLANE_ON_XRGB	0x84000000u	/* enable, XRGB8888, linear */
#define PLANE_W		256u
#define PLANE_H		64u

static uint32_t plane_gm;

static const char *arg(const char *cmdline, const char *key);

/* A 256x64 picture of ours: 32-pixel bars of 8 colours over a dark
 * background, one row in four left dark, so a dump is easy to recognise
 * (tests/emu/cases/screen-bochs/check counts its pixels). "picture=2":
 * the bars in the other order and the fourth rows black (0), so two VMs'
 * pictures differ in their count of pixels that are not black. */
static void plane_picture(void)
{
	bool other = arg(opts, "picture=2") != NULL;
	static const uint32_t bars[8] = { 0xffffff, 0xff0000, 0x00ff00,
					  0x0000ff, 0xffff00, 0x00ffff,
					  0xff00ff, 0x808080 };
	uint32_t pages = PLANE_W * PLANE_H * 4 / PG;
	uint64_t gpa = gpu_dev_alloc(pages);
	volatile uint32_t *px = ram(gpa);

	plane_gm = gpu_dev_gm(pages * PG, true);
	for (uint32_t y = 0; y < PLANE_H; y++)
		for (uint32_t x = 0; x < PLANE_W; x++)
			px[y * PLANE_W + x] = y % 4 == 3 ?
				(other ? 0 : 0x101010) :
				bars[other ? 7 - x / 32 : x / 32];
	gpu_dev_ggtt_bind(plane_gm, gpa, pages);
}

static void plane_show(uint32_t surf, uint32_t stride_units)
{
	gpu_dev_reg_write(PLANE_STRIDE_A, stride_units);
	gpu_dev_reg_write(PLANE_SIZE_A, (PLANE_H - 1) << 16 | (PLANE_W - 1));
	gpu_dev_reg_write(PLANE_OFFSET_A, 0);
	gpu_dev_reg_write(PLANE_CTL_A, PLANE_ON_XRGB);
	gpu_dev_reg_write(PLANE_SURF_A, surf);
}

/* The hypervisor refuses (and logs) a plane on GM we do not own, of
 * stride 0, or running past our GM's end; the registers still read as
 * hardware's would (the flip "happened"); then our own picture is
 * shown again for the shell's `screen dump`, or with "plane_end=victim"
 * the plane is left on GM we do not own (the box's screen must show
 * black when we own it). */
static void step_plane(void)
{
	uint32_t end = r.low_base + r.low_size - PG; /* 1 page left of low GM */
	bool live;

	plane_picture();
	tg_printf("hostile: p-plane: plane 1 at GM %x (victim %x, last page "
		  "%x)\n", plane_gm, (uint32_t)victim, end);
	plane_show((uint32_t)victim, PLANE_W * 4 / 64);
	live = gpu_dev_reg(PLANE_SURFLIVE_A) == (uint32_t)victim;
	plane_show(plane_gm, 0);
	plane_show(end, PLANE_W * 4 / 64);
	plane_show(plane_gm, PLANE_W * 4 / 64);
	tg_check("hostile-p-plane", live &&
		 gpu_dev_reg(PLANE_SURFLIVE_A) == plane_gm, "flips completed "
		 "as on hardware; the hypervisor's log says what it refused");
	if (arg(opts, "plane_end=victim"))
		plane_show((uint32_t)victim, PLANE_W * 4 / 64);
}

/* ---- p-flip: MI_DISPLAY_FLIP from the ring and from a user batch -------- */

#define MI_DISPLAY_FLIP_1A ((0x14u << 23) | 1u) /* pipe A plane 1, 3 dwords */

/* After p-plane (our picture at plane_gm): the plane moved one page on by
 * MMIO, then back by a flip from the ring, which the hypervisor performs
 * on our pipe A (latched at once: the pipe is off); the same flip from a
 * user batch is refused, its request failing alone (docs/display.md
 * "Flips from the ring"). The plane ends where p-plane left it. */
static void step_flip(void)
{
	uint32_t stride = PLANE_W * 4 / 64, cs[10];
	const uint32_t bb[] = { MI_DISPLAY_FLIP_1A, stride << 6, plane_gm + PG,
				MI_BATCH_BUFFER_END };
	bool ring_ok, moved, user, told;

	if (!plane_gm)
		plane_picture();
	plane_show(plane_gm + PG, stride);
	cs[0] = MI_DISPLAY_FLIP_1A, cs[1] = stride << 6, cs[2] = plane_gm;
	cs[3] = MI_NOOP;
	breadcrumb(cs + 4);
	tg_printf("hostile: p-flip: MI_DISPLAY_FLIP to GM %x from the ring, "
		  "then to %x from a user batch\n", plane_gm, plane_gm + PG);
	gpu_dev_submit(cs, 10);
	ring_ok = gpu_dev_wait(seqno);
	moved = gpu_dev_reg(PLANE_SURFLIVE_A) == plane_gm;
	user = run_batch(bb, sizeof(bb) / 4);
	told = gpu_dev_recover();
	tg_check("hostile-p-flip", ring_ok && moved && !user && told &&
		 gpu_dev_reg(PLANE_SURFLIVE_A) == plane_gm, "ring flip: %s, "
		 "plane %s; user batch flip: %s, error reported: %s", done(ring_ok),
		 moved ? "moved" : "NOT moved", user ? "RAN" : "refused",
		 told ? "yes" : "no");
}

/* ---- steps and their selection ------------------------------------------ */

static const struct step {
	const char *name;
	void (*run)(void);
	bool render;	/* needs the render engine (PIPE_CONTROL) */
} steps[] = {
	{ "a-ggtt", step_ggtt_stores, false },
	{ "c-chain", step_chain, false },
	{ "d-toctou", step_toctou, false },
	{ "a-pipe", step_pipe_ggtt, true },
	{ "e-edge", step_edge, true },
	{ "b-fence", step_fence, false },
	{ "b-hws", step_hws, false },
	{ "b-imr", step_imr, false },
	{ "b-ring", step_ring_lri, false },
	{ "f-loop", step_loop, false },
	{ "z-recover", step_recover, false },
	{ "g-ring3", step_ring_thrice, false },
	{ "p-plane", step_plane, false },
	{ "p-flip", step_flip, false },
};

/* The value of "key=" in the command line, or NULL. */
static const char *arg(const char *cmdline, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = cmdline; *p; p++)
		if ((p == cmdline || p[-1] == ' ') && !strncmp(p, key, n))
			return p + n;
	return NULL;
}

static uint64_t hex(const char *p)
{
	uint64_t v = 0;

	for (; p && *p && *p != ' '; p++) {
		char c = *p | 0x20;

		if (c >= '0' && c <= '9')
			v = v << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (uint64_t)(c - 'a' + 10);
		else
			break;
	}
	return v;
}

/* "steps=a,b,c" in the command line, or every step. */
static bool selected(const char *cmdline, const char *name)
{
	const char *q = arg(cmdline, "steps=");
	size_t n = strlen(name);

	if (!q)
		return true;
	while (*q && *q != ' ') {
		if (!strncmp(q, name, n) && (q[n] == ',' || q[n] == ' ' || !q[n]))
			return true;
		while (*q && *q != ',' && *q != ' ')
			q++;
		if (*q == ',')
			q++;
	}
	return false;
}

void gpu_hostile(const char *cmdline)
{
	if (!gpu_dev_setup())
		tg_exit(1);
	gpu_dev_ranges(&r);
	opts = cmdline;
	victim = arg(cmdline, "victim=") ? hex(arg(cmdline, "victim=")) :
		 (uint64_t)r.high_base + r.high_size + PG;	/* past ours */
	tg_printf("hostile: our GM low %x+%x high %x+%x\n", r.low_base,
		  r.low_size, r.high_base, r.high_size);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (selected(cmdline, steps[i].name)) {
			if (steps[i].render)
				use_render();
			watch();
			steps[i].run();
		}
	tg_printf("hostile: all steps done, %u failed\n", tg_failed);
	/* "hold": stay up (idle) for the shell to look at us. */
	if (arg(cmdline, "hold"))
		tg_timer_start(10);
	while (arg(cmdline, "hold"))
		__asm__ volatile("sti; hlt; cli");
	tg_exit(tg_failed ? 1 : 0);
}
