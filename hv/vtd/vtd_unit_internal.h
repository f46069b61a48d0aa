/* What hv/vtd/vtd_unit.c and hv/vtd/vtd_inval.c share: bounded waits on the
 * unit's registers and the GCMD/GSTS handshake. Not for other callers. */
#ifndef HV_VTD_UNIT_INTERNAL_H
#define HV_VTD_UNIT_INTERNAL_H

#include "hv/vtd/vtd_unit.h"

/* Polls until (register & mask) == want, at most VTD_TIMEOUT_US; on
 * timeout counts it, names step in u->failed_step, -HV_ETIMEDOUT. */
int vtd_wait32(struct vtd_unit *u, uint32_t off, uint32_t mask,
	       uint32_t want, const char *step);
int vtd_wait64(struct vtd_unit *u, uint32_t off, uint64_t mask,
	       uint64_t want, const char *step);
/* Writes GCMD with cmd set (on) or clear, the other persistent commands
 * as GSTS shows them, and waits for GSTS to follow. */
int vtd_gcmd(struct vtd_unit *u, uint32_t cmd, bool on, const char *step);

#endif
