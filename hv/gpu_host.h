/* The physical GPU the vGPU mediator runs on (hv/gpu_host.c). */
#ifndef HV_GPU_HOST_H
#define HV_GPU_HOST_H

#include <stdbool.h>
#include "boot/config.h"

struct gvt;

/* Create the model + mediator if any VM in cfg asks for a vGPU. */
void gpu_host_init(const struct hv_config *cfg, bool real_gpu_present);
/* The mediator, or NULL when none was created. */
struct gvt *gpu_host_gvt(void);

/* A vGPU for the VM just created with id from its hv.cfg section. */
void gpu_host_vgpu_create(const struct hvcfg_vm *c, uint32_t id);
/* Prints VM vm_id's vGPU: GM ranges and counters (false: it has none). */
bool gpu_host_report(unsigned vm_id);
/* gvt_poll, when a mediator exists (VM scheduler, once per round). */
void gpu_host_poll(void);

#endif
