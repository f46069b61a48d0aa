/* MI_MATH's ALU, one opcode at a time, against the facts in
 * gpu/model/alu.h (i915 gt/intel_gpu_commands.h encodings; Mesa
 * mi_builder.h semantics: CF is ADD's carry and SUB's borrow, ZF is
 * ACCU == 0, a stored flag is all ones or 0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "gpu/model/alu.h"

#define ONES 0xffffffffffffffffull

static struct gen9_alu fresh(uint64_t r0, uint64_t r1)
{
	struct gen9_alu a;

	memset(&a, 0, sizeof(a));
	a.gpr[0] = r0;
	a.gpr[1] = r1;
	return a;
}

/* R0 op R1 -> ACCU, flags, then STORE R2 ACCU, R3 CF, R4 ZF. */
static struct gen9_alu binop(uint32_t op, uint64_t x, uint64_t y)
{
	struct gen9_alu a = fresh(x, y);
	const uint32_t prog[] = {
		MI_MATH_LOAD(MI_MATH_REG_SRCA, MI_MATH_REG(0)),
		MI_MATH_LOAD(MI_MATH_REG_SRCB, MI_MATH_REG(1)),
		op,
		MI_MATH_STORE(MI_MATH_REG(2), MI_MATH_REG_ACCU),
		MI_MATH_STORE(MI_MATH_REG(3), MI_MATH_REG_CF),
		MI_MATH_STORE(MI_MATH_REG(4), MI_MATH_REG_ZF),
	};
	size_t i;

	for (i = 0; i < sizeof(prog) / sizeof(prog[0]); i++)
		assert_true(gen9_alu_exec(&a, prog[i]));
	return a;
}

static void expect(struct gen9_alu a, uint64_t accu, bool cf, bool zf)
{
	assert_int_equal(a.gpr[2], accu);
	assert_int_equal(a.gpr[3], cf ? ONES : 0);
	assert_int_equal(a.gpr[4], zf ? ONES : 0);
}

static void test_encodings(void **state)
{
	(void)state;
	/* i915's macros as numbers: opcode 31:20, op1 19:10, op2 9:0 */
	assert_int_equal(MI_MATH(4), 0x0d000003);
	assert_int_equal(MI_MATH_LOAD(MI_MATH_REG_SRCA, 1), 0x08008001);
	assert_int_equal(MI_MATH_LOADINV(MI_MATH_REG_SRCB, 0), 0x48008400);
	assert_int_equal(MI_MATH_LOAD0(MI_MATH_REG_SRCB), 0x08108400);
	assert_int_equal(MI_MATH_LOAD1(MI_MATH_REG_SRCA), 0x48108000);
	assert_int_equal(MI_MATH_SUB, 0x10100000);
	assert_int_equal(MI_MATH_STOREINV(1, MI_MATH_REG_ACCU), 0x58000431);
}

static void test_add_carry_and_zero(void **state)
{
	(void)state;
	expect(binop(MI_MATH_ADD, 2, 3), 5, false, false);
	expect(binop(MI_MATH_ADD, ONES, 1), 0, true, true); /* carry out */
	expect(binop(MI_MATH_ADD, ONES, 2), 1, true, false);
	expect(binop(MI_MATH_ADD, 0, 0), 0, false, true);
	expect(binop(MI_MATH_ADD, 1ull << 32, 0xffffffffull), 0x1ffffffffull,
	       false, false); /* 64-bit, no 32-bit carry */
}

static void test_sub_borrow_and_zero(void **state)
{
	(void)state;
	expect(binop(MI_MATH_SUB, 5, 3), 2, false, false);
	expect(binop(MI_MATH_SUB, 3, 5), (uint64_t)-2, true, false); /* borrow */
	expect(binop(MI_MATH_SUB, 7, 7), 0, false, true);
	expect(binop(MI_MATH_SUB, 0, 1), ONES, true, false);
	/* gem_wsim's delta across a 32-bit CTX_TIMESTAMP wrap: 64-bit GPRs */
	expect(binop(MI_MATH_SUB, 5, 0xfffffff0ull), 0xffffffff00000015ull,
	       true, false);
}

static void test_logic_clears_carry(void **state)
{
	(void)state;
	expect(binop(MI_MATH_AND, 0xf0f0, 0xff00), 0xf000, false, false);
	expect(binop(MI_MATH_AND, 0xf0, 0x0f), 0, false, true);
	expect(binop(MI_MATH_OR, 0xf0, 0x0f), 0xff, false, false);
	expect(binop(MI_MATH_OR, 0, 0), 0, false, true);
	expect(binop(MI_MATH_XOR, 0xff, 0x0f), 0xf0, false, false);
	expect(binop(MI_MATH_XOR, ONES, ONES), 0, false, true);
	/* a carry left by SUB does not survive a logic operation */
	{
		struct gen9_alu a = binop(MI_MATH_SUB, 0, 1);

		assert_true(a.cf);
		assert_true(gen9_alu_exec(&a, MI_MATH_OR));
		assert_false(a.cf);
	}
}

static void test_loads_and_stores(void **state)
{
	struct gen9_alu a = fresh(0x1234, 0);

	(void)state;
	assert_true(gen9_alu_exec(&a, MI_MATH_LOADINV(MI_MATH_REG_SRCA, 0)));
	assert_int_equal(a.srca, ~0x1234ull);
	assert_true(gen9_alu_exec(&a, MI_MATH_LOAD0(MI_MATH_REG_SRCA)));
	assert_int_equal(a.srca, 0);
	assert_true(gen9_alu_exec(&a, MI_MATH_LOAD1(MI_MATH_REG_SRCB)));
	assert_int_equal(a.srcb, 1);
	assert_true(gen9_alu_exec(&a, MI_MATH_STORE(15, MI_MATH_REG_SRCB)));
	assert_int_equal(a.gpr[15], 1);
	assert_true(gen9_alu_exec(&a, MI_MATH_STOREINV(14, MI_MATH_REG_SRCA)));
	assert_int_equal(a.gpr[14], ONES);
	/* a GPR as a LOAD source, a flag as a LOAD source */
	assert_true(gen9_alu_exec(&a, MI_MATH_LOAD(MI_MATH_REG_SRCB, 15)));
	assert_int_equal(a.srcb, 1);
	a.zf = true;
	assert_true(gen9_alu_exec(&a, MI_MATH_LOAD(MI_MATH_REG_SRCA, MI_MATH_REG_ZF)));
	assert_int_equal(a.srca, ONES);
	/* mi_uge: SUB then STOREINV CF */
	a = binop(MI_MATH_SUB, 9, 4);
	assert_true(gen9_alu_exec(&a, MI_MATH_STOREINV(5, MI_MATH_REG_CF)));
	assert_int_equal(a.gpr[5], ONES);
	assert_true(gen9_alu_exec(&a, MI_MATH_NOOP));
}

/* gem_wsim's program: R1 = ~(R1 - R0). */
static void test_gem_wsim_program(void **state)
{
	struct gen9_alu a = fresh(1000, 1000 + 4321);

	(void)state;
	assert_true(gen9_alu_exec(&a, MI_MATH_LOAD(MI_MATH_REG_SRCA, MI_MATH_REG(1))));
	assert_true(gen9_alu_exec(&a, MI_MATH_LOAD(MI_MATH_REG_SRCB, MI_MATH_REG(0))));
	assert_true(gen9_alu_exec(&a, MI_MATH_SUB));
	assert_true(gen9_alu_exec(&a, MI_MATH_STOREINV(MI_MATH_REG(1), MI_MATH_REG_ACCU)));
	assert_int_equal(a.gpr[1], ~4321ull);
	assert_int_equal(a.gpr[0], 1000);
}

/* Undefined: an unknown opcode, a LOAD into a GPR or ACCU, a STORE into
 * SRCA or a flag, a register number Gen9 does not have. Each is refused
 * and changes nothing. */
static void test_undefined_changes_nothing(void **state)
{
	static const uint32_t bad[] = {
		MI_MATH_INSTR(0x105, 0, 0),  /* SHL is Gen12 */
		MI_MATH_INSTR(0x7ff, 0, 0),
		MI_MATH_LOAD(MI_MATH_REG(3), MI_MATH_REG(0)),
		MI_MATH_LOAD(MI_MATH_REG_ACCU, MI_MATH_REG(0)),
		MI_MATH_LOAD(MI_MATH_REG_SRCA, 0x10), /* R16 */
		MI_MATH_LOAD(MI_MATH_REG_SRCA, 0x22),
		MI_MATH_LOAD0(MI_MATH_REG(0)),
		MI_MATH_STORE(MI_MATH_REG_SRCA, MI_MATH_REG_ACCU),
		MI_MATH_STORE(MI_MATH_REG_ZF, MI_MATH_REG_ACCU),
		MI_MATH_STOREINV(16, MI_MATH_REG_ACCU),
		MI_MATH_STORE(0, 0x30),
	};
	struct gen9_alu a = binop(MI_MATH_SUB, 3, 5), before;
	size_t i;

	(void)state;
	before = a;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_false(gen9_alu_exec(&a, bad[i]));
		assert_memory_equal(&a, &before, sizeof(a));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encodings),
		cmocka_unit_test(test_add_carry_and_zero),
		cmocka_unit_test(test_sub_borrow_and_zero),
		cmocka_unit_test(test_logic_clears_carry),
		cmocka_unit_test(test_loads_and_stores),
		cmocka_unit_test(test_gem_wsim_program),
		cmocka_unit_test(test_undefined_changes_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
