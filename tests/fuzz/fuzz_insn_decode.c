/* libFuzzer target for hv/vmx/insn_decode.c.
 *
 * Input: byte 0 selects the mode (and DF for the string step), the rest are
 * the instruction bytes as fetched from guest memory. The decoder must
 * never read outside them (ASan checks: the bytes are copied into a heap
 * buffer of exactly that size), and on success the length must be at most
 * 15 and at most what it was given; the emulation helpers must be safe on
 * any successful decode. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hv/hv_errno.h"
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
	if (in.size != 1 && in.size != 2 && in.size != 4 && in.size != 8)
		abort();
	if (in.reg >= GPR_OPERAND_COUNT || in.reg_size < in.size)
		abort();
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
