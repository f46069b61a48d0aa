/* Unit tests for hv/vmx/insn_decode.c.
 *
 * The byte strings come from GNU as 2.40 (`as --64` / `as --32`, .code16 for
 * 16-bit) and objdump -d -M intel; the assembly is in the comment on each
 * line. Hand-made strings (prefix corner cases) were checked with
 * `objdump -D -b binary -m i386:x86-64`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/hv_errno.h"
#include "hv/vmx/insn_decode.h"

#define B(...) { __VA_ARGS__ }, sizeof((uint8_t[]){ __VA_ARGS__ })

struct vec {
	const char *asm_text;
	enum insn_mode mode;
	uint8_t bytes[15];
	size_t nbytes;
	enum mmio_insn_kind kind;
	uint8_t len, size, reg_size, reg, addr_size;
	bool rep, rip;
	uint8_t seg;
	uint64_t imm;
	int64_t disp;
};

#define M64 INSN_MODE_64
#define M32 INSN_MODE_32
#define M16 INSN_MODE_16
#define NOSEG INSN_SEG_NONE

static const struct vec good[] = {
	/* ---- 64-bit mode: MOV store/load, REX, high bytes ---- */
	{ "mov [rax],ecx", M64, B(0x89, 0x08),
	  INSN_MOV_STORE, 2, 4, 4, GPR_RCX, 8, false, false, NOSEG, 0, 0 },
	{ "mov [rbx+0x10],r9", M64, B(0x4c, 0x89, 0x4b, 0x10),
	  INSN_MOV_STORE, 4, 8, 8, GPR_R9, 8, false, false, NOSEG, 0, 0x10 },
	{ "mov [rdi],ah", M64, B(0x88, 0x27),
	  INSN_MOV_STORE, 2, 1, 1, GPR_AH, 8, false, false, NOSEG, 0, 0 },
	{ "mov [rdi],sil", M64, B(0x40, 0x88, 0x37),
	  INSN_MOV_STORE, 3, 1, 1, GPR_RSI, 8, false, false, NOSEG, 0, 0 },
	{ "mov [r8],r9b", M64, B(0x45, 0x88, 0x08),
	  INSN_MOV_STORE, 3, 1, 1, GPR_R9, 8, false, false, NOSEG, 0, 0 },
	{ "mov spl,[rax]", M64, B(0x40, 0x8a, 0x20),
	  INSN_MOV_LOAD, 3, 1, 1, GPR_RSP, 8, false, false, NOSEG, 0, 0 },
	{ "mov ah,[rax]", M64, B(0x8a, 0x20),
	  INSN_MOV_LOAD, 2, 1, 1, GPR_AH, 8, false, false, NOSEG, 0, 0 },
	{ "mov eax,[rip+0x12345678]", M64,
	  B(0x8b, 0x05, 0x78, 0x56, 0x34, 0x12),
	  INSN_MOV_LOAD, 6, 4, 4, GPR_RAX, 8, false, true, NOSEG, 0,
	  0x12345678 },
	{ "mov r15,[rsp+rax*8+0x7f]", M64, B(0x4c, 0x8b, 0x7c, 0xc4, 0x7f),
	  INSN_MOV_LOAD, 5, 8, 8, GPR_R15, 8, false, false, NOSEG, 0, 0x7f },
	{ "mov edx,[r13+0]", M64, B(0x41, 0x8b, 0x55, 0x00),
	  INSN_MOV_LOAD, 4, 4, 4, GPR_RDX, 8, false, false, NOSEG, 0, 0 },
	{ "mov ecx,[r12]", M64, B(0x41, 0x8b, 0x0c, 0x24),
	  INSN_MOV_LOAD, 4, 4, 4, GPR_RCX, 8, false, false, NOSEG, 0, 0 },
	{ "mov eax,ds:0x1000 (SIB, no base, no index)", M64,
	  B(0x8b, 0x04, 0x25, 0x00, 0x10, 0x00, 0x00),
	  INSN_MOV_LOAD, 7, 4, 4, GPR_RAX, 8, false, false, NOSEG, 0, 0x1000 },
	{ "mov eax,[rax*4+0x2000]", M64,
	  B(0x8b, 0x04, 0x85, 0x00, 0x20, 0x00, 0x00),
	  INSN_MOV_LOAD, 7, 4, 4, GPR_RAX, 8, false, false, NOSEG, 0, 0x2000 },
	{ "mov eax,[r13+r14*2-0x80]", M64, B(0x43, 0x8b, 0x44, 0x75, 0x80),
	  INSN_MOV_LOAD, 5, 4, 4, GPR_RAX, 8, false, false, NOSEG, 0, -0x80 },
	{ "mov r8d,[r12*1+0] (REX.X index 4 is r12)", M64,
	  B(0x46, 0x8b, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00),
	  INSN_MOV_LOAD, 8, 4, 4, GPR_R8, 8, false, false, NOSEG, 0, 0 },
	{ "mov ax,[rsi]", M64, B(0x66, 0x8b, 0x06),
	  INSN_MOV_LOAD, 3, 2, 2, GPR_RAX, 8, false, false, NOSEG, 0, 0 },
	{ "rex.W 66 mov ax,[rax] (REX before prefix is ignored)", M64,
	  B(0x48, 0x66, 0x8b, 0x00),
	  INSN_MOV_LOAD, 4, 2, 2, GPR_RAX, 8, false, false, NOSEG, 0, 0 },
	{ "mov eax,[eax] (67)", M64, B(0x67, 0x8b, 0x00),
	  INSN_MOV_LOAD, 3, 4, 4, GPR_RAX, 4, false, false, NOSEG, 0, 0 },
	{ "mov [r13d+eax*1+0],eax", M64,
	  B(0x67, 0x41, 0x89, 0x44, 0x05, 0x00),
	  INSN_MOV_STORE, 6, 4, 4, GPR_RAX, 4, false, false, NOSEG, 0, 0 },
	{ "mov ds:0x11223344,eax", M64,
	  B(0x89, 0x04, 0x25, 0x44, 0x33, 0x22, 0x11),
	  INSN_MOV_STORE, 7, 4, 4, GPR_RAX, 8, false, false, NOSEG, 0,
	  0x11223344 },
	{ "mov gs:[rip-4],r14", M64,
	  B(0x65, 0x4c, 0x89, 0x35, 0xfc, 0xff, 0xff, 0xff),
	  INSN_MOV_STORE, 8, 8, 8, GPR_R14, 8, false, true, INSN_SEG_GS, 0,
	  -4 },
	{ "mov eax,[rip+0]", M64, B(0x8b, 0x05, 0x00, 0x00, 0x00, 0x00),
	  INSN_MOV_LOAD, 6, 4, 4, GPR_RAX, 8, false, true, NOSEG, 0, 0 },

	/* ---- moffs forms: the offset is address-size wide ---- */
	{ "movabs al,ds:0x1122334455667788", M64,
	  B(0xa0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11),
	  INSN_MOV_LOAD, 9, 1, 1, GPR_RAX, 8, false, false, NOSEG, 0,
	  0x1122334455667788 },
	{ "movabs rax,ds:0x1122334455667788", M64,
	  B(0x48, 0xa1, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11),
	  INSN_MOV_LOAD, 10, 8, 8, GPR_RAX, 8, false, false, NOSEG, 0,
	  0x1122334455667788 },
	{ "addr32 mov ds:0x11223344,eax", M64,
	  B(0x67, 0xa3, 0x44, 0x33, 0x22, 0x11),
	  INSN_MOV_STORE, 6, 4, 4, GPR_RAX, 4, false, false, NOSEG, 0,
	  0x11223344 },

	/* ---- MOV imm ---- */
	{ "mov dword fs:[rax],0x11223344", M64,
	  B(0x64, 0xc7, 0x00, 0x44, 0x33, 0x22, 0x11),
	  INSN_MOV_STORE_IMM, 7, 4, 4, GPR_RAX, 8, false, false, INSN_SEG_FS,
	  0x11223344, 0 },
	{ "mov byte [rax+0x40],0x80", M64, B(0xc6, 0x40, 0x40, 0x80),
	  INSN_MOV_STORE_IMM, 4, 1, 1, GPR_RAX, 8, false, false, NOSEG,
	  0x80, 0x40 },
	{ "mov word [rbx],0xbeef", M64, B(0x66, 0xc7, 0x03, 0xef, 0xbe),
	  INSN_MOV_STORE_IMM, 5, 2, 2, GPR_RAX, 8, false, false, NOSEG,
	  0xbeef, 0 },
	{ "mov qword [rcx+0x100],-1", M64,
	  B(0x48, 0xc7, 0x81, 0x00, 0x01, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff),
	  INSN_MOV_STORE_IMM, 11, 8, 8, GPR_RAX, 8, false, false, NOSEG,
	  0xffffffffffffffffull, 0x100 },
	{ "mov qword [rcx],0x7fffffff", M64,
	  B(0x48, 0xc7, 0x01, 0xff, 0xff, 0xff, 0x7f),
	  INSN_MOV_STORE_IMM, 7, 8, 8, GPR_RAX, 8, false, false, NOSEG,
	  0x7fffffff, 0 },
	{ "data16 mov qword [rax],1 (REX.W beats 66)", M64,
	  B(0x66, 0x48, 0xc7, 0x00, 0x01, 0x00, 0x00, 0x00),
	  INSN_MOV_STORE_IMM, 8, 8, 8, GPR_RAX, 8, false, false, NOSEG, 1, 0 },

	/* ---- MOVZX / MOVSX / MOVSXD ---- */
	{ "movzx eax,byte [rsi]", M64, B(0x0f, 0xb6, 0x06),
	  INSN_MOVZX, 3, 1, 4, GPR_RAX, 8, false, false, NOSEG, 0, 0 },
	{ "movzx r10,word [rdx+8]", M64, B(0x4c, 0x0f, 0xb7, 0x52, 0x08),
	  INSN_MOVZX, 5, 2, 8, GPR_R10, 8, false, false, NOSEG, 0, 8 },
	{ "movsx ecx,byte [rdi]", M64, B(0x0f, 0xbe, 0x0f),
	  INSN_MOVSX, 3, 1, 4, GPR_RCX, 8, false, false, NOSEG, 0, 0 },
	{ "movsx rax,word [rbx]", M64, B(0x48, 0x0f, 0xbf, 0x03),
	  INSN_MOVSX, 4, 2, 8, GPR_RAX, 8, false, false, NOSEG, 0, 0 },
	{ "movsxd r8,dword [rax]", M64, B(0x4c, 0x63, 0x00),
	  INSN_MOVSX, 3, 4, 8, GPR_R8, 8, false, false, NOSEG, 0, 0 },
	{ "movzx ax,byte [rcx]", M64, B(0x66, 0x0f, 0xb6, 0x01),
	  INSN_MOVZX, 4, 1, 2, GPR_RAX, 8, false, false, NOSEG, 0, 0 },
	{ "movzx eax,byte [r12] (SIB, REX.B)", M64,
	  B(0x41, 0x0f, 0xb6, 0x04, 0x24),
	  INSN_MOVZX, 5, 1, 4, GPR_RAX, 8, false, false, NOSEG, 0, 0 },
	{ "movzx esp,byte [rax] (reg 4 is not AH for a 32-bit dest)", M64,
	  B(0x0f, 0xb6, 0x20),
	  INSN_MOVZX, 3, 1, 4, GPR_RSP, 8, false, false, NOSEG, 0, 0 },

	/* ---- string instructions ---- */
	{ "rep stosd", M64, B(0xf3, 0xab),
	  INSN_STOS, 2, 4, 4, GPR_RAX, 8, true, false, NOSEG, 0, 0 },
	{ "stosb", M64, B(0xaa),
	  INSN_STOS, 1, 1, 1, GPR_RAX, 8, false, false, NOSEG, 0, 0 },
	{ "rep stosq", M64, B(0xf3, 0x48, 0xab),
	  INSN_STOS, 3, 8, 8, GPR_RAX, 8, true, false, NOSEG, 0, 0 },
	{ "repnz stosd (F2 repeats STOS too)", M64, B(0xf2, 0xab),
	  INSN_STOS, 2, 4, 4, GPR_RAX, 8, true, false, NOSEG, 0, 0 },
	{ "movsb", M64, B(0xa4),
	  INSN_MOVS, 1, 1, 1, GPR_RAX, 8, false, false, NOSEG, 0, 0 },
	{ "rep movsq", M64, B(0xf3, 0x48, 0xa5),
	  INSN_MOVS, 3, 8, 8, GPR_RAX, 8, true, false, NOSEG, 0, 0 },
	{ "addr32 stosd", M64, B(0x67, 0xab),
	  INSN_STOS, 2, 4, 4, GPR_RAX, 4, false, false, NOSEG, 0, 0 },
	{ "xrelease mov [rax],ecx (F3 on MOV is not REP)", M64,
	  B(0xf3, 0x89, 0x08),
	  INSN_MOV_STORE, 3, 4, 4, GPR_RCX, 8, false, false, NOSEG, 0, 0 },

	/* ---- 32-bit protected mode ---- */
	{ "mov [eax],ecx", M32, B(0x89, 0x08),
	  INSN_MOV_STORE, 2, 4, 4, GPR_RCX, 4, false, false, NOSEG, 0, 0 },
	{ "mov [ebx+0x10],edx", M32, B(0x89, 0x53, 0x10),
	  INSN_MOV_STORE, 3, 4, 4, GPR_RDX, 4, false, false, NOSEG, 0, 0x10 },
	{ "mov [edi],bh", M32, B(0x88, 0x3f),
	  INSN_MOV_STORE, 2, 1, 1, GPR_BH, 4, false, false, NOSEG, 0, 0 },
	{ "mov eax,ds:0x12345678 (moffs)", M32,
	  B(0xa1, 0x78, 0x56, 0x34, 0x12),
	  INSN_MOV_LOAD, 5, 4, 4, GPR_RAX, 4, false, false, NOSEG, 0,
	  0x12345678 },
	{ "mov eax,ds:0x1000 (mod0 rm5 is absolute, not RIP)", M32,
	  B(0x8b, 0x05, 0x00, 0x10, 0x00, 0x00),
	  INSN_MOV_LOAD, 6, 4, 4, GPR_RAX, 4, false, false, NOSEG, 0, 0x1000 },
	{ "mov ecx,[esp+eax*8+0x7f]", M32, B(0x8b, 0x4c, 0xc4, 0x7f),
	  INSN_MOV_LOAD, 4, 4, 4, GPR_RCX, 4, false, false, NOSEG, 0, 0x7f },
	{ "mov ax,[esi]", M32, B(0x66, 0x8b, 0x06),
	  INSN_MOV_LOAD, 3, 2, 2, GPR_RAX, 4, false, false, NOSEG, 0, 0 },
	{ "mov dword [eax],0x11223344", M32,
	  B(0xc7, 0x00, 0x44, 0x33, 0x22, 0x11),
	  INSN_MOV_STORE_IMM, 6, 4, 4, GPR_RAX, 4, false, false, NOSEG,
	  0x11223344, 0 },
	{ "mov word [ebx],0xbeef", M32, B(0x66, 0xc7, 0x03, 0xef, 0xbe),
	  INSN_MOV_STORE_IMM, 5, 2, 2, GPR_RAX, 4, false, false, NOSEG,
	  0xbeef, 0 },
	{ "movsx ecx,word [edi+0x1000]", M32,
	  B(0x0f, 0xbf, 0x8f, 0x00, 0x10, 0x00, 0x00),
	  INSN_MOVSX, 7, 2, 4, GPR_RCX, 4, false, false, NOSEG, 0, 0x1000 },
	{ "rep stosd", M32, B(0xf3, 0xab),
	  INSN_STOS, 2, 4, 4, GPR_RAX, 4, true, false, NOSEG, 0, 0 },
	{ "stosw", M32, B(0x66, 0xab),
	  INSN_STOS, 2, 2, 2, GPR_RAX, 4, false, false, NOSEG, 0, 0 },
	{ "rep movsb", M32, B(0xf3, 0xa4),
	  INSN_MOVS, 2, 1, 1, GPR_RAX, 4, true, false, NOSEG, 0, 0 },
	{ "mov eax,[bx+si] (16-bit addressing)", M32, B(0x67, 0x8b, 0x00),
	  INSN_MOV_LOAD, 3, 4, 4, GPR_RAX, 2, false, false, NOSEG, 0, 0 },
	{ "mov eax,[bp+0x10]", M32, B(0x67, 0x8b, 0x46, 0x10),
	  INSN_MOV_LOAD, 4, 4, 4, GPR_RAX, 2, false, false, NOSEG, 0, 0x10 },
	{ "mov eax,ds:0x1234 (16-bit mod0 rm6 = disp16)", M32,
	  B(0x67, 0x8b, 0x06, 0x34, 0x12),
	  INSN_MOV_LOAD, 5, 4, 4, GPR_RAX, 2, false, false, NOSEG, 0, 0x1234 },
	{ "addr16 mov eax,ds:0x1122 (moffs16)", M32,
	  B(0x67, 0xa1, 0x22, 0x11),
	  INSN_MOV_LOAD, 4, 4, 4, GPR_RAX, 2, false, false, NOSEG, 0, 0x1122 },
	{ "mov dword [bx+di+0x1234],0x55", M32,
	  B(0x67, 0xc7, 0x81, 0x34, 0x12, 0x55, 0x00, 0x00, 0x00),
	  INSN_MOV_STORE_IMM, 9, 4, 4, GPR_RAX, 2, false, false, NOSEG,
	  0x55, 0x1234 },
	{ "dec eax; 40-4F are not REX outside 64-bit mode", M32,
	  B(0x48, 0x8b, 0x00), INSN_NONE, 0, 0, 0, 0, 0, false, false,
	  NOSEG, 0, 0 },	/* -HV_ENOTSUP, checked separately */

	/* ---- 16-bit mode ---- */
	{ "mov [bx],ax", M16, B(0x89, 0x07),
	  INSN_MOV_STORE, 2, 2, 2, GPR_RAX, 2, false, false, NOSEG, 0, 0 },
	{ "mov eax,[si+4]", M16, B(0x66, 0x8b, 0x44, 0x04),
	  INSN_MOV_LOAD, 4, 4, 4, GPR_RAX, 2, false, false, NOSEG, 0, 4 },
	{ "mov al,ds:0x1234", M16, B(0xa0, 0x34, 0x12),
	  INSN_MOV_LOAD, 3, 1, 1, GPR_RAX, 2, false, false, NOSEG, 0, 0x1234 },
	{ "mov [eax],ecx", M16, B(0x67, 0x66, 0x89, 0x08),
	  INSN_MOV_STORE, 4, 4, 4, GPR_RCX, 4, false, false, NOSEG, 0, 0 },
	{ "rep stosw", M16, B(0xf3, 0xab),
	  INSN_STOS, 2, 2, 2, GPR_RAX, 2, true, false, NOSEG, 0, 0 },
};

static void check_vec(const struct vec *v)
{
	struct mmio_insn in;
	int err;

	err = insn_decode(v->bytes, v->nbytes, v->mode, &in);
	if (v->kind == INSN_NONE) {
		if (err != -HV_ENOTSUP)
			fail_msg("%s: expected -HV_ENOTSUP, got %d", v->asm_text,
				 err);
		return;
	}
	if (err != 0)
		fail_msg("%s: decode failed %d", v->asm_text, err);
#define EQ(field, want)                                                       \
	do {                                                                   \
		if ((uint64_t)(in.field) != (uint64_t)(want))                  \
			fail_msg("%s: " #field " = 0x%llx, want 0x%llx",        \
				 v->asm_text, (unsigned long long)(in.field),   \
				 (unsigned long long)(want));                   \
	} while (0)
	EQ(kind, v->kind);
	EQ(len, v->len);
	EQ(size, v->size);
	EQ(reg_size, v->reg_size);
	EQ(addr_size, v->addr_size);
	EQ(rep, v->rep);
	EQ(rip_relative, v->rip);
	EQ(seg, v->seg);
	EQ(imm, v->imm);
	EQ(disp, v->disp);
	if (v->kind != INSN_MOVS && v->kind != INSN_MOV_STORE_IMM)
		EQ(reg, v->reg);
#undef EQ
	/* The full instruction was given: it must use all of it. */
	if (v->len != v->nbytes)
		fail_msg("%s: table length %u != bytes %zu", v->asm_text,
			 v->len, v->nbytes);
}

static void test_real_encodings(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		check_vec(&good[i]);
}

/* Every proper prefix of a valid encoding is -HV_ENODATA, and trailing
 * bytes after the instruction are not consumed. */
static void test_truncation_and_trailing(void **state)
{
	uint8_t buf[32];
	struct mmio_insn in;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const struct vec *v = &good[i];

		if (v->kind == INSN_NONE)
			continue;
		for (n = 0; n < v->nbytes; n++) {
			int err = insn_decode(v->bytes, n, v->mode, &in);

			if (err != -HV_ENODATA)
				fail_msg("%s: %zu of %zu bytes gave %d",
					 v->asm_text, n, v->nbytes, err);
			assert_int_equal(in.kind, INSN_NONE);
		}
		memset(buf, 0x90, sizeof(buf));
		memcpy(buf, v->bytes, v->nbytes);
		assert_int_equal(insn_decode(buf, INSN_MAX_LEN, v->mode, &in),
				 0);
		assert_int_equal(in.len, v->len);
	}
}

struct bad {
	const char *what;
	enum insn_mode mode;
	uint8_t bytes[16];
	size_t nbytes;
	int err;
};

static const struct bad bad[] = {
	{ "add [rax],eax", M64, B(0x01, 0x00), -HV_ENOTSUP },
	{ "mov eax,ecx (register form)", M64, B(0x8b, 0xc1), -HV_EINVAL },
	{ "mov [rax],ecx mod=11", M64, B(0x89, 0xc8), -HV_EINVAL },
	{ "movzx eax,cl", M64, B(0x0f, 0xb6, 0xc1), -HV_EINVAL },
	{ "lock add [rax],1", M64, B(0xf0, 0x83, 0x00, 0x01), -HV_ENOTSUP },
	{ "lock mov [rax],ecx (#UD on hardware)", M64,
	  B(0xf0, 0x89, 0x08), -HV_EINVAL },
	{ "mov [rax] /1,imm (C7 /1 undefined)", M64,
	  B(0xc7, 0x08, 0x00, 0x00, 0x00, 0x00), -HV_ENOTSUP },
	{ "xbegin (C7 F8)", M64, B(0xc7, 0xf8, 0, 0, 0, 0), -HV_EINVAL },
	{ "arpl in 32-bit mode", M32, B(0x63, 0x00), -HV_ENOTSUP },
	{ "0F 0B ud2", M64, B(0x0f, 0x0b), -HV_ENOTSUP },
	{ "0F 38 xx three-byte", M64, B(0x0f, 0x38, 0x00, 0x00),
	  -HV_ENOTSUP },
	{ "vaddps xmm0,xmm0,[rax] (VEX, not a move)", M64,
	  B(0xc5, 0xf8, 0x58, 0x00), -HV_ENOTSUP },
	{ "only prefixes", M64, B(0x66, 0x67, 0xf3, 0x48), -HV_ENODATA },
	{ "empty", M64, B(0x00), -HV_ENODATA },	/* nbytes patched below */
	{ "15 prefixes then opcode (16 bytes)", M64,
	  B(0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	    0x66, 0x66, 0x66, 0x66, 0x66, 0x8b), -HV_EINVAL },
	{ "7 prefixes + movabs moffs64: 16 bytes", M64,
	  B(0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0xa1, 0x88, 0x77,
	    0x66, 0x55, 0x44, 0x33, 0x22, 0x11), -HV_EINVAL },
	{ "6 prefixes + movabs moffs64: exactly 15 is fine", M64,
	  B(0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0xa1, 0x88, 0x77,
	    0x66, 0x55, 0x44, 0x33, 0x22, 0x11), 0 },
};

static void test_bad_encodings(void **state)
{
	struct mmio_insn in;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t n = strcmp(bad[i].what, "empty") ? bad[i].nbytes : 0;
		int err = insn_decode(bad[i].bytes, n, bad[i].mode, &in);

		if (err != bad[i].err)
			fail_msg("%s: got %d want %d", bad[i].what, err,
				 bad[i].err);
		if (bad[i].err == 0) {
			assert_int_equal(in.len, 15);
			continue;
		}
		assert_int_equal(in.kind, INSN_NONE);
		assert_int_equal(in.len, 0);
	}
}

/* The 15-byte limit: FS x n + REX.W C7 84 24 disp32 imm32 is 11 + n bytes. */
static void test_max_length(void **state)
{
	/* n = 4: 16 bytes, only 15 of them given: the limit wins over
	 * truncation, since more bytes would not make it valid. */
	static const uint8_t sixteen[] = {
		0x64, 0x64, 0x64, 0x64, 0x48, 0xc7, 0x84, 0x24,
		0x00, 0x01, 0x00, 0x00, 0x78, 0x56, 0x34,
	};
	static const uint8_t seventeen[] = {	/* n = 5 */
		0x64, 0x64, 0x64, 0x64, 0x64, 0x48, 0xc7, 0x84, 0x24,
		0x00, 0x01, 0x00, 0x00, 0x78, 0x56, 0x34, 0x12,
	};
	struct mmio_insn in;

	(void)state;
	assert_int_equal(insn_decode(sixteen, sizeof(sixteen), M64, &in),
			 -HV_EINVAL);
	assert_int_equal(insn_decode(seventeen, sizeof(seventeen), M64, &in),
			 -HV_EINVAL);
	/* n = 3: exactly 15 */
	assert_int_equal(insn_decode(seventeen + 2, 15, M64, &in), 0);
	assert_int_equal(in.len, 15);
	assert_int_equal(in.seg, INSN_SEG_FS);
	assert_int_equal(in.imm, 0x12345678);
	assert_int_equal(in.disp, 0x100);
}

/* Every two-byte start, in every mode, alone and followed by junk: the
 * result is an error or a decode that stays within what it was given. */
static void test_all_two_byte_starts(void **state)
{
	static const int ok_errs[] = { -HV_ENODATA, -HV_EINVAL, -HV_ENOTSUP };
	uint8_t buf[INSN_MAX_LEN];
	struct mmio_insn in;
	unsigned b0, b1, m, decoded = 0;
	size_t n, i;

	(void)state;
	for (m = M16; m <= M64; m++)
		for (b0 = 0; b0 < 256; b0++)
			for (b1 = 0; b1 < 256; b1++)
				for (n = 2; n <= INSN_MAX_LEN; n += 13) {
					int err;

					memset(buf, 0x25, sizeof(buf));
					buf[0] = (uint8_t)b0;
					buf[1] = (uint8_t)b1;
					err = insn_decode(buf, n, m, &in);
					if (err == 0) {
						assert_in_range(in.len, 1, n);
						decoded++;
						continue;
					}
					for (i = 0; i < 3; i++)
						if (err == ok_errs[i])
							break;
					assert_true(i < 3);
				}
	assert_true(decoded > 1000);
}

static void test_invalid_args(void **state)
{
	static const uint8_t b[] = { 0x89, 0x08 };
	struct mmio_insn in;

	(void)state;
	assert_int_equal(insn_decode(NULL, 2, M64, &in), -HV_EINVAL);
	assert_int_equal(insn_decode(b, 2, (enum insn_mode)7, &in),
			 -HV_EINVAL);
}

/* --- register access helpers ------------------------------------------- */

static void test_gpr_write_semantics(void **state)
{
	struct guest_regs r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.rax = 0x1122334455667788ull;
	gpr_write(&r, GPR_RAX, 4, 0xaabbccdd);	/* zero-extends */
	assert_int_equal(r.rax, 0xaabbccddull);
	r.rax = 0x1122334455667788ull;
	gpr_write(&r, GPR_RAX, 2, 0xffffeeee);	/* merges 15:0 */
	assert_int_equal(r.rax, 0x112233445566eeeeull);
	gpr_write(&r, GPR_RAX, 1, 0x1ff);	/* merges 7:0 */
	assert_int_equal(r.rax, 0x112233445566eeffull);
	gpr_write(&r, GPR_AH, 1, 0x42);		/* merges 15:8 */
	assert_int_equal(r.rax, 0x11223344556642ffull);
	gpr_write(&r, GPR_RAX, 8, 0xdeadbeefcafef00dull);
	assert_int_equal(r.rax, 0xdeadbeefcafef00dull);

	r.rbx = 0x1234;
	assert_int_equal(gpr_read(&r, GPR_BH, 1), 0x12);
	assert_int_equal(gpr_read(&r, GPR_RBX, 1), 0x34);
	r.r15 = 0xffffffff00000001ull;
	assert_int_equal(gpr_read(&r, GPR_R15, 4), 1);
	assert_int_equal(gpr_read(&r, GPR_R15, 8), 0xffffffff00000001ull);
	/* out of range: harmless */
	assert_int_equal(gpr_read(&r, 99, 8), 0);
	gpr_write(&r, 99, 8, 1);
}

static void decode_ok(const uint8_t *b, size_t n, enum insn_mode m,
		      struct mmio_insn *in)
{
	assert_int_equal(insn_decode(b, n, m, in), 0);
}

static void test_store_values(void **state)
{
	static const uint8_t mov_ah[] = { 0x88, 0x27 };	  /* mov [rdi],ah */
	static const uint8_t mov_r9[] = { 0x4c, 0x89, 0x4b, 0x10 };
	static const uint8_t imm_neg[] = { 0x48, 0xc7, 0x01, 0xfe, 0xff, 0xff,
					   0xff };	  /* mov qword [rcx],-2 */
	static const uint8_t stosw[] = { 0x66, 0xab };
	static const uint8_t load[] = { 0x8b, 0x00 };
	struct guest_regs r = { .gpr = { 0 } };
	struct mmio_insn in;

	(void)state;
	r.rax = 0x8877665544332211ull;
	r.r9 = 0x0102030405060708ull;
	decode_ok(mov_ah, sizeof(mov_ah), M64, &in);
	assert_int_equal(mmio_insn_store_value(&in, &r), 0x22);
	assert_int_equal(mmio_insn_access(&in), MMIO_ACCESS_WRITE);
	decode_ok(mov_r9, sizeof(mov_r9), M64, &in);
	assert_int_equal(mmio_insn_store_value(&in, &r), 0x0102030405060708ull);
	decode_ok(imm_neg, sizeof(imm_neg), M64, &in);
	assert_int_equal(mmio_insn_store_value(&in, &r), 0xfffffffffffffffeull);
	decode_ok(stosw, sizeof(stosw), M64, &in);
	assert_int_equal(mmio_insn_store_value(&in, &r), 0x2211);
	decode_ok(load, sizeof(load), M64, &in);
	assert_int_equal(mmio_insn_store_value(&in, &r), 0);
	assert_int_equal(mmio_insn_access(&in), MMIO_ACCESS_READ);
}

static void test_complete_load(void **state)
{
	static const uint8_t mov_eax[] = { 0x8b, 0x00 };
	static const uint8_t mov_ax[] = { 0x66, 0x8b, 0x00 };
	static const uint8_t mov_ch[] = { 0x8a, 0x28 };	  /* mov ch,[rax] */
	static const uint8_t movzx_r10w[] = { 0x4c, 0x0f, 0xb7, 0x52, 0x08 };
	static const uint8_t movsx_rax_w[] = { 0x48, 0x0f, 0xbf, 0x03 };
	static const uint8_t movsx_ecx_b[] = { 0x0f, 0xbe, 0x0f };
	static const uint8_t movsxd_r8[] = { 0x4c, 0x63, 0x00 };
	static const uint8_t movzx_ax_b[] = { 0x66, 0x0f, 0xb6, 0x01 };
	static const uint8_t stos[] = { 0xab };
	struct guest_regs r;
	struct mmio_insn in;

	(void)state;
	memset(&r, 0xee, sizeof(r));
	decode_ok(mov_eax, sizeof(mov_eax), M64, &in);
	mmio_insn_complete_load(&in, &r, 0xffffffff12345678ull);
	assert_int_equal(r.rax, 0x12345678ull);

	memset(&r, 0xee, sizeof(r));
	decode_ok(mov_ax, sizeof(mov_ax), M64, &in);
	mmio_insn_complete_load(&in, &r, 0x12345678);
	assert_int_equal(r.rax, 0xeeeeeeeeeeee5678ull);

	memset(&r, 0xee, sizeof(r));
	decode_ok(mov_ch, sizeof(mov_ch), M64, &in);
	assert_int_equal(in.reg, GPR_CH);
	mmio_insn_complete_load(&in, &r, 0x1234);
	assert_int_equal(r.rcx, 0xeeeeeeeeeeee34eeull);

	memset(&r, 0xee, sizeof(r));
	decode_ok(movzx_r10w, sizeof(movzx_r10w), M64, &in);
	mmio_insn_complete_load(&in, &r, 0xffff8001);
	assert_int_equal(r.r10, 0x8001ull);

	decode_ok(movsx_rax_w, sizeof(movsx_rax_w), M64, &in);
	mmio_insn_complete_load(&in, &r, 0x8001);
	assert_int_equal(r.rax, 0xffffffffffff8001ull);

	decode_ok(movsx_ecx_b, sizeof(movsx_ecx_b), M64, &in);
	mmio_insn_complete_load(&in, &r, 0x80);
	assert_int_equal(r.rcx, 0x00000000ffffff80ull);	/* 32-bit write */

	decode_ok(movsxd_r8, sizeof(movsxd_r8), M64, &in);
	mmio_insn_complete_load(&in, &r, 0x80000000);
	assert_int_equal(r.r8, 0xffffffff80000000ull);

	memset(&r, 0xee, sizeof(r));
	decode_ok(movzx_ax_b, sizeof(movzx_ax_b), M64, &in);
	mmio_insn_complete_load(&in, &r, 0xff);
	assert_int_equal(r.rax, 0xeeeeeeeeeeee00ffull);	/* 16-bit merge */

	/* not a load: untouched */
	memset(&r, 0xee, sizeof(r));
	decode_ok(stos, sizeof(stos), M64, &in);
	mmio_insn_complete_load(&in, &r, 0);
	assert_int_equal(r.rax, 0xeeeeeeeeeeeeeeeeull);
}

static void test_string_step(void **state)
{
	static const uint8_t rep_stosd[] = { 0xf3, 0xab };
	static const uint8_t movsq[] = { 0x48, 0xa5 };
	static const uint8_t addr32_rep_stosb[] = { 0x67, 0xf3, 0xaa };
	static const uint8_t rep_stosw16[] = { 0xf3, 0xab };
	static const uint8_t load[] = { 0x8b, 0x00 };
	struct guest_regs r = { .gpr = { 0 } };
	struct mmio_insn in;

	(void)state;
	decode_ok(rep_stosd, sizeof(rep_stosd), M64, &in);
	r.rdi = 0x1000;
	r.rcx = 2;
	assert_false(mmio_insn_string_step(&in, &r, false));
	assert_int_equal(r.rdi, 0x1004);
	assert_int_equal(r.rcx, 1);
	assert_true(mmio_insn_string_step(&in, &r, false));
	assert_int_equal(r.rdi, 0x1008);
	assert_int_equal(r.rcx, 0);

	decode_ok(movsq, sizeof(movsq), M64, &in);
	r.rsi = 0x2000;
	r.rdi = 0x3000;
	r.rcx = 5;
	assert_true(mmio_insn_string_step(&in, &r, true));	/* DF=1 */
	assert_int_equal(r.rsi, 0x1ff8);
	assert_int_equal(r.rdi, 0x2ff8);
	assert_int_equal(r.rcx, 5);				/* no REP */

	/* 32-bit address size in long mode: EDI wraps, upper half cleared */
	decode_ok(addr32_rep_stosb, sizeof(addr32_rep_stosb), M64, &in);
	r.rdi = 0xabcd0000ffffffffull;
	r.rcx = 0x1234567800000001ull;
	assert_true(mmio_insn_string_step(&in, &r, false));
	assert_int_equal(r.rdi, 0);
	assert_int_equal(r.rcx, 0);

	/* 16-bit: DI and CX only */
	decode_ok(rep_stosw16, sizeof(rep_stosw16), M16, &in);
	r.rdi = 0x5555fffe;
	r.rcx = 0x77770003;
	assert_false(mmio_insn_string_step(&in, &r, false));
	assert_int_equal(r.rdi, 0x55550000);
	assert_int_equal(r.rcx, 0x77770002);

	decode_ok(load, sizeof(load), M64, &in);
	r.rdi = 7;
	assert_true(mmio_insn_string_step(&in, &r, false));
	assert_int_equal(r.rdi, 7);
}

static void test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(mmio_insn_kind_name(INSN_MOV_LOAD), "MOV_LOAD");
	assert_string_equal(mmio_insn_kind_name(INSN_STOS), "STOS");
	assert_string_equal(mmio_insn_kind_name(INSN_KIND_COUNT), "UNKNOWN");
	assert_string_equal(mmio_insn_kind_name((enum mmio_insn_kind)-1),
			    "UNKNOWN");
}

/* The effective address of the access (issue 19: a split access is
 * told by comparing it with the linear address the CPU reports). */
struct ea_vec {
	uint8_t bytes[16];
	size_t n;
	enum insn_mode mode;
	bool known;
	uint64_t want;
};

static void test_effective_address(void **state)
{
	static const struct ea_vec v[] = {
		/* mov rax, [rdi+8] */
		{ { 0x48, 0x8b, 0x47, 0x08 }, 4, M64, true, 0x2008 },
		/* mov eax, [rbx+rcx*4] */
		{ { 0x8b, 0x04, 0x8b }, 3, M64, true, 0x4000 + 3 * 4 },
		/* mov rax, [rip+0x10]: next RIP 0x9007 */
		{ { 0x48, 0x8b, 0x05, 0x10, 0, 0, 0 }, 7, M64, true,
		  0x9007 + 0x10 },
		/* mov eax, [rsp+r12] (REX.X makes index 100 mean r12) */
		{ { 0x42, 0x8b, 0x04, 0x24 }, 4, M64, true, 0x8000 + 5 },
		/* mov eax, [disp32] through SIB, no base and no index */
		{ { 0x8b, 0x04, 0x25, 0x00, 0x10, 0, 0 }, 7, M64, true, 0x1000 },
		/* mov eax, [edi-4] with 67: 32-bit address wraps */
		{ { 0x67, 0x8b, 0x47, 0xfc }, 4, M64, true, 0xfffffffcull },
		/* mov eax, [moffs64] */
		{ { 0xa1, 0x08, 0x00, 0x00, 0xfe, 0, 0, 0, 0 }, 9, M64, true,
		  0xfe000008ull },
		/* mov [r13+0x10], ecx (REX.B base) */
		{ { 0x41, 0x89, 0x4d, 0x10 }, 4, M64, true, 0x7000 + 0x10 },
		/* stosd: [rdi] */
		{ { 0xab }, 1, M64, true, 0x2000 },
		/* movsb: two addresses, none to give */
		{ { 0xa4 }, 1, M64, false, 0 },
		/* 16-bit addressing: not recorded */
		{ { 0x8b, 0x07 }, 2, INSN_MODE_16, false, 0 },
	};
	struct guest_regs r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.rdi = 0x2000;
	r.rbx = 0x4000;
	r.rcx = 3;
	r.rsp = 0x8000;
	r.r12 = 5;
	r.r13 = 0x7000;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct mmio_insn in;
		uint64_t ea = 0;

		r.rdi = i == 5 ? 0 : 0x2000;	/* [edi-4] wraps */
		assert_int_equal(insn_decode(v[i].bytes, v[i].n, v[i].mode,
					     &in), 0);
		assert_int_equal(mmio_insn_ea(&in, &r, 0x9000 + in.len, &ea),
				 v[i].known);
		if (v[i].known)
			assert_int_equal(ea, v[i].want);
	}
}


/* ---- SSE and VEX moves (insn_vec.c) ------------------------------------ */

struct vvec {
	const char *asm_text;
	enum insn_mode mode;
	uint8_t bytes[15];
	size_t nbytes;
	enum mmio_insn_kind kind;
	uint8_t len, size, reg_size, reg, align;
	bool vex;
	uint16_t opcode;
	int64_t disp;
};

#define LD INSN_VEC_LOAD
#define ST INSN_VEC_STORE

/* Bytes from GNU as 2.40 (objdump -d -M intel), but for the hand-made
 * prefix orders, checked with objdump -D -b binary -m i386:x86-64. */
static const struct vvec vgood[] = {
	/* the instruction of issue 28: glibc's memcpy into a GTT mmap */
	{ "movups [rax+0x10],xmm1", M64, B(0x0f, 0x11, 0x48, 0x10),
	  ST, 4, 16, 16, 1, 0, false, 0x0f11, 0x10 },
	{ "movups [rax],xmm1", M64, B(0x0f, 0x11, 0x08),
	  ST, 3, 16, 16, 1, 0, false, 0x0f11, 0 },
	{ "movups xmm9,[rbx+0x10] (REX.R)", M64,
	  B(0x44, 0x0f, 0x10, 0x4b, 0x10),
	  LD, 5, 16, 16, 9, 0, false, 0x0f10, 0x10 },
	{ "movupd xmm2,[rcx] (66)", M64, B(0x66, 0x0f, 0x10, 0x11),
	  LD, 4, 16, 16, 2, 0, false, 0x0f10, 0 },
	{ "movaps [rdx],xmm15", M64, B(0x44, 0x0f, 0x29, 0x3a),
	  ST, 4, 16, 16, 15, 16, false, 0x0f29, 0 },
	{ "movapd xmm3,[rsi+rdi*4]", M64, B(0x66, 0x0f, 0x28, 0x1c, 0xbe),
	  LD, 5, 16, 16, 3, 16, false, 0x0f28, 0 },
	{ "movntps [rax],xmm4", M64, B(0x0f, 0x2b, 0x20),
	  ST, 3, 16, 16, 4, 16, false, 0x0f2b, 0 },
	{ "movntpd [rax],xmm5", M64, B(0x66, 0x0f, 0x2b, 0x28),
	  ST, 4, 16, 16, 5, 16, false, 0x0f2b, 0 },
	{ "movdqa xmm6,[rip+0x100]", M64,
	  B(0x66, 0x0f, 0x6f, 0x35, 0x00, 0x01, 0x00, 0x00),
	  LD, 8, 16, 16, 6, 16, false, 0x0f6f, 0x100 },
	{ "movdqa [r8],xmm7", M64, B(0x66, 0x41, 0x0f, 0x7f, 0x38),
	  ST, 5, 16, 16, 7, 16, false, 0x0f7f, 0 },
	{ "movdqu xmm8,[r9] (F3)", M64, B(0xf3, 0x45, 0x0f, 0x6f, 0x01),
	  LD, 5, 16, 16, 8, 0, false, 0x0f6f, 0 },
	{ "movdqu [r10+8],xmm10", M64, B(0xf3, 0x45, 0x0f, 0x7f, 0x52, 0x08),
	  ST, 6, 16, 16, 10, 0, false, 0x0f7f, 8 },
	{ "movntdq [r11],xmm11", M64, B(0x66, 0x45, 0x0f, 0xe7, 0x1b),
	  ST, 5, 16, 16, 11, 16, false, 0x0fe7, 0 },
	{ "movntdqa xmm12,[r12] (0F 38)", M64,
	  B(0x66, 0x45, 0x0f, 0x38, 0x2a, 0x24, 0x24),
	  LD, 7, 16, 16, 12, 16, false, 0x382a, 0 },
	{ "lddqu xmm13,[r13+0] (F2)", M64,
	  B(0xf2, 0x45, 0x0f, 0xf0, 0x6d, 0x00),
	  LD, 6, 16, 16, 13, 0, false, 0x0ff0, 0 },
	{ "movss xmm1,[rax]: clears XMM bits 127:32", M64,
	  B(0xf3, 0x0f, 0x10, 0x08), LD, 4, 4, 16, 1, 0, false, 0x0f10, 0 },
	{ "movss [rax],xmm14", M64, B(0xf3, 0x44, 0x0f, 0x11, 0x30),
	  ST, 5, 4, 4, 14, 0, false, 0x0f11, 0 },
	{ "movsd xmm2,[rax]", M64, B(0xf2, 0x0f, 0x10, 0x10),
	  LD, 4, 8, 16, 2, 0, false, 0x0f10, 0 },
	{ "movsd [rax],xmm2", M64, B(0xf2, 0x0f, 0x11, 0x10),
	  ST, 4, 8, 8, 2, 0, false, 0x0f11, 0 },
	{ "movd xmm3,[rax]", M64, B(0x66, 0x0f, 0x6e, 0x18),
	  LD, 4, 4, 16, 3, 0, false, 0x0f6e, 0 },
	{ "movq xmm3,[rax] (66 REX.W 6E)", M64,
	  B(0x66, 0x48, 0x0f, 0x6e, 0x18),
	  LD, 5, 8, 16, 3, 0, false, 0x0f6e, 0 },
	{ "movq xmm3,[rax] (F3 7E)", M64, B(0xf3, 0x0f, 0x7e, 0x18),
	  LD, 4, 8, 16, 3, 0, false, 0x0f7e, 0 },
	{ "movd [rax],xmm9", M64, B(0x66, 0x44, 0x0f, 0x7e, 0x08),
	  ST, 5, 4, 4, 9, 0, false, 0x0f7e, 0 },
	{ "movq [rax],xmm1 (66 REX.W 7E)", M64,
	  B(0x66, 0x48, 0x0f, 0x7e, 0x08),
	  ST, 5, 8, 8, 1, 0, false, 0x0f7e, 0 },
	{ "movq [rax],xmm9 (66 D6)", M64, B(0x66, 0x44, 0x0f, 0xd6, 0x08),
	  ST, 5, 8, 8, 9, 0, false, 0x0fd6, 0 },
	{ "movnti [rax],ecx", M64, B(0x0f, 0xc3, 0x08),
	  INSN_MOV_STORE, 3, 4, 4, GPR_RCX, 0, false, 0x0fc3, 0 },
	{ "movnti [rax],r10", M64, B(0x4c, 0x0f, 0xc3, 0x10),
	  INSN_MOV_STORE, 4, 8, 8, GPR_R10, 0, false, 0x0fc3, 0 },
	{ "fs movups xmm1,[rax]", M64, B(0x64, 0x0f, 0x10, 0x08),
	  LD, 4, 16, 16, 1, 0, false, 0x0f10, 0 },
	/* mandatory prefixes: F2/F3 over 66, the later of F2/F3 wins */
	{ "66 F3 0F 6F: movdqu", M64, B(0x66, 0xf3, 0x0f, 0x6f, 0x08),
	  LD, 5, 16, 16, 1, 0, false, 0x0f6f, 0 },
	{ "F3 F2 0F 10: movsd", M64, B(0xf3, 0xf2, 0x0f, 0x10, 0x08),
	  LD, 5, 8, 16, 1, 0, false, 0x0f10, 0 },
	{ "F2 F3 0F 10: movss", M64, B(0xf2, 0xf3, 0x0f, 0x10, 0x08),
	  LD, 5, 4, 16, 1, 0, false, 0x0f10, 0 },
	/* VEX: loads clear the YMM above what they load */
	{ "vmovups ymm1,[rax] (VEX.256)", M64, B(0xc5, 0xfc, 0x10, 0x08),
	  LD, 4, 32, 32, 1, 0, true, 0x0f10, 0 },
	{ "vmovups [rax],xmm9 (VEX.128, R)", M64, B(0xc5, 0x78, 0x11, 0x08),
	  ST, 4, 16, 16, 9, 0, true, 0x0f11, 0 },
	{ "vmovdqu ymm12,[rbx]", M64, B(0xc5, 0x7e, 0x6f, 0x23),
	  LD, 4, 32, 32, 12, 0, true, 0x0f6f, 0 },
	{ "vmovdqu [rbx],ymm1", M64, B(0xc5, 0xfe, 0x7f, 0x0b),
	  ST, 4, 32, 32, 1, 0, true, 0x0f7f, 0 },
	{ "vmovdqa ymm2,[rcx]: 32-byte alignment", M64,
	  B(0xc5, 0xfd, 0x6f, 0x11), LD, 4, 32, 32, 2, 32, true, 0x0f6f, 0 },
	{ "vmovaps [rdx],ymm3", M64, B(0xc5, 0xfc, 0x29, 0x1a),
	  ST, 4, 32, 32, 3, 32, true, 0x0f29, 0 },
	{ "vmovntdq [rax],ymm4", M64, B(0xc5, 0xfd, 0xe7, 0x20),
	  ST, 4, 32, 32, 4, 32, true, 0x0fe7, 0 },
	{ "vmovntdqa ymm5,[rax] (C4, map 0F38)", M64,
	  B(0xc4, 0xe2, 0x7d, 0x2a, 0x28),
	  LD, 5, 32, 32, 5, 32, true, 0x382a, 0 },
	{ "vmovdqu ymm1,[r8] (C4, B)", M64, B(0xc4, 0xc1, 0x7e, 0x6f, 0x08),
	  LD, 5, 32, 32, 1, 0, true, 0x0f6f, 0 },
	{ "vmovdqu ymm9,[r8+r9*2+0x40] (C4, R X B)", M64,
	  B(0xc4, 0x01, 0x7e, 0x6f, 0x4c, 0x48, 0x40),
	  LD, 7, 32, 32, 9, 0, true, 0x0f6f, 0x40 },
	{ "vmovss xmm6,[rax]: clears bits 255:32", M64,
	  B(0xc5, 0xfa, 0x10, 0x30), LD, 4, 4, 32, 6, 0, true, 0x0f10, 0 },
	{ "vmovss xmm6,[rax] with VEX.L=1 (LIG)", M64,
	  B(0xc5, 0xfe, 0x10, 0x30), LD, 4, 4, 32, 6, 0, true, 0x0f10, 0 },
	{ "vmovsd [rax],xmm7", M64, B(0xc5, 0xfb, 0x11, 0x38),
	  ST, 4, 8, 8, 7, 0, true, 0x0f11, 0 },
	{ "vmovd xmm8,[rax]", M64, B(0xc5, 0x79, 0x6e, 0x00),
	  LD, 4, 4, 32, 8, 0, true, 0x0f6e, 0 },
	{ "vmovq xmm0,[rax] (C4 W1 6E)", M64, B(0xc4, 0xe1, 0xf9, 0x6e, 0x00),
	  LD, 5, 8, 32, 0, 0, true, 0x0f6e, 0 },
	{ "vmovq xmm8,[rax] (F3 7E)", M64, B(0xc5, 0x7a, 0x7e, 0x00),
	  LD, 4, 8, 32, 8, 0, true, 0x0f7e, 0 },
	{ "vmovq [rax],xmm1 (D6)", M64, B(0xc5, 0xf9, 0xd6, 0x08),
	  ST, 4, 8, 8, 1, 0, true, 0x0fd6, 0 },
	{ "vlddqu ymm1,[rax]", M64, B(0xc5, 0xff, 0xf0, 0x08),
	  LD, 4, 32, 32, 1, 0, true, 0x0ff0, 0 },
	/* 32-bit mode: no REX; C4/C5 are VEX only before a mod=11 byte */
	{ "movups [eax],xmm1 (32)", M32, B(0x0f, 0x11, 0x08),
	  ST, 3, 16, 16, 1, 0, false, 0x0f11, 0 },
	{ "movdqa xmm7,[ebx+4] (32)", M32, B(0x66, 0x0f, 0x6f, 0x7b, 0x04),
	  LD, 5, 16, 16, 7, 16, false, 0x0f6f, 4 },
	{ "vmovups ymm1,[eax] (32)", M32, B(0xc5, 0xfc, 0x10, 0x08),
	  LD, 4, 32, 32, 1, 0, true, 0x0f10, 0 },
	{ "vmovdqu [ecx],ymm2 (32)", M32, B(0xc5, 0xfe, 0x7f, 0x11),
	  ST, 4, 32, 32, 2, 0, true, 0x0f7f, 0 },
	{ "vmovq xmm0,[eax] (32: VEX.W1 is vmovd)", M32,
	  B(0xc4, 0xe1, 0xf9, 0x6e, 0x00),
	  LD, 5, 4, 32, 0, 0, true, 0x0f6e, 0 },
	{ "movups [bx+si],xmm1 (16)", M16, B(0x0f, 0x11, 0x08),
	  ST, 3, 16, 16, 1, 0, false, 0x0f11, 0 },
	/* one half of the XMM: 8 bytes, the rest merged (legacy loads
	 * define the whole XMM, VEX ones the whole YMM) */
	{ "movlps xmm1,[rax]", M64, B(0x0f, 0x12, 0x08),
	  LD, 3, 8, 16, 1, 0, false, 0x0f12, 0 },
	{ "movlps [rax],xmm1", M64, B(0x0f, 0x13, 0x08),
	  ST, 3, 8, 8, 1, 0, false, 0x0f13, 0 },
	{ "movlpd xmm2,[rbx+8]", M64, B(0x66, 0x0f, 0x12, 0x53, 0x08),
	  LD, 5, 8, 16, 2, 0, false, 0x0f12, 8 },
	{ "movlpd [rbx+8],xmm2", M64, B(0x66, 0x0f, 0x13, 0x53, 0x08),
	  ST, 5, 8, 8, 2, 0, false, 0x0f13, 8 },
	{ "movhps xmm9,[rcx]", M64, B(0x44, 0x0f, 0x16, 0x09),
	  LD, 4, 8, 16, 9, 0, false, 0x0f16, 0 },
	{ "movhps [rcx],xmm9", M64, B(0x44, 0x0f, 0x17, 0x09),
	  ST, 4, 8, 8, 9, 0, false, 0x0f17, 0 },
	{ "movhpd xmm3,[rdx]", M64, B(0x66, 0x0f, 0x16, 0x1a),
	  LD, 4, 8, 16, 3, 0, false, 0x0f16, 0 },
	{ "movhpd [rdx],xmm3", M64, B(0x66, 0x0f, 0x17, 0x1a),
	  ST, 4, 8, 8, 3, 0, false, 0x0f17, 0 },
	{ "vmovlps xmm1,xmm2,[rax] (vvvv a source)", M64,
	  B(0xc5, 0xe8, 0x12, 0x08), LD, 4, 8, 32, 1, 0, true, 0x0f12, 0 },
	{ "vmovlps [rax],xmm1", M64, B(0xc5, 0xf8, 0x13, 0x08),
	  ST, 4, 8, 8, 1, 0, true, 0x0f13, 0 },
	{ "vmovhps xmm4,xmm5,[rax]", M64, B(0xc5, 0xd0, 0x16, 0x20),
	  LD, 4, 8, 32, 4, 0, true, 0x0f16, 0 },
	{ "vmovhps [rax],xmm4", M64, B(0xc5, 0xf8, 0x17, 0x20),
	  ST, 4, 8, 8, 4, 0, true, 0x0f17, 0 },
	{ "vmovlpd xmm10,xmm11,[rax]", M64, B(0xc5, 0x21, 0x12, 0x10),
	  LD, 4, 8, 32, 10, 0, true, 0x0f12, 0 },
	{ "vmovhpd [rax],xmm12", M64, B(0xc5, 0x79, 0x17, 0x20),
	  ST, 4, 8, 8, 12, 0, true, 0x0f17, 0 },
};

#define VEQ(field, want)                                                      \
	do {                                                                   \
		if ((uint64_t)(in.field) != (uint64_t)(want))                  \
			fail_msg("%s: " #field " = 0x%llx, want 0x%llx",        \
				 v->asm_text, (unsigned long long)(in.field),   \
				 (unsigned long long)(want));                   \
	} while (0)

static void test_vec_encodings(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(vgood) / sizeof(vgood[0]); i++) {
		const struct vvec *v = &vgood[i];
		struct mmio_insn in;
		int err = insn_decode(v->bytes, v->nbytes, v->mode, &in);

		if (err != 0)
			fail_msg("%s: decode failed %d", v->asm_text, err);
		VEQ(kind, v->kind);
		VEQ(len, v->len);
		VEQ(size, v->size);
		VEQ(reg_size, v->reg_size);
		VEQ(reg, v->reg);
		VEQ(align, v->align);
		VEQ(vex, v->vex);
		VEQ(opcode, v->opcode);
		VEQ(disp, v->disp);
		if (mmio_insn_access(&in) != (v->kind == LD ? MMIO_ACCESS_READ
							     : MMIO_ACCESS_WRITE))
			fail_msg("%s: access direction", v->asm_text);
		/* every byte is needed */
		if (insn_decode(v->bytes, v->nbytes - 1, v->mode, &in) !=
		    -HV_ENODATA)
			fail_msg("%s: truncated decode", v->asm_text);
	}
}

static const struct bad vbad[] = {
	{ "movups xmm1,xmm2 (register form)", M64, B(0x0f, 0x10, 0xca),
	  -HV_EINVAL },
	{ "lock movups [rax],xmm1 (#UD)", M64, B(0xf0, 0x0f, 0x11, 0x08),
	  -HV_EINVAL },
	{ "66 movnti (#UD: no row)", M64, B(0x66, 0x0f, 0xc3, 0x08),
	  -HV_ENOTSUP },
	{ "vmovups with vvvv=0001 (#UD)", M64, B(0xc5, 0xf0, 0x10, 0x08),
	  -HV_EINVAL },
	{ "vmovd xmm0,[rax] with VEX.L=1 (#UD)", M64,
	  B(0xc5, 0xfd, 0x6e, 0x00), -HV_EINVAL },
	{ "vmovq [rax],xmm1 with VEX.L=1 (#UD)", M64,
	  B(0xc5, 0xfd, 0xd6, 0x08), -HV_EINVAL },
	{ "66 before VEX (#UD)", M64, B(0x66, 0xc5, 0xf8, 0x10, 0x00),
	  -HV_EINVAL },
	{ "F3 before VEX (#UD)", M64, B(0xf3, 0xc5, 0xf8, 0x10, 0x00),
	  -HV_EINVAL },
	{ "REX before VEX (#UD)", M64, B(0x48, 0xc5, 0xf8, 0x10, 0x00),
	  -HV_EINVAL },
	{ "VEX map 0 (reserved, #UD)", M64, B(0xc4, 0xe0, 0x7c, 0x10, 0x08),
	  -HV_EINVAL },
	{ "vinsertf128 (map 0F3A, not a move)", M64,
	  B(0xc4, 0xe3, 0x7d, 0x18, 0x08, 0x00), -HV_ENOTSUP },
	{ "MMX movq mm1,[rax]", M64, B(0x0f, 0x6f, 0x08), -HV_ENOTSUP },
	{ "movhlps xmm1,xmm0 (register form of 0F 12)", M64,
	  B(0x0f, 0x12, 0xc8), -HV_EINVAL },
	{ "vmovhps [rax],xmm4 with vvvv=0101 (#UD: a store)", M64,
	  B(0xc5, 0xd0, 0x17, 0x20), -HV_EINVAL },
	{ "vmovlps xmm1,xmm2,[rax] with VEX.L=1 (#UD)", M64,
	  B(0xc5, 0xec, 0x12, 0x08), -HV_EINVAL },
	{ "movddup xmm1,[rax] (F2 0F 12: not a copy)", M64,
	  B(0xf2, 0x0f, 0x12, 0x08), -HV_ENOTSUP },
	{ "lds ecx,[eax] in 32-bit mode (C5, mod != 11)", M32,
	  B(0xc5, 0x08), -HV_ENOTSUP },
	{ "truncated VEX", M64, B(0xc4, 0xe2), -HV_ENODATA },
};

static void test_vec_bad_encodings(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(vbad) / sizeof(vbad[0]); i++) {
		struct mmio_insn in;
		int err = insn_decode(vbad[i].bytes, vbad[i].nbytes,
				      vbad[i].mode, &in);

		if (err != vbad[i].err)
			fail_msg("%s: got %d want %d", vbad[i].what, err,
				 vbad[i].err);
		assert_int_equal(in.kind, INSN_NONE);
	}
}

static void fill_regs(struct vec_regs *vr)
{
	for (unsigned r = 0; r < INSN_VEC_REGS; r++)
		for (unsigned i = 0; i < INSN_VEC_BYTES; i++)
			vr->b[r][i] = (uint8_t)(r << 5 | i);
}

/* Stores send exactly the register's low `size` bytes. */
static void test_vec_store_bytes(void **state)
{
	static const uint8_t movdqu_x10[] = { 0xf3, 0x45, 0x0f, 0x7f, 0x52,
					      0x08 };
	static const uint8_t movss_x14[] = { 0xf3, 0x44, 0x0f, 0x11, 0x30 };
	static const uint8_t vmovdqu_y1[] = { 0xc5, 0xfe, 0x7f, 0x0b };
	static const uint8_t mov_ecx[] = { 0x89, 0x08 };
	uint8_t out[INSN_VEC_BYTES], want[INSN_VEC_BYTES];
	struct vec_regs vr;
	struct mmio_insn in;

	(void)state;
	fill_regs(&vr);
	decode_ok(movdqu_x10, sizeof(movdqu_x10), M64, &in);
	mmio_insn_vec_store_bytes(&in, &vr, out);
	memset(want, 0, sizeof(want));
	memcpy(want, vr.b[10], 16);
	assert_memory_equal(out, want, sizeof(want));

	decode_ok(movss_x14, sizeof(movss_x14), M64, &in);
	mmio_insn_vec_store_bytes(&in, &vr, out);
	memset(want, 0, sizeof(want));
	memcpy(want, vr.b[14], 4);
	assert_memory_equal(out, want, sizeof(want));

	decode_ok(vmovdqu_y1, sizeof(vmovdqu_y1), M64, &in);
	mmio_insn_vec_store_bytes(&in, &vr, out);
	assert_memory_equal(out, vr.b[1], 32);

	decode_ok(mov_ecx, sizeof(mov_ecx), M64, &in);	/* not a vector */
	mmio_insn_vec_store_bytes(&in, &vr, out);
	memset(want, 0, sizeof(want));
	assert_memory_equal(out, want, sizeof(want));
}

/* Loads: legacy SSE leaves YMM's upper half alone, scalar loads clear
 * the XMM above them, VEX clears everything above what it loads. */
static void test_vec_complete_load(void **state)
{
	static const struct {
		const char *what;
		uint8_t bytes[8];
		size_t n;
		unsigned reg, loaded, zero_to;
	} c[] = {
		{ "movups xmm9,[rbx+0x10]", { 0x44, 0x0f, 0x10, 0x4b, 0x10 }, 5,
		  9, 16, 16 },
		{ "movss xmm1,[rax]", { 0xf3, 0x0f, 0x10, 0x08 }, 4, 1, 4, 16 },
		{ "movq xmm3,[rax]", { 0xf3, 0x0f, 0x7e, 0x18 }, 4, 3, 8, 16 },
		{ "vmovups [rax]->xmm9 is a store; vmovdqu ymm12,[rbx]",
		  { 0xc5, 0x7e, 0x6f, 0x23 }, 4, 12, 32, 32 },
		{ "vmovss xmm6,[rax]", { 0xc5, 0xfa, 0x10, 0x30 }, 4, 6, 4, 32 },
		{ "vmovdqu xmm1,[rax] (VEX.128)", { 0xc5, 0xfa, 0x6f, 0x08 }, 4,
		  1, 16, 32 },
	};
	uint8_t in_bytes[INSN_VEC_BYTES];

	(void)state;
	for (unsigned i = 0; i < INSN_VEC_BYTES; i++)
		in_bytes[i] = (uint8_t)(0xa0 + i);
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct vec_regs vr, before;
		struct mmio_insn in;

		fill_regs(&vr);
		before = vr;
		decode_ok(c[k].bytes, c[k].n, M64, &in);
		mmio_insn_vec_complete_load(&in, &vr, in_bytes);
		for (unsigned b = 0; b < INSN_VEC_BYTES; b++) {
			uint8_t want = b < c[k].loaded ? in_bytes[b] :
				       b < c[k].zero_to ? 0 :
				       before.b[c[k].reg][b];

			if (vr.b[c[k].reg][b] != want)
				fail_msg("%s: byte %u = %x, want %x", c[k].what,
					 b, vr.b[c[k].reg][b], want);
		}
		for (unsigned r = 0; r < INSN_VEC_REGS; r++)
			if (r != c[k].reg)
				assert_memory_equal(vr.b[r], before.b[r], 32);
	}
}

/* MOVLPS/HPS-class loads: 8 bytes into one half, the other half from
 * the destination itself (legacy; YMM's top untouched) or from vvvv
 * (VEX; YMM's top zeroed); stores take the half they name. */
static void test_vec_merge(void **state)
{
	static const struct {
		const char *what;
		uint8_t bytes[5];
		size_t n;
		unsigned reg, src, off, zero_top;
	} c[] = {
		{ "movlps xmm1,[rax]", { 0x0f, 0x12, 0x08 }, 3, 1, 1, 0, 0 },
		{ "movhps xmm9,[rcx]", { 0x44, 0x0f, 0x16, 0x09 }, 4, 9, 9, 8,
		  0 },
		{ "movhpd xmm3,[rdx]", { 0x66, 0x0f, 0x16, 0x1a }, 4, 3, 3, 8,
		  0 },
		{ "vmovlps xmm1,xmm2,[rax]", { 0xc5, 0xe8, 0x12, 0x08 }, 4, 1, 2,
		  0, 1 },
		{ "vmovhps xmm4,xmm5,[rax]", { 0xc5, 0xd0, 0x16, 0x20 }, 4, 4, 5,
		  8, 1 },
	};
	static const uint8_t movhps_st[] = { 0x44, 0x0f, 0x17, 0x09 };
	uint8_t mem[INSN_VEC_BYTES], out[INSN_VEC_BYTES];

	(void)state;
	for (unsigned i = 0; i < INSN_VEC_BYTES; i++)
		mem[i] = (uint8_t)(0xa0 + i);
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct vec_regs vr, before;
		struct mmio_insn in;

		fill_regs(&vr);
		before = vr;
		decode_ok(c[k].bytes, c[k].n, M64, &in);
		mmio_insn_vec_complete_load(&in, &vr, mem);
		for (unsigned b = 0; b < INSN_VEC_BYTES; b++) {
			uint8_t want = before.b[c[k].reg][b];

			if (b < 16)
				want = b >= c[k].off && b < c[k].off + 8 ?
				       mem[b - c[k].off] : before.b[c[k].src][b];
			else if (c[k].zero_top)
				want = 0;
			if (vr.b[c[k].reg][b] != want)
				fail_msg("%s: byte %u = %x, want %x", c[k].what,
					 b, vr.b[c[k].reg][b], want);
		}
		for (unsigned r = 0; r < INSN_VEC_REGS; r++)
			if (r != c[k].reg)
				assert_memory_equal(vr.b[r], before.b[r], 32);
	}
	{
		struct vec_regs vr;
		struct mmio_insn in;

		fill_regs(&vr);
		decode_ok(movhps_st, sizeof(movhps_st), M64, &in);
		mmio_insn_vec_store_bytes(&in, &vr, out);
		assert_memory_equal(out, vr.b[9] + 8, 8);
		assert_int_equal(out[8], 0);
	}
}

#define CR0_TS_BIT (1ull << 3)
#define CR0_EM_BIT (1ull << 2)
#define CR4_OSFXSR_BIT (1ull << 9)
#define CR4_OSXSAVE_BIT (1ull << 18)

/* The CPU's checks before the access: alignment (#GP), SSE/AVX enabled
 * (#UD), CR0.TS (#NM). */
static void test_vec_faults(void **state)
{
	static const uint8_t movaps[] = { 0x44, 0x0f, 0x29, 0x3a };
	static const uint8_t movups[] = { 0x0f, 0x11, 0x08 };
	static const uint8_t movntdq[] = { 0x66, 0x45, 0x0f, 0xe7, 0x1b };
	static const uint8_t vmovdqa_y[] = { 0xc5, 0xfd, 0x6f, 0x11 };
	static const uint8_t mov[] = { 0x89, 0x08 };
	const uint64_t cr0 = 0x80000033ull & ~CR0_TS_BIT, sse = CR4_OSFXSR_BIT;
	struct mmio_insn in;

	(void)state;
	decode_ok(movaps, sizeof(movaps), M64, &in);
	assert_int_equal(mmio_insn_vec_fault(&in, cr0, sse, 0x1008),
			 INSN_EXC_GP);
	assert_int_equal(mmio_insn_vec_fault(&in, cr0, sse, 0x1010), -1);
	assert_true(mmio_insn_misaligned(&in, 0x1001));
	assert_false(mmio_insn_misaligned(&in, 0x2000));
	/* #UD and #NM come before the alignment check */
	assert_int_equal(mmio_insn_vec_fault(&in, cr0, 0, 0x1008), INSN_EXC_UD);
	assert_int_equal(mmio_insn_vec_fault(&in, cr0 | CR0_EM_BIT, sse, 0x1010),
			 INSN_EXC_UD);
	assert_int_equal(mmio_insn_vec_fault(&in, cr0 | CR0_TS_BIT, sse, 0x1008),
			 INSN_EXC_NM);

	decode_ok(movups, sizeof(movups), M64, &in);
	assert_int_equal(mmio_insn_vec_fault(&in, cr0, sse, 0x1001), -1);
	decode_ok(movntdq, sizeof(movntdq), M64, &in);
	assert_int_equal(mmio_insn_vec_fault(&in, cr0, sse, 0x1004),
			 INSN_EXC_GP);

	/* VEX.256 vmovdqa: 32-byte alignment; AVX needs CR4.OSXSAVE */
	decode_ok(vmovdqa_y, sizeof(vmovdqa_y), M64, &in);
	assert_int_equal(mmio_insn_vec_fault(&in, cr0, sse, 0x1020),
			 INSN_EXC_UD);
	assert_int_equal(mmio_insn_vec_fault(&in, cr0, sse | CR4_OSXSAVE_BIT,
					     0x1010), INSN_EXC_GP);
	assert_int_equal(mmio_insn_vec_fault(&in, cr0, sse | CR4_OSXSAVE_BIT,
					     0x1020), -1);

	decode_ok(mov, sizeof(mov), M64, &in);	/* not a vector: never */
	assert_int_equal(mmio_insn_vec_fault(&in, cr0 | CR0_TS_BIT, 0, 1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_encodings),
		cmocka_unit_test(test_truncation_and_trailing),
		cmocka_unit_test(test_bad_encodings),
		cmocka_unit_test(test_max_length),
		cmocka_unit_test(test_all_two_byte_starts),
		cmocka_unit_test(test_invalid_args),
		cmocka_unit_test(test_effective_address),
		cmocka_unit_test(test_gpr_write_semantics),
		cmocka_unit_test(test_store_values),
		cmocka_unit_test(test_complete_load),
		cmocka_unit_test(test_string_step),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_vec_encodings),
		cmocka_unit_test(test_vec_bad_encodings),
		cmocka_unit_test(test_vec_store_bytes),
		cmocka_unit_test(test_vec_complete_load),
		cmocka_unit_test(test_vec_faults),
		cmocka_unit_test(test_vec_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
