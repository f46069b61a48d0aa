/* Loader for Linux bzImages (the x86 boot protocol's 64-bit entry); the
 * header rules are in hv/vm/bzimage.h. */
#ifndef HV_VM_LOADER_LINUX_H
#define HV_VM_LOADER_LINUX_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/vm/vcpu.h"

struct vm;

/* Is this VM meant to boot Linux? Yes when hv.cfg gave it a ramdisk or
 * the kernel file carries a PC boot sector or a PE/ELF signature (a
 * broken or foreign kernel is refused by loader_linux_load with its
 * reason instead of being run as a raw image). */
bool loader_linux_wants(const char *ramdisk, const void *image,
			uint64_t size);

/* The validation alone, before the VM's memory is allocated: 0, or the
 * refusal printed as loader_linux_load would and a negative HV_E*. */
int loader_linux_check(struct vm *vm, const void *image, uint64_t size,
		       uint64_t mem_bytes, uint64_t initrd_size,
		       const char *cmdline);

/* Validates the bzImage, places kernel, initrd, command line, zero page,
 * identity page tables and GDT in the VM's RAM and says where the vCPU
 * starts. On failure prints "vm 'NAME': not started: REASON" and returns
 * a negative HV_E* code. */
int loader_linux_load(struct vm *vm, const void *image, uint64_t size,
		      const void *initrd, uint64_t initrd_size,
		      const char *cmdline, struct vcpu_boot_state *bs);

#endif
