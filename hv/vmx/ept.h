/* Extended page tables for one VM (SDM Vol. 3C 29.3).
 *
 * A 4-level tree (PML4 -> PDPT -> PD -> PT) mapping guest-physical to
 * host-physical addresses. ept_map() uses 2 MiB pages wherever the guest
 * address, the host address and the remaining size are all 2 MiB aligned,
 * 4 KiB pages elsewhere, and splits a 2 MiB page into 512 4 KiB entries
 * (same translation, permissions and memory type) when part of it must
 * change: ept_protect() on one guest page-table page inside a large mapping
 * is the GPU mediator's write-protection case.
 *
 * All-or-nothing updates. ept_map/unmap/protect first prepare the tree
 * (allocate tables, split large pages; the guest cannot tell, since every
 * translation stays the same), then change the leaves, which cannot fail.
 * So on -HV_ENOMEM (or -HV_ENOENT from ept_protect) no translation has
 * changed; the tree may keep some extra tables or split pages, which are
 * still owned by the ept and freed by ept_destroy().
 *
 * TLB invalidation is the caller's (INVEPT runs on the machine only).
 * After changes that a CPU may have cached, ept_flush_needed() is true;
 * the caller runs INVEPT (single-context, with ept_eptp()) on every CPU
 * that may be using this EPT, then calls ept_flush_done(), which also
 * frees table pages detached from the tree: a CPU's paging-structure cache
 * may point into them until the INVEPT, so they must not be reused before.
 * Changes that only add access (map where nothing was mapped, protect from
 * R to RW) do not set the flag: the SDM lets software skip INVEPT for them,
 * because a stale, more restrictive cached entry only causes an EPT
 * violation, which itself invalidates the stale entry (SDM 29.4.3). The
 * EPT-violation handler must therefore treat an exit for an access that
 * ept_translate() says is allowed as spurious and simply resume.
 *
 * Not thread-safe: one writer per ept at a time (the caller's lock). */
#ifndef HV_VMX_EPT_H
#define HV_VMX_EPT_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/vmx/vmx_defs.h"

/* Permissions (the EPT entry's bits 2:0). Valid sets are R, RW, RX, RWX:
 * write-without-read is an EPT misconfiguration (SDM 29.3.3.1) and
 * execute-only needs a CPU capability we do not rely on. */
#define EPT_R	1u
#define EPT_W	2u
#define EPT_X	4u
#define EPT_RW	(EPT_R | EPT_W)
#define EPT_RX	(EPT_R | EPT_X)
#define EPT_RWX	(EPT_R | EPT_W | EPT_X)

/* Memory type argument: MEMTYPE_UC/WC/WT/WP/WB (vmx_defs.h), optionally
 * ORed with EPT_IGNORE_PAT. Without it the effective type combines the EPT
 * type with the guest's PAT (SDM 29.3.7.2), which is what guest RAM wants
 * (WB, and the guest may still map its framebuffer WC); with it the EPT
 * type wins, for pages whose caching the guest must not weaken. Device MMIO
 * passed through uses UC. */
#define EPT_IGNORE_PAT	0x100u

#define EPT_PAGE_4K	0x1000ull
#define EPT_PAGE_2M	0x200000ull
#define EPT_PAGE_1G	0x40000000ull
#define EPT_GPA_LIMIT	(1ull << 48)	/* 4-level walk: 48-bit GPAs */
#define EPT_HPA_LIMIT	(1ull << 52)	/* architectural MAXPHYADDR bound */

struct ept {
	uint64_t *pml4;		/* NULL until ept_init() */
	uint64_t deferred;	/* first detached table awaiting INVEPT (a
				 * host-physical address; 0 = none) */
	uint32_t table_pages;	/* paging-structure pages in the tree */
	uint32_t deferred_pages; /* detached, freed by ept_flush_done() */
	uint32_t splits;	/* large pages split into 512 smaller ones */
	bool flush_needed;
};

/* Result of a lookup: host address for the exact gpa asked about, the size
 * of the page mapping it, permissions (EPT_R/W/X) and memory type
 * (MEMTYPE_*, | EPT_IGNORE_PAT if set). */
struct ept_xlat {
	uint64_t hpa;
	uint64_t page_size;
	unsigned perms;
	unsigned memtype;
};

/* Allocates the PML4. 0 or -HV_ENOMEM. */
int ept_init(struct ept *ept);

/* Frees every table page, including detached ones. The EPT must no longer
 * be in use by any CPU. Safe on a zeroed or already destroyed ept. */
void ept_destroy(struct ept *ept);

/* Map [gpa, gpa+size) to [hpa, hpa+size), replacing whatever was mapped
 * there. gpa, hpa and size are 4 KiB multiples, size > 0.
 * Returns 0; -HV_EINVAL (alignment, perms, memtype, uninitialised ept);
 * -HV_ERANGE (gpa range beyond 2^48 or hpa range beyond 2^52);
 * -HV_ENOMEM (no translation changed, see above). */
int ept_map(struct ept *ept, uint64_t gpa, uint64_t hpa, uint64_t size,
	    unsigned perms, unsigned memtype);

/* Remove any mapping in [gpa, gpa+size); unmapped holes are fine. Tables
 * wholly inside the range are detached (freed at ept_flush_done()).
 * Errors as ept_map (-HV_ENOMEM when a large page straddling an end of the
 * range cannot be split). */
int ept_unmap(struct ept *ept, uint64_t gpa, uint64_t size);

/* Change the permissions of every page in [gpa, gpa+size), keeping address
 * and memory type; splits large pages straddling the range's ends. Every
 * page must be mapped: -HV_ENOENT otherwise, with no permission changed. */
int ept_protect(struct ept *ept, uint64_t gpa, uint64_t size,
		unsigned perms);

/* 0 and *out filled, -HV_ENOENT if gpa is not mapped, -HV_ERANGE beyond
 * 2^48, -HV_EINVAL for an uninitialised ept. */
int ept_translate(const struct ept *ept, uint64_t gpa, struct ept_xlat *out);

/* The VMCS EPT pointer (SDM 25.6.11): PML4 address, 4-level walk, WB for
 * the paging structures (the caller has checked EPT_CAP_MEMTYPE_WB), and
 * accessed/dirty flags if enable_ad (needs EPT_CAP_AD). */
uint64_t ept_eptp(const struct ept *ept, bool enable_ad);

static inline bool ept_flush_needed(const struct ept *ept)
{
	return ept->flush_needed;
}

/* The caller has invalidated this EPT's cached translations on every CPU:
 * clear the flag and free the detached tables. */
void ept_flush_done(struct ept *ept);

#endif
