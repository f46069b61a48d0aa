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

const char *mmio_span_problem(uint64_t qual, uint64_t gla, uint64_t gpa,
			      unsigned size, uint64_t rgpa, uint64_t rsize)
{
	if (size == 0 || size > 8)
		return "an access of impossible width";
	if ((qual & EPT_QUAL_GLA_VALID) && PAGE_OFF(gla) != PAGE_OFF(gpa))
		return "an access that began on the page before";
	if (PAGE_OFF(gpa) + size > 4096)
		return "an access crossing a page boundary";
	if (rsize && (gpa < rgpa || gpa - rgpa + size > rsize))
		return "an access running past the end of the device";
	return NULL;
}
