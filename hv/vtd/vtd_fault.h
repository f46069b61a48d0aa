/* DMA faults a VT-d unit recorded (spec 7.2.1, 10.4.14): read from its
 * fault recording registers (FRCD at CAP.FRO), decoded, cleared, counted,
 * and reported once per (device, page) so a device hammering one page
 * does not flood the console.
 *
 * Polled from the hypervisor's main loop: the hypervisor runs with
 * interrupts off, so the fault event (FECTL/FEDATA/FEADDR, an MSI) stays
 * masked and FSTS.PPF is read instead. */
#ifndef HV_VTD_FAULT_H
#define HV_VTD_FAULT_H

#include <stdbool.h>
#include <stdint.h>

struct vtd_unit;

/* One fault recording register (128 bits). */
struct vtd_fault {
	bool valid;		/* F */
	bool read;		/* T: 1 read, 0 write */
	uint8_t reason;		/* FR, spec appendix A */
	uint16_t source;	/* SID: bus << 8 | devfn */
	uint64_t addr;		/* FI: the page the DMA went to */
};

void vtd_fault_decode(uint64_t lo, uint64_t hi, struct vtd_fault *f);
/* "write to a page without write permission", ...; never NULL. */
const char *vtd_fault_reason_name(uint8_t reason);

#define VTD_FAULT_PAGES 64

struct vtd_fault_log {
	uint64_t total;		/* records read */
	uint64_t repeats;	/* on a (device, page) already reported */
	uint64_t unlisted;	/* new pages past VTD_FAULT_PAGES: counted */
	uint64_t overflows;	/* FSTS.PFO: faults the unit could not record */
	uint64_t queue_errors;	/* FSTS.ICE/ITE (IQE: vtd_unit's stats) */
	unsigned nr_pages;	/* distinct pages reported, in pages[] */
	struct vtd_fault pages[VTD_FAULT_PAGES];
	struct vtd_fault last;
};

/* Reads and clears every pending record of u; report(f) is called for the
 * first fault on each (device, page). Returns the records read. */
unsigned vtd_fault_poll(struct vtd_unit *u, struct vtd_fault_log *log,
			void (*report)(const struct vtd_fault *f));

#endif
