/* The end of a VM's vGPU; see gpu_teardown.h.
 *
 * A stopped VM never runs again here (the shell cannot start it), so its
 * vGPU is destroyed the round after it stopped: vgpu_destroy takes it off
 * the GPU, releases its slots (gScale) or GM and fences, its shadow
 * contexts and PPGTTs, unmaps the ladder (aperture) pages from its EPT
 * and clears every GGTT entry it had, in its shadow and in the hardware
 * table, so no entry is left pointing at memory of a VM that is gone and
 * a vGPU created later can take the slots. Deferred to the main loop on
 * purpose: vm_stop is called from exit handlers that may be inside the
 * mediator. What the vGPU did stays as a summary for `vgpus` and the end
 * of a test run. */
#include "gpu/vgpu/vgpu.h"
#include "hv/console.h"
#include "hv/gpu/gpu_balloon.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/gpu_teardown.h"
#include "hv/hv_errno.h"
#include "hv/vm/vm.h"
#include "mini/string.h"

struct vgpu_summary {
	bool valid;
	struct gpu_vgpu_lines l;
};

static struct vgpu_summary summary[VM_MAX];

static void teardown(unsigned vm_id, struct vm *vm)
{
	struct vgpu_summary *s = &summary[vm_id];
	struct vgpu *v = vm->vgpu;

	memset(s, 0, sizeof(*s));
	s->valid = true;
	gpu_host_vgpu_lines(v, vm_id, &s->l);
	s->l.torn_down = true;
	gpu_balloon_forget(vm_id);
	/* The BARs stop decoding before the vGPU behind them goes. */
	vm->vgpu_bar[0].size = vm->vgpu_bar[1].size = 0;
	vm->vgpu = NULL;
	vgpu_destroy(v);
	gpu_host_print_vgpu(&s->l);
}

void gpu_teardown_stopped(void)
{
	for (unsigned i = 0; i < nr_vms && i < VM_MAX; i++)
		if (vms[i].vgpu && vms[i].state == VM_STOPPED)
			teardown(i, &vms[i]);
}

bool gpu_teardown_report(unsigned vm_id)
{
	if (vm_id >= VM_MAX || !summary[vm_id].valid)
		return false;
	gpu_host_print_vgpu(&summary[vm_id].l);
	return true;
}

int gpu_vgpu_restart(struct vm *vm)
{
	int err;

	if (!vm->vgpu)
		return 0;
	err = vgpu_reset_device(vm->vgpu);
	if (err)
		return -HV_EINVAL;
	vm->vgpu_bar[0].size = vm->vgpu_bar[1].size = 0;
	return 0;
}
