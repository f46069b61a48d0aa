/* What a PC's firmware does to PCI before it boots an OS, for a VM booted
 * as Linux: size every BAR of every function on bus 0 through the same
 * config space the guest sees (hv/vm/vpci.c), place it inside the windows
 * the DSDT's root bridge declares (hv/vm/vacpi.h), largest first so that
 * natural alignment wastes nothing, and turn decoding on. Linux then finds
 * the BARs where the firmware left them and claims them as they are.
 *
 * The raw test image is its own firmware (it places the vGPU's BARs at
 * fixed addresses, guest-shim/testguest/gpu_test.c): its VMs are left
 * alone. A BAR that does not fit its window, or a VM whose RAM reaches the
 * memory window, is reported on the console and left unassigned. */
#ifndef HV_VM_VPCI_FW_H
#define HV_VM_VPCI_FW_H

struct vm;

/* Once the VM's devices exist (its vGPU attached), before it first runs;
 * does nothing unless the VM was booted as Linux. */
void vpci_fw_assign(struct vm *vm);
/* The device's firmware region (vdev.h fw_region: the vGPU's OpRegion)
 * at LX_FW_REGION_GPA; vpci_fw_assign does it, and vm_restart after it
 * reloaded the VM (its RAM was cleared). Linux VMs only. */
void vpci_fw_region(struct vm *vm);

#endif
