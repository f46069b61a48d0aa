/* MI_MATH's ALU (facts and sources: gpu/model/alu.h). One table row per
 * Gen9 ALU opcode; the operand rules are per row, so an instruction the
 * hardware does not define (an unknown opcode, a LOAD into a GPR, a STORE
 * into SRCA) is recognised by the table and changes nothing. */
#include "gpu/model/alu.h"

#include <stddef.h>

enum alu_kind { ALU_NOOP, ALU_LOAD, ALU_LOADIMM, ALU_OP, ALU_STORE };

struct alu_row {
	uint16_t opcode;
	uint8_t kind;
	bool inv; /* LOADINV, STOREINV */
	uint64_t imm; /* LOAD0, LOAD1 */
};

static const struct alu_row alu_rows[] = {
	{ 0x000, ALU_NOOP, false, 0 },
	{ 0x080, ALU_LOAD, false, 0 },
	{ 0x480, ALU_LOAD, true, 0 },
	{ 0x081, ALU_LOADIMM, false, 0 },
	{ 0x481, ALU_LOADIMM, false, 1 },
	{ 0x100, ALU_OP, false, 0 }, /* ADD */
	{ 0x101, ALU_OP, false, 0 }, /* SUB */
	{ 0x102, ALU_OP, false, 0 }, /* AND */
	{ 0x103, ALU_OP, false, 0 }, /* OR */
	{ 0x104, ALU_OP, false, 0 }, /* XOR */
	{ 0x180, ALU_STORE, false, 0 },
	{ 0x580, ALU_STORE, true, 0 },
};

static const struct alu_row *alu_row(uint32_t opcode)
{
	size_t i;

	for (i = 0; i < sizeof(alu_rows) / sizeof(alu_rows[0]); i++)
		if (alu_rows[i].opcode == opcode)
			return &alu_rows[i];
	return NULL;
}

static uint64_t flag(bool set)
{
	return set ? ~0ull : 0;
}

/* A source operand's value: a GPR, SRCA/SRCB, ACCU or a flag. */
static bool alu_src(const struct gen9_alu *a, uint32_t op, uint64_t *v)
{
	if (op < GEN9_ALU_GPRS)
		*v = a->gpr[op];
	else if (op == MI_MATH_REG_SRCA)
		*v = a->srca;
	else if (op == MI_MATH_REG_SRCB)
		*v = a->srcb;
	else if (op == MI_MATH_REG_ACCU)
		*v = a->accu;
	else if (op == MI_MATH_REG_ZF)
		*v = flag(a->zf);
	else if (op == MI_MATH_REG_CF)
		*v = flag(a->cf);
	else
		return false;
	return true;
}

/* LOAD's destination: SRCA or SRCB only. */
static uint64_t *alu_load_dst(struct gen9_alu *a, uint32_t op)
{
	if (op == MI_MATH_REG_SRCA)
		return &a->srca;
	if (op == MI_MATH_REG_SRCB)
		return &a->srcb;
	return NULL;
}

/* ADD/SUB/AND/OR/XOR, by the opcode's low bits (0x100 + n). */
static void alu_op(struct gen9_alu *a, uint32_t opcode)
{
	uint64_t x = a->srca, y = a->srcb;

	switch (opcode & 7) {
	case 0:
		a->accu = x + y;
		a->cf = a->accu < x;
		break;
	case 1:
		a->accu = x - y;
		a->cf = x < y;
		break;
	case 2:
		a->accu = x & y;
		a->cf = false;
		break;
	case 3:
		a->accu = x | y;
		a->cf = false;
		break;
	default:
		a->accu = x ^ y;
		a->cf = false;
		break;
	}
	a->zf = a->accu == 0;
}

bool gen9_alu_exec(struct gen9_alu *a, uint32_t instr)
{
	const struct alu_row *r = alu_row(instr >> 20);
	uint32_t op1 = (instr >> 10) & 0x3ff, op2 = instr & 0x3ff;
	uint64_t v, *dst;

	if (!r)
		return false;
	switch (r->kind) {
	case ALU_NOOP:
		return true;
	case ALU_LOAD:
		dst = alu_load_dst(a, op1);
		if (!dst || !alu_src(a, op2, &v))
			return false;
		*dst = r->inv ? ~v : v;
		return true;
	case ALU_LOADIMM:
		dst = alu_load_dst(a, op1);
		if (!dst)
			return false;
		*dst = r->imm;
		return true;
	case ALU_OP:
		alu_op(a, r->opcode);
		return true;
	default: /* ALU_STORE: into a GPR */
		if (op1 >= GEN9_ALU_GPRS || !alu_src(a, op2, &v))
			return false;
		a->gpr[op1] = r->inv ? ~v : v;
		return true;
	}
}
