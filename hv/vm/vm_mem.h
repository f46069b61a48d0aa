/* Guest memory of one VM: its RAM (host pages from the page allocator,
 * mapped by EPT), access to it from the hypervisor by guest-physical or
 * guest-virtual address, and the EPT operations other subsystems use (the
 * GPU mediator's hv_ops: map a guest page to a host page, write-protect,
 * translate). Every EPT change that needs it is followed by INVEPT here,
 * so callers never see a stale translation. */
#ifndef HV_VM_VM_MEM_H
#define HV_VM_VM_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "hv/vmx/ept.h"

struct vm;

/* Allocates `bytes` of RAM (2 MiB aligned host memory, so EPT uses 2 MiB
 * pages) and maps it RWX, write-back: from guest-physical 0 up to the PCI
 * hole, the rest from 4 GiB (hv/vm/vm_layout.h); vm->ram_layout says
 * where. */
int vm_mem_init(struct vm *vm, uint64_t bytes);
/* The EPT part of vm_mem_init: vm->ram mapped RWX, write-back, where
 * vm->ram_layout puts it (host tests split a few MiB around 4 GiB). */
int vm_mem_map(struct vm *vm);
void vm_mem_destroy(struct vm *vm);

/* Copy from/to guest RAM by guest-physical address. The whole range must be
 * RAM of this VM (not MMIO, not beyond its end): -HV_EFAULT otherwise, and
 * nothing is copied. Write protection does not stop the hypervisor, but a
 * write into a write-protected (shadowed) page is reported to the VM's
 * devices (hv/vm/vdev.h page_write) as the guest's own store there would
 * be: for what the hypervisor writes on the guest's behalf (loaders,
 * string I/O, the guest channel, an emulated store). */
int vm_read_gpa(struct vm *vm, uint64_t gpa, void *buf, size_t len);
int vm_write_gpa(struct vm *vm, uint64_t gpa, const void *buf, size_t len);
/* The same copy, reported to no device: a device's own writes into guest
 * memory (the GPU mediator's, through hv_ops write_gpa), which must not
 * come back to it as guest stores. */
int vm_write_gpa_direct(struct vm *vm, uint64_t gpa, const void *buf,
			size_t len);

/* Guest-virtual -> guest-physical through the guest's page tables (the
 * current VMCS's CR0/CR3/CR4; 4-level paging or paging off). 0 or
 * -HV_EFAULT (not present, or a table outside RAM). */
int vm_gva_to_gpa(struct vm *vm, uint64_t gva, uint64_t *gpa);
int vm_read_gva(struct vm *vm, uint64_t gva, void *buf, size_t len);

/* EPT changes with the INVEPT they need. perms: EPT_R/W/X. */
int vm_ept_map(struct vm *vm, uint64_t gpa, uint64_t hpa, uint64_t size,
	       unsigned perms, unsigned memtype);
int vm_ept_unmap(struct vm *vm, uint64_t gpa, uint64_t size);
int vm_ept_protect(struct vm *vm, uint64_t gpa, uint64_t size,
		   unsigned perms);
int vm_ept_translate(struct vm *vm, uint64_t gpa, struct ept_xlat *out);

#endif
