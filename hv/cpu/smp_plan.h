/* From the firmware's list of logical CPUs to what the BSP starts: pure,
 * host-tested (test_smp_plan). The list is the MADT's enabled CPUs, or
 * UEFI's MP services where there is no MADT (hv/smp.c). */
#ifndef HV_SMP_PLAN_H
#define HV_SMP_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "boot/boot_info.h"

#define SMP_MAX_CPUS 64
/* xAPIC destinations are 8 bits and 0xFF is the broadcast: an AP with a
 * larger id can only be named in x2APIC mode. */
#define SMP_XAPIC_MAX_ID 0xfe

enum smp_skip {
	SMP_SKIP_DUPLICATE,	/* listed twice (LAPIC and x2APIC entries) */
	SMP_SKIP_XAPIC_ID,	/* id > 0xFE, our LAPIC in xAPIC mode */
	SMP_SKIP_TOO_MANY,	/* past SMP_MAX_CPUS */
};

struct smp_plan {
	uint32_t nr_listed;	/* entries in the list */
	uint32_t bsp_apic_id;
	bool bsp_listed;	/* the BSP's id was in the list */
	uint32_t nr_aps;	/* to start, in list order */
	uint32_t ap_apic_id[SMP_MAX_CPUS];
	uint32_t nr_skipped;
	struct {
		uint32_t apic_id;
		enum smp_skip why;
	} skipped[SMP_MAX_CPUS];
	uint32_t skipped_dropped; /* skips past the array, only counted */
};

/* ids: the list's APIC ids (n of them); bsp: ours; x2apic: our LAPIC's
 * mode (the APs' ids are then 32 bits). */
void smp_plan_build(const uint32_t *ids, uint32_t n, uint32_t bsp,
		    bool x2apic, struct smp_plan *out);
const char *smp_skip_name(enum smp_skip why);

/* A run of `pages` usable pages below AP_TRAMP_LIMIT (hv/cpu/ap_tramp.h)
 * in the memory map, for when the loader reserved none: the page
 * allocator never hands out memory below 1 MiB (hv/mm/page_alloc.h), so
 * they are free. The highest such run (page 0 and the BIOS data area at
 * the bottom are left alone); 0 when there is none. */
uint64_t smp_find_trampoline(const struct mem_range *map, uint32_t n,
			     uint32_t pages);

#endif
