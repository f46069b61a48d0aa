/* hv.cfg vtd_selftest=edu: DMA through the iGPU's VT-d tables from
 * QEMU's edu device (hv/vtd_selftest.c). */
#ifndef HV_VTD_SELFTEST_H
#define HV_VTD_SELFTEST_H

void vtd_selftest_edu(void);

#endif
