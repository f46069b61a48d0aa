/* The end of a VM's vGPU; see gpu_teardown.h.
 *
 * A stopped VM's vGPU is destroyed the round after it stopped (restarted
 * from the shell later, the VM comes back without one): vgpu_destroy
 * takes it off the GPU, releases its slots (gScale) or GM and fences, its
 * shadow contexts and PPGTTs, unmaps the ladder (aperture) pages from its
 * EPT and clears every GGTT entry it had, in its shadow and in the
 * hardware table, so no entry is left pointing at memory of a VM that is
 * gone and a vGPU created later can take the slots. Deferred to the main loop on
 * purpose (the VM's device registry calls the vGPU's teardown hook from
 * there, hv/vm/vdev.c vdev_teardown_stopped): vm_stop is called from exit
 * handlers that may be inside the mediator. What the vGPU did stays as a
 * summary for `vgpus` and the end of a test run. */
#include "gpu/vgpu/vgpu.h"
#include "hv/console/console.h"
#include "hv/gpu/gpu_balloon.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/gpu_teardown.h"
#include "hv/vm/vm.h"
#include "mini/string.h"

struct vgpu_summary {
	bool valid;
	struct gpu_vgpu_lines l;
};

static struct vgpu_summary summary[VM_MAX];

void gpu_teardown_vgpu(unsigned vm_id, struct vgpu *v)
{
	struct vgpu_summary *s;

	if (vm_id >= VM_MAX || !v)
		return;
	s = &summary[vm_id];
	memset(s, 0, sizeof(*s));
	s->valid = true;
	gpu_host_vgpu_lines(v, vm_id, &s->l);
	s->l.torn_down = true;
	gpu_balloon_forget(vm_id);
	vgpu_destroy(v);
	gpu_host_print_vgpu(&s->l);
}

bool gpu_teardown_report(unsigned vm_id)
{
	if (vm_id >= VM_MAX || !summary[vm_id].valid)
		return false;
	gpu_host_print_vgpu(&summary[vm_id].l);
	return true;
}
