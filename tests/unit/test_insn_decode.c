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
	{ "VEX C5", M64, B(0xc5, 0xf8, 0x10, 0x00), -HV_ENOTSUP },
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
