/* VT-d kept in step with the VMs (vtd_vms.h). Orchestration level: it
 * reads the VM table and tells hv/vtd/vtd.c, which knows nothing of VMs. */
#include "hv/vtd/vtd_vms.h"
#include "hv/mm/mem.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vm.h"
#include "hv/vtd/vtd.h"

void vtd_poll(void)
{
	if (!vtd_active())
		return;
	for (unsigned i = 0; i < nr_vms; i++) {
		const struct vm *vm = &vms[i];

		/* A device of it (the vGPU) reaches its RAM by DMA. */
		vtd_vm_ram(i, vm->name,
			   vdev_any_dma(vm) && vm->state != VM_STOPPED,
			   hv_pa(vm->ram), vm->mem_bytes);
	}
	vtd_poll_faults();
}
