/* The model's register lookup (gpu/model/regs.c, issue 31) is a table
 * built at init, where it was a walk over the engine blocks and a list of
 * ranges. It must say what the walk said: every dword of the 2 MiB
 * register file is checked against a copy of that walk, on a GT2 (no
 * second VCS: its block is plain storage) and a GT3, and every dword it
 * calls unknown behaves as plain storage, counted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/model/model_internal.h"
#include "gpu/model/uncore.h"
#include "tests/harness/model_harness.h"

/* The list regs.c walked before the table, as it stood (65c16aa). */
static const struct {
	uint32_t first, last;
} walked[] = {
	{ FORCEWAKE_ACK_RENDER_GEN9, FORCEWAKE_ACK_MEDIA_GEN9 },
	{ GEN8_RING_FAULT_REG, GEN8_RING_FAULT_REG },
	{ GEN8_PRIVATE_PAT_LO, GEN8_PRIVATE_PAT_HI },
	{ GEN8_RTCR, GEN8_VTCR },
	{ GEN8_FAULT_TLB_DATA0, GEN8_FAULT_TLB_DATA1 },
	{ GEN8_FUSE2, GEN8_FUSE2 },
	{ GEN9_EU_DISABLE(0), GEN9_EU_DISABLE(2) },
	{ GEN6_GDRST, GEN6_RSTCTL },
	{ FORCEWAKE_GT_GEN9, FORCEWAKE_GT_GEN9 },
	{ CTC_MODE, CTC_MODE },
	{ FORCEWAKE_MEDIA_GEN9, FORCEWAKE_MEDIA_GEN9 },
	{ FORCEWAKE_RENDER_GEN9, FORCEWAKE_RENDER_GEN9 },
	{ FPGA_DBG, FPGA_DBG },
	{ GEN8_MASTER_IRQ, GEN8_MASTER_IRQ },
	{ GEN8_GT_ISR(0), GEN8_GT_IER(GEN8_GT_BANKS - 1) },
	{ GEN8_DE_PIPE_ISR(0), GEN8_PCU_IER },
	{ SDEISR, SDEIER },
	{ FENCE_REG_GEN6_LO(0), FENCE_REG_GEN6_HI(GEN9_NUM_FENCES - 1) },
	{ GFX_FLSH_CNTL_GEN6, GFX_FLSH_CNTL_GEN6 },
	{ GEN6_DSMBASE, GEN6_DSMBASE },
	{ GEN6_GSMBASE, GEN6_GSMBASE },
	{ GEN6_STOLEN_RESERVED, GEN6_STOLEN_RESERVED },
	{ FORCEWAKE_ACK_GT_GEN9, FORCEWAKE_ACK_GT_GEN9 },
	{ GEN6_PCODE_MAILBOX, GEN6_PCODE_DATA1 },
};

/* The walk: a present engine's block, then the list. */
static bool walked_known(const struct gen9_model *m, uint32_t off)
{
	int id = gen9_engine_from_mmio(off);
	size_t i;

	if (id >= 0 && m->engine[id].present)
		return true;
	for (i = 0; i < sizeof(walked) / sizeof(walked[0]); i++)
		if (off >= walked[i].first && off <= walked[i].last)
			return true;
	return false;
}

static struct harness H;

static void up(uint16_t device_id)
{
	struct gen9_model_config cfg = { .device_id = device_id };

	assert_int_equal(h_init(&H, &cfg), 0);
}

/* Every dword: known after exactly when known before. */
static void same_known_set(uint32_t *n_known)
{
	uint32_t off;

	*n_known = 0;
	for (off = 0; off < GEN9_MMIO_SIZE; off += 4) {
		bool before = walked_known(&H.m, off);

		if (model_reg_is_known(&H.m, off) != before)
			fail_msg("0x%06x: known %d before, %d now", off, before, !before);
		*n_known += before;
	}
}

static void test_gt2_same_registers_known(void **state)
{
	uint32_t n;

	(void)state;
	up(0x1912);
	assert_false(H.m.engine[GEN9_VCS1].present);
	same_known_set(&n);
	/* 4 engine blocks of 1,024 dwords and the list's 176 dwords */
	assert_int_equal(n, 4 * 1024 + 176);
	h_fini(&H);
}

static void test_gt3_same_registers_known(void **state)
{
	uint32_t n;

	(void)state;
	up(0x1926);
	assert_true(H.m.engine[GEN9_VCS1].present);
	same_known_set(&n);
	assert_int_equal(n, 5 * 1024 + 176);
	h_fini(&H);
}

/* The write path skips the interrupt and uncore handlers on pages with
 * no known register: every register they handle must be known. */
static void test_special_registers_are_known(void **state)
{
	static const uint32_t uncore[] = {
		GEN6_GDRST, GEN6_PCODE_MAILBOX, GFX_FLSH_CNTL_GEN6, GEN8_RTCR,
		GEN8_M1TCR, GEN8_M2TCR, GEN8_BTCR, GEN8_VTCR, FPGA_DBG,
		GEN8_MASTER_IRQ,
	};
	uint32_t off;
	size_t i;
	bool ack;

	(void)state;
	up(0x1912);
	for (off = 0; off < GEN9_MMIO_SIZE; off += 4)
		if (model_irq_is_reg(off) || model_fw_domain(off, &ack) >= 0)
			assert_true(model_reg_is_known(&H.m, off));
	for (i = 0; i < sizeof(uncore) / sizeof(uncore[0]); i++)
		assert_true(model_reg_is_known(&H.m, uncore[i]));
	h_fini(&H);
}

/* Unknown dwords are storage: the value written reads back, each access
 * counted as unknown, nothing else changes the count. */
static void test_unknown_dwords_are_counted_storage(void **state)
{
	uint32_t off, unknown = 0;
	uint64_t r0, w0;

	(void)state;
	up(0x1912);
	r0 = H.m.stats.unknown_reads;
	w0 = H.m.stats.unknown_writes;
	for (off = 0; off < GEN9_MMIO_SIZE; off += 4) {
		if (walked_known(&H.m, off))
			continue;
		unknown++;
		gen9_model_write32(&H.m, off, off ^ 0x5a5a5a5a);
		if (gen9_model_read32(&H.m, off) != (off ^ 0x5a5a5a5a))
			fail_msg("0x%06x: unknown register did not store", off);
		assert_int_equal(H.m.stats.last_unknown, off);
	}
	assert_int_equal(H.m.stats.unknown_writes - w0, unknown);
	assert_int_equal(H.m.stats.unknown_reads - r0, unknown);
	h_fini(&H);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gt2_same_registers_known),
		cmocka_unit_test(test_gt3_same_registers_known),
		cmocka_unit_test(test_special_registers_are_known),
		cmocka_unit_test(test_unknown_dwords_are_counted_storage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
