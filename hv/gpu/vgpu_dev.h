/* The virtual GPU as a device of one VM: the glue between the VM's
 * guest-physical space and its vGPU in the mediator (gpu/vgpu/vgpu.h).
 *
 * It is registered with the VM's device registry (hv/vm/vdev.h) as the
 * "vGPU": PCI function 00:02.0, BAR0 and BAR2 as its MMIO regions, DMA
 * into the VM's RAM, and hooks (config space, write-protected page
 * stores -> vgpu_page_write, reset on a VM restart, teardown when the VM
 * stopped -> gpu_teardown.c). hv/vm knows it only through that entry;
 * the vGPU of a VM is kept here, by VM id (vgpu_dev_vgpu).
 *
 * PCI config space of 00:02.0 goes to vgpu_cfg_*; the mediator tells us
 * where the guest placed its BARs (hv_ops bar_moved) and we decode them:
 * BAR0 (16 MiB: registers, GGTT entries at +8 MiB) traps on every access
 * into vgpu_mmio_*; BAR2 (the aperture) is EPT-mapped page by page by the
 * mediator's ladder mapping, and what is left unmapped (pages outside the
 * vGPU's low GM, or with no GGTT entry) traps here and reads all ones. */
#ifndef HV_GPU_VGPU_DEV_H
#define HV_GPU_VGPU_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vm;
struct vgpu;
struct vmrpc_gm_layout;

/* Gives the VM its vGPU (both exist; called once at creation) and
 * registers it as the VM's device. */
void vgpu_dev_attach(struct vm *vm, struct vgpu *v);

/* VM vm_id's vGPU, whatever the VM's state, or NULL (none, or torn down
 * after the VM stopped). */
struct vgpu *vgpu_dev_vgpu(unsigned vm_id);

/* The guest channel's view of VM vm_id's GPU memory (hv/vm/vmrpc.h
 * vmrpc_gm_ops gm_layout): 0, or -HV_ENOENT when it has no vGPU. */
int vgpu_dev_gm_layout(unsigned vm_id, struct vmrpc_gm_layout *l);

/* hv_ops bar_moved: BAR `bar` (0, 2 or 4) of the VM's 00:02.0 is now at
 * base (size bytes), decoded or not. A BAR over the VM's RAM or another
 * device is not decoded (counted, logged with the VM's name). */
void vgpu_dev_bar_moved(struct vm *vm, int bar, uint64_t base, uint64_t size,
			bool enabled);

/* May the mediator EPT-map guest page gpa of this VM? Only inside its
 * decoded BAR2: never over RAM or another device. */
bool vgpu_dev_may_map(const struct vm *vm, uint64_t gpa);

/* The vGPU's share of VM vm_id's exits, in TSC ticks (in Bochs the TSC
 * advances with executed instructions): BAR0 accesses timed here (the
 * mediator reads no clock for them), the longest access that
 * submitted (the guest's fourth ELSP dword: validate and queue), and the
 * scheduler runs after its exits (gpu_host_after_exit), split by who
 * pays: the VM (its own work) or the hypervisor. Kept after teardown. */
struct vgpu_dev_times {
	uint64_t bar0, bar0_tsc;
	uint64_t elsp, elsp_tsc, elsp_max_tsc;
	uint64_t post_own, post_own_tsc, post_hv, post_hv_tsc, post_max_tsc;
};
const struct vgpu_dev_times *vgpu_dev_times(unsigned vm_id);
void vgpu_dev_note_post(unsigned vm_id, uint64_t ticks, bool own);
/* One console line of those (nothing when the VM never had a vGPU). */
void vgpu_dev_report_times(unsigned vm_id);

#endif
