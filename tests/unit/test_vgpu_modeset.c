/* i915's modeset on the vGPU's monitor (gpu/vgpu/display/vgpu_display.c,
 * gpu/display/vdisp_pipe.c) through BAR0: the register sequence Debian
 * 12's i915 (Linux 6.1) writes on Skylake to light a DP monitor on port
 * D with pipe A and transcoder A (the values are those the Bochs run in
 * docs/display.md logged: DPLL1, DDI D two lanes, TRANS_DDI_FUNC_CTL
 * 0xb2000002, 1024x768 timings, plane 1 XRGB8888), then vblanks and page
 * flips as drm waits for them. Time is the fake hypervisor's clock, moved
 * by the test; the vblank clock runs from gvt_poll, as in the hypervisor.
 *
 * World: the model GPU and mediator of tests/world/model_world.c. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/gscale/gscale_ext.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)

static const struct vgpu_type type = { "display", 64 * MiB, 384 * MiB, 4, 1 };

/* Skylake display registers, as i915_reg.h names them. */
#define LCPLL2_CTL 0x46014		/* DPLL1's enable */
#define LCPLL_PLL_ENABLE (1u << 31)
#define DPLL_CTRL1 0x6c058
#define DPLL_CTRL2 0x6c05c
#define DPLL_STATUS 0x6c060
#define DPLL_LOCK(id) (1u << ((id) * 8))
#define DDI_BUF_TRANS_D 0x64f20
#define DDI_BUF_CTL_D 0x64300
#define DDI_BUF_CTL_ENABLE (1u << 31)
#define DDI_BUF_IS_IDLE (1u << 7)
#define DP_TP_CTL_D 0x64340
#define DP_TP_CTL_ENABLE (1u << 31)
#define DP_TP_CTL_MODE_MST (1u << 27)
#define DP_TP_CTL_FORCE_ACT (1u << 25)
#define DP_TP_CTL_ENHANCED_FRAME_ENABLE (1u << 18)
#define DP_TP_CTL_LINK_TRAIN_PAT1 (0u << 8)
#define DP_TP_CTL_LINK_TRAIN_PAT2 (1u << 8)
#define DP_TP_CTL_LINK_TRAIN_IDLE (2u << 8)
#define DP_TP_CTL_LINK_TRAIN_NORMAL (3u << 8)
#define DP_TP_STATUS_D 0x64344
#define DP_TP_STATUS_IDLE_DONE (1u << 25)
#define DP_TP_STATUS_ACT_SENT (1u << 24)
#define DP_TP_STATUS_MODE_STATUS_MST (1u << 23)
#define TRANS_CLK_SEL_A 0x46140
#define HTOTAL(p) (0x60000u + 0x1000u * (p))
#define HBLANK(p) (0x60004u + 0x1000u * (p))
#define HSYNC(p) (0x60008u + 0x1000u * (p))
#define VTOTAL(p) (0x6000cu + 0x1000u * (p))
#define VBLANK(p) (0x60010u + 0x1000u * (p))
#define VSYNC(p) (0x60014u + 0x1000u * (p))
#define PIPESRC(p) (0x6001cu + 0x1000u * (p))
#define TRANS_DDI_FUNC_CTL_A 0x60400
#define PIPEDSL(p) (0x70000u + 0x1000u * (p))
#define PIPECONF(p) (0x70008u + 0x1000u * (p))
#define PIPECONF_ENABLE (1u << 31)
#define PIPECONF_STATE_ENABLE (1u << 30)
#define PIPE_FRMCOUNT(p) (0x70040u + 0x1000u * (p))
#define PIPE_FLIPCOUNT(p) (0x70044u + 0x1000u * (p))
#define CURBASE(p) (0x70084u + 0x1000u * (p))
#define CURSURFLIVE(p) (0x700acu + 0x1000u * (p))
#define PLANE_CTL(p, n) (0x70180u + 0x1000u * (p) + 0x100u * (n))
#define PLANE_STRIDE(p, n) (0x70188u + 0x1000u * (p) + 0x100u * (n))
#define PLANE_SIZE(p, n) (0x70190u + 0x1000u * (p) + 0x100u * (n))
#define PLANE_SURF(p, n) (0x7019cu + 0x1000u * (p) + 0x100u * (n))
#define PLANE_SURFLIVE(p, n) (0x701acu + 0x1000u * (p) + 0x100u * (n))
#define CUR_CTL(p) (0x70080u + 0x1000u * (p))
#define GGTT_PTE(gm) (0x800000u + (uint32_t)((gm) >> 12) * 8u)
#define DE_PIPE_ISR(p) (0x44400u + 0x10u * (p))
#define DE_PIPE_IMR(p) (DE_PIPE_ISR(p) + 4)
#define DE_PIPE_IIR(p) (DE_PIPE_ISR(p) + 8)
#define DE_PIPE_IER(p) (DE_PIPE_ISR(p) + 0xc)
#define GEN8_PIPE_VBLANK (1u << 0)
#define GEN9_PIPE_PLANE1_FLIP_DONE (1u << 3)
#define GEN9_PIPE_PLANE2_FLIP_DONE (1u << 4)
#define PIPE_A 0
#define PIPE_B 1

/* 1024x768 DMT: 1344 x 806 at 65 MHz. */
#define FRAME_NS 16665600ull
#define SURF0 0x08040000u /* inside the vGPU's low GM, as in the Bochs run */
#define SURF1 0x08440000u

struct env {
	struct model_world mw;
	struct vgpu *v;
};

static struct env *env;
static struct vgpu *v;

static int setup_world(void **state, bool gscale)
{
	struct env *e = calloc(1, sizeof(*e));
	struct gvt_params p = { .ext = { &gscale_ext_ops },
				.ext_params = { gscale ? &gscale_on : NULL } };
	struct mw_config c = { .pool_mib = 96, .ram_mib = 256,
			       .ggtt_entries = 512u * 1024u, .params = &p };

	assert_non_null(e);
	assert_int_equal(mw_init(&e->mw, &c), 0);
	assert_int_equal(mw_add_vgpu(&e->mw, &type, 0, 192 * MiB, &e->v), 0);
	e->mw.hv.now_step = 0;
	e->mw.hv.now = 1000000000ull;
	v = e->v;
	env = e;
	/* MSI on, as i915 sets it up before it requests its interrupt. */
	vgpu_cfg_write(v, GEN9_PCI_MSI_ADDR, 0xfee00000, 4);
	vgpu_cfg_write(v, GEN9_PCI_MSI_DATA, 0x41, 2);
	vgpu_cfg_write(v, GEN9_PCI_MSI_CTRL, 1, 2);
	*state = e;
	return 0;
}

static int setup(void **state)
{
	return setup_world(state, true);
}

/* gVirt: each vGPU its own slice of GM (gScale shares it: there, the
 * vGPU's own GGTT entries are what keep another VM's pages out). */
static int setup_gvirt(void **state)
{
	return setup_world(state, false);
}

static int teardown(void **state)
{
	struct env *e = *state;

	mw_stop(&e->mw);
	mw_fini(&e->mw);
	free(e);
	return 0;
}

static uint32_t rd(uint32_t off)
{
	uint64_t val = 0;

	assert_int_equal(vgpu_mmio_read(v, off, &val, 4), 0);
	return (uint32_t)val;
}

static void wr(uint32_t off, uint32_t val)
{
	assert_int_equal(vgpu_mmio_write(v, off, val, 4), 0);
}

static uint64_t msis(void)
{
	return env->mw.hv.vm[0].msi_count;
}

/* Time passes by ns; the hypervisor's main loop runs gvt_poll. */
static void pass(uint64_t ns)
{
	env->mw.hv.now += ns;
	gvt_poll(v->gvt);
}

/* gen8_de_irq_postinstall: every pipe's IER has VBLANK and the flip-done
 * bits' neighbours; IMR keeps VBLANK masked until drm_crtc_vblank_get
 * (bdw_enable_vblank clears it). The master goes on last. */
static void irq_postinstall(void)
{
	unsigned p;

	for (p = 0; p < VDISP_PIPES; p++) {
		wr(DE_PIPE_IMR(p), ~0u);
		wr(DE_PIPE_IER(p), GEN8_PIPE_VBLANK | GEN9_PIPE_PLANE1_FLIP_DONE);
	}
	wr(GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL);
}

static void vblank_enable(unsigned p)
{
	wr(DE_PIPE_IMR(p), rd(DE_PIPE_IMR(p)) & ~GEN8_PIPE_VBLANK);
}

/* hsw_crtc_enable -> skl_ddi_pll_enable, hsw_ddi_pre_enable_dp (link
 * training: intel_ddi_prepare_link_retrain, the patterns, then
 * intel_ddi_set_idle_link_train's wait), the transcoder, the pipe, then
 * intel_enable_ddi_dp (normal pattern) and the primary plane. Each poll
 * asserts what i915 polls. */
static void modeset(void)
{
	uint32_t tp = DP_TP_CTL_ENABLE | DP_TP_CTL_ENHANCED_FRAME_ENABLE;
	unsigned i;

	wr(DPLL_CTRL1, 0x5 | 0x3u << 7);	/* DPLL1 link rate, SSC off */
	wr(LCPLL2_CTL, LCPLL_PLL_ENABLE);
	assert_true(rd(DPLL_STATUS) & DPLL_LOCK(1));
	wr(DPLL_CTRL2, 0x70000);		/* DDI D on DPLL1 */
	for (i = 0; i < 18; i++)
		wr(DDI_BUF_TRANS_D + 4 * i, 0x00002016);
	wr(DP_TP_CTL_D, tp | DP_TP_CTL_LINK_TRAIN_PAT1);
	wr(DDI_BUF_CTL_D, DDI_BUF_CTL_ENABLE | 0x2);	/* two lanes */
	assert_int_equal(rd(DDI_BUF_CTL_D) & DDI_BUF_IS_IDLE, 0);
	assert_int_equal(rd(DP_TP_STATUS_D) & DP_TP_STATUS_IDLE_DONE, 0);
	wr(DP_TP_CTL_D, tp | DP_TP_CTL_LINK_TRAIN_PAT2);
	wr(DP_TP_CTL_D, tp | DP_TP_CTL_LINK_TRAIN_IDLE);
	assert_true(rd(DP_TP_STATUS_D) & DP_TP_STATUS_IDLE_DONE);
	wr(TRANS_CLK_SEL_A, 0x80000000);		/* port D */
	wr(HTOTAL(PIPE_A), 0x053f03ff);
	wr(HBLANK(PIPE_A), 0x053f03ff);
	wr(HSYNC(PIPE_A), 0x049f0417);
	wr(VTOTAL(PIPE_A), 0x032502ff);
	wr(VBLANK(PIPE_A), 0x032502ff);
	wr(VSYNC(PIPE_A), 0x03080302);
	wr(PIPESRC(PIPE_A), 0x03ff02ff);
	wr(TRANS_DDI_FUNC_CTL_A, 0xb2000002);
	wr(PIPECONF(PIPE_A), PIPECONF_ENABLE);
	assert_true(rd(PIPECONF(PIPE_A)) & PIPECONF_STATE_ENABLE);
	wr(DP_TP_CTL_D, tp | DP_TP_CTL_LINK_TRAIN_NORMAL);
	wr(PLANE_STRIDE(PIPE_A, 0), 0x40);	/* 4096-byte rows, 64 B units */
	wr(PLANE_SIZE(PIPE_A, 0), 0x02ff03ff);
	wr(PLANE_CTL(PIPE_A, 0), 0x84042000);	/* on, XRGB8888 */
	wr(PLANE_SURF(PIPE_A, 0), SURF0);
}

/* The whole enable sequence: every status i915 polls reads done at its
 * first read; the first vblank comes one frame later with the plane's
 * surface going live, the counters moving and the events in IIR. */
static void test_modeset_and_first_vblank(void **state)
{
	uint32_t f0;
	uint64_t m0;

	(void)state;
	irq_postinstall();
	modeset();
	vblank_enable(PIPE_A);
	f0 = rd(PIPE_FRMCOUNT(PIPE_A));
	m0 = msis();
	assert_int_equal(rd(PLANE_SURFLIVE(PIPE_A, 0)), 0);
	pass(FRAME_NS / 2);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_A)), f0);
	assert_int_equal(rd(DE_PIPE_IIR(PIPE_A)), 0);
	pass(FRAME_NS / 2 + 1);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_A)), f0 + 1);
	assert_int_equal(rd(PIPE_FLIPCOUNT(PIPE_A)), 1);
	assert_int_equal(rd(PLANE_SURFLIVE(PIPE_A, 0)), SURF0);
	/* Flip-done is still masked (i915 unmasks it for async flips). */
	assert_int_equal(rd(DE_PIPE_IIR(PIPE_A)), GEN8_PIPE_VBLANK);
	assert_true(rd(GEN8_MASTER_IRQ) & GEN8_DE_PIPE_A_IRQ);
	assert_int_equal(msis(), m0 + 1);
	assert_int_equal(v->stats.vblanks, 1);
}

/* A page flip: the new surface is armed by the PLANE_SURF write and goes
 * live at the next vblank, not before; the handler acks IIR, the next
 * vblank raises it again; with flip-done unmasked it comes too. */
static void test_flip_on_next_vblank(void **state)
{
	(void)state;
	irq_postinstall();
	modeset();
	vblank_enable(PIPE_A);
	pass(FRAME_NS + 1);
	wr(DE_PIPE_IIR(PIPE_A), rd(DE_PIPE_IIR(PIPE_A)));
	wr(DE_PIPE_IMR(PIPE_A), rd(DE_PIPE_IMR(PIPE_A)) & ~GEN9_PIPE_PLANE1_FLIP_DONE);
	wr(PLANE_SURF(PIPE_A, 0), SURF1);
	assert_int_equal(rd(PLANE_SURF(PIPE_A, 0)), SURF1);
	assert_int_equal(rd(PLANE_SURFLIVE(PIPE_A, 0)), SURF0);
	pass(FRAME_NS / 4);
	assert_int_equal(rd(PLANE_SURFLIVE(PIPE_A, 0)), SURF0);
	pass(FRAME_NS);
	assert_int_equal(rd(PLANE_SURFLIVE(PIPE_A, 0)), SURF1);
	assert_int_equal(rd(PIPE_FLIPCOUNT(PIPE_A)), 2);
	assert_int_equal(rd(DE_PIPE_IIR(PIPE_A)),
			 GEN8_PIPE_VBLANK | GEN9_PIPE_PLANE1_FLIP_DONE);
	/* No new flip: the next vblank has no flip-done. */
	wr(DE_PIPE_IIR(PIPE_A), ~0u);
	pass(FRAME_NS);
	assert_int_equal(rd(DE_PIPE_IIR(PIPE_A)), GEN8_PIPE_VBLANK);
	/* The cursor latches too (CURBASE arms it), without a flip-done. */
	wr(DE_PIPE_IIR(PIPE_A), ~0u);
	wr(CURBASE(PIPE_A), 0x08800000);
	assert_int_equal(rd(CURSURFLIVE(PIPE_A)), 0);
	pass(FRAME_NS);
	assert_int_equal(rd(CURSURFLIVE(PIPE_A)), 0x08800000);
	assert_int_equal(rd(DE_PIPE_IIR(PIPE_A)), GEN8_PIPE_VBLANK);
}

/* Pipes the guest did not enable have no clock: no counter, no event,
 * and the tick has nothing to walk. A plane on a disabled pipe takes its
 * surface at once. */
static void test_disabled_pipe_has_no_vblank(void **state)
{
	(void)state;
	irq_postinstall();
	vblank_enable(PIPE_B);
	assert_int_equal(v->gvt->disp_pipes_on, 0);
	pass(10 * FRAME_NS);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_B)), 0);
	assert_int_equal(rd(DE_PIPE_IIR(PIPE_B)), 0);
	assert_int_equal(rd(PIPEDSL(PIPE_B)), 0);
	assert_int_equal(rd(PIPECONF(PIPE_B)) & PIPECONF_STATE_ENABLE, 0);
	wr(PLANE_SURF(PIPE_B, 1), SURF1);
	assert_int_equal(rd(PLANE_SURFLIVE(PIPE_B, 1)), SURF1);
	assert_int_equal(rd(DE_PIPE_IIR(PIPE_B)), 0);
	assert_int_equal(v->stats.vblanks, 0);
}

/* IMR masks: the counter runs, IIR stays clear, no MSI. IER clear: IIR
 * latches but the master shows nothing and no MSI goes out. */
static void test_masked_vblank_raises_nothing(void **state)
{
	uint64_t m0;

	(void)state;
	irq_postinstall();
	modeset();
	m0 = msis();
	pass(3 * FRAME_NS + 1);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_A)), 3);
	assert_int_equal(rd(DE_PIPE_IIR(PIPE_A)), 0);
	assert_int_equal(msis(), m0);
	wr(DE_PIPE_IER(PIPE_A), 0);
	vblank_enable(PIPE_A);
	pass(FRAME_NS);
	assert_int_equal(rd(DE_PIPE_IIR(PIPE_A)), GEN8_PIPE_VBLANK);
	assert_int_equal(rd(GEN8_MASTER_IRQ) & GEN8_DE_PIPE_A_IRQ, 0);
	assert_int_equal(msis(), m0);
}

/* The disable path: i915 clears PIPECONF's enable and waits for the
 * state bit to clear; then the DDI buffer and waits for IS_IDLE. The
 * clock stops; a later poll delivers nothing. */
static void test_disable_path(void **state)
{
	uint32_t f;

	(void)state;
	irq_postinstall();
	modeset();
	vblank_enable(PIPE_A);
	pass(FRAME_NS + 1);
	wr(PIPECONF(PIPE_A), rd(PIPECONF(PIPE_A)) & ~PIPECONF_ENABLE);
	assert_int_equal(rd(PIPECONF(PIPE_A)) & PIPECONF_STATE_ENABLE, 0);
	wr(DDI_BUF_CTL_D, rd(DDI_BUF_CTL_D) & ~DDI_BUF_CTL_ENABLE);
	wr(DP_TP_CTL_D, rd(DP_TP_CTL_D) & ~DP_TP_CTL_ENABLE);
	assert_true(rd(DDI_BUF_CTL_D) & DDI_BUF_IS_IDLE);
	assert_int_equal(rd(DP_TP_STATUS_D), 0);
	assert_int_equal(v->gvt->disp_pipes_on, 0);
	wr(DE_PIPE_IIR(PIPE_A), ~0u);
	f = rd(PIPE_FRMCOUNT(PIPE_A));
	pass(5 * FRAME_NS);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_A)), f);
	assert_int_equal(rd(DE_PIPE_IIR(PIPE_A)), 0);
	/* The counter keeps its value across an off/on. */
	wr(PIPECONF(PIPE_A), PIPECONF_ENABLE);
	pass(FRAME_NS + 1);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_A)), f + 1);
}

/* The mediator ran late (a long guest slice, a stalled host): one poll
 * counts at most VDISP_CATCHUP_MAX vblanks and raises one event; the
 * schedule keeps its phase. */
static void test_late_poll_is_bounded(void **state)
{
	(void)state;
	irq_postinstall();
	modeset();
	vblank_enable(PIPE_A);
	pass(100000 * FRAME_NS);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_A)), VDISP_CATCHUP_MAX);
	assert_int_equal(v->stats.vblanks, VDISP_CATCHUP_MAX);
	pass(FRAME_NS);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_A)), VDISP_CATCHUP_MAX + 1);
}

/* PIPEDSL walks the guest's 806 lines once per frame: at the vblank it
 * reads the VBLANK register's start field (767, one line before the
 * first vblank line: i915 adds 1 for DP), then wraps through 0. */
static void test_scanline(void **state)
{
	uint32_t l;

	(void)state;
	modeset();
	assert_int_equal(rd(PIPEDSL(PIPE_A)), 767);
	env->mw.hv.now += FRAME_NS / 2;
	l = rd(PIPEDSL(PIPE_A));
	assert_int_equal(l, (767 + 403) % 806);
	env->mw.hv.now += FRAME_NS / 2 - 1000;
	l = rd(PIPEDSL(PIPE_A));
	assert_true(l < 767 && l > 700);
	/* Late poll or not, the line follows time alone. */
	env->mw.hv.now += 1000 + 3 * FRAME_NS;
	assert_int_equal(rd(PIPEDSL(PIPE_A)), 767);
}

/* The DP transport's other status bits: MST mode status while the
 * transport runs in MST, ACT_SENT after a FORCE_ACT, cleared by 1. */
static void test_dp_tp_status_mst(void **state)
{
	uint32_t mst = DP_TP_CTL_ENABLE | DP_TP_CTL_MODE_MST;

	(void)state;
	assert_int_equal(rd(DP_TP_STATUS_D), 0);
	wr(DP_TP_CTL_D, mst | DP_TP_CTL_LINK_TRAIN_PAT1);
	assert_int_equal(rd(DP_TP_STATUS_D), DP_TP_STATUS_MODE_STATUS_MST);
	wr(DP_TP_CTL_D, mst | DP_TP_CTL_LINK_TRAIN_NORMAL | DP_TP_CTL_FORCE_ACT);
	assert_true(rd(DP_TP_STATUS_D) & DP_TP_STATUS_ACT_SENT);
	wr(DP_TP_STATUS_D, DP_TP_STATUS_ACT_SENT);
	assert_int_equal(rd(DP_TP_STATUS_D), DP_TP_STATUS_MODE_STATUS_MST);
	/* Status is read-only otherwise. */
	wr(DP_TP_STATUS_D, DP_TP_STATUS_IDLE_DONE);
	assert_int_equal(rd(DP_TP_STATUS_D) & DP_TP_STATUS_IDLE_DONE, 0);
	/* The counters and live surfaces are read-only too. */
	wr(PIPE_FRMCOUNT(PIPE_A), 1234);
	wr(PLANE_SURFLIVE(PIPE_A, 0), SURF1);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_A)), 0);
	assert_int_equal(rd(PLANE_SURFLIVE(PIPE_A, 0)), 0);
}

/* A reset (the VM's power cycle) stops every pipe: nothing runs, the
 * counters restart, the mediator has no pipe to tick. */
static void test_reset_clears_pipes(void **state)
{
	(void)state;
	irq_postinstall();
	modeset();
	wr(PIPECONF(PIPE_B), PIPECONF_ENABLE);
	pass(2 * FRAME_NS + 1);
	assert_int_equal(v->gvt->disp_pipes_on, 2);
	assert_int_equal(vgpu_reset_device(v), 0);
	assert_int_equal(v->gvt->disp_pipes_on, 0);
	assert_int_equal(v->pipes_on, 0);
	assert_int_equal(rd(PIPECONF(PIPE_A)), 0);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_A)), 0);
	assert_int_equal(rd(PLANE_SURFLIVE(PIPE_A, 0)), 0);
	pass(3 * FRAME_NS);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_A)), 0);
	assert_int_equal(rd(DE_PIPE_IIR(PIPE_A)), 0);
}

/* Sub-dword writes: the byte holding PIPECONF's enable bit turns the
 * pipe on (the write merges into the stored value first). */
static void test_byte_write_enables_pipe(void **state)
{
	(void)state;
	assert_int_equal(vgpu_mmio_write(v, PIPECONF(PIPE_A) + 3, 0x80, 1), 0);
	assert_true(rd(PIPECONF(PIPE_A)) & PIPECONF_STATE_ENABLE);
	assert_int_equal(v->pipes_on, 1);
	pass(FRAME_NS + 1);
	assert_int_equal(rd(PIPE_FRMCOUNT(PIPE_A)), 1);
}

static void map_page(uint64_t gm, uint64_t gpa)
{
	assert_int_equal(vgpu_mmio_write(v, GGTT_PTE(gm), gpa | 1, 8), 0);
}

/* fbcon's frame: checked when PLANE_SURF arms it, shown once it latched,
 * read through the vGPU's own GGTT entries from its guest's pages; a
 * page the guest has not mapped reads black. */
static void test_plane_scanned(void **state)
{
	struct vdisp_plane pl;
	uint32_t row[1024], rgb[VGPU_SCREEN_RUN], x;

	(void)state;
	irq_postinstall();
	modeset();
	assert_int_equal(vgpu_screen_plane(v, &pl), VDISP_PLANE_OFF);
	pass(FRAME_NS + 1);
	assert_int_equal(vgpu_screen_plane(v, &pl), VDISP_PLANE_OK);
	assert_int_equal(pl.w, 1024);
	assert_int_equal(pl.h, 768);
	assert_int_equal(pl.stride, 4096);
	/* Rows 0 and 1 are guest pages 0x100000 and 0x200000. */
	map_page(SURF0, 0x100000);
	map_page(SURF0 + 4096, 0x200000);
	for (x = 0; x < 1024; x++)
		row[x] = 0xff000000u | x * 0x010101u;
	assert_int_equal(vgpu_write_gpa(v, 0x100000, row, sizeof(row)), 0);
	for (x = 0; x < 1024; x++)
		row[x] = 0x0000ff00u;
	assert_int_equal(vgpu_write_gpa(v, 0x200000, row, sizeof(row)), 0);
	assert_int_equal(vgpu_screen_read(v, &pl, 0, 768, VGPU_SCREEN_RUN, rgb), 0);
	for (x = 0; x < VGPU_SCREEN_RUN; x++)
		assert_int_equal(rgb[x], ((768 + x) * 0x010101u) & 0xffffffu);
	assert_int_equal(vgpu_screen_read(v, &pl, 1, 0, 4, rgb), 0);
	assert_int_equal(rgb[3], 0x00ff00);
	assert_int_equal(vgpu_screen_read(v, &pl, 2, 0, 4, rgb), 0);
	assert_int_equal(rgb[0], 0);
	/* Outside the plane, or more than a run: refused. */
	assert_int_equal(vgpu_screen_read(v, &pl, 768, 0, 4, rgb), -GPU_EINVAL);
	assert_int_equal(vgpu_screen_read(v, &pl, 0, 1000, 64, rgb), -GPU_EINVAL);
	assert_int_equal(vgpu_screen_read(v, &pl, 0, 0, VGPU_SCREEN_RUN + 1, rgb),
			 -GPU_EINVAL);
	assert_int_equal(v->stats.planes_refused, 0);
}

/* A hostile plane: its flip completes as on hardware (SURFLIVE, the
 * flip counter, flip-done), but it is never shown; each new refusal is
 * logged once with the reason and the vGPU, repeats only counted. */
static void test_hostile_plane_refused(void **state)
{
	struct vdisp_plane pl;
	uint64_t warns;
	uint32_t bad = (uint32_t)(v->low_base + v->low_size - 4096);

	(void)state;
	env->mw.hv.log_watch = "not scanned out";
	irq_postinstall();
	modeset();
	pass(FRAME_NS + 1);
	warns = env->mw.hv.logs[HV_LOG_WARN];
	/* Straddling the end of its low GM. */
	wr(PLANE_SURF(PIPE_A, 0), bad);
	pass(FRAME_NS);
	assert_int_equal(rd(PLANE_SURFLIVE(PIPE_A, 0)), bad);
	assert_int_equal(rd(PIPE_FLIPCOUNT(PIPE_A)), 2);
	assert_int_equal(vgpu_screen_plane(v, &pl), VDISP_PLANE_OUTSIDE_GM);
	assert_int_equal(v->stats.planes_refused, 1);
	assert_int_equal(env->mw.hv.logs[HV_LOG_WARN], warns + 1);
	assert_non_null(strstr(env->mw.hv.watched, "pipe A plane 1"));
	assert_non_null(strstr(env->mw.hv.watched, "surface outside the VM's GM"));
	/* The same again: counted, not logged. */
	wr(PLANE_SURF(PIPE_A, 0), bad);
	pass(FRAME_NS);
	assert_int_equal(v->stats.planes_refused, 2);
	assert_int_equal(env->mw.hv.logs[HV_LOG_WARN], warns + 1);
	/* GM 0: the host's, never a guest's. */
	wr(PLANE_SURF(PIPE_A, 0), 0);
	pass(FRAME_NS);
	assert_int_equal(vgpu_screen_plane(v, &pl), VDISP_PLANE_OUTSIDE_GM);
	assert_int_equal(env->mw.hv.logs[HV_LOG_WARN], warns + 2);
	/* Stride 0, then a stride above Skylake's limit. */
	wr(PLANE_STRIDE(PIPE_A, 0), 0);
	wr(PLANE_SURF(PIPE_A, 0), SURF0);
	pass(FRAME_NS);
	assert_int_equal(vgpu_screen_plane(v, &pl), VDISP_PLANE_STRIDE_ZERO);
	assert_non_null(strstr(env->mw.hv.watched, "stride 0"));
	wr(PLANE_STRIDE(PIPE_A, 0), 0x3ff);
	wr(PLANE_SURF(PIPE_A, 0), SURF0);
	pass(FRAME_NS);
	assert_int_equal(vgpu_screen_plane(v, &pl), VDISP_PLANE_STRIDE_HUGE);
	/* Registers written after the SURF write wait for the next arm. */
	wr(PLANE_STRIDE(PIPE_A, 0), 0x40);
	pass(FRAME_NS);
	assert_int_equal(vgpu_screen_plane(v, &pl), VDISP_PLANE_STRIDE_HUGE);
	wr(PLANE_SURF(PIPE_A, 0), SURF0);
	pass(FRAME_NS);
	assert_int_equal(vgpu_screen_plane(v, &pl), VDISP_PLANE_OK);
	assert_int_equal(v->stats.planes_refused, 5);
	/* A 256x256 cursor at the last page of its low GM. */
	wr(CUR_CTL(PIPE_A), MCURSOR_MODE_256_ARGB_AX);
	wr(CURBASE(PIPE_A), bad);
	pass(FRAME_NS);
	assert_non_null(strstr(env->mw.hv.watched, "pipe A cursor"));
	assert_int_equal(v->stats.planes_refused, 6);
}

/* Another vGPU's GM (gVirt slices): the plane check names only this
 * vGPU's ranges. */
static void test_plane_in_other_vgpu_gm(void **state)
{
	static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };
	struct vdisp_plane pl;
	struct vgpu *w;

	(void)state;
	assert_int_equal(mw_add_vgpu(&env->mw, &small, 1, 8 * MiB, &w), 0);
	irq_postinstall();
	modeset();
	assert_true(w->low_base != v->low_base);
	wr(PLANE_SURF(PIPE_A, 0), (uint32_t)w->low_base);
	pass(FRAME_NS + 1);
	assert_int_equal(vgpu_screen_plane(v, &pl), VDISP_PLANE_OUTSIDE_GM);
	wr(PLANE_SURF(PIPE_A, 0), (uint32_t)v->hr[0].base);
	pass(FRAME_NS);
	assert_int_equal(vgpu_screen_plane(v, &pl), VDISP_PLANE_OK);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_modeset_and_first_vblank), T(test_flip_on_next_vblank),
		T(test_disabled_pipe_has_no_vblank),
		T(test_masked_vblank_raises_nothing), T(test_disable_path),
		T(test_late_poll_is_bounded), T(test_scanline),
		T(test_dp_tp_status_mst), T(test_reset_clears_pipes),
		T(test_byte_write_enables_pipe),
		T(test_plane_scanned),
		T(test_hostile_plane_refused),
		cmocka_unit_test_setup_teardown(test_plane_in_other_vgpu_gm,
						setup_gvirt, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
