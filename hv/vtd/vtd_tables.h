/* VT-d translation structures for one domain (Intel VT-d spec 3.4-3.6,
 * 9.1-9.3, legacy mode): a root table, the context tables of the buses its
 * devices sit on, and second-level page tables that map, 1:1, only the
 * host-physical ranges the caller allows (for the iGPU: what the mediator
 * lets it reach, hv/vtd/vtd_policy.c). Anything not allowed faults in the
 * unit, which records it (hv/vtd/vtd_fault.c).
 *
 * Pure table building: hv/mm/mem.h pages, no registers (programming the unit
 * that walks them: hv/vtd/vtd_unit.c). vtd_translate walks the tables as the
 * unit does, so the host tests check the result and not the bits.
 *
 * A unit whose page walks do not snoop the CPU caches (ECAP.C = 0) reads
 * memory, not the cache: every entry written and every new table page is
 * then passed to the domain's flush hook (clflush on the machine) before
 * the unit may see it. */
#ifndef HV_VTD_TABLES_H
#define HV_VTD_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#define VTD_PAGE 4096ull

#define VTD_DOMAIN_MAX_DEVS 4

struct vtd_domain {
	uint64_t *root;		/* 256 root entries of 16 bytes */
	uint64_t *slpt;		/* top-level second-level table */
	unsigned levels;	/* 3 (39-bit) or 4 (48-bit) */
	uint16_t did;		/* domain id */
	unsigned nr_devs;
	uint16_t devs[VTD_DOMAIN_MAX_DEVS];	/* bus << 8 | devfn */
	uint64_t pages_allowed;
	/* NULL on a coherent unit; else called for every byte range of a
	 * table the unit reads, after it was written. */
	void (*flush)(const void *p, unsigned long n);
};

/* levels from the unit's CAP.SAGAW: 3 or 4; the first device bus:devfn.
 * flush: see above (NULL: coherent). 0 or -HV_EINVAL/-HV_ENOMEM. */
int vtd_domain_init(struct vtd_domain *d, unsigned levels, uint16_t did,
		    uint8_t bus, uint8_t devfn,
		    void (*flush)(const void *p, unsigned long n));
/* Another device translated by the same tables (the caller then
 * invalidates the unit's context cache). 0, -HV_EEXIST, -HV_ENOSPC or
 * -HV_ENOMEM. */
int vtd_domain_attach(struct vtd_domain *d, uint8_t bus, uint8_t devfn);
/* Takes the device's context entry away again (then invalidate). */
void vtd_domain_detach(struct vtd_domain *d, uint8_t bus, uint8_t devfn);
/* Allow DMA to [hpa, hpa + len) (page aligned), read-only unless write. */
int vtd_allow(struct vtd_domain *d, uint64_t hpa, uint64_t len, bool write);
/* Take [hpa, hpa + len) back (the caller then invalidates the IOTLB). */
void vtd_deny(struct vtd_domain *d, uint64_t hpa, uint64_t len);
/* What the unit would do with a DMA from bus:devfn to iova: true and the
 * host address, or false (a translation fault). */
bool vtd_translate(const struct vtd_domain *d, uint8_t bus, uint8_t devfn,
		   uint64_t iova, bool write, uint64_t *hpa);
void vtd_domain_free(struct vtd_domain *d);

#endif
