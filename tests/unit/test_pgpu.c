/* pGPU driver over gpu_hw, exercised against the Gen9 model end to end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/hw/pgpu.h"
#include "tests/harness/model_harness.h"

static struct harness H;
static struct pgpu P;

static int setup_cfg(const struct gen9_model_config *cfg)
{
	if (h_init(&H, cfg))
		return -1;
	return pgpu_init(&P, &H.hw);
}

static int setup(void **state)
{
	(void)state;
	return setup_cfg(NULL);
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&H);
	return 0;
}

/* ---- probe -------------------------------------------------------------- */

static void test_decode_config_from_model(void **state)
{
	uint8_t cfg[256];
	struct gpu_hw_info info;

	(void)state;
	gen9_model_pci_config(&H.m, cfg);
	assert_int_equal(pgpu_decode_config(cfg, sizeof(cfg), 0, &info), 0);
	assert_int_equal(info.device_id, 0x1912);
	assert_int_equal(info.gt, GEN9_GT2);
	assert_int_equal(info.gttmmadr, H.m.cfg.gttmmadr);
	assert_int_equal(info.aperture_base, H.m.cfg.gmadr);
	assert_int_equal(info.aperture_size, 256u << 20); /* from MSAC */
	assert_int_equal(info.stolen_size, 0);
	assert_int_equal(info.num_fences, 32);
	/* GGMS 1 = 2 MiB of PTEs = 1 GiB, more than the model backs. */
	assert_int_equal(info.ggtt_size, 1ull << 30);
	assert_int_equal(info.engine_mask, H.hw.info.engine_mask);
	assert_int_equal(pgpu_decode_config(cfg, sizeof(cfg), 128u << 20, &info), 0);
	assert_int_equal(info.aperture_size, 128u << 20);
}

static void test_decode_config_real_layout(void **state)
{
	uint8_t cfg[256] = { 0 };
	struct gpu_hw_info info;

	(void)state;
	cfg[0] = 0x86; cfg[1] = 0x80; cfg[2] = 0x12; cfg[3] = 0x19;
	cfg[0x08] = 0x07; cfg[0x0b] = 0x03;
	cfg[0x10] = 0x04; cfg[0x13] = 0xde; /* BAR0 0xde000000 */
	cfg[0x18] = 0x0c; cfg[0x1b] = 0xc0; /* BAR2 0xc0000000 */
	cfg[0x50] = 0xc0; cfg[0x51] = 0x02; /* GGMS 3, GMS 2 (64 MiB) */
	cfg[0x5c] = 0x01; cfg[0x5f] = 0x7b; /* BDSM 0x7b000000 | lock */
	cfg[0x62] = 0x01;
	assert_int_equal(pgpu_decode_config(cfg, sizeof(cfg), 0, &info), 0);
	assert_int_equal(info.gttmmadr, 0xde000000);
	assert_int_equal(info.aperture_base, 0xc0000000);
	assert_int_equal(info.ggtt_size, 4ull << 30);
	assert_int_equal(info.ggtt_entries, 1u << 20);
	assert_int_equal(info.stolen_size, 64u << 20);
	assert_int_equal(info.stolen_base, 0x7b000000);
	assert_int_equal(info.revision, 7);
	/* Not ours / broken. */
	assert_int_equal(pgpu_decode_config(cfg, 64, 0, &info), -GPU_EINVAL);
	cfg[0x50] = 0x00;
	assert_int_equal(pgpu_decode_config(cfg, sizeof(cfg), 0, &info),
			 -GPU_ENODEV);
	cfg[0x50] = 0xc0;
	cfg[0x10] = 0x00; /* 32-bit BAR */
	assert_int_equal(pgpu_decode_config(cfg, sizeof(cfg), 0, &info),
			 -GPU_EINVAL);
	cfg[0x10] = 0x04;
	cfg[2] = 0x12; cfg[3] = 0x59; /* 0x5912: Kaby Lake, not in the list */
	assert_int_equal(pgpu_decode_config(cfg, sizeof(cfg), 0, &info),
			 -GPU_ENODEV);
	cfg[3] = 0x19;
	cfg[0] = 0x02; /* AMD */
	assert_int_equal(pgpu_decode_config(cfg, sizeof(cfg), 0, &info),
			 -GPU_ENODEV);
}

static void test_init_rejects_unknown_device(void **state)
{
	struct pgpu p;

	(void)state;
	H.hw.info.device_id = 0x1234;
	assert_int_equal(pgpu_init(&p, &H.hw), -GPU_ENODEV);
	assert_int_equal(pgpu_init(NULL, &H.hw), -GPU_EINVAL);
}

static void test_init_masks_interrupts(void **state)
{
	int n;

	(void)state;
	for (n = 0; n < GEN8_GT_BANKS; n++) {
		assert_int_equal(h_rd(&H, GEN8_GT_IMR(n)), ~0u);
		assert_int_equal(h_rd(&H, GEN8_GT_IER(n)), 0);
	}
	assert_int_equal(h_rd(&H, GEN8_MASTER_IRQ), 0);
}

/* ---- forcewake ---------------------------------------------------------- */

static void test_forcewake_refcount(void **state)
{
	uint32_t all = GEN9_FW_RENDER_BIT | GEN9_FW_GT_BIT | GEN9_FW_MEDIA_BIT;

	(void)state;
	assert_int_equal(pgpu_forcewake_get(&P, all), 0);
	assert_int_equal(pgpu_forcewake_get(&P, GEN9_FW_RENDER_BIT), 0);
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_RENDER_GEN9) & 1, 1);
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_GT_GEN9) & 1, 1);
	pgpu_forcewake_put(&P, all);
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_RENDER_GEN9) & 1, 1);
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_MEDIA_GEN9) & 1, 0);
	pgpu_forcewake_put(&P, GEN9_FW_RENDER_BIT);
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_RENDER_GEN9) & 1, 0);
	pgpu_forcewake_put(&P, GEN9_FW_RENDER_BIT); /* underflow ignored */
	assert_int_equal(P.fw_count[GEN9_FW_RENDER], 0);
}

static void test_forcewake_waits_for_slow_ack(void **state)
{
	struct gen9_model_config cfg = { .fw_ack_delay_polls = 20 };

	(void)state;
	h_fini(&H);
	assert_int_equal(setup_cfg(&cfg), 0);
	assert_int_equal(pgpu_forcewake_get(&P, GEN9_FW_MEDIA_BIT), 0);
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_MEDIA_GEN9) & 1, 1);
	assert_true(H.m.stats.polls >= 20);
	/* Release, then get again: first waits for the release ack. */
	pgpu_forcewake_put(&P, GEN9_FW_MEDIA_BIT);
	assert_int_equal(pgpu_forcewake_get(&P, GEN9_FW_MEDIA_BIT), 0);
	assert_int_equal(P.stats.fw_timeouts, 0);
}

static void test_forcewake_timeout(void **state)
{
	struct gen9_model_config cfg = { .fw_never_ack = true };

	(void)state;
	h_fini(&H);
	assert_int_equal(setup_cfg(&cfg), 0);
	assert_int_equal(pgpu_forcewake_get(&P, GEN9_FW_RENDER_BIT),
			 -GPU_ETIMEDOUT);
	assert_int_equal(P.fw_count[GEN9_FW_RENDER], 0);
	assert_int_equal(P.stats.fw_timeouts, 1);
	/* The request was withdrawn; the fallback kick was tried. */
	assert_int_equal(h_rd(&H, FORCEWAKE_RENDER_GEN9), 0);
	/* Bounded: 50 ms budget twice, 1 us per poll. */
	assert_true(H.m.now_us <= 2 * PGPU_FORCEWAKE_TIMEOUT_US + 100);
}

static void test_fw_domains_for_reg(void **state)
{
	(void)state;
	assert_int_equal(pgpu_fw_domains_for_reg(0x2030), GEN9_FW_RENDER_BIT);
	assert_int_equal(pgpu_fw_domains_for_reg(0x22030), GEN9_FW_GT_BIT);
	assert_int_equal(pgpu_fw_domains_for_reg(0x12030), GEN9_FW_MEDIA_BIT);
	assert_int_equal(pgpu_fw_domains_for_reg(0x1a030), GEN9_FW_MEDIA_BIT);
	assert_int_equal(pgpu_fw_domains_for_reg(0x9400),
			 GEN9_FW_RENDER_BIT | GEN9_FW_MEDIA_BIT);
	assert_int_equal(pgpu_fw_domains_for_reg(0x0000), GEN9_FW_GT_BIT);
	assert_int_equal(pgpu_fw_domains_for_reg(0x1000), 0);
	assert_int_equal(pgpu_fw_domains_for_reg(0x44200), 0);
	assert_int_equal(pgpu_fw_domains_for_reg(0x3ffff), GEN9_FW_MEDIA_BIT);
	/* Every engine's registers are in the domain gen9_regs.h says. */
	assert_int_equal(pgpu_fw_domains_for_reg(RING_ELSP(BLT_RING_BASE)),
			 gen9_engine_fw_domains(GEN9_BCS0));
	assert_int_equal(pgpu_fw_domains_for_reg(RING_ELSP(GEN8_BSD2_RING_BASE)),
			 gen9_engine_fw_domains(GEN9_VCS1));
}

/* ---- GGTT and fences ---------------------------------------------------- */

static void test_ggtt_write_range_flushes_once(void **state)
{
	uint64_t ptes[4];
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		ptes[i] = gen8_ggtt_pte_encode(H_PHYS_BASE + i * 4096ull);
	assert_int_equal(pgpu_ggtt_write_range(&P, 100, ptes, 4), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(pgpu_ggtt_read(&P, 100 + i), ptes[i]);
	assert_int_equal(H.m.stats.ggtt_flushes, 1);
	assert_int_equal(P.stats.ggtt_writes, 4);
	assert_int_equal(pgpu_ggtt_write_range(&P, H_GGTT_ENTRIES - 2, ptes, 4),
			 -GPU_ERANGE);
	assert_int_equal(pgpu_ggtt_write(&P, H_GGTT_ENTRIES, 1), -GPU_ERANGE);
}

static void test_fences(void **state)
{
	uint64_t v = pgpu_fence_encode(0x100000, 0x10000, 512, false);
	uint64_t y = pgpu_fence_encode(0x200000, 0x4000, 128 * 4, true);

	(void)state;
	/* end = 0x10f000 in 63:44, pitch 512/128-1 = 3 at 32, start, valid */
	assert_int_equal(v, (0x10f000ull << 32) | (3ull << 32) | 0x100000 | 1);
	assert_int_equal(y & 2, 2);
	assert_int_equal(pgpu_fence_encode(0x100800, 0x1000, 512, false), 0);
	assert_int_equal(pgpu_fence_encode(0x100000, 0x1000, 256, false), 0);
	assert_int_equal(pgpu_fence_encode(0x100000, 0, 512, false), 0);
	assert_int_equal(pgpu_fence_write(&P, 7, v), 0);
	assert_int_equal(pgpu_fence_read(&P, 7), v);
	assert_int_equal(h_rd(&H, FENCE_REG_GEN6_LO(7)), (uint32_t)v);
	assert_int_equal(h_rd(&H, FENCE_REG_GEN6_HI(7)), (uint32_t)(v >> 32));
	assert_int_equal(pgpu_fence_write(&P, 32, v), -GPU_EINVAL);
	assert_int_equal(pgpu_fence_read(&P, 32), 0);
}

/* ---- submission end to end ---------------------------------------------- */

struct eng_setup {
	uint32_t hwsp;
	struct h_ctx ctx;
	uint64_t pml4;
};

static void bring_up(enum gen9_engine_id id, struct eng_setup *s, bool mmio_csb)
{
	assert_int_equal(pgpu_forcewake_get(&P, gen9_engine_fw_domains(id)), 0);
	s->hwsp = h_ggtt_alloc(&H, 1);
	assert_int_equal(pgpu_engine_init(&P, id, s->hwsp,
					  mmio_csb ? NULL : h_gptr(&H, s->hwsp)),
			 0);
	s->pml4 = h_ppgtt_create(&H);
}

/* i915's render breadcrumb: PIPE_CONTROL QW write of the seqno to a GGTT
 * address, then MI_USER_INTERRUPT (gen9-facts §6.3). */
static void emit_rcs_seqno(struct h_ctx *c, uint32_t addr, uint32_t seqno)
{
	h_emit(&H, c, GFX_OP_PIPE_CONTROL(6));
	h_emit(&H, c, PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_GLOBAL_GTT_IVB |
			      PIPE_CONTROL_CS_STALL | PIPE_CONTROL_FLUSH_ENABLE);
	h_emit(&H, c, addr);
	h_emit(&H, c, 0);
	h_emit(&H, c, seqno);
	h_emit(&H, c, 0);
	h_emit(&H, c, MI_USER_INTERRUPT);
	h_emit(&H, c, MI_ARB_ON_OFF | MI_ARB_ENABLE);
}

/* Other engines: MI_FLUSH_DW post-sync dword store (gen9-facts §6.3). */
static void emit_xcs_seqno(struct h_ctx *c, uint32_t addr, uint32_t seqno)
{
	h_emit(&H, c, (MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW);
	h_emit(&H, c, addr | MI_FLUSH_DW_USE_GTT);
	h_emit(&H, c, 0);
	h_emit(&H, c, seqno);
	h_emit(&H, c, MI_USER_INTERRUPT);
	h_emit(&H, c, MI_NOOP);
}

static void test_end_to_end_seqno_csb_and_irq(void **state)
{
	struct eng_setup s;
	struct pgpu_csb_event ev[6];
	struct pgpu_irq_status st;
	uint32_t seqno = h_ggtt_alloc(&H, 1);
	uint64_t desc;

	(void)state;
	bring_up(GEN9_RCS0, &s, false);
	pgpu_irq_setup(&P, GEN8_ENGINE_DEFAULT_IRQS);
	pgpu_irq_master_enable(&P);
	h_ctx_create(&H, &s.ctx, GEN9_RCS0, s.pml4, 0x1001);
	emit_rcs_seqno(&s.ctx, seqno, 0xc0ffee);
	h_ctx_commit(&H, &s.ctx);
	desc = pgpu_lrc_descriptor(s.ctx.lrca, 0x1001, INTEL_LEGACY_64B_CONTEXT);
	assert_int_equal(desc, h_desc(&s.ctx));
	assert_int_equal(pgpu_execlist_submit(&P, GEN9_RCS0, desc, 0), 0);
	assert_false(pgpu_engine_idle(&P, GEN9_RCS0));
	gpu_hw_poll(&H.hw);
	assert_int_equal(*(uint32_t *)h_gptr(&H, seqno), 0xc0ffee);
	/* The interrupt line is up; the handler acks it. */
	assert_true(gen9_model_irq_asserted(&H.m));
	assert_true(pgpu_irq_handle(&P, &st));
	assert_true(st.master & GEN8_GT_RCS_IRQ);
	assert_int_equal(st.engine_iir[GEN9_RCS0],
			 GT_RENDER_USER_INTERRUPT | GT_CONTEXT_SWITCH_INTERRUPT);
	/* Two context switches (activation at ELSP, completion in poll)
	 * happened before the handler ran: IIR queued the second one, so
	 * the line comes straight back for one more round. */
	assert_true(gen9_model_irq_asserted(&H.m));
	assert_true(pgpu_irq_handle(&P, &st));
	assert_int_equal(st.engine_iir[GEN9_RCS0], GT_CONTEXT_SWITCH_INTERRUPT);
	assert_false(gen9_model_irq_asserted(&H.m));
	assert_int_equal(h_rd(&H, GEN8_GT_IIR(0)), 0);
	/* CSB: activation then completion, in order. */
	assert_int_equal(pgpu_csb_process(&P, GEN9_RCS0, ev, 6), 2);
	assert_int_equal(ev[0].status, GEN8_CTX_STATUS_IDLE_ACTIVE);
	assert_int_equal(ev[1].status,
			 GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE);
	assert_int_equal(ev[1].ctx_id, 0x1001);
	assert_true(pgpu_engine_idle(&P, GEN9_RCS0));
	assert_int_equal(P.engine[GEN9_RCS0].completes, 1);
	/* The read pointer was handed back to the hardware. */
	assert_int_equal((h_rd(&H, RING_CONTEXT_STATUS_PTR(RENDER_RING_BASE)) >> 8) & 7,
			 1);
	assert_int_equal(pgpu_csb_process(&P, GEN9_RCS0, ev, 6), 0);
	/* Nothing left: a second handler call is spurious. */
	assert_false(pgpu_irq_handle(&P, &st));
	assert_int_equal(P.stats.irq_spurious, 1);
}

static void test_two_elements_on_blitter(void **state)
{
	struct eng_setup s;
	struct h_ctx b;
	struct pgpu_csb_event ev[6];
	uint32_t seqno = h_ggtt_alloc(&H, 1);
	uint32_t *sq = h_gptr(&H, seqno);

	(void)state;
	bring_up(GEN9_BCS0, &s, false);
	h_ctx_create(&H, &s.ctx, GEN9_BCS0, s.pml4, 1);
	h_ctx_create(&H, &b, GEN9_BCS0, s.pml4, 2);
	emit_xcs_seqno(&s.ctx, seqno, 1);
	emit_xcs_seqno(&b, seqno + 8, 2); /* MI_FLUSH_DW: qword aligned */
	h_ctx_commit(&H, &s.ctx);
	h_ctx_commit(&H, &b);
	assert_int_equal(pgpu_execlist_submit(&P, GEN9_BCS0, h_desc(&s.ctx),
					      h_desc(&b)),
			 0);
	/* Port busy until the activation is seen. */
	assert_int_equal(pgpu_execlist_submit(&P, GEN9_BCS0, h_desc(&b), 0),
			 -GPU_EBUSY);
	gpu_hw_poll(&H.hw);
	assert_int_equal(sq[0], 1);
	assert_int_equal(sq[2], 2);
	/* Read one at a time to check partial consumption. */
	assert_int_equal(pgpu_csb_process(&P, GEN9_BCS0, ev, 1), 1);
	assert_int_equal(ev[0].status, GEN8_CTX_STATUS_IDLE_ACTIVE);
	assert_int_equal(P.engine[GEN9_BCS0].port[1], h_desc(&b));
	assert_int_equal(pgpu_csb_process(&P, GEN9_BCS0, ev, 6), 2);
	assert_int_equal(ev[0].status,
			 GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ELEMENT_SWITCH);
	assert_int_equal(ev[0].ctx_id, 1);
	assert_int_equal(ev[1].status,
			 GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE);
	assert_int_equal(ev[1].ctx_id, 2);
	assert_true(pgpu_engine_idle(&P, GEN9_BCS0));
	assert_int_equal(P.engine[GEN9_BCS0].completes, 2);
}

static void test_csb_via_mmio_and_wrap(void **state)
{
	struct eng_setup s;
	struct pgpu_csb_event ev[6];
	uint32_t seqno = h_ggtt_alloc(&H, 1);
	int i, total = 0;

	(void)state;
	bring_up(GEN9_VECS0, &s, true);
	h_ctx_create(&H, &s.ctx, GEN9_VECS0, s.pml4, 3);
	for (i = 0; i < 5; i++) { /* 10 entries: wraps the 6-entry buffer */
		emit_xcs_seqno(&s.ctx, seqno, (uint32_t)i + 1);
		h_ctx_commit(&H, &s.ctx);
		assert_int_equal(pgpu_execlist_submit(&P, GEN9_VECS0,
						      h_desc(&s.ctx), 0),
				 0);
		gpu_hw_poll(&H.hw);
		total += pgpu_csb_process(&P, GEN9_VECS0, ev, 6);
		assert_int_equal(ev[1].status & GEN8_CTX_STATUS_COMPLETE,
				 GEN8_CTX_STATUS_COMPLETE);
	}
	assert_int_equal(total, 10);
	assert_int_equal(*(uint32_t *)h_gptr(&H, seqno), 5);
	assert_int_equal(P.engine[GEN9_VECS0].csb_head, 3);
}

static void test_submit_argument_checks(void **state)
{
	struct pgpu_csb_event ev;

	(void)state;
	/* Not brought up yet / not present / invalid descriptor. */
	assert_int_equal(pgpu_execlist_submit(&P, GEN9_RCS0, 1, 0), -GPU_EINVAL);
	assert_int_equal(pgpu_execlist_submit(&P, GEN9_VCS1, 1, 0), -GPU_EINVAL);
	assert_int_equal(pgpu_engine_init(&P, GEN9_VCS1, 0x1000, NULL),
			 -GPU_EINVAL);
	assert_int_equal(pgpu_engine_init(&P, GEN9_RCS0, 0x1004, NULL),
			 -GPU_EINVAL);
	assert_int_equal(pgpu_engine_init(&P, GEN9_RCS0, 0x1000, NULL), 0);
	assert_int_equal(pgpu_execlist_submit(&P, GEN9_RCS0, 0x1000, 0),
			 -GPU_EINVAL);
	assert_int_equal(pgpu_csb_process(&P, GEN9_RCS0, &ev, -1), -GPU_EINVAL);
	assert_int_equal(pgpu_csb_process(&P, GEN9_RCS0, &ev, 1), 0);
}

/* ---- hang, reset -------------------------------------------------------- */

static void test_fault_reset_and_recover(void **state)
{
	struct gen9_model_config cfg = { .reset_delay_polls = 3 };
	struct eng_setup s;
	struct h_ctx good;
	struct pgpu_csb_event ev[6];
	struct pgpu_irq_status st;
	uint32_t seqno;

	(void)state;
	h_fini(&H);
	assert_int_equal(setup_cfg(&cfg), 0);
	seqno = h_ggtt_alloc(&H, 1);
	bring_up(GEN9_RCS0, &s, false);
	pgpu_irq_setup(&P, GEN8_ENGINE_DEFAULT_IRQS);
	pgpu_irq_master_enable(&P);
	/* A store to an address the PPGTT does not map. */
	h_ctx_create(&H, &s.ctx, GEN9_RCS0, s.pml4, 1);
	h_emit(&H, &s.ctx, MI_STORE_DWORD_IMM_GEN4);
	h_emit(&H, &s.ctx, 0xdead000);
	h_emit(&H, &s.ctx, 0);
	h_emit(&H, &s.ctx, 1);
	h_ctx_commit(&H, &s.ctx);
	assert_int_equal(pgpu_execlist_submit(&P, GEN9_RCS0, h_desc(&s.ctx), 0), 0);
	gpu_hw_poll(&H.hw);
	assert_true(pgpu_irq_handle(&P, &st));
	assert_true(st.engine_iir[GEN9_RCS0] & GT_CS_MASTER_ERROR_INTERRUPT);
	assert_int_equal(pgpu_csb_process(&P, GEN9_RCS0, ev, 6), 1); /* no completion */
	assert_true(h_rd(&H, RING_EIR(RENDER_RING_BASE)) & I915_ERROR_PAGE_TABLE);

	assert_int_equal(pgpu_engine_reset(&P, GEN9_RCS0), 0);
	assert_false(H.m.engine[GEN9_RCS0].hung);
	assert_int_equal(P.engine[GEN9_RCS0].resets, 1);
	assert_int_equal(H.m.engine[GEN9_RCS0].stats.resets, 2); /* twice */
	assert_int_equal(h_rd(&H, RING_RESET_CTL(RENDER_RING_BASE)) &
				 RESET_CTL_REQUEST_RESET,
			 0);
	assert_false(P.engine[GEN9_RCS0].enabled);
	assert_int_equal(pgpu_execlist_submit(&P, GEN9_RCS0, h_desc(&s.ctx), 0),
			 -GPU_EINVAL);

	/* Bring it back and run good work. */
	assert_int_equal(pgpu_engine_init(&P, GEN9_RCS0, s.hwsp,
					  h_gptr(&H, s.hwsp)),
			 0);
	pgpu_irq_setup(&P, GEN8_ENGINE_DEFAULT_IRQS);
	h_ctx_create(&H, &good, GEN9_RCS0, s.pml4, 2);
	emit_rcs_seqno(&good, seqno, 77);
	h_ctx_commit(&H, &good);
	assert_int_equal(pgpu_execlist_submit(&P, GEN9_RCS0, h_desc(&good), 0), 0);
	gpu_hw_poll(&H.hw);
	assert_int_equal(*(uint32_t *)h_gptr(&H, seqno), 77);
	assert_int_equal(pgpu_csb_process(&P, GEN9_RCS0, ev, 6), 2);
	assert_int_equal(ev[1].ctx_id, 2);
	assert_true(pgpu_engine_idle(&P, GEN9_RCS0));
}

static void test_reset_timeout(void **state)
{
	struct gen9_model_config cfg = { .reset_never_done = true };

	(void)state;
	h_fini(&H);
	assert_int_equal(setup_cfg(&cfg), 0);
	assert_int_equal(pgpu_engine_reset(&P, GEN9_BCS0), -GPU_ETIMEDOUT);
	assert_int_equal(P.stats.reset_timeouts, 1);
	assert_int_equal(pgpu_full_reset(&P), -GPU_ETIMEDOUT);
	assert_int_equal(P.stats.full_reset_failures, 1); /* 3 tries, 1 call */
	assert_int_equal(P.stats.full_resets, 0);
	/* The handshake was withdrawn even on failure. */
	assert_int_equal(h_rd(&H, RING_RESET_CTL(BLT_RING_BASE)) &
				 RESET_CTL_REQUEST_RESET,
			 0);
}

static void test_full_reset(void **state)
{
	struct eng_setup s;

	(void)state;
	bring_up(GEN9_VCS0, &s, false);
	assert_true(h_rd(&H, RING_MODE_GEN7(GEN6_BSD_RING_BASE)) &
		    GFX_RUN_LIST_ENABLE);
	assert_int_equal(pgpu_full_reset(&P), 0);
	assert_int_equal(P.stats.full_resets, 1);
	assert_false(h_rd(&H, RING_MODE_GEN7(GEN6_BSD_RING_BASE)) &
		     GFX_RUN_LIST_ENABLE);
	assert_false(P.engine[GEN9_VCS0].enabled);
	assert_int_equal(H.m.engine[GEN9_RCS0].stats.resets, 2);
}

/* ---- the real-hardware backend, against a buffer standing in for BAR0 ---- */

static void test_mmio_backend_offsets(void **state)
{
	uint8_t *bar0 = calloc(1, GEN9_BAR0_SIZE);
	uint8_t ap[8192] = { 0 };
	struct gpu_mmio_backend be = { .bar0 = bar0, .aperture = ap };
	struct gpu_hw hw;
	struct gpu_hw_info info = { .device_id = 0x1912, .ggtt_entries = 1024,
				    .aperture_size = sizeof(ap) };
	uint32_t v = 0x01020304, r = 0;

	(void)state;
	assert_non_null(bar0);
	assert_int_equal(gpu_hw_mmio_init(&hw, &be, &info, &H.dma), 0);
	assert_string_equal(hw.info.name, "skl-mmio");
	assert_false(hw.info.is_model);
	gpu_hw_write32(&hw, 0x2030, 0xabcdef01);
	assert_int_equal(*(uint32_t *)(bar0 + 0x2030), 0xabcdef01);
	assert_int_equal(gpu_hw_read32(&hw, 0x2030), 0xabcdef01);
	assert_int_equal(gpu_hw_ggtt_write(&hw, 3, 0x123456789001ull), 0);
	assert_int_equal(*(uint64_t *)(bar0 + 0x800000 + 24), 0x123456789001ull);
	assert_int_equal(gpu_hw_ggtt_read(&hw, 3), 0x123456789001ull);
	gpu_hw_ggtt_flush(&hw);
	assert_int_equal(*(uint32_t *)(bar0 + GFX_FLSH_CNTL_GEN6), GFX_FLSH_CNTL_EN);
	assert_int_equal(gpu_hw_aperture_rw(&hw, 100, &v, 4, true), 0);
	assert_int_equal(gpu_hw_aperture_rw(&hw, 100, &r, 4, false), 0);
	assert_int_equal(r, v);
	assert_memory_equal(ap + 100, &v, 4);
	gpu_hw_poll(&hw); /* no-op on hardware */
	assert_int_equal(gpu_hw_wait_for(&hw, 0x2030, 1, 0, 5), -GPU_ETIMEDOUT);
	free(bar0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_decode_config_from_model),
		T(test_decode_config_real_layout),
		T(test_init_rejects_unknown_device),
		T(test_init_masks_interrupts),
		T(test_forcewake_refcount),
		T(test_forcewake_waits_for_slow_ack),
		T(test_forcewake_timeout),
		T(test_fw_domains_for_reg),
		T(test_ggtt_write_range_flushes_once),
		T(test_fences),
		T(test_end_to_end_seqno_csb_and_irq),
		T(test_two_elements_on_blitter),
		T(test_csb_via_mmio_and_wrap),
		T(test_submit_argument_checks),
		T(test_fault_reset_and_recover),
		T(test_reset_timeout),
		T(test_full_reset),
		T(test_mmio_backend_offsets),
#undef T
	};

	return cmocka_run_group_tests_name("pgpu", tests, NULL, NULL);
}
