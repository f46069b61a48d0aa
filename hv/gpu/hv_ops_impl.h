/* The hypervisor's implementation of gpu/hv_ops.h, handed to the GPU
 * mediator with a NULL context (VMs are named by id in every call). */
#ifndef HV_VM_HV_OPS_IMPL_H
#define HV_VM_HV_OPS_IMPL_H

#include "gpu/hv_ops.h"

extern const struct hv_ops hv_ops_impl;

#endif
