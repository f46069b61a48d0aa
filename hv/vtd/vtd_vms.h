/* Orchestration of VT-d with the VMs (hv/vtd/vtd_vms.c). */
#ifndef HV_VTD_VMS_H
#define HV_VTD_VMS_H

/* Once per main-loop round, before the GPU runs: the RAM of each VM that
 * has a vGPU and has not stopped is what the GPU may reach (a stopped
 * VM's RAM is taken back, invalidated, before its vGPU is torn down);
 * then the unit's fault records are read and reported. */
void vtd_poll(void);

#endif
