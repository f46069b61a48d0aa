/* What insn_decode.c (the general-purpose moves) shares with insn_vec.c
 * (the SSE and VEX moves): the byte cursor, the legacy prefixes, the
 * operand/address sizes and the ModRM/SIB/displacement reader. Not for
 * use outside hv/vmx/insn_*.c. */
#ifndef HV_VMX_INSN_DECODE_PRIV_H
#define HV_VMX_INSN_DECODE_PRIV_H

#include "hv/vmx/insn_decode.h"

struct cursor {
	const uint8_t *buf;
	size_t avail;
	size_t pos;
};

#define REX_B 0x1
#define REX_X 0x2
#define REX_R 0x4
#define REX_W 0x8

#define MODRM_MOD(m)	((m) >> 6)
#define MODRM_REG(m)	(((m) >> 3) & 7)
#define MODRM_RM(m)	((m) & 7)

struct prefixes {
	bool opsize, addrsize, lock, rep, has_rex;
	uint8_t seg;
	uint8_t rex;
	uint8_t last_rep;	/* F2 or F3, the later of the two if both */
};

/* Little-endian read of n bytes at the cursor; -HV_EINVAL past 15 bytes,
 * -HV_ENODATA past what was fetched. */
int insn_cursor_read(struct cursor *c, unsigned n, uint64_t *val);
int insn_cursor_byte(struct cursor *c, uint8_t *b);

unsigned insn_operand_size(enum insn_mode mode, const struct prefixes *p);
unsigned insn_address_size(enum insn_mode mode, const struct prefixes *p);

/* ModRM into *modrm, then its SIB and displacement into out (base, index,
 * scale, disp, rip_relative). A register operand (mod = 11) is
 * -HV_EINVAL: no memory access, so no exit. rex supplies R/X/B (a VEX
 * prefix's, inverted back, for VEX forms). */
int insn_decode_modrm(struct cursor *c, enum insn_mode mode, uint8_t rex,
		      unsigned asz, struct mmio_insn *out, uint8_t *modrm);

/* insn_vec.c: after the legacy prefixes, the cursor on the first opcode
 * byte. 1 when the bytes there are not an SSE/VEX move or MOVNTI (the
 * caller decodes them as a general-purpose instruction, cursor
 * unchanged); else 0 with *out filled, or an error as insn_decode's. */
int insn_decode_vec(struct cursor *c, enum insn_mode mode,
		    const struct prefixes *p, struct mmio_insn *out);

#endif
