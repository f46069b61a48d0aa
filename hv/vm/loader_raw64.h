/* Loader for raw 64-bit guest images (the test guest): the contract with
 * the guest is guest-shim/include/g9hv/raw64_boot.h. */
#ifndef HV_VM_LOADER_RAW64_H
#define HV_VM_LOADER_RAW64_H

#include <stdint.h>

#include "hv/vm/vcpu.h"

struct vm;

/* Builds the guest's page tables, GDT and boot info in its RAM, copies the
 * image to RAW64_LOAD_GPA and says where the vCPU starts. 0, or
 * -HV_E2BIG when the image does not fit in the VM's RAM. */
int loader_raw64_load(struct vm *vm, const void *image, uint64_t size,
		      const char *cmdline, struct vcpu_boot_state *bs);

#endif
