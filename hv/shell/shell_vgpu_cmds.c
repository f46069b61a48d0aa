/* Shell commands about vGPUs: vgpus (per vGPU GM ranges and counters), gtt
 * (GGTT entries as the guest wrote them and as the GPU gets them), slots
 * (gScale's high-GM slots and who shares them), sched (GPU and VM
 * scheduling); ppgtt (gHyvi's policy of a vGPU) and balloon (gBalloon's
 * resize of its high GM) change state. Parse and validate first, then act. */
#include "gpu/ghyvi/ghyvi.h"
#include "gpu/vgpu/vgpu.h"
#include "hv/console/console.h"
#include "hv/gpu/gpu_balloon.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/gpu_place.h"
#include "hv/hv_errno.h"
#include "hv/shell/shell.h"
#include "hv/cpu/x86.h"
#include "hv/vm/vm.h"
#include "hv/vm/vmrpc.h"
#include "guest-shim/include/g9hv/vmrpc.h"
#include "mini/stdio.h"
#include "mini/stdlib.h"
#include "mini/string.h"

#define GTT_MAX_COUNT 64

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
		if (gpu_host_report(i)) {
			gpu_place_report(i);
			n++;
		}
	if (!n)
		kprintf("no vGPUs\n");
	gpu_place_summary();
	return 0;
}

/* A vGPU by its id ("2") or by its VM's name; NULL with a message. */
static struct vgpu *parse_vgpu(const char *arg, unsigned *vm_id)
{
	struct gvt *gvt = gpu_host_gvt();
	char *end;
	unsigned long long id = strtoull(arg, &end, 10);

	for (unsigned i = 0; gvt && i < nr_vms; i++) {
		struct vgpu *v = gvt_vgpu_by_vm(gvt, i);

		if (v && ((*arg && !*end && (unsigned long long)vgpu_id(v) == id) ||
			  !strcmp(vms[i].name, arg))) {
			*vm_id = i;
			return v;
		}
	}
	kprintf("no vGPU '%s' ('vgpus' lists them)\n", arg);
	return NULL;
}

static bool parse_u64(const char *arg, uint64_t *out)
{
	char *end;

	*out = strtoull(arg, &end, 0);
	if (!*arg || *end) {
		kprintf("'%s' is not a number\n", arg);
		return false;
	}
	return true;
}

static int cmd_gtt(int argc, char **argv)
{
	uint64_t index, count = 1, guest, host;
	struct vgpu *v;
	unsigned vm_id;

	if (argc < 3 || argc > 4) {
		kprintf("usage: gtt <vgpu> <index> [count]\n");
		return -1;
	}
	v = parse_vgpu(argv[1], &vm_id);
	if (!v || !parse_u64(argv[2], &index) ||
	    (argc == 4 && !parse_u64(argv[3], &count)))
		return -1;
	if (!count || count > GTT_MAX_COUNT || index > UINT32_MAX) {
		kprintf("count must be 1..%u, index below 2^32\n",
			GTT_MAX_COUNT);
		return -1;
	}
	for (uint64_t i = index; i < index + count; i++) {
		if (vgpu_ggtt_entry(v, (uint32_t)i, &guest, &host)) {
			kprintf("  %8llx  (GM %llx) not in vGPU %d's ranges\n",
				(unsigned long long)i,
				(unsigned long long)(i << 12), vgpu_id(v));
			continue;
		}
		kprintf("  %8llx  GM %9llx  guest %016llx  host %016llx%s\n",
			(unsigned long long)i, (unsigned long long)(i << 12),
			(unsigned long long)guest, (unsigned long long)host,
			(guest & 1) && !(host & 1) ? "  (dropped)" : "");
	}
	return 0;
}

static int cmd_slots(int argc, char **argv)
{
	struct gvt *gvt = gpu_host_gvt();
	struct gvt_status st;
	uint32_t users, first, n;

	(void)argc;
	(void)argv;
	if (!gvt) {
		kprintf("no GPU mediator (no VM has vgpu_* keys)\n");
		return 0;
	}
	gvt_get_status(gvt, &st);
	if (!st.gscale) {
		kprintf("gVirt partition: no slots (each vGPU has its own GM)\n");
		return 0;
	}
	kprintf("%u slots of %llu MiB from GM %llx; vGPUs per slot:\n",
		st.nr_slots, (unsigned long long)(st.slot_bytes >> 20),
		(unsigned long long)st.high_base);
	for (uint32_t i = 0; i < st.nr_slots; i++)
		if (!gvt_slot_users(gvt, i, &users) && users)
			kprintf("  slot %3u  %u vGPU%s%s\n", i, users,
				users == 1 ? "" : "s",
				users > 1 ? " (shared: copied at switches)" : "");
	for (unsigned i = 0; i < nr_vms; i++) {
		struct vgpu *v = gvt_vgpu_by_vm(gvt, i);

		if (v && !vgpu_slots(v, &first, &n)) {
			kprintf("  vgpu %d (%s): slots ", vgpu_id(v),
				vms[i].name);
			gpu_place_print_runs(v);
			kprintf("\n");
		}
	}
	return 0;
}

static int cmd_sched(int argc, char **argv)
{
	struct gvt *gvt = gpu_host_gvt();
	struct gvt_status st;

	(void)argc;
	(void)argv;
	kprintf("CPU: deficit round robin, one slice of budget per runnable VM "
		"per round, 1 ms floor; steal = time runnable but waiting "
		"(gBalloon's w)\n");
	for (unsigned i = 0; i < nr_vms; i++) {
		const struct vm_stats *vs = &vms[i].stats;
		uint64_t life = rdtsc() - vs->start_tsc;

		kprintf("  vm %u %-12s %-8s steal %llu.%llu%%\n", i,
			vms[i].name, vm_state_name(vms[i].state),
			(unsigned long long)(life ? vs->steal_tsc * 100 / life : 0),
			(unsigned long long)(life ? vs->steal_tsc * 1000 / life
							% 10 : 0));
	}
	if (!gvt)
		return 0;
	gvt_get_status(gvt, &st);
	kprintf("GPU: %u vGPUs, %llu ms slices, on the GPU now: %s%d; %s, "
		"%llu switches, %llu GGTT entries copied (+%llu ahead)\n",
		st.nr_vgpus, (unsigned long long)(st.timeslice_ns / 1000000),
		st.owner ? "vgpu " : "none ", st.owner,
		st.gscale ? "gScale" : "gVirt",
		(unsigned long long)st.switches,
		(unsigned long long)st.entries_copied,
		(unsigned long long)st.entries_prefetched);
	kprintf("  copying GGTT entries took %llu.%llu%% of the CPU (gBalloon's "
		"R_copy, since the mediator started)\n",
		(unsigned long long)(gpu_host_rcopy_permille() / 10),
		(unsigned long long)(gpu_host_rcopy_permille() % 10));
	gpu_host_print_resets(true);
	gpu_balloon_print();
	for (unsigned i = 0; i < nr_vms; i++) {
		struct vgpu *v = gvt_vgpu_by_vm(gvt, i);
		const struct vgpu_stats *s = v ? vgpu_get_stats(v) : NULL;

		if (s)
			kprintf("  vgpu %d (%s): %s, %llu workloads, %llu ms on "
				"the GPU, switched in %llu times\n", vgpu_id(v),
				vms[i].name, vgpu_failed(v) ? "failed" :
				vgpu_busy(v) ? "busy" : "idle",
				(unsigned long long)s->workloads,
				(unsigned long long)(s->ns_on_hw / 1000000),
				(unsigned long long)s->vgpu_switches);
	}
	return 0;
}

/* gHyvi's policy of a running vGPU; takes effect at its next submission. */
static int cmd_ppgtt(int argc, char **argv)
{
	static const struct { const char *name; enum vgpu_ppgtt_policy p; }
	words[] = {
		{ "strict", VGPU_PPGTT_STRICT }, { "full", VGPU_PPGTT_FULL },
		{ "dynamic", VGPU_PPGTT_DYNAMIC },
		{ "segmented", VGPU_PPGTT_DYNAMIC_SEGMENTED },
		{ "adaptive", VGPU_PPGTT_ADAPTIVE },
	};
	struct vgpu_ghyvi_params gp;
	struct vgpu *v;
	unsigned vm_id, i;

	if (argc != 3) {
		kprintf("usage: ppgtt <vgpu> strict|full|dynamic|segmented|adaptive\n");
		return -1;
	}
	v = parse_vgpu(argv[1], &vm_id);
	for (i = 0; i < 5 && strcmp(words[i].name, argv[2]); i++)
		;
	if (!v)
		return -1;
	if (i == 5) {
		kprintf("'%s' is not one of strict, full, dynamic, segmented, adaptive\n",
			argv[2]);
		return -1;
	}
	vgpu_ghyvi_get(v, &gp);
	gp.policy = words[i].p;
	if (vgpu_ghyvi_set(v, &gp)) {
		kprintf("vgpu %d: policy not changed\n", vgpu_id(v));
		return -1;
	}
	kprintf("vgpu %d (%s): PPGTT shadowing now %s\n", vgpu_id(v),
		vms[vm_id].name, gpu_host_ppgtt_name(v));
	return 0;
}

/* `balloon <vgpu> ask +N`: queue a guest's request for the policy loop. */
static int balloon_ask(struct vgpu *v, unsigned vm_id, const char *arg)
{
	uint64_t n;
	int err;

	if (arg[0] != '+' || !parse_u64(arg + 1, &n))
		return -1;
	err = n > GPU_BALLOON_MAX_PENDING ? -HV_ENOSPC
					  : gpu_balloon_request(vm_id, (uint32_t)n);
	if (err) {
		kprintf("vgpu %d: request not queued: %s\n", vgpu_id(v),
			err == -HV_ENOSPC ? "too many slots waiting" :
			"bad request");
		return -1;
	}
	kprintf("vgpu %d (%s): request for %llu slot(s) queued for gBalloon's "
		"policy\n", vgpu_id(v), vms[vm_id].name, (unsigned long long)n);
	return 0;
}

/* gBalloon by hand: Algorithm 1 picks the sides, the mediator moves the
 * vGPU's high GM (gpu/gballoon/gballoon_live.c); or queue a request as the
 * guest would and let the policy loop decide (hv/gpu/gpu_balloon.c). */
static int cmd_balloon(int argc, char **argv)
{
	struct gpu_balloon_done done;
	struct vgpu *v;
	unsigned vm_id;
	uint64_t lb, ls, hb, hs, n;
	int err;

	if (argc == 4 && !strcmp(argv[2], "ask")) {
		v = parse_vgpu(argv[1], &vm_id);
		return v ? balloon_ask(v, vm_id, argv[3]) : -1;
	}
	if (argc != 3 || (argv[2][0] != '+' && argv[2][0] != '-')) {
		kprintf("usage: balloon <vgpu> +N|-N   (N slots of high GM, now)\n"
			"       balloon <vgpu> ask +N  (a request for the policy)\n");
		return -1;
	}
	v = parse_vgpu(argv[1], &vm_id);
	if (!v || !parse_u64(argv[2] + 1, &n))
		return -1;
	if (!n || n > 256) {
		kprintf("N must be 1..256 slots\n");
		return -1;
	}
	err = gpu_balloon_apply(vm_id, argv[2][0] == '+' ? (int32_t)n
							 : -(int32_t)n, &done);
	if (err) {
		kprintf("vgpu %d: not ballooned: %s\n", vgpu_id(v),
			err == -GPU_EBUSY ? "it has work in flight, try again" :
			err == -GPU_ENOTSUP ? "no slots (gVirt mode)" :
			err == -GPU_ENOMEM ? "out of memory" :
			err == -GPU_E2BIG ? "it would have more than 8 ranges" :
			"does not fit (Algorithm 1's error case)");
		return -1;
	}
	vgpu_gm_ranges(v, &lb, &ls, &hb, &hs);
	if (done.as_set)
		kprintf("vgpu %d (%s): %s %llu slot(s) as a set (non-contiguous "
			"slots); high GM now %u range(s), told through its "
			"channel\n", vgpu_id(v), vms[vm_id].name,
			argv[2][0] == '+' ? "grew" : "gave up",
			(unsigned long long)n, done.runs);
	else
		kprintf("vgpu %d (%s): %s %u slot(s) on the left, %u on the "
			"right; high GM now %llx+%llx (the guest must re-read "
			"PVINFO to use it)\n", vgpu_id(v), vms[vm_id].name,
			argv[2][0] == '+' ? "grew" : "gave up", done.l, done.r,
			(unsigned long long)hb, (unsigned long long)hs);
	if (done.as_set)
		vmrpc_notify(&vms[vm_id], VMRPC_OK);
	return 0;
}

/* "5" or "5-6": a run of slots. */
static bool parse_run(const char *arg, struct vgpu_slot_run *r)
{
	char *end;
	unsigned long long a = strtoull(arg, &end, 10), b = a;

	if (end == arg)
		return false;
	if (*end == '-') {
		const char *p = end + 1;

		b = strtoull(p, &end, 10);
		if (end == p)
			return false;
	}
	if (*end || b < a || b > UINT32_MAX)
		return false;
	r->first = (uint32_t)a;
	r->count = (uint32_t)(b - a + 1);
	return true;
}

/* "5" or "2-3,7": the runs, lowest first. */
static uint32_t parse_runs(char *arg, struct vgpu_slot_run *runs)
{
	uint32_t n = 0;

	for (char *p = arg, *comma; p; p = comma ? comma + 1 : NULL) {
		comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		if (n == VGPU_MAX_RANGES || !parse_run(p, &runs[n]))
			return 0;
		n++;
	}
	return n;
}

/* DymGPU by hand: move a vGPU's high GM, entries carried, to a slot (one
 * run of as many slots as it has), or split it over runs ("2,7" or
 * "2-3,7-8": as many slots in all); only a guest that set up the guest
 * channel (it is told and re-bases). */
static int cmd_place(int argc, char **argv)
{
	struct vgpu_slot_run runs[VGPU_MAX_RANGES];
	struct vgpu *v;
	unsigned vm_id;
	uint64_t carried = 0;
	uint32_t n, first, count;
	bool one;
	int err;

	if (argc != 3) {
		kprintf("usage: place <vgpu> <slot>|<runs>   (runs: 2,7 or "
			"2-3,7-8; 'slots' lists them)\n");
		return -1;
	}
	v = parse_vgpu(argv[1], &vm_id);
	if (!v)
		return -1;
	one = !strchr(argv[2], ',') && !strchr(argv[2], '-');
	n = parse_runs(argv[2], runs);
	if (!n) {
		kprintf("'%s' is not a slot or a list of runs (at most %u)\n",
			argv[2], VGPU_MAX_RANGES);
		return -1;
	}
	if (one && !vgpu_slots(v, &first, &count))
		runs[0].count = count;	/* `place v 5`: all of it from slot 5 */
	err = gpu_place_apply(vm_id, runs, n, &carried);
	if (err == -GPU_EBUSY) {
		kprintf("vgpu %d (%s): waiting: it has work or GM addresses in "
			"flight; moved as soon as its guest pauses (up to 5 s; "
			"a later place replaces this one)\n", vgpu_id(v),
			vms[vm_id].name);
		return 0;
	}
	if (err) {
		kprintf("vgpu %d: not moved: %s\n", vgpu_id(v),
			err == -GPU_EPERM ? "pinned: its guest never set up the "
					    "guest channel, it cannot be told" :
			err == -GPU_ENOTSUP ? "no slots (gVirt mode)" :
			"no such slot run (or not as many slots as it has)");
		return -1;
	}
	return 0;	/* gpu_place_apply printed the new layout */
}

/* `vgpu reset <vgpu>`: the operator resets a vGPU as a fault would, but
 * all of it (docs/vgpu-reset.md); its VM keeps running and is told. Not
 * counted in the fault window: the operator is not the guest. */
static int cmd_vgpu(int argc, char **argv)
{
	struct vgpu *v;
	unsigned vm_id;

	if (argc != 3 || strcmp(argv[1], "reset")) {
		kprintf("usage: vgpu reset <vgpu>\n");
		return -1;
	}
	v = parse_vgpu(argv[2], &vm_id);
	if (!v)
		return -1;
	if (vgpu_reset(v, ~0u, "by the operator")) {
		kprintf("vgpu %d (%s): failed for good, not reset\n",
			vgpu_id(v), vms[vm_id].name);
		return -1;
	}
	kprintf("vgpu %d (%s): reset; %llu reset(s) so far\n", vgpu_id(v),
		vms[vm_id].name,
		(unsigned long long)vgpu_get_stats(v)->resets);
	return 0;
}

static const struct shell_cmd shell_vgpu_cmds[] = {
	{ "vgpu", "reset <vgpu>", "reset a vGPU (engines, execlists, "
	  "shadows, registers; GGTT kept); its VM keeps running", cmd_vgpu },
	{ "vgpus", "", "vGPUs: GM ranges, counters, monitor figures, "
	  "placement decisions", cmd_vgpus },
	{ "place", "<vgpu> <slot>|<runs>", "move a vGPU's high GM (entries "
	  "carried) to a slot, or split it over runs (2,7 or 2-3,7-8); "
	  "guests with the guest channel only", cmd_place },
	{ "gtt", "<vgpu> <index> [count]", "GGTT entries: guest value and "
	  "the validated host value", cmd_gtt },
	{ "slots", "", "gScale's high-GM slots and the vGPUs sharing them",
	  cmd_slots },
	{ "sched", "", "CPU and GPU scheduling: who runs, switches, copies",
	  cmd_sched },
	{ "ppgtt", "<vgpu> <policy>", "PPGTT shadowing (gHyvi): strict, "
	  "full, dynamic, segmented, adaptive", cmd_ppgtt },
	{ "balloon", "<vgpu> +N|-N|ask +N", "grow or shrink a vGPU's high GM "
	  "by N slots now (Algorithm 1), or queue a request for gBalloon's "
	  "policy", cmd_balloon },
};

void shell_vgpu_cmds_register(void)
{
	SHELL_REGISTER(shell_vgpu_cmds);
}
