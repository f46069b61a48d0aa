/* The register arithmetic of a string I/O instruction done in chunks
 * (hv/vm/exit_io_string.c), apart from the VMCS so the host tests it
 * (tests/unit/test_strio.c).
 *
 * One exit moves at most STRIO_CHUNK elements. If the count is not used
 * up, RIP stays on the instruction and the guest re-enters it with RCX,
 * RSI/RDI advanced past what was done: exactly the state the CPU leaves
 * when an interrupt arrives between iterations of a REP (SDM Vol. 2,
 * "REP/REPE/REPZ/REPNE/REPNZ": the instruction resumes), so the guest
 * cannot tell, and no single exit does work in proportion to its count. */
#ifndef HV_VM_STRIO_H
#define HV_VM_STRIO_H

#include <stdbool.h>
#include <stdint.h>

/* Elements per exit: enough to amortize the exit, few enough that the
 * costliest device behind a port (a PCI config write moving a BAR,
 * hv/gpu/vgpu_dev.c) keeps one exit far under a millisecond. */
#define STRIO_CHUNK	16u

struct strio {
	uint64_t idx;		/* RSI (OUTS) or RDI (INS) */
	uint64_t rcx;
	uint64_t amask;		/* the address size: 16, 32 or 64 bits */
	int64_t step;		/* +size, or -size with RFLAGS.DF */
	bool rep;
};

/* The elements left to do: RCX within the address size, or 1 without
 * REP. */
uint64_t strio_left(const struct strio *s);

/* How many of them this exit does. */
uint64_t strio_chunk(const struct strio *s);

/* One element done: the index moves by step and, with REP, RCX counts
 * down, each wrapping within the address size (the bits above it stay,
 * as the CPU keeps them). */
void strio_advance(struct strio *s);

#endif
