/* Resetting one vGPU without stopping its VM, the fault window that bounds
 * how often, and what the guest is told. See docs/vgpu-reset.md.
 *
 * A fault (a workload the scanner refused, one that faulted, hung or
 * overran its slice: vgpu_fail) leaves the vGPU failed. vgpu_reset then
 * puts it back to what the hardware shows after a reset:
 *  - the physical engine is reset (pgpu engine reset through pexec) if the
 *    vGPU's work is on it, and that workload is dropped unfinished;
 *  - everything it queued is dropped; for an engine reset the context
 *    it was running is still shown running (RING_EXECLIST_STATUS) until
 *    the guest's own GDRST, which is how i915 finds the request to blame;
 *    a full reset leaves the execlists idle. Its shadow PPGTTs are
 *    dropped (rebuilt from the guest's tables at the next submission) and
 *    its registers are the snapshot's: the engine's register block for an
 *    engine reset, everything below the interrupt block for a full one;
 *  - its GGTT stays as the guest wrote it (a reset does not clear the
 *    GGTT; i915 restores nothing there after one).
 * The guest is told as the hardware tells i915: RING_EIR holds an error
 * and the engine raises GT_CS_MASTER_ERROR_INTERRUPT. i915 (gen8_cs_irq_
 * handler -> execlists "CS error") then resets that engine itself through
 * GDRST, marks the request that was running with a fence error (-EIO) and
 * resubmits what was queued behind it; our GDRST handler then clears the
 * engine's virtual execlist. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/display/display.h"

/* v's work on the physical engines: reset each such engine and drop the
 * workload unfinished. How many engines were reset. */
static uint32_t reset_physical(struct gvt *gvt, struct vgpu *v)
{
	uint32_t n = 0;
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pexec_engine *pe = &gvt->pe[id];
		struct workload *w = pe->inflight;

		if (!w || pe->owner_vgpu != v)
			continue;
		pexec_reset_engine(gvt, id);
		w->abandoned = true;
		vgpu_workload_complete(v, &v->eng[id], w, -GPU_EIO);
		n++;
	}
	return n;
}

static void tell_guest(struct vgpu *v, uint32_t mask)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct vgpu_engine *e = &v->eng[id];

		if (!e->present || !(mask & BIT(id)))
			continue;
		vreg_set(v, RING_EIR(e->base), I915_ERROR_INSTRUCTION);
		vgpu_raise_engine_irq(v, id, GT_CS_MASTER_ERROR_INTERRUPT);
	}
}

int vgpu_reset(struct vgpu *v, uint32_t engine_mask, const char *why)
{
	struct gvt *gvt = v->gvt;
	uint32_t hw, mask = engine_mask;
	int id;

	if (v->banned)
		return -GPU_EINVAL; /* failed for good: only destroy */
	v->t_reset = gvt_now(gvt);
	hw = reset_physical(gvt, v);
	/* A full GPU reset took all of its engines' state: reset it all. */
	if (v->full_reset_due)
		mask = ~0u;
	v->full_reset_due = false;
	/* Not the owner any more: its registers are the vreg copy again,
	 * and the scheduler switches it in afresh when it has work. */
	gvt_sched_remove(gvt, v);
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct vgpu_engine *e = &v->eng[id];

		if (!e->present)
			continue;
		vgpu_workload_drop_all(v, e);
		if (mask != ~0u && (mask & BIT(id)))
			vgpu_vreg_reset_range(v, e->base, e->base + 0x800);
	}
	if (mask == ~0u) {
		vgpu_execlist_reset(v, mask); /* registers, PPGTTs, PVINFO */
	} else {
		vgpu_execlist_stop(v, mask);
		vgpu_ppgtt_reset(v);
	}
	v->failed = false;
	v->fault_user = false;
	v->overruns = 0; /* the fault window counts from here */
	v->stats.resets++;
	v->stats.ns_reset += gvt_now(gvt) - v->t_reset;
	vgpu_err(v, "vm %u: vGPU reset (%s%s), %u engine(s) reset on the GPU, "
		 "reset %llu", v->vm, mask == ~0u ? "full: " : "engine: ", why,
		 hw, (unsigned long long)v->stats.resets);
	tell_guest(v, mask);
	return 0;
}

void vgpu_reset_back_on_gpu(struct vgpu *v)
{
	uint64_t now;

	if (!v->t_reset)
		return;
	now = gvt_now(v->gvt);
	v->stats.ns_reset_to_run = now - (v->t_fault && v->t_fault < v->t_reset
						  ? v->t_fault : v->t_reset);
	vgpu_info(v, "vm %u: running again %llu us after the fault", v->vm,
		  (unsigned long long)(v->stats.ns_reset_to_run / 1000));
	v->t_reset = 0;
	v->t_fault = 0;
}

/* Failed for good: nothing of it runs again; the hypervisor stops its VM
 * (vgpu_dead). */
static void ban(struct vgpu *v)
{
	int id;

	reset_physical(v->gvt, v);
	v->banned = true;
	v->failed = true;
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (v->eng[id].present)
			vgpu_workload_drop_all(v, &v->eng[id]);
	vgpu_err(v, "vm %u: failed for good: %u faults within %llu ms (last: "
		 "%s)", v->vm, v->window_faults,
		 (unsigned long long)((gvt_now(v->gvt) - v->fault_window_start) /
				      1000000),
		 v->fault_why);
}

/* One more fault of v: true when it is the max_faults-th of the window. */
static bool count_fault(struct vgpu *v, uint32_t max_faults,
			uint64_t window_ns)
{
	uint64_t now = gvt_now(v->gvt);

	if (!v->window_faults || now - v->fault_window_start > window_ns) {
		v->window_faults = 0;
		v->fault_window_start = now;
	}
	v->window_faults++;
	v->stats.faults++;
	return v->window_faults >= max_faults;
}

/* A vGPU failed by a hang or overrun inside a user (non-privileged)
 * batch (fault_user, vgpu_sched.c) is reset like any other, the guest told
 * the same way, but the fault is not counted in the window that fails it
 * for good: i915 blames that request and bans a context that hangs
 * repeatedly, and the process's VM goes on - three, or thirty, hangs of
 * one process do not stop it. The scheduler bounds it instead: each such
 * reset holds the vGPU off the GPU as long as the hang held the engine. */
uint32_t gvt_recover(struct gvt *gvt, uint32_t max_faults, uint64_t window_ns)
{
	uint32_t n = 0;
	int i;

	for (i = 1; i <= GVT_MAX_VGPUS; i++) {
		struct vgpu *v = gvt->vgpu[i];
		uint32_t mask;

		if (!v || !v->failed || v->banned)
			continue;
		if (!v->fault_user &&
		    count_fault(v, max_faults ? max_faults : 1, window_ns)) {
			ban(v);
			continue;
		}
		mask = v->fault_engine >= 0 && v->fault_engine < GEN9_NUM_ENGINES
			       ? BIT(v->fault_engine)
			       : ~0u;
		vgpu_reset(v, mask, v->fault_why);
		n++;
	}
	return n;
}

bool vgpu_dead(const struct vgpu *v)
{
	return v->banned;
}

/* A power cycle of the device (the VM restarts in place): the full reset,
 * and what a fresh vGPU has on top: no GGTT entry, no fence, PCI config
 * space at its reset values (BARs unprogrammed, aperture unmapped), the
 * interrupt block at its defaults. The guest is not told: it boots anew.
 * The fault window and the counters carry on. */
int vgpu_reset_device(struct vgpu *v)
{
	int id;

	if (v->banned)
		return -GPU_EINVAL;
	reset_physical(v->gvt, v);
	gvt_sched_remove(v->gvt, v);
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (v->eng[id].present)
			vgpu_workload_drop_all(v, &v->eng[id]);
	vgpu_vreg_reset(v, GEN9_MMIO_SIZE); /* then the execlist state on it */
	vgpu_execlist_reset(v, ~0u);
	vgpu_aperture_unmap(v);
	vgpu_ggtt_reset(v);
	vgpu_fence_reset(v);
	vgpu_cfg_init(v);
	vgpu_pvinfo_init(v);
	vgpu_irq_init(v);
	vgpu_display_init(v); /* the monitor stays plugged in */
	v->failed = false;
	v->fault_user = false;
	v->hold_until = 0;
	v->overruns = 0;
	v->t_reset = v->t_fault = 0;
	v->stats.resets++;
	vgpu_info(v, "vm %u: vGPU reset with its VM (power cycle)", v->vm);
	return 0;
}

/* A vGPU going away: stop what it runs, hand the GPU back to the host. */
void gvt_sched_remove(struct gvt *gvt, struct vgpu *v)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pexec_engine *pe = &gvt->pe[id];

		if (pe->inflight && pe->owner_vgpu == v)
			pexec_reset_engine(gvt, id);
	}
	if (gvt->next_owner == v)
		gvt->next_owner = NULL;
	if (gvt->owner == v) {
		gvt_mmio_switch(gvt, v, NULL);
		gvt->owner = NULL;
	}
}
