/* MMIO accesses that cannot be emulated as one device access; see
 * mmio_edge.h. */
#include "hv/vm/mmio_edge.h"
#include "hv/vmx/vmx_defs.h"

#include <stddef.h>

#define PAGE_OFF(a)	((a) & 0xfffull)

const char *mmio_walk_problem(uint64_t qual)
{
	if (!(qual & EPT_QUAL_GLA_VALID))
		return "an access without a linear address (not an "
		       "instruction's data access)";
	if (!(qual & EPT_QUAL_GLA_TRANSLATED))
		return "the CPU's page walk (page tables there)";
	return NULL;
}

const char *mmio_access_name(uint64_t qual)
{
	return (qual & EPT_QUAL_WRITE) ? "write" :
	       (qual & EPT_QUAL_FETCH) ? "instruction fetch" : "read";
}

const char *mmio_span_problem(const struct mmio_access *a, uint64_t rgpa,
			      uint64_t rsize)
{
	bool gla_valid = (a->qual & EPT_QUAL_GLA_VALID) != 0;

	if (a->size == 0 || a->size > MMIO_MAX_ACCESS)
		return "an access of impossible width";
	if (gla_valid && (PAGE_OFF(a->gla) != PAGE_OFF(a->gpa) ||
			  (a->have_ea && a->ea != a->gla)))
		return "an access that began on the page before";
	if (PAGE_OFF(a->gpa) + a->size > 4096)
		return "an access crossing a page boundary";
	if (rsize && (a->gpa < rgpa || a->gpa - rgpa + a->size > rsize))
		return "an access running past the end of the device";
	return NULL;
}

unsigned mmio_piece(uint64_t gpa, unsigned left)
{
	unsigned n = 8;

	while (n > 1 && (n > left || (gpa & (n - 1))))
		n >>= 1;
	return left ? n : 0;
}
