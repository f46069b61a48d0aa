/* Shell commands about vGPUs: vgpus (per vGPU GM ranges and counters).
 * gtt, slots and balloon are not here yet (see the issue 8 report). */
#include "gpu/vgpu/vgpu.h"
#include "hv/console.h"
#include "hv/gpu_host.h"
#include "hv/shell.h"
#include "hv/vm/vm.h"
#include "mini/stdio.h"

static int cmd_vgpus(int argc, char **argv)
{
	struct gvt *gvt = gpu_host_gvt();
	unsigned n = 0;

	(void)argc;
	(void)argv;
	if (!gvt) {
		kprintf("no GPU mediator (no VM has vgpu_* keys)\n");
		return 0;
	}
	for (unsigned i = 0; i < nr_vms; i++) {
		struct vgpu *v = gvt_vgpu_by_vm(gvt, i);
		const struct vgpu_stats *s;
		uint64_t lb, ls, hb, hs;

		if (!v)
			continue;
		n++;
		s = vgpu_get_stats(v);
		vgpu_gm_ranges(v, &lb, &ls, &hb, &hs);
		kprintf("vgpu %d (vm %u '%s'): low %llx+%llx high %llx+%llx%s\n",
			vgpu_id(v), i, vms[i].name, (unsigned long long)lb,
			(unsigned long long)ls, (unsigned long long)hb,
			(unsigned long long)hs,
			vgpu_failed(v) ? " FAILED" : "");
		kprintf("  mmio r/w %llu/%llu  pvinfo %llu  ggtt writes %llu "
			"invalid %llu  elsp %llu  workloads %llu done %llu "
			"failed %llu  cmds rejected %llu  irqs %llu  on-hw %llu ns\n",
			(unsigned long long)s->mmio_reads,
			(unsigned long long)s->mmio_writes,
			(unsigned long long)s->pvinfo_reads,
			(unsigned long long)s->ggtt_writes,
			(unsigned long long)s->ggtt_invalid,
			(unsigned long long)s->elsp_submits,
			(unsigned long long)s->workloads,
			(unsigned long long)s->workloads_done,
			(unsigned long long)s->workloads_failed,
			(unsigned long long)s->cmds_rejected,
			(unsigned long long)s->irqs_injected,
			(unsigned long long)s->ns_on_hw);
	}
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
