/* Where MMIO emulation must not go: accesses the EPT-violation handler
 * would otherwise emulate as something they are not. Generic (before and
 * independent of any device model); pure, unit-tested on the host.
 *
 * - The CPU's own page walk landed on the page (exit qualification bit 7
 *   clear, or bit 8 clear: the access was to a paging-structure entry, SDM
 *   Vol. 3C Table 28-7): the guest keeps page tables in MMIO. Emulating
 *   the instruction at RIP would perform an access the guest never made.
 * - The access crosses a 4-KiB page boundary, or the end of the device
 *   region, or began on the page before (linear and physical offsets
 *   disagree): one device access of `size` bytes would be wrong; hardware
 *   would split it between two pages. Up to 32 bytes (a YMM move) are
 *   one access here; mmio_piece cuts them into device-sized pieces.
 * Each gives the VM-stopping reason; NULL means emulate. */
#ifndef HV_VM_MMIO_EDGE_H
#define HV_VM_MMIO_EDGE_H

#include <stdbool.h>
#include <stdint.h>

const char *mmio_walk_problem(uint64_t qual);

/* "write", "instruction fetch" or "read": the exit qualification's access,
 * for messages. */
const char *mmio_access_name(uint64_t qual);

/* gla: VMCS guest-linear address (valid with qual bit 7); ea: the linear
 * address the instruction itself accesses (segment base + effective
 * address), if known; region of [rgpa, rgpa + rsize), rsize 0 = the page
 * itself. A CPU reports the piece of a split access that faulted: when
 * that is not where the instruction's access starts, the access began on
 * the page before. */
struct mmio_access {
	uint64_t qual, gla, gpa;
	unsigned size;
	bool have_ea;
	uint64_t ea;
};
const char *mmio_span_problem(const struct mmio_access *a, uint64_t rgpa,
			      uint64_t rsize);

/* An access wider than a device register (a 16- or 32-byte SSE/AVX move)
 * reaches the device as pieces, lowest address first: each the widest of
 * 8, 4, 2, 1 bytes that is naturally aligned at gpa and fits in the
 * `left` bytes still to do (0 when left is 0). A device so sees only the
 * accesses a CPU's own 8-byte moves could make. */
#define MMIO_MAX_ACCESS 32
unsigned mmio_piece(uint64_t gpa, unsigned left);

#endif
