/* gBalloon at run time; see gpu_balloon.h and gpu/policy/gballoon_policy.h.
 *
 * Every 0.5 s (hv.cfg balloon_ms): W = sum over VMs of the share of the period each spent
 * runnable but waiting (the scheduler's steal time, equation 2), R_copy =
 * the share of the period spent copying GGTT entries at vGPU switches
 * (equation 1, one CPU), f = alpha W + beta R_copy (equation 3). Then, as
 * in the paper's section 3.2:
 *   f < 0.5       approve every pending request (gBalloon Algorithm 1
 *                 picks the sides: vgpu_balloon);
 *   0.5 <= f < 1  shrink the largest, least used vGPU holding grants by one
 *                 slot; requests keep waiting;
 *   f >= 1        reject every pending request, take back two slots.
 * Only slots granted at run time are ever taken back (see
 * gballoon_policy.h), so a VM keeps the GM its hv.cfg section gave it. */
#include "gpu/policy/gballoon_policy.h"
#include "gpu/vgpu/vgpu.h"
#include "hv/console.h"
#include "hv/gpu/gpu_balloon.h"
#include "hv/gpu/gpu_host.h"
#include "hv/hv_errno.h"
#include "hv/gpu/hv_ops_impl.h"
#include "hv/vm/vm.h"
#include "hv/vm/vmrpc.h"
#include "guest-shim/include/g9hv/vmrpc.h"
#include "hv/x86.h"

struct balloon_vm {
	uint32_t pending;	/* slots asked for, not yet decided */
	uint32_t granted;	/* slots given on top of hv.cfg's size */
	uint64_t last_steal;	/* steal_tsc at the last evaluation */
};

static struct balloon_vm bvm[VM_MAX];
static const struct gballoon_params params;	/* the paper's defaults */
static uint64_t period_ns = GBALLOON_PERIOD_NS;
static uint64_t last_ns, last_tsc, last_copy_ns;
static uint32_t last_f;
static uint64_t last_w, last_r;
static enum gballoon_band last_band;
static uint64_t evaluations, approved, rejected, taken_back;

static struct vgpu *vgpu_of(unsigned vm_id)
{
	struct vm *vm = vm_by_id(vm_id);

	return vm ? vm->vgpu : NULL;
}

void gpu_balloon_init(uint32_t period_ms)
{
	if (period_ms)
		period_ns = period_ms * 1000000ull;
}

int gpu_balloon_request(unsigned vm_id, uint32_t slots)
{
	if (!vgpu_of(vm_id) || !slots)
		return -HV_EINVAL;
	if (bvm[vm_id].pending + slots > GPU_BALLOON_MAX_PENDING)
		return -HV_ENOSPC;
	bvm[vm_id].pending += slots;
	return 0;
}

int gpu_balloon_release(unsigned vm_id, uint32_t slots)
{
	uint32_t l, r, n;

	if (!vgpu_of(vm_id) || !slots)
		return -HV_EINVAL;
	n = slots < bvm[vm_id].granted ? slots : bvm[vm_id].granted;
	if (!n)
		return 0;	/* nothing granted: nothing to give back */
	return gpu_balloon_apply(vm_id, -(int32_t)n, &l, &r) ? -HV_EINVAL
							    : (int)n;
}

int gpu_balloon_apply(unsigned vm_id, int32_t delta, uint32_t *l,
		      uint32_t *r)
{
	struct vgpu *v = vgpu_of(vm_id);
	int err;

	if (!v)
		return -GPU_EINVAL;
	err = vgpu_balloon(v, delta, l, r);
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

/* Equation 2 over the last period, permille per VM, summed. */
static uint64_t measure_w(uint64_t dt_tsc)
{
	uint64_t w = 0;

	for (unsigned i = 0; i < nr_vms; i++) {
		uint64_t s = vms[i].stats.steal_tsc;

		w += dt_tsc ? (s - bvm[i].last_steal) * 1000 / dt_tsc : 0;
		bvm[i].last_steal = s;
	}
	return w;
}

static void approve_all(void)
{
	uint32_t l, r;

	for (unsigned i = 0; i < nr_vms; i++) {
		uint32_t q = bvm[i].pending;
		int err;

		if (!q)
			continue;
		err = gpu_balloon_apply(i, (int32_t)q, &l, &r);
		if (err == -GPU_EBUSY)
			continue;	/* work in flight: next period */
		bvm[i].pending = 0;
		if (err) {
			rejected++;
			kprintf("gballoon: vm '%s': request for %u slot(s) "
				"does not fit (error %d)\n", vms[i].name, q, err);
			vmrpc_notify(&vms[i], VMRPC_EREJECT);
			continue;
		}
		approved++;
		kprintf("gballoon: vm '%s': +%u slot(s) approved (%u left, "
			"%u right)\n", vms[i].name, q, l, r);
		vmrpc_notify(&vms[i], VMRPC_OK);
	}
}

static void reject_all(void)
{
	for (unsigned i = 0; i < nr_vms; i++) {
		if (!bvm[i].pending)
			continue;
		kprintf("gballoon: vm '%s': request for %u slot(s) rejected "
			"(host overloaded)\n", vms[i].name, bvm[i].pending);
		bvm[i].pending = 0;
		rejected++;
		vmrpc_notify(&vms[i], VMRPC_EREJECT);
	}
}

/* Take back `n` granted slots, one at a time from the current victim. */
static void take_back(uint32_t n)
{
	struct gballoon_vgpu v[VM_MAX];
	uint32_t l, r, first, cnt;
	int k;

	while (n--) {
		for (unsigned i = 0; i < nr_vms; i++) {
			struct vgpu *g = vms[i].vgpu;

			v[i] = (struct gballoon_vgpu){ 0 };
			if (!g || vgpu_slots(g, &first, &cnt))
				continue;
			v[i].slots = cnt;
			v[i].granted = bvm[i].granted;
			v[i].used_permille = vgpu_high_used_permille(g);
		}
		k = gballoon_pick_victim(v, nr_vms);
		if (k < 0 || gpu_balloon_apply((unsigned)k, -1, &l, &r))
			return;
		taken_back++;
		kprintf("gballoon: vm '%s': one granted slot taken back\n",
			vms[k].name);
		vmrpc_notify(&vms[k], VMRPC_OK);
	}
}

void gpu_balloon_tick(void)
{
	struct gvt *gvt = gpu_host_gvt();
	struct gvt_status st;
	uint64_t now = hv_ops_impl.now_ns(NULL), tsc = rdtsc();

	if (!gvt)
		return;
	if (!last_ns) {
		last_ns = now;
		last_tsc = tsc;
		return;
	}
	if (now - last_ns < period_ns)
		return;
	gvt_get_status(gvt, &st);
	last_w = measure_w(tsc - last_tsc);
	last_r = (st.copy_ns - last_copy_ns) * 1000 / (now - last_ns);
	last_copy_ns = st.copy_ns;
	last_ns = now;
	last_tsc = tsc;
	last_f = gballoon_f(&params, nr_vms, last_w, last_r);
	last_band = gballoon_band_of(&params, last_f);
	evaluations++;
	if (last_band == GBALLOON_CALM)
		approve_all();
	else if (last_band == GBALLOON_BUSY)
		take_back(1);
	else {
		reject_all();
		take_back(2);
	}
}

void gpu_balloon_print(void)
{
	static const char *const band[] = { "calm: requests approved",
					    "busy: shrinking, requests wait",
					    "overloaded: requests rejected" };
	uint32_t pending = 0, granted = 0;

	for (unsigned i = 0; i < nr_vms; i++) {
		pending += bvm[i].pending;
		granted += bvm[i].granted;
	}
	kprintf("gBalloon: f=%u.%03u (W %llu.%llu%%, R_copy %llu.%llu%%) %s; "
		"%llu evaluations, %llu approved, %llu rejected, %llu slots "
		"taken back; %u slot(s) pending, %u granted\n",
		last_f / 1000, last_f % 1000, (unsigned long long)(last_w / 10),
		(unsigned long long)(last_w % 10),
		(unsigned long long)(last_r / 10),
		(unsigned long long)(last_r % 10), band[last_band],
		(unsigned long long)evaluations, (unsigned long long)approved,
		(unsigned long long)rejected, (unsigned long long)taken_back,
		pending, granted);
}
