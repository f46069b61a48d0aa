/* Reading a VT-d unit's fault records (vtd_fault.h). */
#include <stddef.h>
#include "hv/vtd/vtd_fault.h"
#include "hv/vtd/vtd_regs.h"
#include "hv/vtd/vtd_unit.h"

#define FI_MASK 0xfffffffffffff000ull

void vtd_fault_decode(uint64_t lo, uint64_t hi, struct vtd_fault *f)
{
	f->addr = lo & FI_MASK;
	f->source = (uint16_t)hi;
	f->reason = (uint8_t)(hi >> 32);
	f->read = (hi >> 62) & 1;
	f->valid = hi >> 63;
}

/* Legacy-mode DMA remapping fault reasons (spec appendix A). */
static const char *const reason_names[] = {
	[0x1] = "root entry not present (bus not translated)",
	[0x2] = "context entry not present (device not translated)",
	[0x3] = "context entry invalid",
	[0x4] = "address beyond the unit's address width",
	[0x5] = "write to a page without write permission",
	[0x6] = "read of a page without read permission",
	[0x7] = "second-level table entry unreadable",
	[0x8] = "root table unreadable",
	[0x9] = "context table unreadable",
	[0xa] = "reserved bits set in a root entry",
	[0xb] = "reserved bits set in a context entry",
	[0xc] = "reserved bits set in a second-level entry",
	[0xd] = "request type blocked by the context entry",
};

const char *vtd_fault_reason_name(uint8_t reason)
{
	const char *n = reason < sizeof(reason_names) / sizeof(reason_names[0])
			? reason_names[reason] : NULL;

	return n ? n : "other (VT-d spec appendix A)";
}

/* Was this (device, page) reported before? If not, remember it while
 * there is room. True when it is to be reported now. */
static bool first_on_page(struct vtd_fault_log *log, const struct vtd_fault *f)
{
	for (unsigned i = 0; i < log->nr_pages; i++)
		if (log->pages[i].source == f->source &&
		    log->pages[i].addr == f->addr) {
			log->repeats++;
			return false;
		}
	if (log->nr_pages == VTD_FAULT_PAGES) {
		log->unlisted++;
		return false;
	}
	log->pages[log->nr_pages++] = *f;
	return true;
}

unsigned vtd_fault_poll(struct vtd_unit *u, struct vtd_fault_log *log,
			void (*report)(const struct vtd_fault *f))
{
	uint32_t fsts = u->io.rd32(u->io.ctx, VTD_FSTS_REG);
	uint32_t i = VTD_FSTS_FRI(fsts) % u->nfr;
	unsigned n = 0;

	/* From the index FSTS names, round the ring while F is set. */
	for (; (fsts & VTD_FSTS_PPF) && n < u->nfr; i = (i + 1) % u->nfr) {
		uint64_t hi = u->io.rd64(u->io.ctx, VTD_FRCD_HI(u->fro, i));
		struct vtd_fault f;

		if (!(hi >> 63))
			break;
		vtd_fault_decode(u->io.rd64(u->io.ctx, VTD_FRCD_LO(u->fro, i)),
				 hi, &f);
		u->io.wr32(u->io.ctx, VTD_FRCD_F_DWORD(u->fro, i),
			   VTD_FRCD_F_BIT);
		n++;
		log->total++;
		log->last = f;
		if (first_on_page(log, &f) && report)
			report(&f);
	}
	if (fsts & VTD_FSTS_PFO)
		log->overflows++;
	if (fsts & (VTD_FSTS_ICE | VTD_FSTS_ITE))
		log->queue_errors++;
	if (fsts & (VTD_FSTS_PFO | VTD_FSTS_ICE | VTD_FSTS_ITE))
		u->io.wr32(u->io.ctx, VTD_FSTS_REG,
			   fsts & (VTD_FSTS_PFO | VTD_FSTS_ICE | VTD_FSTS_ITE));
	return n;
}
