/* The one table both the scanner and the model decode commands with:
 * command lengths where a generic "length field + 2" rule is wrong, and
 * memory operands (address, space, alignment, size). Facts transcribed
 * from Mesa's genxml gen9.xml (DWord Length field widths, fixed-length
 * commands) and i915 (request shapes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/hw/gen9_cmd_table.h"

struct len_case {
	const char *what;
	uint32_t dw0;
	int engine;
	uint32_t len;
};

static const struct len_case lens[] = {
	/* single dword, no length field, low bits are payload */
	{ "PIPELINE_SELECT (GPGPU, mask bits)", 0x69040302, GEN9_RCS0, 1 },
	{ "3DSTATE_VF_STATISTICS", 0x680b0001, GEN9_RCS0, 1 },
	{ "MFX_WAIT on VCS", 0x68000100, GEN9_VCS0, 1 },
	{ "MI_URB_ATOMIC_ALLOC (size bits 8:0)", (0x09u << 23) | 0x1ff, GEN9_RCS0, 1 },
	{ "MI_SET_PREDICATE", (0x01u << 23) | 0xf, GEN9_RCS0, 1 },
	{ "MI_NOOP with identification number", 0x003fffff, GEN9_RCS0, 1 },
	/* 8-bit field with flag bits above it */
	{ "GPGPU_WALKER indirect + predicate", 0x7105050d, GEN9_RCS0, 15 },
	{ "3DPRIMITIVE indirect", 0x7b000405, GEN9_RCS0, 7 },
	{ "3DSTATE_VF cut index enables", 0x780c0700, GEN9_RCS0, 2 },
	{ "3DSTATE_CONSTANT_VS mocs 14:8", 0x78157f09, GEN9_RCS0, 11 },
	{ "MI_LOAD_REGISTER_IMM byte disables", (0x22u << 23) | 0xf01, GEN9_RCS0, 3 },
	{ "MI_DISPLAY_FLIP plane select 12:8", (0x14u << 23) | 0x1f01, GEN9_RCS0, 3 },
	/* 9-bit fields */
	{ "3DSTATE_SO_DECL_LIST", 0x79170000 | 0x101, GEN9_RCS0, 0x103 },
	{ "3DSTATE_BINDING_TABLE_EDIT_PS", 0x78470000 | 0x1ff, GEN9_RCS0, 0x201 },
	/* 10-bit */
	{ "MI_STORE_DATA_IMM", (0x20u << 23) | 0x3ff, GEN9_RCS0, 0x401 },
	{ "MI_CLFLUSH", (0x27u << 23) | 0x200, GEN9_RCS0, 0x202 },
	/* 6-bit, bits above are flags */
	{ "MI_FLUSH_DW store index", (0x26u << 23) | (1u << 21) | (1u << 14) | 2, GEN9_BCS0, 4 },
	{ "MI_LOAD_SCAN_LINES_INCL", (0x12u << 23) | (7u << 19), GEN9_RCS0, 2 },
	{ "MI_REPORT_PERF_COUNT", (0x28u << 23) | 2, GEN9_RCS0, 4 },
	/* 16-bit media on RCS, 12-bit MFX/VEBOX */
	{ "MEDIA_OBJECT", 0x71000000 | 0x1004, GEN9_RCS0, 0x1006 },
	{ "MEDIA_VFE_STATE", 0x70000007, GEN9_RCS0, 9 },
	{ "MFX on VCS (12 bits)", 0x70000000 | 0xf04, GEN9_VCS0, 0xf06 },
	{ "VEBOX on VECS (12 bits)", 0x74040000 | 0x10f, GEN9_VECS0, 0x111 },
	/* 2D */
	{ "XY_SRC_COPY_BLT", XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA, GEN9_BCS0, 10 },
	/* undecodable */
	{ "client 1", 0x20000000, GEN9_RCS0, 0 },
	{ "client 7", 0xe0000000, GEN9_RCS0, 0 },
};

static void test_lengths(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint32_t got = gen9_cmd_len(lens[i].dw0, lens[i].engine);

		if (got != lens[i].len)
			fail_msg("%s: length %u, expected %u", lens[i].what, got,
				 lens[i].len);
		/* the engine.c entry point says the same */
		assert_int_equal(gen9_cmd_length_engine(lens[i].dw0, lens[i].engine),
				 got);
	}
}

static void test_pipe_control_qword_aligned(void **state)
{
	uint32_t pc[6] = { GFX_OP_PIPE_CONTROL(6),
			   PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_GLOBAL_GTT_IVB,
			   0x1ffc, 0, 1, 2 };
	struct gen9_mem_ref r;

	(void)state;
	assert_true(gen9_cmd_mem_ref(pc, 6, GEN9_RCS0, &r));
	assert_int_equal(r.addr, 0x1ff8);
	assert_int_equal(r.size, 8);
	assert_true(r.ggtt);
	assert_true(r.write);
	/* 5 dwords: a dword write at a dword address */
	assert_true(gen9_cmd_mem_ref(pc, 5, GEN9_RCS0, &r));
	assert_int_equal(r.addr, 0x1ffc);
	assert_int_equal(r.size, 4);
	/* MMIO write: no memory operand */
	pc[1] |= PIPE_CONTROL_MMIO_WRITE;
	assert_false(gen9_cmd_mem_ref(pc, 6, GEN9_RCS0, &r));
	/* not a PIPE_CONTROL off RCS */
	pc[1] &= ~PIPE_CONTROL_MMIO_WRITE;
	assert_false(gen9_cmd_mem_ref(pc, 6, GEN9_VCS0, &r));
}

static void test_index_mode_operands(void **state)
{
	/* i915 6.1 gen8_emit_flush_xcs / gen8_emit_flush_rcs, index mode
	 * into LRC_PPHWSP_SCRATCH_ADDR (0x34 * 4) */
	uint32_t fdw[4] = { (MI_FLUSH_DW + 1) | MI_FLUSH_DW_STORE_INDEX |
				    MI_FLUSH_DW_OP_STOREDW,
			    0x34 * 4, 0, 0 };
	uint32_t pc[6] = { GFX_OP_PIPE_CONTROL(6),
			   PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_STORE_DATA_INDEX |
				   PIPE_CONTROL_CS_STALL,
			   0x34 * 4, 0, 0, 0 };
	struct gen9_mem_ref r;

	(void)state;
	assert_true(gen9_cmd_mem_ref(fdw, 4, GEN9_BCS0, &r));
	assert_true(r.index);
	assert_int_equal(r.index_off, 0xd0);
	assert_int_equal(r.size, 4);
	assert_true(gen9_cmd_mem_ref(pc, 6, GEN9_RCS0, &r));
	assert_true(r.index);
	assert_int_equal(r.index_off, 0xd0);
	assert_int_equal(r.size, 8);
}

static void test_sdi_and_reg_mem(void **state)
{
	uint32_t sdi[5] = { MI_STORE_QWORD_IMM_GEN8 | MI_SDI_GGTT, 0x100c, 0x1, 5, 6 };
	uint32_t srm[4] = { MI_STORE_REGISTER_MEM_GEN8, 0x2358, 0x2006, 0 };
	struct gen9_mem_ref r;

	(void)state;
	assert_true(gen9_cmd_mem_ref(sdi, 5, GEN9_RCS0, &r));
	assert_int_equal(r.addr, 0x100001008ull); /* qword: bits 2:0 ignored */
	assert_int_equal(r.size, 8);
	assert_true(r.ggtt);
	assert_int_equal(r.asi_bit, MI_SDI_GGTT);
	assert_true(gen9_cmd_mem_ref(srm, 4, GEN9_RCS0, &r));
	assert_int_equal(r.addr, 0x2004);
	assert_int_equal(r.size, 4);
	assert_false(r.ggtt);
	assert_true(r.write);
}

static void test_privileged_flags(void **state)
{
	(void)state;
	assert_true(gen9_cmd_flags(MI_STORE_DATA_INDEX) & GEN9_CMD_PRIV);
	assert_true(gen9_cmd_flags(MI_ARB_ON_OFF) & GEN9_CMD_PRIV);
	assert_true(gen9_cmd_flags(MI_INSTR(0x23, 1)) & GEN9_CMD_PRIV);
	assert_false(gen9_cmd_flags(MI_STORE_DWORD_IMM_GEN4) & GEN9_CMD_PRIV);
	assert_false(gen9_cmd_flags(MI_BATCH_BUFFER_END) & GEN9_CMD_PRIV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_pipe_control_qword_aligned),
		cmocka_unit_test(test_index_mode_operands),
		cmocka_unit_test(test_sdi_and_reg_mem),
		cmocka_unit_test(test_privileged_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
