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
#include "tests/unit/gen9_xml_lengths.h"

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

/* The commands Gen9 turns into MI_NOOP in a non-privileged batch, and so
 * the scanner in its copies ("privileged no-ops"): exactly these MI
 * opcodes, no 3D, media or 2D command. Commands that are privileged only
 * in one form (a GGTT selector, a register outside the whitelist) are
 * not here: the scanner clears the selector or drops the register
 * instead (docs/i915-command-path.md "Privileged no-ops"). */
static const struct { uint8_t op; const char *why; } priv_mi[] = {
	{ 0x08, "MI_ARB_ON_OFF: preemption is the kernel's" },
	{ 0x12, "MI_LOAD_SCAN_LINES_INCL: display" },
	{ 0x13, "MI_LOAD_SCAN_LINES_EXCL: display" },
	{ 0x14, "MI_DISPLAY_FLIP: display" },
	{ 0x18, "MI_SET_CONTEXT: ring-buffer mode only" },
	{ 0x21, "MI_STORE_DATA_INDEX: the status page (gem_wsim's delay)" },
	{ 0x23, "MI_UPDATE_GTT: the GGTT" },
};

static void test_privileged_flags(void **state)
{
	uint32_t op, k;
	bool want;

	(void)state;
	for (op = 0; op < 64; op++) {
		uint32_t dw0 = MI_INSTR(op, 1);

		want = false;
		for (k = 0; k < sizeof(priv_mi) / sizeof(priv_mi[0]); k++)
			want |= priv_mi[k].op == op;
		if (want != !!(gen9_cmd_flags(dw0) & GEN9_CMD_PRIV))
			fail_msg("MI opcode 0x%02x: privileged %d, expected %d",
				 op, !want, want);
	}
	assert_false(gen9_cmd_flags(MI_STORE_DWORD_IMM_GEN4) & GEN9_CMD_PRIV);
	assert_false(gen9_cmd_flags(MI_BATCH_BUFFER_END) & GEN9_CMD_PRIV);
	/* PIPE_CONTROL, GPGPU_WALKER, MEDIA_VFE_STATE, STATE_BASE_ADDRESS,
	 * XY_SRC_COPY_BLT: never no-ops */
	assert_false(gen9_cmd_flags(0x7a000004) & GEN9_CMD_PRIV);
	assert_false(gen9_cmd_flags(0x7105000d) & GEN9_CMD_PRIV);
	assert_false(gen9_cmd_flags(0x70000007) & GEN9_CMD_PRIV);
	assert_false(gen9_cmd_flags(0x61010011) & GEN9_CMD_PRIV);
	assert_false(gen9_cmd_flags(0x54c00008) & GEN9_CMD_PRIV);
}

/* Engines a gen9.xml engine attribute stands for. */
static int xml_engines(uint8_t eng, int out[4])
{
	switch (eng) {
	case XE_RENDER: out[0] = GEN9_RCS0; return 1;
	case XE_VIDEO: out[0] = GEN9_VCS0; return 1;
	case XE_RENDER_BLITTER: out[0] = GEN9_RCS0; out[1] = GEN9_BCS0; return 2;
	default:
		out[0] = GEN9_RCS0; out[1] = GEN9_BCS0;
		out[2] = GEN9_VCS0; out[3] = GEN9_VECS0;
		return 4;
	}
}

/* gen9.xml disagrees with itself: bias 1 and length 1 but a 12-bit DWord
 * Length field. i915 and GVT do not name it; it keeps the 12-bit rule of
 * every other VCS command here. */
static bool xml_known_odd(const struct xml_len *x)
{
	return x->match == 0x73950000;
}

static uint32_t rule_len(uint32_t dw0, uint8_t bits, uint16_t fixed)
{
	return bits ? (dw0 & ((1u << bits) - 1)) + 2 : fixed;
}

/* Every instruction of gen9.xml, on each engine it runs on: with its
 * length field 0 and with every non-opcode bit set (flag bits above a
 * narrow length field must not count, a too-narrow rule truncates). */
static void test_every_gen9_xml_instruction(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof(gen9_xml_lengths) / sizeof(gen9_xml_lengths[0]); i++) {
		const struct xml_len *x = &gen9_xml_lengths[i];
		uint32_t forms[2] = { x->match, x->match | ~x->mask };
		int eng[4], n = xml_engines(x->eng, eng), k, f;

		if (xml_known_odd(x))
			continue;
		for (k = 0; k < n; k++)
			for (f = 0; f < 2; f++) {
				uint32_t want = rule_len(forms[f], x->len_bits, x->fixed);
				uint32_t got = gen9_cmd_len(forms[f], eng[k]);

				if (got != want) {
					print_message("%s 0x%08x engine %d: %u, gen9.xml %u\n",
						      x->name, forms[f], eng[k], got, want);
					bad++;
				}
			}
	}
	assert_int_equal(bad, 0);
}

/* Not in gen9.xml: the blitter (i915 intel_gpu_commands.h, GVT
 * cmd_parser.c: 2D commands, 8-bit length, opcode 28:22) and VEBOX (GVT
 * cmd_parser.c: VEB_SURFACE_STATE, VEB_STATE, VEB_DNDI_IECP_STATE,
 * 12-bit length on VECS). */
static const struct xml_len other_lengths[] = {
	{ "XY_SETUP_BLT", (2u << 29) | (0x01u << 22), 0xffc00000, 0, 8, 0 },
	{ "XY_SETUP_CLIP_BLT", (2u << 29) | (0x03u << 22), 0xffc00000, 0, 8, 0 },
	{ "XY_SETUP_MONO_PATTERN_SL_BLT", (2u << 29) | (0x11u << 22), 0xffc00000, 0, 8, 0 },
	{ "XY_PIXEL_BLT", (2u << 29) | (0x24u << 22), 0xffc00000, 0, 8, 0 },
	{ "COLOR_BLT", (2u << 29) | (0x40u << 22), 0xffc00000, 0, 8, 0 },
	{ "XY_FAST_COPY_BLT", (2u << 29) | (0x42u << 22), 0xffc00000, 0, 8, 0 },
	{ "SRC_COPY_BLT", (2u << 29) | (0x43u << 22), 0xffc00000, 0, 8, 0 },
	{ "XY_FAST_COLOR_BLT", (2u << 29) | (0x44u << 22), 0xffc00000, 0, 8, 0 },
	{ "XY_COLOR_BLT", (2u << 29) | (0x50u << 22), 0xffc00000, 0, 8, 0 },
	{ "XY_PAT_BLT", (2u << 29) | (0x51u << 22), 0xffc00000, 0, 8, 0 },
	{ "XY_SRC_COPY_BLT", (2u << 29) | (0x53u << 22), 0xffc00000, 0, 8, 0 },
	{ "XY_MONO_SRC_COPY_BLT", (2u << 29) | (0x54u << 22), 0xffc00000, 0, 8, 0 },
	{ "XY_FULL_BLT", (2u << 29) | (0x55u << 22), 0xffc00000, 0, 8, 0 },
	{ "XY_MONO_SRC_COPY_IMMEDIATE_BLT", (2u << 29) | (0x71u << 22), 0xffc00000, 0, 8, 0 },
	{ "VEB_SURFACE_STATE", 0x74000000, 0xffff0000, 1, 12, 0 },
	{ "VEB_STATE", 0x74020000, 0xffff0000, 1, 12, 0 },
	{ "VEB_DNDI_IECP_STATE", 0x74030000, 0xffff0000, 1, 12, 0 },
};

static void test_blitter_and_vebox(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(other_lengths) / sizeof(other_lengths[0]); i++) {
		const struct xml_len *x = &other_lengths[i];
		int eng = x->eng ? GEN9_VECS0 : GEN9_BCS0;
		uint32_t forms[2] = { x->match | 3, x->match | ~x->mask };
		int f;

		for (f = 0; f < 2; f++)
			if (gen9_cmd_len(forms[f], eng) != rule_len(forms[f], x->len_bits, 0))
				fail_msg("%s 0x%08x: %u", x->name, forms[f],
					 gen9_cmd_len(forms[f], eng));
	}
}

/* Each named MI entry of the table agrees with gen9.xml's rule for its
 * opcode (the special table can only be right or missing, never the
 * thing that hides a command). */
static void test_mi_table_matches_xml(void **state)
{
	size_t i;
	int checked = 0;

	(void)state;
	for (i = 0; i < sizeof(gen9_xml_lengths) / sizeof(gen9_xml_lengths[0]); i++) {
		const struct xml_len *x = &gen9_xml_lengths[i];
		const struct gen9_cmd_info *ci;

		if (x->mask != 0xff800000u)
			continue;
		ci = gen9_cmd_special(x->match);
		if (!ci)
			continue;
		checked++;
		if (ci->len_bits != x->len_bits ||
		    (!ci->len_bits && ci->len_fixed != x->fixed))
			fail_msg("%s: table %s bits %u fixed %u, gen9.xml %u/%u", x->name,
				 ci->name, ci->len_bits, ci->len_fixed, x->len_bits, x->fixed);
	}
	assert_true(checked > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_pipe_control_qword_aligned),
		cmocka_unit_test(test_index_mode_operands),
		cmocka_unit_test(test_sdi_and_reg_mem),
		cmocka_unit_test(test_privileged_flags),
		cmocka_unit_test(test_every_gen9_xml_instruction),
		cmocka_unit_test(test_blitter_and_vebox),
		cmocka_unit_test(test_mi_table_matches_xml),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
