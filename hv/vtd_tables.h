/* VT-d translation structures for one device (Intel VT-d spec 3.4-3.6,
 * 9.1-9.3, legacy mode): a root table, the context table of its bus, and
 * second-level page tables that map, 1:1, only the host-physical ranges
 * the caller allows (for the iGPU: what the mediator lets it reach).
 * Anything not allowed faults in the unit, which records it (FRCD,
 * decoded by vtd_fault_decode).
 *
 * Pure table building: hv/mem.h pages, no registers. vtd_translate walks
 * the tables as the unit does, so the host tests check the result and not
 * the bits. Programming a unit (RTADDR, SRTP, invalidations, TE) is not
 * written yet: see docs/hardware.md. */
#ifndef HV_VTD_TABLES_H
#define HV_VTD_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#define VTD_PAGE 4096ull

struct vtd_domain {
	uint64_t *root;		/* 256 root entries of 16 bytes */
	uint64_t *ctx;		/* the context table of `bus` */
	uint64_t *slpt;		/* top-level second-level table */
	unsigned levels;	/* 3 (39-bit) or 4 (48-bit) */
	uint16_t did;		/* domain id */
	uint8_t bus, devfn;
	uint64_t pages_allowed;
};

/* levels from the unit's CAP.SAGAW: 3 or 4. 0 or -HV_EINVAL/-HV_ENOMEM. */
int vtd_domain_init(struct vtd_domain *d, unsigned levels, uint16_t did,
		    uint8_t bus, uint8_t devfn);
/* Allow DMA to [hpa, hpa + len) (page aligned), read-only unless write. */
int vtd_allow(struct vtd_domain *d, uint64_t hpa, uint64_t len, bool write);
/* Take [hpa, hpa + len) back (the caller then invalidates the IOTLB). */
void vtd_deny(struct vtd_domain *d, uint64_t hpa, uint64_t len);
/* What the unit would do with a DMA from bus:devfn to iova: true and the
 * host address, or false (a translation fault). */
bool vtd_translate(const struct vtd_domain *d, uint8_t bus, uint8_t devfn,
		   uint64_t iova, bool write, uint64_t *hpa);
void vtd_domain_free(struct vtd_domain *d);

/* One fault recording register (128 bits, VT-d spec 10.4.14). */
struct vtd_fault {
	bool valid;		/* F */
	bool read;		/* T: 1 read, 0 write */
	uint8_t reason;		/* FR */
	uint16_t source;	/* SID: bus << 8 | devfn */
	uint64_t addr;		/* FI: the page the DMA went to */
};
void vtd_fault_decode(uint64_t lo, uint64_t hi, struct vtd_fault *f);

#endif
