/* The Gen9 model's device-level behaviour: register file, GGTT and
 * aperture, interrupts, forcewake, GDRST, identification. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/harness/model_harness.h"

static struct harness H;

static int setup(void **state)
{
	(void)state;
	return h_init(&H, NULL);
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&H);
	return 0;
}

static void test_init_rejects_bad_memory(void **state)
{
	struct gen9_model m;
	struct gen9_model_mem mem = { H.regs, H.ggtt, 1000 };
	struct gen9_model_config cfg = { .device_id = 0x1234 };

	(void)state;
	assert_int_equal(gen9_model_init(&m, NULL, &mem, &H.dma), -GPU_EINVAL);
	mem.ggtt_entries = 2 * GEN9_MODEL_GGTT_MAX_ENTRIES;
	assert_int_equal(gen9_model_init(&m, NULL, &mem, &H.dma), -GPU_EINVAL);
	mem.ggtt_entries = 512;
	mem.regs = NULL;
	assert_int_equal(gen9_model_init(&m, NULL, &mem, &H.dma), -GPU_EINVAL);
	mem.regs = H.regs;
	assert_int_equal(gen9_model_init(&m, &cfg, &mem, &H.dma), -GPU_EINVAL);
}

static void test_unknown_registers_store_and_count(void **state)
{
	(void)state;
	assert_int_equal(h_rd(&H, 0x7c000), 0);
	assert_int_equal(H.m.stats.unknown_reads, 1);
	h_wr(&H, 0x7c000, 0xdeadbeef);
	assert_int_equal(h_rd(&H, 0x7c000), 0xdeadbeef);
	assert_int_equal(H.m.stats.unknown_writes, 1);
	assert_int_equal(H.m.stats.unknown_reads, 2);
	assert_int_equal(H.m.stats.last_unknown, 0x7c000);
	/* Known registers are not counted as unknown. */
	h_wr(&H, FENCE_REG_GEN6_LO(3), 0x1234);
	assert_int_equal(h_rd(&H, FENCE_REG_GEN6_LO(3)), 0x1234);
	assert_int_equal(H.m.stats.unknown_writes, 1);
	/* Misaligned or out-of-range offsets do nothing. */
	h_wr(&H, 0x2002, 1);
	h_wr(&H, GEN9_MMIO_SIZE, 1);
	assert_int_equal(h_rd(&H, GEN9_MMIO_SIZE + 4), 0);
	assert_int_equal(H.m.stats.unknown_writes, 3);
}

static void test_masked_registers(void **state)
{
	uint32_t mi_mode = RING_MI_MODE(RENDER_RING_BASE);

	(void)state;
	h_wr(&H, mi_mode, _MASKED_BIT_ENABLE(STOP_RING));
	assert_true(h_rd(&H, mi_mode) & STOP_RING);
	h_wr(&H, mi_mode, BIT(12)); /* no mask bits: no effect */
	assert_true(h_rd(&H, mi_mode) & STOP_RING);
	assert_false(h_rd(&H, mi_mode) & BIT(12));
	h_wr(&H, mi_mode, _MASKED_BIT_DISABLE(STOP_RING));
	assert_false(h_rd(&H, mi_mode) & STOP_RING);
	/* Idle engine reports MODE_IDLE. */
	assert_true(h_rd(&H, mi_mode) & MODE_IDLE);
	/* Absent engine (VCS1 on GT2) is plain storage. */
	h_wr(&H, RING_MI_MODE(GEN8_BSD2_RING_BASE), 0xffff0001);
	assert_int_equal(h_rd(&H, RING_MI_MODE(GEN8_BSD2_RING_BASE)), 0xffff0001);
}

static void test_forcewake_ack_follows_request(void **state)
{
	(void)state;
	h_wr(&H, FORCEWAKE_RENDER_GEN9, _MASKED_BIT_ENABLE(FORCEWAKE_KERNEL));
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_RENDER_GEN9), FORCEWAKE_KERNEL);
	h_wr(&H, FORCEWAKE_MEDIA_GEN9, _MASKED_BIT_ENABLE(FORCEWAKE_USER));
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_MEDIA_GEN9), FORCEWAKE_USER);
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_GT_GEN9), 0);
	h_wr(&H, FORCEWAKE_RENDER_GEN9, _MASKED_BIT_DISABLE(FORCEWAKE_KERNEL));
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_RENDER_GEN9), 0);
	/* Acks are read-only. */
	h_wr(&H, FORCEWAKE_ACK_GT_GEN9, 1);
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_GT_GEN9), 0);
}

static void test_forcewake_ack_delay(void **state)
{
	struct gen9_model_config cfg = { .fw_ack_delay_polls = 3 };

	(void)state;
	h_fini(&H);
	assert_int_equal(h_init(&H, &cfg), 0);
	h_wr(&H, FORCEWAKE_GT_GEN9, _MASKED_BIT_ENABLE(FORCEWAKE_KERNEL));
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_GT_GEN9), 0);
	h_run(&H, 2);
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_GT_GEN9), 0);
	h_run(&H, 1);
	assert_int_equal(h_rd(&H, FORCEWAKE_ACK_GT_GEN9), FORCEWAKE_KERNEL);
}

static void test_ggtt_entries_and_aperture(void **state)
{
	uint64_t hpa = h_alloc_page(&H);
	uint32_t buf = 0x11223344, back = 0;
	uint64_t off = 5 * 4096 + 12;

	(void)state;
	assert_int_equal(H.hw.info.ggtt_entries, H_GGTT_ENTRIES);
	assert_int_equal(gpu_hw_ggtt_write(&H.hw, 5, gen8_ggtt_pte_encode(hpa)), 0);
	assert_int_equal(gpu_hw_ggtt_read(&H.hw, 5), hpa | 1);
	assert_int_equal(gpu_hw_ggtt_write(&H.hw, H_GGTT_ENTRIES, 1), -GPU_ERANGE);
	gpu_hw_ggtt_flush(&H.hw);
	assert_int_equal(H.m.stats.ggtt_flushes, 1);
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, off, &buf, 4, true), 0);
	assert_int_equal(*(uint32_t *)((uint8_t *)h_ptr(&H, hpa) + 12), buf);
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, off, &back, 4, false), 0);
	assert_int_equal(back, buf);
	/* Not present -> fault; beyond the aperture -> range error. */
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, 6 * 4096, &back, 4, false),
			 -GPU_EFAULT);
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, H.hw.info.aperture_size - 2,
					    &back, 4, false),
			 -GPU_ERANGE);
	/* A PTE pointing outside RAM is not accessible either. */
	gpu_hw_ggtt_write(&H.hw, 7, gen8_ggtt_pte_encode(0x1000));
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, 7 * 4096, &back, 4, false),
			 -GPU_EFAULT);
}

static void test_aperture_crosses_pages(void **state)
{
	uint64_t a = h_alloc_page(&H), b = h_alloc_page(&H) + 4096;
	uint8_t in[64], out[64];

	(void)state;
	/* Two non-adjacent host pages mapped at consecutive GGTT pages. */
	h_ggtt_map(&H, 0x10000, a);
	h_ggtt_map(&H, 0x11000, b);
	memset(in, 0x5a, sizeof(in));
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, 0x10fe0, in, 64, true), 0);
	assert_int_equal(((uint8_t *)h_ptr(&H, a))[4095], 0x5a);
	assert_int_equal(((uint8_t *)h_ptr(&H, b))[31], 0x5a);
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, 0x10fe0, out, 64, false), 0);
	assert_memory_equal(in, out, 64);
}

/* Raise a user interrupt on BCS through a real command. */
static void raise_user_irq(enum gen9_engine_id id)
{
	struct h_ctx c;
	uint64_t pml4 = h_ppgtt_create(&H);

	h_engine_start(&H, id);
	h_ctx_create(&H, &c, id, pml4, 1);
	h_emit(&H, &c, MI_USER_INTERRUPT);
	h_ctx_commit(&H, &c);
	h_elsp(&H, id, h_desc(&c), 0);
	h_run(&H, 1);
}

static void test_irq_iir_imr_ier_master(void **state)
{
	uint32_t user = GT_RENDER_USER_INTERRUPT << GEN8_BCS_IRQ_SHIFT;

	(void)state;
	/* Masked in IMR: nothing latched. */
	raise_user_irq(GEN9_BCS0);
	assert_int_equal(h_rd(&H, GEN8_GT_IIR(0)), 0);
	/* Unmasked but not enabled: latched in IIR, no master bit. */
	h_wr(&H, GEN8_GT_IMR(0), ~user);
	raise_user_irq(GEN9_BCS0);
	assert_int_equal(h_rd(&H, GEN8_GT_IIR(0)) & user, user);
	assert_int_equal(h_rd(&H, GEN8_MASTER_IRQ), 0);
	/* Enabled: master source bit, but no output until bit 31. */
	h_wr(&H, GEN8_GT_IER(0), user);
	assert_int_equal(h_rd(&H, GEN8_MASTER_IRQ), GEN8_GT_BCS_IRQ);
	assert_false(gen9_model_irq_asserted(&H.m));
	h_wr(&H, GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL | 0xff);
	assert_int_equal(h_rd(&H, GEN8_MASTER_IRQ),
			 GEN8_MASTER_IRQ_CONTROL | GEN8_GT_BCS_IRQ);
	assert_true(gen9_model_irq_asserted(&H.m));
	assert_int_equal(H.irq_edges, 1);
	/* Write 1 to clear. */
	h_wr(&H, GEN8_GT_IIR(0), user);
	assert_int_equal(h_rd(&H, GEN8_GT_IIR(0)) & user, 0);
	assert_false(gen9_model_irq_asserted(&H.m));
}

static void test_irq_second_event_is_queued(void **state)
{
	uint32_t user = GT_RENDER_USER_INTERRUPT;

	(void)state;
	h_wr(&H, GEN8_GT_IMR(0), ~user);
	h_wr(&H, GEN8_GT_IER(0), user);
	raise_user_irq(GEN9_RCS0);
	raise_user_irq(GEN9_RCS0);
	h_wr(&H, GEN8_GT_IIR(0), user);
	/* The second occurrence shows up after the first clear ... */
	assert_int_equal(h_rd(&H, GEN8_GT_IIR(0)) & user, user);
	h_wr(&H, GEN8_GT_IIR(0), user);
	/* ... and only one is kept. */
	assert_int_equal(h_rd(&H, GEN8_GT_IIR(0)) & user, 0);
}

static void test_irq_ring_imr_masks_engine(void **state)
{
	uint32_t user = GT_RENDER_USER_INTERRUPT;

	(void)state;
	h_wr(&H, GEN8_GT_IMR(3), ~user);
	h_engine_start(&H, GEN9_VECS0);
	h_wr(&H, RING_IMR(VEBOX_RING_BASE), user);
	{
		struct h_ctx c;

		h_ctx_create(&H, &c, GEN9_VECS0, h_ppgtt_create(&H), 2);
		h_emit(&H, &c, MI_USER_INTERRUPT);
		h_ctx_commit(&H, &c);
		h_elsp(&H, GEN9_VECS0, h_desc(&c), 0);
		h_run(&H, 1);
	}
	assert_int_equal(h_rd(&H, GEN8_GT_IIR(3)) & user, 0);
}

static void test_gdrst_resets_engine_after_delay(void **state)
{
	struct gen9_model_config cfg = { .reset_delay_polls = 2 };
	uint32_t base = BLT_RING_BASE;

	(void)state;
	h_fini(&H);
	assert_int_equal(h_init(&H, &cfg), 0);
	h_engine_start(&H, GEN9_BCS0);
	assert_true(h_rd(&H, RING_MODE_GEN7(base)) & GFX_RUN_LIST_ENABLE);
	h_wr(&H, GEN6_GDRST, GEN6_GRDOM_BLT);
	assert_int_equal(h_rd(&H, GEN6_GDRST), GEN6_GRDOM_BLT);
	h_run(&H, 1);
	assert_int_equal(h_rd(&H, GEN6_GDRST), GEN6_GRDOM_BLT);
	h_run(&H, 1);
	assert_int_equal(h_rd(&H, GEN6_GDRST), 0);
	assert_false(h_rd(&H, RING_MODE_GEN7(base)) & GFX_RUN_LIST_ENABLE);
	assert_int_equal(h_rd(&H, RING_CONTEXT_STATUS_PTR(base)), 0x0707);
	assert_int_equal(H.m.engine[GEN9_BCS0].stats.resets, 1);
	assert_int_equal(H.m.engine[GEN9_RCS0].stats.resets, 0);
}

static void test_reset_ctl_handshake(void **state)
{
	uint32_t r = RING_RESET_CTL(RENDER_RING_BASE);

	(void)state;
	assert_int_equal(h_rd(&H, r) & RESET_CTL_READY_TO_RESET, 0);
	h_wr(&H, r, _MASKED_BIT_ENABLE(RESET_CTL_REQUEST_RESET));
	assert_true(h_rd(&H, r) & RESET_CTL_READY_TO_RESET);
	h_wr(&H, r, _MASKED_BIT_DISABLE(RESET_CTL_REQUEST_RESET));
	assert_int_equal(h_rd(&H, r) & RESET_CTL_READY_TO_RESET, 0);
}

static void test_uncore_misc(void **state)
{
	(void)state;
	assert_int_equal(h_rd(&H, FPGA_DBG), 0);
	h_wr(&H, GEN8_RTCR, 1);
	assert_int_equal(h_rd(&H, GEN8_RTCR), 0); /* invalidation done */
	h_wr(&H, GEN6_PCODE_MAILBOX, GEN6_PCODE_READY | 0x7);
	assert_int_equal(h_rd(&H, GEN6_PCODE_MAILBOX) & (GEN6_PCODE_READY | 0xff),
			 0);
	assert_int_equal(h_rd(&H, GEN6_PCODE_DATA), 1);
	assert_int_equal(H.m.stats.unknown_writes + H.m.stats.unknown_reads, 0);
}

static void test_identification_and_config(void **state)
{
	uint8_t cfg[256];
	struct gpu_hw_info *i = &H.hw.info;

	(void)state;
	assert_string_equal(i->name, "gen9-model");
	assert_true(i->is_model);
	assert_int_equal(i->device_id, 0x1912);
	assert_int_equal(i->gt, GEN9_GT2);
	assert_int_equal(i->engine_mask, BIT(GEN9_RCS0) | BIT(GEN9_BCS0) |
						 BIT(GEN9_VCS0) | BIT(GEN9_VECS0));
	assert_int_equal(i->ggtt_size, (uint64_t)H_GGTT_ENTRIES * 4096);
	assert_int_equal(i->aperture_size, 256u << 20);
	assert_int_equal(i->num_fences, 32);
	gen9_model_pci_config(&H.m, cfg);
	assert_int_equal(cfg[0] | cfg[1] << 8, 0x8086);
	assert_int_equal(cfg[2] | cfg[3] << 8, 0x1912);
	assert_int_equal(cfg[0x0b], 0x03);
	assert_int_equal(cfg[0x10] & 0xf, 0x4);
	assert_int_equal(cfg[0x18] & 0xf, 0xc);
	assert_int_equal(cfg[GEN9_PCI_MSAC], 1); /* 256 MiB */
	assert_int_equal(cfg[0xac], 0x05); /* MSI capability */
	assert_int_equal(gen9_ggc_gsm_size(cfg[0x50] | cfg[0x51] << 8), 2u << 20);
}

static void test_pci_ids(void **state)
{
	(void)state;
	assert_true(gen9_is_supported_device(0x1912));
	assert_true(gen9_is_supported_device(0x193d));
	assert_false(gen9_is_supported_device(0x5912)); /* KBL: not listed */
	assert_int_equal(gen9_device_gt(0x1906), GEN9_GT1);
	assert_int_equal(gen9_device_gt(0x1926), GEN9_GT3);
	assert_string_equal(gen9_gt_name(gen9_device_gt(0x191b)), "GT2");
	assert_string_equal(gen9_device_desc(0x1912), "DT GT2");
	assert_null(gen9_device_desc(0x1234));
	assert_true(gen9_device_engine_mask(0x1932) & BIT(GEN9_VCS1));
	assert_false(gen9_device_engine_mask(0x1912) & BIT(GEN9_VCS1));
	assert_int_equal(gen9_device_engine_mask(0x1234), 0);
}

static void test_ggc_decoding(void **state)
{
	(void)state;
	assert_int_equal(gen9_ggc_gsm_size(3 << 6), 8u << 20);
	assert_int_equal(gen9_ggc_ggtt_size(3 << 6), 4ull << 30);
	assert_int_equal(gen9_ggc_ggtt_size(1 << 6), 1ull << 30);
	assert_int_equal(gen9_ggc_ggtt_size(0), 0);
	assert_int_equal(gen9_ggc_stolen_size(0x02 << 8), 64u << 20);
	assert_int_equal(gen9_ggc_stolen_size(0xf0 << 8), 4u << 20);
	assert_int_equal(gen9_ggc_stolen_size(0xfe << 8), 60u << 20);
	assert_int_equal(gen9_msac_aperture_size(0), 128u << 20);
	assert_int_equal(gen9_msac_aperture_size(1), 256u << 20);
	assert_int_equal(gen9_msac_aperture_size(3), 512u << 20);
	assert_int_equal(gen9_msac_aperture_size(0x1f), 4ull << 30);
}

static void test_engine_helpers(void **state)
{
	(void)state;
	assert_int_equal(gen9_engine_from_mmio(0x2030), GEN9_RCS0);
	assert_int_equal(gen9_engine_from_mmio(0x22230), GEN9_BCS0);
	assert_int_equal(gen9_engine_from_mmio(0x1a3a0), GEN9_VECS0);
	assert_int_equal(gen9_engine_from_mmio(0x44200), -1);
	assert_int_equal(RING_ELSP(RENDER_RING_BASE), 0x2230);
	assert_int_equal(RING_CONTEXT_STATUS_PTR(RENDER_RING_BASE), 0x23a0);
	assert_int_equal(GEN8_RING_PDP_LDW(RENDER_RING_BASE, 0), 0x2270);
	assert_int_equal(GEN8_RING_PDP_UDW(RENDER_RING_BASE, 3), 0x228c);
	assert_int_equal(GEN8_GT_IIR(1), 0x44318);
	assert_int_equal(gen9_engine_irq_shift(GEN9_BCS0), 16);
	assert_int_equal(gen9_engine_irq_bank(GEN9_VECS0), 3);
	assert_int_equal(gen9_masked_update(0x5, _MASKED_FIELD(0x3, 0x2)), 0x6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_init_rejects_bad_memory),
		T(test_unknown_registers_store_and_count),
		T(test_masked_registers),
		T(test_forcewake_ack_follows_request),
		T(test_forcewake_ack_delay),
		T(test_ggtt_entries_and_aperture),
		T(test_aperture_crosses_pages),
		T(test_irq_iir_imr_ier_master),
		T(test_irq_second_event_is_queued),
		T(test_irq_ring_imr_masks_engine),
		T(test_gdrst_resets_engine_after_delay),
		T(test_reset_ctl_handshake),
		T(test_uncore_misc),
		T(test_identification_and_config),
		T(test_pci_ids),
		T(test_ggc_decoding),
		T(test_engine_helpers),
#undef T
	};

	return cmocka_run_group_tests_name("gen9_model", tests, NULL, NULL);
}
