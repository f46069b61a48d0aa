/* A user batch the scanner refuses fails the request that started it, as
 * a hang of that batch does on the hardware, and nothing else.
 *
 * Why not refuse the workload: i915 (6.1) finds the request to blame after
 * an engine reset by the context ID the engine reports running
 * (RING_EXECLIST_STATUS_HI, read in execlists_reset_prepare) and blames it
 * only if it has started - its initial breadcrumb wrote seqno - 1 to the
 * timeline (__i915_request_has_started). A workload refused whole never
 * started, so i915 replays it after the reset, it is refused again, and
 * the vGPU's fault window fails it for good: one process of the guest
 * could take its VM's GPU down with a batch that jumps to itself.
 *
 * So the ring copy runs up to the top-level MI_BATCH_BUFFER_START of the
 * refused batch (earlier requests in the segment complete, this one's
 * init breadcrumb runs) and, when that has run, the engine reports an
 * error (RING_EIR, GT_CS_MASTER_ERROR_INTERRUPT) with the context still
 * shown running and no schedule-out event. i915 resets the engine
 * (GDRST, which clears our virtual execlist: vgpu_execlist_reset), marks
 * the request guilty (-EIO), skips its payload and resubmits the rest.
 *
 * It costs the other vGPUs nothing: no physical engine is reset and the
 * run is shorter than the guest asked for. So it is counted
 * (user_faults), logged for the first USER_FAULT_LOGGED, and not counted
 * in the fault window that fails a vGPU for good. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/cmd/cmd.h"

#define USER_FAULT_LOGGED 8

void vgpu_user_fault_cut(struct vgpu *v, struct vgpu_engine *e,
			 struct workload *w, struct scan_result *r)
{
	uint32_t ssize = vgpu_sring_size(e);
	uint32_t at = (w->s_head + r->cut_len) % ssize;
	char where[96];

	/* RING_TAIL holds a qword offset (TAIL_ADDR): a tail one dword into
	 * a qword would be read 4 bytes short, and the next workload's head
	 * past it would run the engine round the whole ring. A cut at an odd
	 * dword ends one dword later, over the batch start's header, which
	 * becomes a MI_NOOP in our copy; its address dwords lie past the
	 * tail. */
	if (at % 8) {
		*(uint32_t *)vgpu_sring_at(v, e, at) = MI_NOOP;
		r->cut_len += 4;
	}
	w->s_len = r->cut_len;
	w->s_tail = (w->s_head + w->s_len) % ssize;
	w->user_fault = r->why ? r->why : "refused";
	r->events = r->cut_events;
	v->stats.user_faults++;
	if (v->stats.user_faults <= USER_FAULT_LOGGED)
		vgpu_warn(v, "vm %u: %s: user batch refused: %s (%s); its "
			  "request fails as after a hang%s",
			  v->vm, gen9_engine_name((enum gen9_engine_id)e->id),
			  w->user_fault, vgpu_scan_where(r, where, sizeof(where)),
			  v->stats.user_faults == USER_FAULT_LOGGED
				  ? " (further ones are only counted)"
				  : "");
}

/* The run up to the refused batch has ended (the workload is off the
 * queue): the engine stops there as a hung one does. What was queued
 * behind it on this engine is gone, as after an engine reset; the guest
 * resubmits it after its own reset. Other engines are untouched. */
void vgpu_user_fault_raise(struct vgpu *v, struct vgpu_engine *e,
			   uint32_t events)
{
	vgpu_workload_drop_all(v, e);
	if (events) /* the requests before it completed */
		vgpu_raise_engine_irq(v, e->id, events);
	vreg_set(v, RING_EIR(e->base), I915_ERROR_INSTRUCTION);
	vgpu_raise_engine_irq(v, e->id, GT_CS_MASTER_ERROR_INTERRUPT);
}
