/* The SSE and AVX moves of the MMIO decoder (insn_decode.h), and MOVNTI.
 *
 * A guest's memcpy/memset on a mapping of device memory (a GTT mmap of
 * the aperture) copies with these; each is one table row below, looked
 * up by opcode map, mandatory prefix and opcode byte (SDM Vol. 2 2.1.2
 * and 2.3, and each instruction's page). Two encodings reach a row:
 *   legacy  [66|F3|F2] [REX] 0F op / 0F 38 op: the mandatory prefix is the
 *           last of F2/F3 if present, else 66; REX.R picks XMM8-15 and
 *           REX.W the 8-byte MOVD/MOVQ;
 *   VEX     C5 RvvvvLpp op, or C4 RXBmmmmm WvvvvLpp op: pp stands for
 *           the mandatory prefix and mmmmm for the map; a 66, F2, F3,
 *           LOCK or REX before it, vvvv other than 1111 (except as
 *           the merge source of VMOVLPS/HPS/LPD/HPD's loads), or VEX.L
 *           = 1 where the instruction wants L0 is #UD. Outside 64-bit mode
 *           C4/C5 are LES/LDS unless the next byte's top bits are 11, and
 *           R, X, B and W do not apply.
 * A #UD encoding is -HV_EINVAL: the CPU raised #UD before any access, so
 * it cannot have made the access that exited. */
#include "hv/hv_errno.h"
#include "hv/vmx/insn_decode_priv.h"
#include "hv/vmx/vmx_defs.h"

#include "mini/string.h"

enum vec_pfx { VP_NONE, VP_66, VP_F3, VP_F2 };
enum vec_map { VM_0F = 1, VM_0F38 = 2 };	/* VEX mmmmm numbering */

#define VF_ALIGN	0x01	/* #GP(0) unless aligned to the access size */
#define VF_W8		0x02	/* REX.W/VEX.W (64-bit mode): 8 bytes, else 4 */
#define VF_L0		0x04	/* VEX.L = 1 is #UD */
#define VF_LIG		0x08	/* VEX.L ignored: the size is msize */
#define VF_ZERO		0x10	/* a legacy load clears the XMM above it */
#define VF_LEGACY	0x20	/* no VEX form */
#define VF_MERGE	0x40	/* a load writes 8 bytes of the XMM, the rest
				 * kept (legacy) or from vvvv (VEX) */
#define VF_HI		0x80	/* the memory is the XMM's high 8 bytes */

struct vecop {
	uint8_t map, pfx, op;
	uint8_t kind;	/* INSN_VEC_LOAD, INSN_VEC_STORE, INSN_MOV_STORE */
	uint8_t msize;	/* 0: the vector length (16; 32 with VEX.L = 1) */
	uint8_t flags;
};

#define LD INSN_VEC_LOAD
#define ST INSN_VEC_STORE

static const struct vecop vecops[] = {
	/* packed moves, the whole register */
	{ VM_0F, VP_NONE, 0x10, LD, 0, 0 },		/* movups */
	{ VM_0F, VP_NONE, 0x11, ST, 0, 0 },
	{ VM_0F, VP_66,   0x10, LD, 0, 0 },		/* movupd */
	{ VM_0F, VP_66,   0x11, ST, 0, 0 },
	{ VM_0F, VP_NONE, 0x28, LD, 0, VF_ALIGN },	/* movaps */
	{ VM_0F, VP_NONE, 0x29, ST, 0, VF_ALIGN },
	{ VM_0F, VP_66,   0x28, LD, 0, VF_ALIGN },	/* movapd */
	{ VM_0F, VP_66,   0x29, ST, 0, VF_ALIGN },
	{ VM_0F, VP_NONE, 0x2b, ST, 0, VF_ALIGN },	/* movntps */
	{ VM_0F, VP_66,   0x2b, ST, 0, VF_ALIGN },	/* movntpd */
	{ VM_0F, VP_66,   0x6f, LD, 0, VF_ALIGN },	/* movdqa */
	{ VM_0F, VP_66,   0x7f, ST, 0, VF_ALIGN },
	{ VM_0F, VP_F3,   0x6f, LD, 0, 0 },		/* movdqu */
	{ VM_0F, VP_F3,   0x7f, ST, 0, 0 },
	{ VM_0F, VP_66,   0xe7, ST, 0, VF_ALIGN },	/* movntdq */
	{ VM_0F, VP_F2,   0xf0, LD, 0, 0 },		/* lddqu */
	{ VM_0F38, VP_66, 0x2a, LD, 0, VF_ALIGN },	/* movntdqa */
	/* scalar moves: the low 4 or 8 bytes */
	{ VM_0F, VP_F3, 0x10, LD, 4, VF_LIG | VF_ZERO },	/* movss */
	{ VM_0F, VP_F3, 0x11, ST, 4, VF_LIG },
	{ VM_0F, VP_F2, 0x10, LD, 8, VF_LIG | VF_ZERO },	/* movsd */
	{ VM_0F, VP_F2, 0x11, ST, 8, VF_LIG },
	{ VM_0F, VP_66, 0x6e, LD, 4, VF_W8 | VF_L0 | VF_ZERO },	/* movd/q */
	{ VM_0F, VP_66, 0x7e, ST, 4, VF_W8 | VF_L0 },
	{ VM_0F, VP_F3, 0x7e, LD, 8, VF_L0 | VF_ZERO },		/* movq */
	{ VM_0F, VP_66, 0xd6, ST, 8, VF_L0 },
	/* one half of the XMM: MOVLPS/LPD the low 8 bytes, MOVHPS/HPD the
	 * high 8 (with mod = 11, 0F 12/16 are MOVHLPS/MOVLHPS: no memory) */
	{ VM_0F, VP_NONE, 0x12, LD, 8, VF_L0 | VF_MERGE },	/* movlps */
	{ VM_0F, VP_NONE, 0x13, ST, 8, VF_L0 },
	{ VM_0F, VP_66,   0x12, LD, 8, VF_L0 | VF_MERGE },	/* movlpd */
	{ VM_0F, VP_66,   0x13, ST, 8, VF_L0 },
	{ VM_0F, VP_NONE, 0x16, LD, 8, VF_L0 | VF_MERGE | VF_HI }, /* movhps */
	{ VM_0F, VP_NONE, 0x17, ST, 8, VF_L0 | VF_HI },
	{ VM_0F, VP_66,   0x16, LD, 8, VF_L0 | VF_MERGE | VF_HI }, /* movhpd */
	{ VM_0F, VP_66,   0x17, ST, 8, VF_L0 | VF_HI },
	/* a general-purpose non-temporal store */
	{ VM_0F, VP_NONE, 0xc3, INSN_MOV_STORE, 4,
	  VF_W8 | VF_LEGACY },					/* movnti */
};
#define NR_VECOPS (sizeof(vecops) / sizeof(vecops[0]))

static const struct vecop *find(unsigned map, unsigned pfx, uint8_t op,
				bool vex)
{
	for (unsigned i = 0; i < NR_VECOPS; i++) {
		const struct vecop *v = &vecops[i];

		if (v->map == map && v->pfx == pfx && v->op == op &&
		    !(vex && (v->flags & VF_LEGACY)))
			return v;
	}
	return NULL;
}

/* What an encoding says besides the opcode. */
struct vec_enc {
	uint8_t rex;	/* R, X, B, W as REX bits */
	bool vex, l;
	uint8_t vvvv;	/* VEX's register operand, un-inverted */
};

/* A VEX form names a second source in vvvv only where it merges (the
 * loads of VMOVLPS/HPS...); elsewhere vvvv is 1111 or the form is #UD,
 * and so is VEX.L = 1 where the instruction wants L0. */
static bool vex_ud(const struct vecop *v, const struct vec_enc *e)
{
	if (!e->vex)
		return false;
	return (e->vvvv != 0 && !(v->flags & VF_MERGE)) ||
	       (e->l && (v->flags & VF_L0));
}

static uint8_t vec_size(const struct vecop *v, const struct vec_enc *e,
			enum insn_mode mode)
{
	if (v->flags & VF_W8)
		return mode == INSN_MODE_64 && (e->rex & REX_W) ? 8 : 4;
	if (v->msize)
		return v->msize;
	return e->l ? 32 : 16;
}

/* The register bytes a load defines: VEX clears up to the YMM's top; a
 * legacy load its whole XMM (VF_ZERO, a merge), else just what it read. */
static uint8_t vec_reg_size(const struct vecop *v, const struct vec_enc *e,
			    uint8_t size)
{
	if (v->kind != INSN_VEC_LOAD)
		return size;
	if (e->vex)
		return INSN_VEC_BYTES;
	return (v->flags & (VF_ZERO | VF_MERGE)) ? 16 : size;
}

static int vec_operands(struct cursor *c, enum insn_mode mode,
			const struct prefixes *p, const struct vecop *v,
			const struct vec_enc *e, struct mmio_insn *out)
{
	uint8_t modrm;
	int err;

	if (vex_ud(v, e))
		return -HV_EINVAL;
	out->kind = (enum mmio_insn_kind)v->kind;
	out->vex = e->vex;
	out->seg = p->seg;
	out->addr_size = (uint8_t)insn_address_size(mode, p);
	err = insn_decode_modrm(c, mode, e->rex, out->addr_size, out, &modrm);
	if (err)
		return err;
	out->reg = (uint8_t)(MODRM_REG(modrm) | ((e->rex & REX_R) ? 8 : 0));
	out->size = vec_size(v, e, mode);
	out->align = (v->flags & VF_ALIGN) ? out->size : 0;
	out->reg_size = vec_reg_size(v, e, out->size);
	out->vec_off = (v->flags & VF_HI) ? 8 : 0;
	out->merge = (v->flags & VF_MERGE) != 0;
	out->vsrc = e->vex && out->merge ? e->vvvv : out->reg;
	return 0;
}

static unsigned legacy_pfx(const struct prefixes *p)
{
	if (p->last_rep)
		return p->last_rep == 0xf3 ? VP_F3 : VP_F2;
	return p->opsize ? VP_66 : VP_NONE;
}

/* 0F op or 0F 38 op after legacy prefixes: a row, or not ours (1). */
static int decode_legacy(struct cursor *c, enum insn_mode mode,
			 const struct prefixes *p, struct mmio_insn *out)
{
	struct vec_enc e = { .rex = p->has_rex ? p->rex : 0 };
	size_t start = c->pos;
	const struct vecop *v;
	unsigned map = VM_0F;
	uint8_t b[3] = { 0 };
	int err;

	err = insn_cursor_byte(c, &b[0]);
	if (!err && b[0] == 0x0f)
		err = insn_cursor_byte(c, &b[1]);
	if (!err && b[0] == 0x0f && b[1] == 0x38) {
		map = VM_0F38;
		err = insn_cursor_byte(c, &b[2]);
	}
	v = err || b[0] != 0x0f ? NULL :
	    find(map, legacy_pfx(p), map == VM_0F38 ? b[2] : b[1], false);
	if (!v) {
		c->pos = start;
		return 1;
	}
	if (p->lock)
		return -HV_EINVAL;	/* LOCK on a move is #UD */
	out->opcode = (uint16_t)(map == VM_0F38 ? 0x3800 | b[2] : 0x0f00 | b[1]);
	/* MOVNTI has a row only without a mandatory prefix (66 0F C3 is
	 * #UD); its register is a GPR, REX.R reaching R8-R15. */
	return vec_operands(c, mode, p, v, &e, out);
}

/* C5/C4 start a VEX prefix here? Always in 64-bit mode; elsewhere only
 * when the next byte's top bits are 11 (else it is LDS/LES's ModRM). */
static bool vex_here(const struct cursor *c, enum insn_mode mode)
{
	const uint8_t *b = c->buf + c->pos;

	if (c->pos >= c->avail || (b[0] != 0xc4 && b[0] != 0xc5))
		return false;
	if (mode == INSN_MODE_64)
		return true;
	return c->pos + 1 < c->avail && (b[1] & 0xc0) == 0xc0;
}

/* The VEX bytes into e, the map into *map, pp into *pfx. */
static int read_vex(struct cursor *c, enum insn_mode mode, struct vec_enc *e,
		    unsigned *map, unsigned *pfx)
{
	uint8_t b0, b1, b2;
	int err = insn_cursor_byte(c, &b0);

	if (!err)
		err = insn_cursor_byte(c, &b1);
	if (err)
		return err;
	b2 = b1;
	*map = VM_0F;
	e->rex = (b1 & 0x80) ? 0 : REX_R;
	if (b0 == 0xc4) {
		e->rex |= ((b1 & 0x40) ? 0 : REX_X) | ((b1 & 0x20) ? 0 : REX_B);
		*map = b1 & 0x1f;
		err = insn_cursor_byte(c, &b2);
		if (err)
			return err;
		e->rex |= (b2 & 0x80) ? REX_W : 0;
	}
	if (mode != INSN_MODE_64)
		e->rex &= REX_W;	/* W matters only to the rows in 64-bit */
	e->vex = true;
	e->l = b2 & 0x04;
	e->vvvv = (uint8_t)(~b2 >> 3 & (mode == INSN_MODE_64 ? 0xf : 0x7));
	*pfx = b2 & 3;
	return 0;
}

static int decode_vex(struct cursor *c, enum insn_mode mode,
		      const struct prefixes *p, struct mmio_insn *out)
{
	struct vec_enc e = { 0 };
	const struct vecop *v;
	unsigned map, pfx;
	uint8_t op;
	int err;

	/* 66, F2, F3, LOCK or REX before VEX: #UD (SDM Vol. 2 2.3.2). */
	if (p->opsize || p->rep || p->lock || p->has_rex)
		return -HV_EINVAL;
	err = read_vex(c, mode, &e, &map, &pfx);
	if (!err)
		err = insn_cursor_byte(c, &op);
	if (err)
		return err;
	if (map != VM_0F && map != VM_0F38 && map != 3)
		return -HV_EINVAL;	/* reserved map: #UD */
	v = find(map, pfx, op, true);
	if (!v)
		return -HV_ENOTSUP;
	out->opcode = (uint16_t)((map == VM_0F38 ? 0x3800 : 0x0f00) | op);
	return vec_operands(c, mode, p, v, &e, out);
}

int insn_decode_vec(struct cursor *c, enum insn_mode mode,
		    const struct prefixes *p, struct mmio_insn *out)
{
	if (vex_here(c, mode))
		return decode_vex(c, mode, p, out);
	return decode_legacy(c, mode, p, out);
}

/* --- emulation helpers --------------------------------------------------- */

static bool is_vec(const struct mmio_insn *insn)
{
	return (insn->kind == INSN_VEC_LOAD || insn->kind == INSN_VEC_STORE) &&
	       insn->reg < INSN_VEC_REGS && insn->vsrc < INSN_VEC_REGS &&
	       insn->size <= INSN_VEC_BYTES &&
	       insn->vec_off + insn->size <= INSN_VEC_BYTES &&
	       insn->reg_size <= INSN_VEC_BYTES;
}

void mmio_insn_vec_store_bytes(const struct mmio_insn *insn,
			       const struct vec_regs *vr,
			       uint8_t out[INSN_VEC_BYTES])
{
	memset(out, 0, INSN_VEC_BYTES);
	if (is_vec(insn) && insn->kind == INSN_VEC_STORE)
		memcpy(out, vr->b[insn->reg] + insn->vec_off, insn->size);
}

/* MOVLPS/HPS-class: the other half of the XMM from vsrc, the memory at
 * vec_off, [16, reg_size) zeroed (VEX), above it untouched. */
static void complete_merge(const struct mmio_insn *insn, struct vec_regs *vr,
			   const uint8_t in[INSN_VEC_BYTES])
{
	uint8_t *r = vr->b[insn->reg];
	uint8_t x[16];

	if (insn->vec_off + insn->size > 16 || insn->reg_size < 16)
		return;
	memcpy(x, vr->b[insn->vsrc], 16);
	memcpy(x + insn->vec_off, in, insn->size);
	memcpy(r, x, 16);
	memset(r + 16, 0, insn->reg_size - 16u);
}

void mmio_insn_vec_complete_load(const struct mmio_insn *insn,
				 struct vec_regs *vr,
				 const uint8_t in[INSN_VEC_BYTES])
{
	uint8_t *r;

	if (!is_vec(insn) || insn->kind != INSN_VEC_LOAD ||
	    insn->reg_size < insn->size)
		return;
	if (insn->merge) {
		complete_merge(insn, vr, in);
		return;
	}
	r = vr->b[insn->reg];
	memcpy(r, in, insn->size);
	memset(r + insn->size, 0, insn->reg_size - insn->size);
}

bool mmio_insn_misaligned(const struct mmio_insn *insn, uint64_t lin)
{
	return insn->align && (lin & (insn->align - 1u)) != 0;
}

/* The checks the CPU makes before an SSE/AVX access touches memory (SDM
 * Vol. 2 2.4 and 2.5, "Exceptions Type 1/4/5"): in this order #UD, #NM,
 * #GP. AVX needs CR4.OSXSAVE (and XCR0), SSE needs CR4.OSFXSR and CR0.EM
 * clear; CR0.TS is #NM for both; a form that demands alignment raises
 * #GP(0) on an address that lacks it. */
int mmio_insn_vec_fault(const struct mmio_insn *insn, uint64_t cr0,
			uint64_t cr4, uint64_t lin)
{
	if (!is_vec(insn))
		return -1;
	if (insn->vex ? !(cr4 & CR4_OSXSAVE)
		      : (cr0 & CR0_EM) || !(cr4 & CR4_OSFXSR))
		return INSN_EXC_UD;
	if (cr0 & CR0_TS)
		return INSN_EXC_NM;
	if (mmio_insn_misaligned(insn, lin))
		return INSN_EXC_GP;
	return -1;
}
