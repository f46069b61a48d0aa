/* Shell commands about vGPUs: vgpus (per vGPU GM ranges and counters).
 * gtt, slots and balloon are not here yet (see the issue 8 report). */
#include "gpu/vgpu/vgpu.h"
#include "hv/console.h"
#include "hv/gpu_host.h"
#include "hv/shell.h"
#include "hv/vm/vm.h"
#include "mini/stdio.h"

/* Two lines per vGPU; also printed for every VM when a test run ends. */
bool gpu_host_report(unsigned vm_id)
{
	struct gvt *gvt = gpu_host_gvt();
	struct vgpu *v = gvt ? gvt_vgpu_by_vm(gvt, vm_id) : NULL;
	const struct vgpu_stats *s;
	uint64_t lb, ls, hb, hs;

	if (!v)
		return false;
	s = vgpu_get_stats(v);
	vgpu_gm_ranges(v, &lb, &ls, &hb, &hs);
	kprintf("vgpu %d (vm %u '%s'): low %llx+%llx high %llx+%llx%s\n",
		vgpu_id(v), vm_id, vms[vm_id].name, (unsigned long long)lb,
		(unsigned long long)ls, (unsigned long long)hb,
		(unsigned long long)hs, vgpu_failed(v) ? " FAILED" : "");
	kprintf("  mmio r/w %llu/%llu  pvinfo %llu  ggtt writes %llu invalid "
		"%llu  pte traps %llu  elsp %llu  workloads %llu done %llu "
		"failed %llu rejected %llu  irqs %llu  switches %llu  ggtt "
		"copied %llu  ladder %llu  on-hw %llu ns\n",
		(unsigned long long)s->mmio_reads,
		(unsigned long long)s->mmio_writes,
		(unsigned long long)s->pvinfo_reads,
		(unsigned long long)s->ggtt_writes,
		(unsigned long long)s->ggtt_invalid,
		(unsigned long long)s->pte_traps,
		(unsigned long long)s->elsp_submits,
		(unsigned long long)s->workloads,
		(unsigned long long)s->workloads_done,
		(unsigned long long)s->workloads_failed,
		(unsigned long long)s->workloads_rejected,
		(unsigned long long)s->irqs_injected,
		(unsigned long long)s->vgpu_switches,
		(unsigned long long)s->gm_entries_copied,
		(unsigned long long)s->ladder_updates,
		(unsigned long long)s->ns_on_hw);
	return true;
}

static int cmd_vgpus(int argc, char **argv)
{
	unsigned n = 0;

	(void)argc;
	(void)argv;
	if (!gpu_host_gvt()) {
		kprintf("no GPU mediator (no VM has vgpu_* keys)\n");
		return 0;
	}
	for (unsigned i = 0; i < nr_vms; i++)
		n += gpu_host_report(i);
	if (!n)
		kprintf("no vGPUs\n");
	return 0;
}

const struct shell_cmd shell_vgpu_cmds[] = {
	{ "vgpus", "", "vGPUs: GM ranges, MMIO/GGTT/workload counters",
	  cmd_vgpus },
};
const unsigned shell_vgpu_nr_cmds =
	sizeof(shell_vgpu_cmds) / sizeof(shell_vgpu_cmds[0]);
