/* Decoder for the guest instruction behind an MMIO exit.
 *
 * When a guest load or store hits a page the hypervisor does not map (a vGPU
 * BAR, a virtual device), the CPU exits with EPT_VIOLATION and tells us the
 * guest-physical address and whether it was a read or a write, but not the
 * width, the register or the value. We fetch up to 15 bytes at the guest's
 * RIP and decode just enough of the instruction to emulate the access:
 * what kind of move it is, how wide, which register, which immediate, and its
 * exact length so RIP can be advanced past it.
 *
 * Only the move class is accepted, because that is what compilers emit for
 * MMIO (readl/writel are MOVs; memset_io/memcpy_io may be STOS/MOVS):
 *
 *   88 89 8A 8B          MOV r/m,reg / reg,r/m
 *   A0 A1 A2 A3          MOV AL/eAX <-> moffs
 *   C6 /0 C7 /0          MOV r/m,imm
 *   0F B6 0F B7          MOVZX
 *   0F BE 0F BF          MOVSX
 *   63 (64-bit mode)     MOVSXD
 *   A4 A5 AA AB          MOVS, STOS (with or without REP)
 *   0F C3                MOVNTI
 *
 * and the SSE/AVX moves a compiler's memcpy/memset emits (insn_vec.c has
 * the table): MOVUPS/UPD/APS/APD, MOVDQU/DQA, MOVNTPS/PD/DQ, MOVNTDQA,
 * LDDQU, MOVSS/SD, MOVD/MOVQ to and from an XMM register, MOVLPS/LPD and
 * MOVHPS/HPD (8 bytes into or out of one half of an XMM), legacy-encoded
 * (66/F3/F2 as mandatory prefixes, REX.R for XMM8-15) or VEX-encoded
 * (C5/C4; VEX.L for the 32-byte YMM forms). Their memory access is 4, 8,
 * 16 or 32 bytes; the caller splits what a device cannot take at once.
 *
 * The accesses themselves are carried out by hv/vm/mmio_emul.c (per page,
 * string chunks) for hv/vm/mmio_emulate.c; docs/mmio-emulation.md lists
 * all of it.
 *
 * Everything else is -HV_ENOTSUP. The decoder never reads beyond `len` bytes
 * nor beyond 15; it does not compute the effective address (the exit gives
 * us the guest-physical address) but parses ModRM, SIB and displacements
 * completely so the length is exact. */
#ifndef HV_VMX_INSN_DECODE_H
#define HV_VMX_INSN_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hv/vmx/guest_regs.h"

#define INSN_MAX_LEN 15	/* SDM Vol. 2 2.3.11: longer is #GP */

/* Default operand/address size of the code segment the guest ran in. The
 * caller derives it from guest state: IA32_EFER.LMA && CS.L -> 64; else
 * CS.D (bit 14 of the access rights) -> 32; else 16. */
enum insn_mode {
	INSN_MODE_16,
	INSN_MODE_32,
	INSN_MODE_64,
};

enum mmio_insn_kind {
	INSN_NONE = 0,
	INSN_MOV_LOAD,		/* reg <- mem */
	INSN_MOV_STORE,		/* mem <- reg */
	INSN_MOV_STORE_IMM,	/* mem <- imm */
	INSN_MOVZX,		/* reg <- zero-extended mem */
	INSN_MOVSX,		/* reg <- sign-extended mem (also MOVSXD) */
	INSN_STOS,		/* [rDI] <- AL/AX/EAX/RAX */
	INSN_MOVS,		/* [rDI] <- [rSI] */
	INSN_VEC_LOAD,		/* XMM/YMM reg <- mem */
	INSN_VEC_STORE,		/* mem <- XMM/YMM reg */
	INSN_KIND_COUNT,
};

/* Direction of the memory access at the faulting address, for checking the
 * decode against the exit qualification (a mismatch means the guest changed
 * the instruction bytes after the exit; refuse to emulate). */
#define MMIO_ACCESS_READ	1u
#define MMIO_ACCESS_WRITE	2u

/* Segment override prefix, in the SDM's segment-register encoding. */
enum insn_seg {
	INSN_SEG_ES = 0, INSN_SEG_CS, INSN_SEG_SS, INSN_SEG_DS,
	INSN_SEG_FS, INSN_SEG_GS,
	INSN_SEG_NONE = 0xff,
};

struct mmio_insn {
	enum mmio_insn_kind kind;
	uint8_t len;		/* instruction length: RIP += len */
	uint8_t size;		/* memory access width: 1, 2, 4 or 8; 4, 8, 16
				 * or 32 for the vector kinds */
	uint8_t reg_size;	/* register operand width (> size for MOVZX/SX;
				 * for a vector load, the bytes of the register
				 * it defines: [size, reg_size) are zeroed, the
				 * bytes above left alone) */
	uint8_t reg;		/* register operand, enum gpr_index (AL for
				 * STOS and moffs forms; unused for MOVS and
				 * MOV_STORE_IMM); XMM/YMM number 0-15 for the
				 * vector kinds */
	uint8_t vec_off;	/* vector kinds: the register byte the memory
				 * operand starts at (8 for MOVHPS/HPD) */
	bool merge;		/* vector load that writes only [vec_off,
				 * vec_off + size) of XMM bytes [0, 16), the
				 * rest coming from register `vsrc` (MOVLPS/
				 * HPS...: the destination itself, or VEX's
				 * vvvv); [16, reg_size) is zeroed */
	uint8_t vsrc;
	uint8_t align;		/* the access must be aligned to this many
				 * bytes or the CPU raises #GP(0) (MOVAPS,
				 * MOVDQA, MOVNT*...); 0: any address */
	bool vex;		/* VEX-encoded (C4/C5) */
	uint8_t addr_size;	/* 2, 4 or 8: width of rSI/rDI/rCX */
	uint8_t seg;		/* enum insn_seg */
	bool rep;		/* F3 or F2 on MOVS/STOS */
	bool rip_relative;	/* mod=00 rm=101 in 64-bit mode */
	uint16_t opcode;	/* 0x00xx, 0x0fxx for two-byte opcodes, 0x38xx
				 * for 0F 38 xx (also the VEX maps) */
	uint64_t imm;		/* MOV_STORE_IMM: the value, already extended
				 * to `size` bytes */
	int64_t disp;		/* displacement (sign-extended) or moffs */
	/* Memory operand of a ModRM form (32/64-bit addressing): base and
	 * index registers (enum gpr_index, INSN_NO_REG if absent) and the
	 * SIB scale as a shift. mmio_insn_ea turns them into the address. */
	uint8_t base, index, scale_shift;
};
#define INSN_NO_REG 0xff

/* Decode the instruction in buf[0..len). Returns 0 and fills *out, or
 *   -HV_ENODATA  the instruction continues past `len` (fetch more and retry);
 *   -HV_EINVAL   not a memory access the CPU could have faulted on (register
 *                operand, LOCK on a MOV, longer than 15 bytes, MOVSXD's
 *                opcode outside 64-bit mode is ARPL);
 *   -HV_ENOTSUP  any other opcode, or a form we do not emulate.
 * On error *out is zeroed. */
int insn_decode(const uint8_t *buf, size_t len, enum insn_mode mode,
		struct mmio_insn *out);

/* The guest's vector registers as the emulation sees them: XMMi is the low
 * 16 bytes of YMMi. Little-endian bytes, lowest first. */
#define INSN_VEC_REGS 16
#define INSN_VEC_BYTES 32
struct vec_regs {
	uint8_t b[INSN_VEC_REGS][INSN_VEC_BYTES];
};

/* The bytes a vector store writes (insn->size of them from register byte
 * vec_off, the rest of out zeroed); nothing but zeros for other kinds. */
void mmio_insn_vec_store_bytes(const struct mmio_insn *insn,
			       const struct vec_regs *vr,
			       uint8_t out[INSN_VEC_BYTES]);

/* Complete a vector load: in[0..size) was read from the device; the
 * register gets it, zeroed up to reg_size, its bytes above untouched
 * (legacy SSE leaves YMM's upper half alone, VEX clears it). A merge
 * form (insn->merge) takes XMM bytes [0, 16) from vsrc, puts the memory
 * at vec_off and zeroes [16, reg_size). Does nothing for other kinds. */
void mmio_insn_vec_complete_load(const struct mmio_insn *insn,
				 struct vec_regs *vr,
				 const uint8_t in[INSN_VEC_BYTES]);

/* Would the CPU raise #GP(0) for this access at linear address `lin`
 * because the form demands alignment (insn->align) and lin lacks it? */
bool mmio_insn_misaligned(const struct mmio_insn *insn, uint64_t lin);

/* The exception the CPU raises for a vector access before touching
 * memory, given the guest's CR0 and CR4 and the access's linear address:
 * INSN_EXC_UD (AVX without CR4.OSXSAVE; SSE with CR0.EM or without
 * CR4.OSFXSR), INSN_EXC_NM (CR0.TS), INSN_EXC_GP (#GP(0): misaligned),
 * or -1: none, emulate. -1 for every other kind. */
#define INSN_EXC_UD 6
#define INSN_EXC_NM 7
#define INSN_EXC_GP 13
int mmio_insn_vec_fault(const struct mmio_insn *insn, uint64_t cr0,
			uint64_t cr4, uint64_t lin);

/* MMIO_ACCESS_* bits of the access the instruction makes at the faulting
 * address. MOVS reads one address and writes the other, so it reports both
 * and the caller decides by the exit qualification. */
unsigned mmio_insn_access(const struct mmio_insn *insn);

/* The value a store writes: the register (MOV_STORE, STOS) or the immediate,
 * truncated to insn->size. 0 for loads, MOVS (whose source is memory) and
 * the vector kinds (mmio_insn_vec_store_bytes). */
uint64_t mmio_insn_store_value(const struct mmio_insn *insn,
			       const struct guest_regs *regs);

/* Complete a load: `val` was read from the device (insn->size bytes); extend
 * it as the instruction says and write the destination register with x86
 * semantics. Does nothing for instructions that are not loads, nor for
 * vector loads (mmio_insn_vec_complete_load). */
void mmio_insn_complete_load(const struct mmio_insn *insn,
			     struct guest_regs *regs, uint64_t val);

/* After emulating one iteration of MOVS/STOS: step rDI (and rSI) by
 * +/-size according to RFLAGS.DF and, with REP, decrement rCX, all at the
 * instruction's address size. Returns true when the instruction is done and
 * RIP must advance, false when REP has iterations left (leave RIP alone so
 * the guest re-executes it: the next iteration exits again, and pending
 * interrupts are taken between iterations as on hardware). Returns true
 * and changes nothing for non-string instructions. */
bool mmio_insn_string_step(const struct mmio_insn *insn,
			   struct guest_regs *regs, bool df);

/* The offset (effective address, before the segment base) of the memory
 * access the instruction makes: ModRM/SIB/displacement, RIP-relative
 * (rip_next = the address of the next instruction), moffs, or rDI for STOS,
 * truncated to the address size. False when it cannot say (16-bit
 * addressing, MOVS). The EPT-violation handler compares it with the
 * guest-linear address the CPU reports to tell a split access. */
bool mmio_insn_ea(const struct mmio_insn *insn, const struct guest_regs *regs,
		  uint64_t rip_next, uint64_t *ea);

/* "MOV_LOAD", "STOS", ... for logs; "UNKNOWN" out of range. */
const char *mmio_insn_kind_name(enum mmio_insn_kind kind);

#endif
