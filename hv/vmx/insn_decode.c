/* MMIO instruction decoder: see insn_decode.h for the contract.
 *
 * The layout of an instruction (SDM Vol. 2 2.1, Figure 2-1):
 *   legacy prefixes (any order) | REX (64-bit mode, last before opcode) |
 *   opcode (1 byte, or 0F + 1 byte) | ModRM | SIB | displacement | immediate
 * Each part is read through a cursor that refuses to pass the end of the
 * fetched bytes or the 15-byte architectural limit. */
#include "hv/vmx/insn_decode.h"
#include "hv/vmx/insn_decode_priv.h"
#include "hv/hv_errno.h"

/* --- reading bytes ------------------------------------------------------- */

/* Little-endian read of n (1, 2, 4 or 8) bytes. Over 15 bytes is -HV_EINVAL
 * even when more were fetched: the CPU would have raised #GP, not exited. */
int insn_cursor_read(struct cursor *c, unsigned n, uint64_t *val)
{
	uint64_t v = 0;
	unsigned i;

	if (c->pos + n > INSN_MAX_LEN)
		return -HV_EINVAL;
	if (c->pos + n > c->avail)
		return -HV_ENODATA;
	for (i = 0; i < n; i++)
		v |= (uint64_t)c->buf[c->pos + i] << (8 * i);
	c->pos += n;
	*val = v;
	return 0;
}

int insn_cursor_byte(struct cursor *c, uint8_t *b)
{
	uint64_t v;
	int err = insn_cursor_read(c, 1, &v);

	*b = (uint8_t)v;
	return err;
}

/* Sign-extend the low n bytes of v. */
static int64_t sext(uint64_t v, unsigned n)
{
	unsigned shift = 64 - 8 * n;

	return (int64_t)(v << shift) >> shift;
}

/* --- prefixes ------------------------------------------------------------ */

enum pfx_class {
	PFX_NONE = 0,
	PFX_OPSIZE,	/* 66 */
	PFX_ADDRSIZE,	/* 67 */
	PFX_LOCK,	/* F0 */
	PFX_REP,	/* F2, F3 */
	PFX_SEG,	/* 26 2E 36 3E 64 65 */
};

static const uint8_t prefix_class[256] = {
	[0x66] = PFX_OPSIZE, [0x67] = PFX_ADDRSIZE, [0xf0] = PFX_LOCK,
	[0xf2] = PFX_REP, [0xf3] = PFX_REP,
	[0x26] = PFX_SEG, [0x2e] = PFX_SEG, [0x36] = PFX_SEG,
	[0x3e] = PFX_SEG, [0x64] = PFX_SEG, [0x65] = PFX_SEG,
};

static const uint8_t prefix_seg[256] = {
	[0x26] = INSN_SEG_ES, [0x2e] = INSN_SEG_CS, [0x36] = INSN_SEG_SS,
	[0x3e] = INSN_SEG_DS, [0x64] = INSN_SEG_FS, [0x65] = INSN_SEG_GS,
};

static bool is_rex(uint8_t b, enum insn_mode mode)
{
	return mode == INSN_MODE_64 && (b & 0xf0) == 0x40;
}

/* Consume prefixes; leaves the cursor on the first opcode byte. A REX that is
 * followed by a legacy prefix is ignored, as the CPU ignores it (SDM Vol. 2
 * 2.2.1: REX must immediately precede the opcode). */
static int decode_prefixes(struct cursor *c, enum insn_mode mode,
			   struct prefixes *p)
{
	uint8_t b;
	int err;

	p->seg = INSN_SEG_NONE;
	for (;;) {
		err = insn_cursor_byte(c, &b);
		if (err)
			return err;
		if (is_rex(b, mode)) {
			p->rex = b;
			p->has_rex = true;
			continue;
		}
		if (prefix_class[b] == PFX_NONE)
			break;
		p->has_rex = false;
		p->rex = 0;
		switch (prefix_class[b]) {
		case PFX_OPSIZE:   p->opsize = true; break;
		case PFX_ADDRSIZE: p->addrsize = true; break;
		case PFX_LOCK:     p->lock = true; break;
		case PFX_REP:      p->rep = true; p->last_rep = b; break;
		default:           p->seg = prefix_seg[b]; break;
		}
	}
	c->pos--;	/* un-read the opcode byte */
	return 0;
}

/* --- opcodes ------------------------------------------------------------- */

#define OPF_MODRM	0x01	/* a ModRM byte follows */
#define OPF_REG0	0x02	/* ModRM.reg must be 0 (C6 /0, C7 /0) */
#define OPF_IMM		0x04	/* immediate of the memory size, at most 4 */
#define OPF_MOFFS	0x08	/* address-size offset instead of ModRM */
#define OPF_MOVSXD	0x10	/* 64-bit mode only; memory size min(osz, 4) */
#define OPF_STRING	0x20	/* MOVS/STOS: REP applies */

struct opdesc {
	uint8_t kind;	/* enum mmio_insn_kind; INSN_NONE = unsupported */
	uint8_t flags;
	uint8_t msize;	/* memory size in bytes; 0 = the operand size */
};

static const struct opdesc one_byte_ops[256] = {
	[0x63] = { INSN_MOVSX,         OPF_MODRM | OPF_MOVSXD, 0 },
	[0x88] = { INSN_MOV_STORE,     OPF_MODRM, 1 },
	[0x89] = { INSN_MOV_STORE,     OPF_MODRM, 0 },
	[0x8a] = { INSN_MOV_LOAD,      OPF_MODRM, 1 },
	[0x8b] = { INSN_MOV_LOAD,      OPF_MODRM, 0 },
	[0xa0] = { INSN_MOV_LOAD,      OPF_MOFFS, 1 },
	[0xa1] = { INSN_MOV_LOAD,      OPF_MOFFS, 0 },
	[0xa2] = { INSN_MOV_STORE,     OPF_MOFFS, 1 },
	[0xa3] = { INSN_MOV_STORE,     OPF_MOFFS, 0 },
	[0xa4] = { INSN_MOVS,          OPF_STRING, 1 },
	[0xa5] = { INSN_MOVS,          OPF_STRING, 0 },
	[0xaa] = { INSN_STOS,          OPF_STRING, 1 },
	[0xab] = { INSN_STOS,          OPF_STRING, 0 },
	[0xc6] = { INSN_MOV_STORE_IMM, OPF_MODRM | OPF_REG0 | OPF_IMM, 1 },
	[0xc7] = { INSN_MOV_STORE_IMM, OPF_MODRM | OPF_REG0 | OPF_IMM, 0 },
};

static const struct opdesc two_byte_ops[256] = {	/* after 0F */
	[0xb6] = { INSN_MOVZX, OPF_MODRM, 1 },
	[0xb7] = { INSN_MOVZX, OPF_MODRM, 2 },
	[0xbe] = { INSN_MOVSX, OPF_MODRM, 1 },
	[0xbf] = { INSN_MOVSX, OPF_MODRM, 2 },
};

static int decode_opcode(struct cursor *c, struct mmio_insn *out,
			 const struct opdesc **desc)
{
	uint8_t b;
	int err;

	err = insn_cursor_byte(c, &b);
	if (err)
		return err;
	if (b != 0x0f) {
		out->opcode = b;
		*desc = &one_byte_ops[b];
		return 0;
	}
	err = insn_cursor_byte(c, &b);
	if (err)
		return err;
	out->opcode = 0x0f00 | b;
	*desc = &two_byte_ops[b];
	return 0;
}

/* --- operand and address sizes (SDM Vol. 1 3.6, Vol. 2 Table 2-4) -------- */

struct mode_sizes {
	uint8_t osz, osz_66;	/* operand size without / with 66 */
	uint8_t asz, asz_67;	/* address size without / with 67 */
};

static const struct mode_sizes mode_sizes[] = {
	[INSN_MODE_16] = { 2, 4, 2, 4 },
	[INSN_MODE_32] = { 4, 2, 4, 2 },
	[INSN_MODE_64] = { 4, 2, 8, 4 },
};

unsigned insn_operand_size(enum insn_mode mode, const struct prefixes *p)
{
	if (p->rex & REX_W)
		return 8;	/* REX.W wins over 66 */
	return p->opsize ? mode_sizes[mode].osz_66 : mode_sizes[mode].osz;
}

unsigned insn_address_size(enum insn_mode mode, const struct prefixes *p)
{
	return p->addrsize ? mode_sizes[mode].asz_67 : mode_sizes[mode].asz;
}

/* --- ModRM, SIB, displacement (SDM Vol. 2 Tables 2-1..2-3) --------------- */


static int read_disp(struct cursor *c, unsigned n, struct mmio_insn *out)
{
	uint64_t v;
	int err;

	if (n == 0)
		return 0;
	err = insn_cursor_read(c, n, &v);
	if (!err)
		out->disp = sext(v, n);
	return err;
}

/* 16-bit addressing (only with a 16-bit address size): no SIB; mod=00
 * rm=110 is a bare disp16. */
static unsigned disp_size_16(uint8_t modrm)
{
	static const uint8_t by_mod[3] = { 0, 1, 2 };

	if (MODRM_MOD(modrm) == 0 && MODRM_RM(modrm) == 6)
		return 2;
	return by_mod[MODRM_MOD(modrm)];
}

/* 32/64-bit addressing: rm=100 brings a SIB byte; mod=00 with rm=101 is
 * disp32 (RIP-relative in 64-bit mode), and so is mod=00 with SIB.base=101.
 * REX.B does not change either special case (r13 as a base still needs
 * mod=01), which is why only the low three bits are compared. */
static int decode_addr_32(struct cursor *c, uint8_t modrm, uint8_t rex,
			  enum insn_mode mode, struct mmio_insn *out)
{
	static const uint8_t by_mod[3] = { 0, 1, 4 };
	unsigned mod = MODRM_MOD(modrm);
	unsigned disp = by_mod[mod];
	uint8_t sib;
	int err;

	out->base = (uint8_t)(MODRM_RM(modrm) | ((rex & REX_B) ? 8 : 0));
	if (MODRM_RM(modrm) == 4) {
		unsigned index;

		err = insn_cursor_byte(c, &sib);
		if (err)
			return err;
		index = ((sib >> 3) & 7) | ((rex & REX_X) ? 8 : 0);
		out->base = (uint8_t)((sib & 7) | ((rex & REX_B) ? 8 : 0));
		out->index = index == GPR_RSP ? INSN_NO_REG : (uint8_t)index;
		out->scale_shift = sib >> 6;
		if (mod == 0 && (sib & 7) == 5) {
			disp = 4;
			out->base = INSN_NO_REG;
		}
	} else if (mod == 0 && MODRM_RM(modrm) == 5) {
		disp = 4;
		out->base = INSN_NO_REG;
		out->rip_relative = (mode == INSN_MODE_64);
	}
	return read_disp(c, disp, out);
}

/* Reads ModRM into *modrm and the SIB/displacement bytes after it. */
int insn_decode_modrm(struct cursor *c, enum insn_mode mode, uint8_t rex,
			unsigned asz, struct mmio_insn *out, uint8_t *modrm)
{
	int err;

	err = insn_cursor_byte(c, modrm);
	if (err)
		return err;
	/* mod=11 names a register: no memory access, so no EPT violation. */
	if (MODRM_MOD(*modrm) == 3)
		return -HV_EINVAL;
	if (asz == 2)
		return read_disp(c, disp_size_16(*modrm), out);
	return decode_addr_32(c, *modrm, rex, mode, out);
}

/* --- putting it together ------------------------------------------------- */

/* Register operand from ModRM.reg: REX.R adds 8; for byte registers without
 * any REX prefix, 4..7 are AH, CH, DH, BH (SDM Vol. 2 Table 3-1 note). */
static unsigned modrm_reg_operand(uint8_t modrm, const struct prefixes *p,
				  unsigned reg_size)
{
	unsigned reg = MODRM_REG(modrm) | ((p->rex & REX_R) ? 8 : 0);

	if (reg_size == 1 && !p->has_rex && reg >= 4)
		return GPR_AH + (reg - 4);
	return reg;
}

static unsigned memory_size(const struct opdesc *d, unsigned osz)
{
	if (d->flags & OPF_MOVSXD)
		return osz > 4 ? 4 : osz;
	return d->msize ? d->msize : osz;
}

static int decode_imm(struct cursor *c, struct mmio_insn *out)
{
	unsigned n = out->size > 4 ? 4 : out->size;	/* imm32 for 64-bit */
	uint64_t v;
	int err;

	err = insn_cursor_read(c, n, &v);
	if (!err)
		out->imm = (uint64_t)sext(v, n) & gpr_size_mask(out->size);
	return err;
}

/* Everything after the opcode: operand sizes, ModRM or moffs, immediate. */
static int decode_operands(struct cursor *c, enum insn_mode mode,
			   const struct prefixes *p, const struct opdesc *d,
			   struct mmio_insn *out)
{
	unsigned osz = insn_operand_size(mode, p);
	uint64_t moffs;
	uint8_t modrm;
	int err;

	out->kind = (enum mmio_insn_kind)d->kind;
	out->addr_size = (uint8_t)insn_address_size(mode, p);
	out->size = (uint8_t)memory_size(d, osz);
	out->reg_size = (out->kind == INSN_MOVZX || out->kind == INSN_MOVSX)
			? (uint8_t)osz : out->size;
	out->reg = GPR_RAX;
	out->rep = p->rep && (d->flags & OPF_STRING);

	if (d->flags & OPF_MOFFS) {
		err = insn_cursor_read(c, out->addr_size, &moffs);
		out->disp = (int64_t)moffs;
		return err;
	}
	if (!(d->flags & OPF_MODRM))
		return 0;
	err = insn_decode_modrm(c, mode, p->rex, out->addr_size, out, &modrm);
	if (err)
		return err;
	if ((d->flags & OPF_REG0) && MODRM_REG(modrm) != 0)
		return -HV_ENOTSUP;
	if (d->flags & OPF_IMM)
		return decode_imm(c, out);
	out->reg = (uint8_t)modrm_reg_operand(modrm, p, out->reg_size);
	return 0;
}

static int decode(struct cursor *c, enum insn_mode mode, struct mmio_insn *out)
{
	const struct opdesc *d;
	struct prefixes p = { 0 };
	int err;

	err = decode_prefixes(c, mode, &p);
	if (err)
		return err;
	err = insn_decode_vec(c, mode, &p, out);	/* SSE, VEX, MOVNTI */
	if (err <= 0)
		return err;
	err = decode_opcode(c, out, &d);
	if (err)
		return err;
	if (d->kind == INSN_NONE)
		return -HV_ENOTSUP;
	/* LOCK on a MOV-class instruction is #UD (SDM Vol. 2 "LOCK"), so the
	 * CPU cannot have faulted on it: the bytes changed under us. */
	if (p.lock)
		return -HV_EINVAL;
	/* 63 outside 64-bit mode is ARPL, which has no memory-destination
	 * MMIO use and which we do not emulate. */
	if ((d->flags & OPF_MOVSXD) && mode != INSN_MODE_64)
		return -HV_ENOTSUP;
	out->seg = p.seg;
	return decode_operands(c, mode, &p, d, out);
}

int insn_decode(const uint8_t *buf, size_t len, enum insn_mode mode,
		struct mmio_insn *out)
{
	struct cursor c = { .buf = buf, .avail = len, .pos = 0 };
	int err;

	*out = (struct mmio_insn){ .kind = INSN_NONE, .base = INSN_NO_REG,
				   .index = INSN_NO_REG };
	if (buf == NULL || (unsigned)mode > INSN_MODE_64)
		return -HV_EINVAL;
	err = decode(&c, mode, out);
	if (err) {
		*out = (struct mmio_insn){ .kind = INSN_NONE,
					   .base = INSN_NO_REG,
					   .index = INSN_NO_REG };
		return err;
	}
	out->len = (uint8_t)c.pos;
	return 0;
}

/* --- emulation helpers --------------------------------------------------- */

static const struct {
	const char *name;
	uint8_t access;
} kind_info[INSN_KIND_COUNT] = {
	[INSN_NONE]          = { "NONE",          0 },
	[INSN_MOV_LOAD]      = { "MOV_LOAD",      MMIO_ACCESS_READ },
	[INSN_MOV_STORE]     = { "MOV_STORE",     MMIO_ACCESS_WRITE },
	[INSN_MOV_STORE_IMM] = { "MOV_STORE_IMM", MMIO_ACCESS_WRITE },
	[INSN_MOVZX]         = { "MOVZX",         MMIO_ACCESS_READ },
	[INSN_MOVSX]         = { "MOVSX",         MMIO_ACCESS_READ },
	[INSN_STOS]          = { "STOS",          MMIO_ACCESS_WRITE },
	[INSN_MOVS]          = { "MOVS",  MMIO_ACCESS_READ | MMIO_ACCESS_WRITE },
	[INSN_VEC_LOAD]      = { "VEC_LOAD",      MMIO_ACCESS_READ },
	[INSN_VEC_STORE]     = { "VEC_STORE",     MMIO_ACCESS_WRITE },
};

const char *mmio_insn_kind_name(enum mmio_insn_kind kind)
{
	if ((unsigned)kind >= INSN_KIND_COUNT)
		return "UNKNOWN";
	return kind_info[kind].name;
}

unsigned mmio_insn_access(const struct mmio_insn *insn)
{
	if ((unsigned)insn->kind >= INSN_KIND_COUNT)
		return 0;
	return kind_info[insn->kind].access;
}

uint64_t mmio_insn_store_value(const struct mmio_insn *insn,
			       const struct guest_regs *regs)
{
	switch (insn->kind) {
	case INSN_MOV_STORE:
	case INSN_STOS:
		return gpr_read(regs, insn->reg, insn->size);
	case INSN_MOV_STORE_IMM:
		return insn->imm & gpr_size_mask(insn->size);
	default:
		return 0;
	}
}

void mmio_insn_complete_load(const struct mmio_insn *insn,
			     struct guest_regs *regs, uint64_t val)
{
	val &= gpr_size_mask(insn->size);
	switch (insn->kind) {
	case INSN_MOVSX:
		val = (uint64_t)sext(val, insn->size);
		/* fall through */
	case INSN_MOVZX:
	case INSN_MOV_LOAD:
		gpr_write(regs, insn->reg, insn->reg_size, val);
		break;
	default:
		break;
	}
}

/* rSI/rDI/rCX at the address size: a 32-bit address size writes ECX/EDI
 * (zero-extending, as the CPU does), a 16-bit one only CX/DI. */
static void step_reg(struct guest_regs *regs, unsigned reg, unsigned asz,
		     int64_t delta)
{
	gpr_write(regs, reg, asz, gpr_read(regs, reg, asz) + (uint64_t)delta);
}

bool mmio_insn_string_step(const struct mmio_insn *insn,
			   struct guest_regs *regs, bool df)
{
	int64_t delta = df ? -(int64_t)insn->size : (int64_t)insn->size;
	unsigned asz = insn->addr_size;

	if (insn->kind != INSN_STOS && insn->kind != INSN_MOVS)
		return true;
	step_reg(regs, GPR_RDI, asz, delta);
	if (insn->kind == INSN_MOVS)
		step_reg(regs, GPR_RSI, asz, delta);
	if (!insn->rep)
		return true;
	step_reg(regs, GPR_RCX, asz, -1);
	return gpr_read(regs, GPR_RCX, asz) == 0;
}

static uint64_t reg_value(const struct guest_regs *regs, uint8_t reg)
{
	return reg < GPR_COUNT ? regs->gpr[reg] : 0;
}

bool mmio_insn_ea(const struct mmio_insn *insn, const struct guest_regs *regs,
		  uint64_t rip_next, uint64_t *ea)
{
	uint64_t mask = gpr_size_mask(insn->addr_size), v;

	if (insn->kind == INSN_NONE || insn->kind == INSN_MOVS ||
	    (unsigned)insn->kind >= INSN_KIND_COUNT)
		return false;
	if (insn->kind == INSN_STOS) {
		v = regs->rdi;
	} else if (insn->opcode >= 0xa0 && insn->opcode <= 0xa3) {
		v = (uint64_t)insn->disp;		/* moffs */
	} else if (insn->addr_size == 2) {
		return false;	/* 16-bit ModRM forms are not recorded */
	} else if (insn->rip_relative) {
		v = rip_next + (uint64_t)insn->disp;
	} else {
		v = reg_value(regs, insn->base) + (uint64_t)insn->disp +
		    (reg_value(regs, insn->index) << insn->scale_shift);
	}
	*ea = v & mask;
	return true;
}
