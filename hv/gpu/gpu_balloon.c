/* gBalloon at run time; see gpu_balloon.h. The decisions are
 * gpu/gballoon/balloon_policy.c's, the module `make eval-balloon` replays:
 * this file only measures W and R_copy, builds the policy's view of the
 * vGPUs and carries its actions out.
 *
 * Every 0.5 s (hv.cfg balloon_ms): W = sum over VMs of the share of the
 * period each spent runnable but waiting (the scheduler's steal time,
 * equation 2), R_copy = the share of the period spent copying GGTT entries
 * at vGPU switches (equation 1), f = alpha W + beta R_copy (equation 3).
 * Then, as balloon_policy.h says: f < 0.5 approve every queued request;
 * 0.5 <= f < 1 approve them and take one slot back from an under-used
 * vGPU; f >= 1 reject them and take two slots back from the largest.
 * Where a grant or a reduction lands is gBalloon's Algorithm 1
 * (vgpu_balloon) for a guest that only knows one range (a stock i915:
 * PVINFO), and the balloon study's "ours" for a guest that set up the
 * guest channel and so is told a list of ranges: the slots with the
 * fewest users anywhere, its GM becoming several ranges
 * (vgpu_balloon_set, gpu/policy/ncslots.c ncs_expand / ncs_reduce with
 * the monitor's utilization as weights: bpol_apply_nc's calls). Only
 * slots granted at run time are ever taken back (the policy's floor is
 * the size the VM was created with).
 *
 * alpha and beta (the paper: the reciprocals of the largest W and R_copy
 * the platform shows, "determined through experiments"): hv.cfg
 * balloon_w_max / balloon_rcopy_max when an operator measured them;
 * otherwise derived at boot from the machine the hypervisor runs: W
 * cannot exceed 100% per vCPU of the VMs configured (each vCPU waits at
 * most the whole period), R_copy cannot exceed 100% of the one CPU that
 * copies (nr_cpus = 1: the hypervisor runs every VM on the boot CPU). */
#include "gpu/gballoon/balloon_policy.h"
#include "gpu/gballoon/gballoon.h"
#include "gpu/vgpu/vgpu.h"
#include "hv/console/console.h"
#include "hv/gpu/gpu_balloon.h"
#include "hv/gpu/gpu_host.h"
#include "hv/hv_errno.h"
#include "hv/gpu/hv_ops_impl.h"
#include "hv/gpu/vgpu_dev.h"
#include "hv/platform/tsc.h"
#include "hv/vm/sched.h"
#include "hv/vm/vm.h"
#include "hv/vm/vmrpc.h"
#include "guest-shim/include/g9hv/vmrpc.h"
#include "hv/cpu/x86.h"
#include "mini/string.h"

struct balloon_vm {
	uint32_t granted;	/* slots given on top of hv.cfg's size */
	uint64_t last_steal;	/* steal_tsc at the last evaluation */
};

static struct balloon_vm bvm[VM_MAX];
static struct bpol bp;
static bool bp_up;
static uint64_t last_tsc, last_copy_ns, last_ns;
static struct bpol_decision last;
static uint64_t applied, not_applied;

static struct vgpu *vgpu_of(unsigned vm_id)
{
	struct vm *vm = vm_id < nr_vms ? vm_by_id(vm_id) : NULL;

	return vm && vm->state != VM_STOPPED ? vgpu_dev_vgpu(vm_id) : NULL;
}

void gpu_balloon_init(const struct gpu_balloon_cfg *c)
{
	struct bpol_params p = {
		.period_ns = c->period_ms * 1000000ull,
		.w_max = c->w_max,
		.vcpus = c->vcpus,
		.rcopy_max = c->rcopy_max,
		.nr_cpus = 1,
		.max_pending = GPU_BALLOON_MAX_PENDING,
	};
	uint64_t now = hv_ops_impl.now_ns(NULL);

	bp_up = !bpol_init(&bp, &p, now);
	last_ns = now;
	last_tsc = rdtsc();
	kprintf("gballoon: every %llu ms, 1/alpha = W_max %llu.%llu%%%s, "
		"1/beta = R_copy_max %llu.%llu%%%s\n",
		(unsigned long long)(bp.p.period_ns / 1000000),
		(unsigned long long)(bp.p.w_max / 10),
		(unsigned long long)(bp.p.w_max % 10),
		c->w_max ? " (hv.cfg)" : " (100% per vCPU)",
		(unsigned long long)(bp.p.rcopy_max / 10),
		(unsigned long long)(bp.p.rcopy_max % 10),
		c->rcopy_max ? " (hv.cfg)" : " (one CPU copies)");
}

/* The policy's view of every VM's vGPU now. */
static void view_now(struct bpol_view *view)
{
	struct gvt *gvt = gpu_host_gvt();
	struct gvt_status st;
	uint32_t count[VM_MAX] = { 0 }, granted[VM_MAX] = { 0 }, first;
	uint64_t used[VM_MAX] = { 0 };

	gvt_get_status(gvt, &st);
	for (unsigned i = 0; i < nr_vms; i++) {
		struct vgpu *g = vgpu_of(i);

		if (!g || vgpu_failed(g) || vgpu_slots(g, &first, &count[i]))
			continue;
		granted[i] = bvm[i].granted;
		used[i] = vgpu_high_used(g);
	}
	bpol_view_granted(view, st.nr_slots, nr_vms, count, granted, used,
			  (uint32_t)(st.slot_bytes >> 12));
}

static int hv_err(int gpu_err)
{
	return gpu_err == -GPU_ENOSPC ? -HV_ENOSPC : -HV_EINVAL;
}

int gpu_balloon_request(unsigned vm_id, uint32_t slots)
{
	struct bpol_view view;
	int err;

	if (!bp_up || !vgpu_of(vm_id) || !slots)
		return -HV_EINVAL;
	view_now(&view);
	err = bpol_request(&bp, &view, vm_id, slots,
			   hv_ops_impl.now_ns(NULL));
	return err ? hv_err(err) : 0;
}

void gpu_balloon_forget(unsigned vm_id)
{
	if (vm_id >= VM_MAX)
		return;
	if (bp_up)
		bpol_cancel(&bp, vm_id);
	bvm[vm_id].granted = 0;
}
static int apply(unsigned vm_id, int32_t delta, struct gpu_balloon_done *done,
		 bool guest_asked);

int gpu_balloon_release(unsigned vm_id, uint32_t slots)
{
	struct gpu_balloon_done done;
	uint32_t n;

	if (!vgpu_of(vm_id) || !slots)
		return -HV_EINVAL;
	n = slots < bvm[vm_id].granted ? slots : bvm[vm_id].granted;
	if (!n)
		return 0;	/* nothing granted: nothing to give back */
	return apply(vm_id, -(int32_t)n, &done, true) ? -HV_EINVAL : (int)n;
}

/* A guest with the guest channel is told every range: it may get any
 * slots (non-contiguous); every other one keeps a single range. */
static bool takes_ranges(unsigned vm_id)
{
	return vms[vm_id].vmrpc.gpa != 0;
}

/* guest_asked: the guest gives slots back itself (VMRPC_RELEASE): it
 * does not have to be quiet for that. */
static int apply(unsigned vm_id, int32_t delta, struct gpu_balloon_done *done,
		 bool guest_asked)
{
	struct vgpu *v = vgpu_of(vm_id);
	int err;

	memset(done, 0, sizeof(*done));
	if (!v)
		return -GPU_EINVAL;
	done->as_set = takes_ranges(vm_id);
	/* Whether the guest has GM addresses in flight now (a shrink of a
	 * guest told its ranges waits until it has none). */
	vgpu_set_gm_in_use(v, done->as_set && !guest_asked &&
			       !vmrpc_guest_quiet(&vms[vm_id]));
	if (done->as_set)
		err = vgpu_balloon_set(v, delta, &done->runs);
	else
		err = vgpu_balloon(v, delta, &done->l, &done->r);
	if (err)
		return err;
	if (delta > 0)
		bvm[vm_id].granted += (uint32_t)delta;
	else
		bvm[vm_id].granted -= (uint32_t)-delta > bvm[vm_id].granted
					      ? bvm[vm_id].granted
					      : (uint32_t)-delta;
	return 0;
}

int gpu_balloon_apply(unsigned vm_id, int32_t delta,
		      struct gpu_balloon_done *done)
{
	return apply(vm_id, delta, done, false);
}

/* Equation 2 over the last period, permille per VM, summed; the
 * snapshots move on only when the policy took the figure (commit). */
static uint64_t measure_w(uint64_t dt_tsc, bool commit)
{
	uint64_t w = 0;

	for (unsigned i = 0; i < nr_vms; i++) {
		uint64_t s = vms[i].stats.steal_tsc;

		w += dt_tsc ? (s - bvm[i].last_steal) * 1000 / dt_tsc : 0;
		if (commit)
			bvm[i].last_steal = s;
	}
	return w;
}

static const char *const kind_name[] = { "approved", "approved",
					 "taken back" };

/* Carry out one action of the policy on the live vGPU. A grant that
 * cannot be applied now because the vGPU has work in flight waits for
 * the next period, as the request it was. */
static void apply_action(struct bpol_action *a, uint64_t now)
{
	unsigned k = a->vgpu;
	struct gpu_balloon_done done = { 0 };
	int32_t delta = a->kind == BPOL_SHRINK ? -(int32_t)a->slots
					       : (int32_t)a->slots;
	uint64_t t0 = rdtsc(), us;

	if (k >= nr_vms || !vgpu_of(k))
		return;
	if (a->kind != BPOL_REJECT) {
		a->err = gpu_balloon_apply(k, delta, &done);
		a->l = done.l;
		a->r = done.r;
	}
	/* The resize is work for VM k: it pays for it (hv/vm/sched.h). */
	sched_charge_work(&vms[k], rdtsc() - t0);
	us = (rdtsc() - t0) * 1000000 / (tsc_hz() ? tsc_hz() : 1);
	if (a->kind == BPOL_APPROVE && a->err == -GPU_EBUSY) {
		struct bpol_view view;

		view_now(&view);
		if (!bpol_request(&bp, &view, k, a->slots, now))
			return;
	}
	if (a->kind != BPOL_REJECT) {
		if (a->err)
			not_applied++;
		else
			applied++;
	}
	if (a->kind == BPOL_APPROVE && !a->err && done.as_set)
		kprintf("gballoon: vm '%s': +%u slot(s) approved (as a set: "
			"%u range(s) now) in %llu us\n", vms[k].name, a->slots,
			done.runs, (unsigned long long)us);
	else if (a->kind == BPOL_APPROVE && !a->err)
		kprintf("gballoon: vm '%s': +%u slot(s) approved (%u left, %u "
			"right) in %llu us\n", vms[k].name, a->slots, done.l,
			done.r, (unsigned long long)us);
	else if (a->kind == BPOL_SHRINK && !a->err && done.as_set)
		kprintf("gballoon: vm '%s': %u granted slot(s) taken back (as "
			"a set: %u range(s) now)\n", vms[k].name, a->slots,
			done.runs);
	else if (a->kind == BPOL_SHRINK && !a->err)
		kprintf("gballoon: vm '%s': %u granted slot(s) taken back (%u "
			"left, %u right)\n", vms[k].name, a->slots, done.l,
			done.r);
	else
		kprintf("gballoon: vm '%s': %u slot(s) not %s (%s, error %d)\n",
			vms[k].name, a->slots, kind_name[a->kind],
			a->err == -GPU_EBUSY && a->kind == BPOL_REJECT
				? "host overloaded" :
			a->err == -GPU_E2BIG ? "more than 8 ranges" :
			"does not fit", a->err);
	vmrpc_notify(&vms[k], a->kind == BPOL_REJECT || a->err ? VMRPC_EREJECT
							     : VMRPC_OK);
}

void gpu_balloon_tick(void)
{
	struct gvt *gvt = gpu_host_gvt();
	struct gvt_status st;
	struct bpol_view view;
	struct bpol_decision d;
	uint64_t now = hv_ops_impl.now_ns(NULL), tsc = rdtsc(), w, r;

	if (!gvt || !bp_up || now <= last_ns)
		return;
	/* The view costs a walk of every vGPU's high GM: only when the
	 * policy is due (bpol_evaluate keeps the 0.5 s grid). */
	if (now < bp.last_ns || now - bp.last_ns < bp.p.period_ns)
		return;
	gvt_get_status(gvt, &st);
	w = measure_w(tsc - last_tsc, false);
	r = (st.copy_ns - last_copy_ns) * 1000 / (now - last_ns);
	view_now(&view);
	if (bpol_evaluate(&bp, now, w, r, &view, &d) != 1)
		return;
	measure_w(tsc - last_tsc, true);
	last_copy_ns = st.copy_ns;
	last_ns = now;
	last_tsc = tsc;
	for (uint32_t i = 0; i < d.nr; i++)
		apply_action(&d.act[i], now);
	last = d;
}

void gpu_balloon_print(void)
{
	static const char *const band[] = {
		"calm: requests approved",
		"busy: requests approved, one slot taken back",
		"overloaded: requests rejected, two slots taken back" };
	const struct bpol_stats *s = &bp.st;
	uint32_t pending = 0, granted = 0;

	for (unsigned i = 0; i < nr_vms; i++) {
		pending += bpol_pending(&bp, i);
		granted += bvm[i].granted;
	}
	kprintf("gBalloon: f=%u.%03u (W %llu.%llu%%, R_copy %llu.%llu%%) %s; "
		"%llu evaluations, %llu approved, %llu rejected, %llu slots "
		"taken back, %llu action(s) not applied; %u slot(s) pending, "
		"%u granted\n",
		last.f / 1000, last.f % 1000, (unsigned long long)(last.w / 10),
		(unsigned long long)(last.w % 10),
		(unsigned long long)(last.rcopy / 10),
		(unsigned long long)(last.rcopy % 10),
		band[last.band < BPOL_BANDS ? last.band : 0],
		(unsigned long long)s->evaluations,
		(unsigned long long)s->approved,
		(unsigned long long)s->rejected,
		(unsigned long long)s->shrunk_slots,
		(unsigned long long)not_applied, pending, granted);
}
