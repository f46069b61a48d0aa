/* The command streamer's ALU (MI_MATH), Gen9.
 *
 * Facts: an MI_MATH command is its header (opcode 0x1a, DWord Length
 * bits 7:0, Mesa genxml gen9.xml) followed by DWord Length + 1 ALU
 * instructions, each MI_MATH_ALU_INSTRUCTION: ALU opcode bits 31:20,
 * operand 1 bits 19:10, operand 2 bits 9:0 (i915 gt/intel_gpu_commands.h
 * MI_MATH_INSTR). The operands name 16 64-bit general purpose registers
 * R0-R15, which are the engine's CS_GPR registers (engine base + 0x600 +
 * 8 * n, low dword first), and the ALU's SRCA, SRCB, ACCU and the zero
 * and carry flags ZF, CF.
 *
 * Semantics (i915 and Mesa src/intel/common/mi_builder.h, which fold the
 * same operations on the CPU when both sources are immediates and must
 * agree with the GPU): LOAD / LOADINV put a register (inverted) into SRCA
 * or SRCB, LOAD0 / LOAD1 put 0 / 1 there; ADD, SUB, AND, OR, XOR put
 * SRCA op SRCB into ACCU and set ZF when ACCU is 0; CF is the carry out
 * of ADD and the borrow of SUB ("compute less than by subtracting and
 * storing the carry bit": mi_ult = SUB, STORE CF; mi_uge = STOREINV CF),
 * clear after the logic operations; STORE / STOREINV copy ACCU, SRCA,
 * SRCB or a flag (inverted) into a GPR. A flag reads as all ones when set
 * and 0 when clear (mi_ult's CPU fold gives ~0ull for "true"). */
#ifndef GPU_MODEL_ALU_H
#define GPU_MODEL_ALU_H

#include <stdbool.h>
#include <stdint.h>

/* Encodings (i915 gt/intel_gpu_commands.h). */
#define MI_MATH(n) ((0x1au << 23) | ((uint32_t)(n) - 1))
#define MI_MATH_INSTR(opcode, op1, op2) \
	(((uint32_t)(opcode) << 20) | ((uint32_t)(op1) << 10) | (uint32_t)(op2))
#define MI_MATH_NOOP MI_MATH_INSTR(0x000, 0, 0)
#define MI_MATH_LOAD(op1, op2) MI_MATH_INSTR(0x080, op1, op2)
#define MI_MATH_LOADINV(op1, op2) MI_MATH_INSTR(0x480, op1, op2)
#define MI_MATH_LOAD0(op1) MI_MATH_INSTR(0x081, op1, 0)
#define MI_MATH_LOAD1(op1) MI_MATH_INSTR(0x481, op1, 0)
#define MI_MATH_ADD MI_MATH_INSTR(0x100, 0, 0)
#define MI_MATH_SUB MI_MATH_INSTR(0x101, 0, 0)
#define MI_MATH_AND MI_MATH_INSTR(0x102, 0, 0)
#define MI_MATH_OR MI_MATH_INSTR(0x103, 0, 0)
#define MI_MATH_XOR MI_MATH_INSTR(0x104, 0, 0)
#define MI_MATH_STORE(op1, op2) MI_MATH_INSTR(0x180, op1, op2)
#define MI_MATH_STOREINV(op1, op2) MI_MATH_INSTR(0x580, op1, op2)
#define MI_MATH_REG(x) (x)
#define MI_MATH_REG_SRCA 0x20
#define MI_MATH_REG_SRCB 0x21
#define MI_MATH_REG_ACCU 0x31
#define MI_MATH_REG_ZF 0x32
#define MI_MATH_REG_CF 0x33

#define GEN9_ALU_GPRS 16
#define GEN9_CS_GPR(base, n) ((base) + 0x600 + 8 * (n))

struct gen9_alu {
	uint64_t gpr[GEN9_ALU_GPRS];
	uint64_t srca, srcb, accu;
	bool zf, cf;
};

/* Run one ALU instruction. false when its opcode or an operand is not
 * one Gen9 defines: the instruction then changes nothing (the caller
 * counts it). */
bool gen9_alu_exec(struct gen9_alu *a, uint32_t instr);

#endif
