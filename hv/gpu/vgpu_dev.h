/* The virtual GPU as a device of one VM: the glue between the VM's
 * guest-physical space and its vGPU in the mediator (gpu/vgpu/vgpu.h).
 *
 * PCI config space of 00:02.0 goes to vgpu_cfg_*; the mediator tells us
 * where the guest placed its BARs (hv_ops bar_moved) and we decode them:
 * BAR0 (16 MiB: registers, GGTT entries at +8 MiB) traps on every access
 * into vgpu_mmio_*; BAR2 (the aperture) is EPT-mapped page by page by the
 * mediator's ladder mapping, and what is left unmapped (pages outside the
 * vGPU's low GM, or with no GGTT entry) traps here and reads all ones. */
#ifndef HV_VM_VGPU_DEV_H
#define HV_VM_VGPU_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vm;
struct vgpu;

/* Gives the VM its vGPU (both exist; called once at creation). */
void vgpu_dev_attach(struct vm *vm, struct vgpu *v);

/* hv_ops bar_moved: BAR `bar` (0, 2 or 4) of the VM's 00:02.0 is now at
 * base (size bytes), decoded or not. A BAR over the VM's RAM or another
 * device is not decoded (counted, logged with the VM's name). */
void vgpu_dev_bar_moved(struct vm *vm, int bar, uint64_t base, uint64_t size,
			bool enabled);

/* May the mediator EPT-map guest page gpa of this VM? Only inside its
 * decoded BAR2: never over RAM or another device. */
bool vgpu_dev_may_map(const struct vm *vm, uint64_t gpa);

#endif
