/* hv.cfg vtd_selftest=edu: DMA through the iGPU's VT-d tables from
 * QEMU's edu device (hv/vtd/vtd_selftest.c). */
#ifndef HV_VTD_SELFTEST_H
#define HV_VTD_SELFTEST_H

/* At boot, before the GPU comes up: find edu, program the unit that
 * covers it if no unit covers 00:02.0, put edu behind the iGPU's tables
 * (so everything the mediator allocates afterwards is tracked as on the
 * iGPU's unit). */
void vtd_selftest_prepare(void);
/* After boot: the DMA checks; one console line each, then PASS/FAIL. */
void vtd_selftest_edu(void);

#endif
