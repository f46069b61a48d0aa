/* DymGPU live on the running hypervisor; see gpu_place.h. The policy is
 * DymGPU's (gpu/dymgpu/dymgpu_move.c, dymgpu_live.c), the mechanism the
 * mediator's (gpu/gscale/mediator/gscale_reshape.c); this file knows the VMs: which guests can be
 * told of a move (they set up the guest channel: VMRPC_SETUP) and how to
 * tell them (a VMRPC_R_RANGES reply; PVINFO's ballooning registers say the
 * same). A guest without the channel (a stock i915) stays pinned. */
#include "gpu/dymgpu/dymgpu.h"
#include "gpu/vgpu/vgpu.h"
#include "guest-shim/include/g9hv/vmrpc.h"
#include "hv/console/console.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/gpu_place.h"
#include "hv/gpu/hv_ops_impl.h"
#include "hv/gpu/vgpu_dev.h"
#include "hv/vm/vm.h"
#include "hv/vm/vmrpc.h"
#include "mini/string.h"

#define MOVED_MAX 8
#define WAIT_NS 5000000000ull	/* an operator's move waits this long */

/* The operator's moves waiting for their guest to pause. */
static struct pending {
	bool on;
	uint32_t n;
	struct vgpu_slot_run runs[VGPU_MAX_RANGES];
	uint64_t since;
} pend[VM_MAX];

static struct vgpu *vgpu_of(unsigned vm_id)
{
	struct vm *vm = vm_by_id(vm_id);

	return vm && vm->state != VM_STOPPED ? vgpu_dev_vgpu(vm_id) : NULL;
}

/* Who can be told (the guest channel), and who says it has no GM
 * address in flight right now (the channel's quiet word). */
static void sync_flags(unsigned i)
{
	bool channel = vms[i].vmrpc.gpa != 0;

	vgpu_set_movable(vgpu_dev_vgpu(i), channel);
	vgpu_set_gm_in_use(vgpu_dev_vgpu(i),
			   channel && !vmrpc_guest_quiet(&vms[i]));
}

static void tell(struct vgpu *v)
{
	for (unsigned i = 0; i < nr_vms; i++)
		if (vgpu_dev_vgpu(i) == v) {
			vmrpc_notify_moved(&vms[i]);
			kprintf("dymgpu: vm '%s': high GM moved (busy with another "
				"vGPU on its slot), told through the guest "
				"channel\n", vms[i].name);
		}
}

static void report_moved(unsigned i, struct vgpu *v, uint64_t carried,
			 uint64_t waited_ms)
{
	kprintf("vgpu %d (%s): high GM now ", vgpu_id(v), vms[i].name);
	gpu_place_print_runs(v);
	kprintf(" (slots), %llu entries carried", (unsigned long long)carried);
	if (waited_ms)
		kprintf(" after waiting %llu ms for its guest to pause",
			(unsigned long long)waited_ms);
	kprintf("; the guest was told through its channel\n");
}

static void try_pending(unsigned i, uint64_t now)
{
	struct pending *p = &pend[i];
	struct vgpu *v = vgpu_of(i);
	uint64_t carried = 0;
	int err;

	if (!p->on)
		return;
	if (!v) {
		p->on = false;
		return;
	}
	err = vgpu_place_runs(v, p->runs, p->n, &carried);
	if (err == -GPU_EBUSY && now - p->since < WAIT_NS)
		return;
	p->on = false;
	if (err) {
		kprintf("vgpu %d (%s): not moved: %s\n", vgpu_id(v),
			vms[i].name, err == -GPU_EBUSY
				? "its guest did not pause within 5 s"
				: "the layout is no longer possible");
		return;
	}
	vmrpc_notify_moved(&vms[i]);
	report_moved(i, v, carried, (now - p->since) / 1000000);
}

void gpu_place_tick(void)
{
	struct vgpu *moved[MOVED_MAX];
	struct gvt *gvt = gpu_host_gvt();
	uint64_t now = hv_ops_impl.now_ns(NULL);
	uint32_t n;

	if (!gvt)
		return;
	for (unsigned i = 0; i < nr_vms; i++)
		if (vgpu_dev_vgpu(i))
			sync_flags(i);
	for (unsigned i = 0; i < nr_vms && i < VM_MAX; i++)
		try_pending(i, now);
	n = gvt_place_tick(gvt, moved, MOVED_MAX);
	for (uint32_t i = 0; i < n; i++)
		tell(moved[i]);
}

int gpu_place_apply(unsigned vm_id, const struct vgpu_slot_run *runs,
		    uint32_t n, uint64_t *carried)
{
	struct vgpu *v = vgpu_of(vm_id);
	int err;

	if (!v || vm_id >= VM_MAX || !n || n > VGPU_MAX_RANGES)
		return -GPU_EINVAL;
	sync_flags(vm_id);
	err = vgpu_place_runs(v, runs, n, carried);
	if (err == -GPU_EBUSY) {
		/* Between two of its workloads, soon: try every round. A move
		 * still waiting is replaced (said by the shell). */
		pend[vm_id] = (struct pending){ true, n, { { 0, 0 } },
						hv_ops_impl.now_ns(NULL) };
		memcpy(pend[vm_id].runs, runs, n * sizeof(runs[0]));
		return err;
	}
	if (!err) {
		pend[vm_id].on = false;
		vmrpc_notify_moved(&vms[vm_id]);
		report_moved(vm_id, v, *carried, 0);
	}
	return err;
}

/* "0-1" or "0-1,5-5": v's runs of slots. */
uint32_t gpu_place_print_runs(const struct vgpu *v)
{
	struct vgpu_slot_run runs[VGPU_MAX_RANGES];
	uint32_t n = vgpu_slot_runs(v, runs, VGPU_MAX_RANGES);

	for (uint32_t i = 0; i < n && i < VGPU_MAX_RANGES; i++)
		kprintf("%s%u-%u", i ? "," : "", runs[i].first,
			runs[i].first + runs[i].count - 1);
	return n;
}

bool gpu_place_report(unsigned vm_id)
{
	struct vgpu *v = vgpu_of(vm_id);
	struct vgpu_place_info pi;
	uint32_t first, n;

	if (!v || vgpu_place_info(v, &pi) || vgpu_slots(v, &first, &n))
		return false;
	kprintf("  place: slots ");
	n = gpu_place_print_runs(v);
	if (n == 1)
		kprintf(" (one range)");
	else
		kprintf(" (%u ranges)", n);
	kprintf(", %s, %s; util %u.%u%% (%u.%u%% of its fair share), "
		"%s for %llu ms; GM %llu of %llu entries bound; %llu copied "
		"in; moved %llu times, %llu entries carried\n",
		pi.movable ? "movable (guest channel)" :
		"pinned (never negotiated)", pi.busy ? "busy" : "not busy",
		pi.util_permille / 10, pi.util_permille % 10,
		pi.share_permille / 10, pi.share_permille % 10, pi.idle ? "idle" : "last submission", (unsigned long long)pi.idle_ms,
		(unsigned long long)pi.gm_used, (unsigned long long)pi.gm_size,
		(unsigned long long)pi.copied, (unsigned long long)pi.moves,
		(unsigned long long)pi.carried);
	if (pi.last_ms && pi.last_other)
		kprintf("  last move at %llu ms: slot %u -> %u, busy with vGPU "
			"%d on one slot\n", (unsigned long long)pi.last_ms,
			pi.last_from, pi.last_to, pi.last_other);
	else if (pi.last_ms)
		kprintf("  last move at %llu ms: slot %u -> %u, by the "
			"operator\n", (unsigned long long)pi.last_ms,
			pi.last_from, pi.last_to);
	return true;
}

void gpu_place_summary(void)
{
	struct gvt *gvt = gpu_host_gvt();
	struct gvt_place_stats ps;

	if (!gvt || gvt_place_stats(gvt, &ps))
		return;
	kprintf("DymGPU live: %llu periods, %llu moves, %llu entries carried; "
		"busy-busy slots now %u (seen %llu); held: dwell %llu, pinned "
		"%llu, no room %llu, work in flight %llu\n",
		(unsigned long long)ps.periods, (unsigned long long)ps.moves,
		(unsigned long long)ps.entries_carried, ps.collisions_now,
		(unsigned long long)ps.collisions_seen,
		(unsigned long long)ps.held_dwell,
		(unsigned long long)ps.held_pinned,
		(unsigned long long)ps.no_room,
		(unsigned long long)ps.refused_busy);
}
