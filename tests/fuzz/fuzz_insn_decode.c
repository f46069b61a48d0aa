/* libFuzzer target for hv/vmx/insn_decode.c.
 *
 * Input: byte 0 selects the mode (and DF for the string step), the rest are
 * the instruction bytes as fetched from guest memory. The decoder must
 * never read outside them (ASan checks: the bytes are copied into a heap
 * buffer of exactly that size), and on success the length must be at most
 * 15 and at most what it was given; the emulation helpers must be safe on
 * any successful decode. Vector moves (insn_vec.c): the store sends only
 * the register's low `size` bytes, the load changes only its register,
 * loads [0, size), zeroes [size, reg_size) and keeps the rest, and the
 * pieces the EPT handler cuts the access into cover it exactly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hv/hv_errno.h"
#include "hv/vm/mmio_edge.h"
#include "hv/vmx/insn_decode.h"

static void check_helpers(const struct mmio_insn *in, bool df)
{
	struct guest_regs regs;
	uint64_t v;

	memset(&regs, 0xa5, sizeof(regs));
	v = mmio_insn_store_value(in, &regs);
	if (in->size < 8 && (v >> (8 * in->size)) != 0)
		abort();	/* store value wider than the access */
	mmio_insn_complete_load(in, &regs, ~0ull);
	(void)mmio_insn_string_step(in, &regs, df);
	(void)mmio_insn_access(in);
	if (mmio_insn_ea(in, &regs, 0x1000, &v) && in->addr_size < 8 &&
	    (v >> (8 * in->addr_size)) != 0)
		abort();	/* address wider than the address size */
	(void)mmio_insn_kind_name(in->kind);
}

static bool is_vec(const struct mmio_insn *in)
{
	return in->kind == INSN_VEC_LOAD || in->kind == INSN_VEC_STORE;
}

static void check_pieces(const struct mmio_insn *in)
{
	uint64_t at = 0x1000 + in->disp % 64;
	unsigned left = in->size;

	while (left) {
		unsigned p = mmio_piece(at, left);

		if (p == 0 || p > 8 || p > left || (at & (p - 1)))
			abort();
		at += p;
		left -= p;
	}
}

/* What a load leaves in byte i of register r (the register file was all
 * 0x5a before, the memory all 0xc3). */
static uint8_t vec_load_want(const struct mmio_insn *in, unsigned r,
			     unsigned i, uint8_t before)
{
	if (in->kind != INSN_VEC_LOAD || r != in->reg || i >= in->reg_size)
		return before;
	if (!in->merge)
		return i < in->size ? 0xc3 : 0;
	if (i >= 16)
		return 0;
	return i >= in->vec_off && i < in->vec_off + in->size ? 0xc3 : 0x5a;
}

static void check_vec(const struct mmio_insn *in)
{
	uint8_t out[INSN_VEC_BYTES], src[INSN_VEC_BYTES];
	struct vec_regs vr, before;

	if (in->reg >= INSN_VEC_REGS || in->vsrc >= INSN_VEC_REGS ||
	    in->reg_size < in->size || in->reg_size > INSN_VEC_BYTES ||
	    in->vec_off + in->size > 16u + (in->size > 16 ? 16u : 0u) ||
	    (in->merge && (in->kind != INSN_VEC_LOAD || in->reg_size < 16)) ||
	    (in->align && in->align != in->size))
		abort();
	memset(&vr, 0x5a, sizeof(vr));
	memset(src, 0xc3, sizeof(src));
	before = vr;
	mmio_insn_vec_store_bytes(in, &vr, out);
	for (unsigned i = 0; i < INSN_VEC_BYTES; i++)
		if (out[i] != (in->kind == INSN_VEC_STORE && i < in->size ?
			       0x5a : 0))
			abort();
	mmio_insn_vec_complete_load(in, &vr, src);
	for (unsigned r = 0; r < INSN_VEC_REGS; r++)
		for (unsigned i = 0; i < INSN_VEC_BYTES; i++)
			if (vr.b[r][i] != vec_load_want(in, r, i,
							before.b[r][i]))
				abort();
	(void)mmio_insn_vec_fault(in, 0x80000033, 0x40200, 0x1008);
}

static void check_decode(const uint8_t *bytes, size_t n, enum insn_mode m,
			 bool df)
{
	struct mmio_insn in;
	int err = insn_decode(bytes, n, m, &in);

	if (err) {
		if (err != -HV_ENODATA && err != -HV_EINVAL &&
		    err != -HV_ENOTSUP)
			abort();
		if (in.kind != INSN_NONE || in.len != 0)
			abort();
		return;
	}
	if (in.len == 0 || in.len > INSN_MAX_LEN || in.len > n)
		abort();
	if (in.kind == INSN_NONE || in.kind >= INSN_KIND_COUNT)
		abort();
	if (is_vec(&in)) {
		if (in.size != 4 && in.size != 8 && in.size != 16 &&
		    in.size != 32)
			abort();
		check_vec(&in);
	} else {
		if (in.size != 1 && in.size != 2 && in.size != 4 &&
		    in.size != 8)
			abort();
		if (in.reg >= GPR_OPERAND_COUNT || in.reg_size < in.size ||
		    in.align || in.vex)
			abort();
	}
	check_pieces(&in);
	/* Decoding only the first len bytes gives the same answer. */
	{
		struct mmio_insn again;

		if (insn_decode(bytes, in.len, m, &again) != 0 ||
		    memcmp(&again, &in, sizeof(in)) != 0)
			abort();
	}
	check_helpers(&in, df);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;
	size_t n;

	if (size < 1)
		return 0;
	n = size - 1;
	copy = malloc(n ? n : 1);
	if (copy == NULL)
		return 0;
	memcpy(copy, data + 1, n);
	check_decode(copy, n, (enum insn_mode)(data[0] % 3), data[0] & 0x80);
	free(copy);
	return 0;
}
