/* Memory types of device windows in the hypervisor's own page tables.
 *
 * The identity map (hv/mm/paging.c) gives every address the firmware MTRRs'
 * type, which is only right for MMIO below 4 GiB: a 64-bit BAR the
 * firmware placed above 4 GiB usually falls in the MTRR default type (WB
 * on most boards), and a WB register window is wrong. A device driver
 * therefore maps its BARs explicitly: registers UC, a graphics aperture WC
 * (SDM Vol. 3A 11.12: PAT wins over a WB MTRR; WC and UC win over WB).
 *
 * A range can also be declared trapped: its pages stay not present, so
 * every access faults; the #PF hook (hv/cpu/exception.c) of whoever declared
 * it emulates the access (the model-behind-MMIO device, hv/gpu/
 * gpu_trapdev.c). Mapping calls on a trapped range record the type but
 * keep the pages not present, so a driver's mapping code runs unchanged.
 *
 * Granularity is 2 MiB: BARs are naturally aligned powers of two of at
 * least 16 MiB (GTTMMADR) and 256 MiB (GMADR) on Gen9. */
#ifndef HV_PAGING_MMIO_H
#define HV_PAGING_MMIO_H

#include <stdbool.h>
#include <stdint.h>

enum paging_memtype {
	PAGING_WB,	/* what the identity map uses (PAT entry 0) */
	PAGING_UC,	/* strong uncacheable (PAT entry 3: PCD|PWT) */
	PAGING_WC,	/* write combining (PAT entry 5, set by paging_pat_init) */
};

/* Program IA32_PAT entry 5 as WC (the power-on value of 0-3 is kept, so
 * the identity map's meaning does not change). False when the CPU has no
 * PAT: WC requests then fall back to UC. */
bool paging_pat_init(void);

/* Give [base, base + size) memory type t (both 2 MiB aligned, inside the
 * identity map). 0 or -HV_EINVAL / -HV_ENOMEM. */
int paging_map_mmio(uint64_t base, uint64_t size, enum paging_memtype t);

/* Make [base, base + size) not present from now on (see above). */
int paging_trap_range(uint64_t base, uint64_t size);

/* Is addr inside a trapped range? */
bool paging_is_trapped(uint64_t addr);

const char *paging_memtype_name(enum paging_memtype t);

#endif
