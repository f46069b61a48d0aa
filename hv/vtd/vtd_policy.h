/* Which pages the iGPU may reach through its VT-d unit: the guarantee
 * GVT-g gets from the host IOMMU. Allowed, 1:1 and read-write:
 *   - the RMRRs of the iGPU's unit (the stolen memory the firmware and
 *     the display keep using),
 *   - the mediator's memory (every page it takes through hv_ops'
 *     page_alloc: rings, contexts, shadow batches, status pages, the
 *     pages behind GGTT entries it lends; also its bookkeeping, which
 *     that interface does not tell apart),
 *   - the RAM of each VM that has a vGPU and has not stopped,
 *   - test buffers (the QEMU self-test, hv/vtd/vtd_selftest.c).
 * Nothing else is mapped: any other DMA faults and is reported.
 *
 * Pure bookkeeping over a struct vtd_domain; the caller invalidates the
 * unit when vtd_policy_take_flush says so. The kinds never overlap in
 * memory (RMRRs are reserved, the rest comes from the page allocator);
 * taking a range back still never removes an RMRR page. */
#ifndef HV_VTD_POLICY_H
#define HV_VTD_POLICY_H

#include <stdbool.h>
#include <stdint.h>

struct vtd_domain;

#define VTD_POLICY_MAX_RMRR	4
#define VTD_POLICY_MAX_VMS	16	/* VM_MAX */
#define VTD_POLICY_MAX_TEST	4

struct vtd_range {
	uint64_t base, len;	/* page aligned */
	bool on;
};

struct vtd_policy {
	struct vtd_domain *d;
	unsigned nr_rmrr, nr_test;
	struct vtd_range rmrr[VTD_POLICY_MAX_RMRR];
	struct vtd_range vm[VTD_POLICY_MAX_VMS];
	struct vtd_range test[VTD_POLICY_MAX_TEST];
	uint64_t mediator_pages, mediator_allocs;
	uint64_t refused;	/* requests that could not be applied */
	bool shrunk, grown;	/* since the last vtd_policy_take_flush */
};

void vtd_policy_init(struct vtd_policy *p, struct vtd_domain *d);
/* An RMRR as the DMAR gives it: base and inclusive limit. */
int vtd_policy_add_rmrr(struct vtd_policy *p, uint64_t base, uint64_t limit);
/* VM id's RAM at host [base, base + len): allowed while want, taken back
 * (all of it) when want goes false or the range changes. */
int vtd_policy_vm(struct vtd_policy *p, unsigned id, bool want,
		  uint64_t base, uint64_t len);
/* npages at hpa given to (alloc) or returned by the mediator. */
int vtd_policy_mediator(struct vtd_policy *p, uint64_t hpa, uint64_t npages,
			bool alloc);
/* A test buffer allowed or taken back. */
int vtd_policy_test(struct vtd_policy *p, uint64_t hpa, uint64_t len,
		    bool allow);
/* Must the unit's IOTLB be invalidated now? Taking pages back always
 * needs it; giving needs it only on a caching-mode unit. Clears the
 * flags. */
bool vtd_policy_take_flush(struct vtd_policy *p, bool caching_mode);

#endif
