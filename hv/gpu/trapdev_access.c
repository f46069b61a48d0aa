/* Emulating one access to the model-behind-MMIO GPU (trapdev_access.h). */
#include "hv/gpu/trapdev_access.h"
#include "hv/hv_errno.h"
#include "hv/vmx/insn_decode.h"

bool trapdev_claims(const struct trapdev *td, uint64_t addr)
{
	return (addr >= td->bar0 && addr - td->bar0 < GEN9_BAR0_SIZE) ||
	       (addr >= td->bar2 && addr - td->bar2 < td->bar2_size);
}

/* Registers are 32-bit: a 64-bit access is the two halves, low first (as
 * the device splits a qword TLP to a register pair); narrower reads take
 * bytes of the dword, narrower writes are not something i915 does. */
static uint64_t reg_read(struct trapdev *td, uint32_t off, unsigned size)
{
	uint32_t lo;

	td->reg_reads++;
	if (size == 8)
		return gen9_model_read32(td->model, off) |
		       (uint64_t)gen9_model_read32(td->model, off + 4) << 32;
	lo = gen9_model_read32(td->model, off & ~3u);
	return (lo >> (8 * (off & 3))) & gpr_size_mask(size);
}

static void reg_write(struct trapdev *td, uint32_t off, unsigned size,
		      uint64_t val)
{
	td->reg_writes++;
	if (size < 4 || (off & 3)) {
		td->odd++;
		return;
	}
	gen9_model_write32(td->model, off, (uint32_t)val);
	if (size == 8)
		gen9_model_write32(td->model, off + 4, (uint32_t)(val >> 32));
}

/* A PTE is 64 bits; dword halves are read or merged like the hardware's
 * GSM does for 32-bit accesses. */
static uint64_t pte_read(struct trapdev *td, uint32_t off, unsigned size)
{
	uint32_t idx = off / 8, shift = 8 * (off & 7);

	td->pte_reads++;
	if (idx >= td->model->ggtt_entries)
		return gpr_size_mask(size);
	return (gen9_model_ggtt_read(td->model, idx) >> shift) &
	       gpr_size_mask(size);
}

static void pte_write(struct trapdev *td, uint32_t off, unsigned size,
		      uint64_t val)
{
	uint32_t idx = off / 8, shift = 8 * (off & 7);
	uint64_t mask = gpr_size_mask(size) << shift, pte;

	td->pte_writes++;
	if (idx >= td->model->ggtt_entries || (off & (size - 1))) {
		td->odd++;
		return;
	}
	pte = gen9_model_ggtt_read(td->model, idx);
	gen9_model_ggtt_write(td->model, idx, (pte & ~mask) |
				      ((val << shift) & mask));
}

static uint64_t bar0_rw(struct trapdev *td, uint32_t off, unsigned size,
			bool write, uint64_t val)
{
	if (off < GEN9_MMIO_SIZE && off + size <= GEN9_MMIO_SIZE) {
		if (!write)
			return reg_read(td, off, size);
		reg_write(td, off, size, val);
	} else if (off >= GEN9_GGTT_OFFSET) {
		if (!write)
			return pte_read(td, off - GEN9_GGTT_OFFSET, size);
		pte_write(td, off - GEN9_GGTT_OFFSET, size, val);
	} else {
		td->odd++;
	}
	return write ? 0 : gpr_size_mask(size);
}

/* The aperture: what the GGTT entry names; an unmapped page reads ones. */
static uint64_t bar2_rw(struct trapdev *td, uint64_t off, unsigned size,
			bool write, uint64_t val)
{
	uint64_t v = write ? val : 0;

	td->ap_bytes += size;
	if (gen9_model_aperture_rw(td->model, off, &v, size, write)) {
		td->odd++;
		return gpr_size_mask(size);
	}
	return v;
}

static uint64_t dev_rw(struct trapdev *td, uint64_t addr, unsigned size,
		       bool write, uint64_t val)
{
	if (addr >= td->bar0 && addr - td->bar0 < GEN9_BAR0_SIZE)
		return bar0_rw(td, (uint32_t)(addr - td->bar0), size, write,
			       val);
	return bar2_rw(td, addr - td->bar2, size, write, val);
}

int trapdev_access(struct trapdev *td, uint64_t addr, const uint8_t *code,
		   size_t code_len, struct guest_regs *regs,
		   uint8_t *insn_len)
{
	struct mmio_insn insn;
	unsigned acc;

	/* The hypervisor is built without vector registers (mk/efi.mk), so
	 * its own accesses are never SSE moves: refused like string moves. */
	if (insn_decode(code, code_len, INSN_MODE_64, &insn) ||
	    insn.kind == INSN_STOS || insn.kind == INSN_MOVS ||
	    insn.kind == INSN_VEC_LOAD || insn.kind == INSN_VEC_STORE)
		return -HV_ENOTSUP;
	acc = mmio_insn_access(&insn);
	if (acc & MMIO_ACCESS_WRITE)
		(void)dev_rw(td, addr, insn.size, true,
			     mmio_insn_store_value(&insn, regs));
	else
		mmio_insn_complete_load(&insn, regs,
					dev_rw(td, addr, insn.size, false, 0));
	*insn_len = insn.len;
	return 0;
}
