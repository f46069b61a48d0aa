/* The vGPU mediator (gVirt baseline): one struct gvt per physical GPU, one
 * struct vgpu per VM that gets a virtual Gen9 GPU.
 *
 * It sits between two narrow interfaces, so the same code runs on the
 * model in the host tests (docs/architecture.md, "The layers"): gpu_hw
 * below (gpu/hw/gpu_hw.h) and hv_ops above (gpu/hv_ops.h). The hypervisor
 * calls in here for every trapped access of a VM to its virtual 00:02.0:
 *
 *   PCI config space  -> vgpu_cfg_read / vgpu_cfg_write
 *   BAR0 (16 MiB)     -> vgpu_mmio_read / vgpu_mmio_write
 *   write-protected guest pages (page tables, looped batches) -> vgpu_page_write
 *   timer / physical GPU interrupt / after an exit whose ELSP write
 *   posted work (gvt_posted) -> gvt_poll
 *
 * What a stock i915 guest expects is in docs/i915-guest-facts.md (cited
 * "i915-guest §N"); hardware facts in docs/gen9-facts.md ("gen9-facts
 * §N"); GVT-g's own choices in docs/gvt-facts.md ("gvt-facts §N").
 *
 * Errors: 0 / non-negative on success, negative GPU_E* codes otherwise.
 * No call here blocks or allocates except create/destroy and the first
 * shadowing of a page table (pages come from hv_ops). */
#ifndef GPU_VGPU_VGPU_H
#define GPU_VGPU_VGPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/hv_ops.h"
#include "gpu/display/vdisp_plane.h"
#include "gpu/hw/gpu_hw.h"
#include "gpu/vgpu/vgpu_ext.h"

/* Error codes gpu_hw.h does not have (Linux numbers, as there). */
#ifndef GPU_EPERM
#define GPU_EPERM 1
#endif
#ifndef GPU_ENOENT
#define GPU_ENOENT 2
#endif
#ifndef GPU_E2BIG
#define GPU_E2BIG 7
#endif
#ifndef GPU_EEXIST
#define GPU_EEXIST 17
#endif
#ifndef GPU_ENOTSUP
#define GPU_ENOTSUP 95
#endif

/* Hard limits of this implementation (not of the hardware). */
#define GVT_MAX_VGPUS 64 /* vGPU ids 1..64 */
#define VGPU_MAX_RANGES 8 /* high GM ranges of one vGPU (= GSCALE_MAX_RANGES) */
#define GVT_TIMESLICE_NS 16000000ull /* 16 ms round-robin slice */
#define GVT_OVERRUN_NS 16000000ull /* grace past the slice while others wait */
#define GVT_MAX_OVERRUNS 3 /* overruns before a vGPU is failed for good */

/* A vGPU type: how much of the GPU one vGPU gets (gvt-facts §2). */
struct vgpu_type {
	const char *name;
	uint64_t low_gm_size; /* aperture-backed (mappable) GM, bytes */
	uint64_t high_gm_size; /* hidden (non-mappable) GM, bytes */
	uint32_t fences;
	uint32_t weight; /* 1..16; recorded for the papers' policies */
};

/* GVT's Gen9 types (GVTg_V5_x). */
extern const struct vgpu_type vgpu_type_v5_8; /* 64 MiB / 384 MiB / 4 */
extern const struct vgpu_type vgpu_type_v5_4; /* 128 MiB / 512 MiB / 4 */
extern const struct vgpu_type vgpu_type_v5_2; /* 256 MiB / 1 GiB / 4 */
extern const struct vgpu_type vgpu_type_v5_1; /* 512 MiB / 2 GiB / 4 */

/* Host reservations: taken first, before any vGPU. Zero fields take the
 * GVT defaults (128 MiB low, 384 MiB high, 4 fences). The mediator's own
 * objects (shadow contexts, rings, batches, engine status pages) live at
 * the top of the host's high part, so host_high_gm must hold them
 * (GVT_OWN_GM_SIZE). */
struct gvt_params {
	uint64_t host_low_gm;
	uint64_t host_high_gm;
	uint32_t host_fences;
	uint64_t timeslice_ns; /* 0: GVT_TIMESLICE_NS */
	uint64_t hang_timeout_ns; /* 0: 2 s; a workload running longer is
				   * reset and its vGPU marked failed */
	/* Bounded GPU time (vgpu_sched.c): once the owner's slice is over
	 * and another vGPU waits, its work is preempted at its next
	 * arbitration point; work that reaches none within overrun_ns more
	 * is reset (0: GVT_OVERRUN_NS). Inside a user batch that fails the
	 * request only; in the guest kernel's ring or privileged batches it
	 * is an overrun, and the max_overruns-th fails the vGPU for good
	 * (0: GVT_MAX_OVERRUNS). */
	uint64_t overrun_ns;
	uint32_t max_overruns;
	/* Take the GPU back by preemption at the slice's end (and probe a
	 * long workload alone at half the hang timeout). Off (the default
	 * for now, docs/vgpu-reset.md "Preemption"): a vGPU's work drains
	 * or overruns as before. */
	bool preempt;
	uint32_t engine_mask; /* 0: hw->info.engine_mask */
	/* Optional: the pGPU driver (gpu/hw/pgpu.h) already set up on the
	 * same gpu_hw, when the caller shares it (forcewake counts, IRQs).
	 * Without one the mediator sets up its own on hw: the engines are
	 * always driven through pgpu (submission, CSB, forcewake, reset). */
	struct pgpu *pgpu;
	/* Research systems attached to the gvt and every vGPU through the
	 * hook table (vgpu_ext.h): each one's ops, from its folder's header
	 * (gpu/ghyvi/ghyvi.h, gpu/dymgpu/dymgpu.h); NULL entries: none, the
	 * gVirt baseline alone. ext_params[i] is ext[i]'s own parameter
	 * block (gScale's: struct gscale_settings, gpu/gscale/gscale_ext.h), passed to its gvt_attach during gvt_create and not kept
	 * (NULL: its defaults). */
	const struct vgpu_ext_ops *ext[VGPU_EXT_MAX];
	const void *ext_params[VGPU_EXT_MAX];
};

/* Counters where the papers measure something: the shell prints them
 * (docs/shell.md), the evaluation reads them. Times are hv_ops now_ns()
 * deltas. */
struct vgpu_stats {
	/* MMIO / config */
	uint64_t mmio_reads, mmio_writes;
	uint64_t mmio_unknown; /* accesses to registers not in the table */
	uint64_t mmio_store_only; /* writes a range only stores (no model) */
	uint64_t aux_transactions; /* DP AUX sends, all ports (A-C: time-out) */
	uint64_t vblanks; /* counted on the vGPU's running pipes */
	uint64_t flips; /* plane and cursor surfaces latched at a vblank */
	uint64_t planes_refused; /* latched planes not scanned: bad or outside its GM */
	/* MI_DISPLAY_FLIPs performed (ring, privileged batch) and refused */
	uint64_t cmd_flips, cmd_flips_refused;
	uint64_t hotplugs; /* port D hotplug events raised (vgpu_monitor_plug) */
	uint64_t gmbus_naks; /* GMBUS cycles (no monitor: not acked) */
	uint64_t mmio_bad_access; /* size/alignment the device rejects */
	uint64_t mmio_ro_dropped; /* writes to read-only registers */
	uint64_t nonpriv_refused; /* FORCE_TO_NONPRIV values off the list */
	uint64_t pvinfo_reads, g2v_notifies, pvinfo_bad_writes, g2v_marks;
	uint64_t cfg_reads, cfg_writes;
	uint64_t asls_writes;	/* guest writes to ASLS, ignored */
	uint64_t ap_faults; /* aperture pages mapped on first touch */
	/* GGTT */
	uint64_t ggtt_writes; /* entries committed */
	uint64_t ggtt_half_writes; /* 4-byte halves buffered */
	uint64_t ggtt_invalid; /* entries naming a page not of this VM */
	uint64_t ggtt_out_of_range; /* entries outside the vGPU's GM */
	uint64_t ggtt_half_evicted; /* a buffered half never completed */
	uint64_t fence_writes, fence_rejected;
	/* gScale */
	uint64_t gm_entries_copied; /* GGTT entries copied in at switches */
	uint64_t ladder_updates;    /* aperture pages remapped in EPT */
	uint64_t fence_pool_maps;   /* fences moved into the fence pool */
	uint64_t fence_pool_full;   /* fences refused: pool exhausted */
	uint64_t ap_detiled;        /* aperture accesses detiled in software */
	uint64_t balloons;          /* high GM resized or moved at run time */
	uint64_t moves;             /* relocations of its high GM (DymGPU, `place`) */
	uint64_t entries_carried;   /* GGTT entries those carried over */
	/* PPGTT shadowing */
	uint64_t pte_traps; /* writes reported on protected pages */
	uint64_t pte_trap_partial; /* entries left for the post-shadow pass */
	uint64_t post_tables_visited; /* tables that pass looked at */
	uint64_t pte_trap_wide; /* 16-byte or string stores */
	uint64_t pte_invalid; /* guest entries we could not translate */
	uint64_t spt_created, spt_freed, spt_untracked;
	uint64_t mm_created, mm_rebuilt, mm_destroyed;
	uint64_t ppgtt_errors;
	/* shadow PPGTT pool (vgpu_ppgtt.c, docs/shadow-ppgtt.md): idle
	 * shadows evicted for the budget, rebuilt at their next submission;
	 * submissions that waited because every shadow was held by work in
	 * flight; roots whose tables alone exceed the budget; destroys of a
	 * root still in use; pages the budget refused; entries left not
	 * present until the next submission for it; guest entries read to
	 * build shadow tables (the work of a build or rebuild). */
	uint64_t mm_evicted, mm_rebuilt_evicted, mm_waits, mm_over_budget;
	uint64_t mm_destroy_busy, pt_refused, pt_deferred_entries;
	uint64_t spt_entries_filled;
	uint64_t ns_mm_rebuild; /* in rebuilds of evicted roots */
	/* execlists / workloads */
	uint64_t elsp_submits, elsp_dropped;
	uint64_t elsp_deferred; /* pairs that waited for shadow space */
	uint64_t workloads, workloads_done, workloads_failed;
	uint64_t overruns; /* workloads reset for running past the slice */
	/* preemption (vgpu_sched.c): workloads asked to leave the GPU for a
	 * waiting vGPU (or to prove progress), those that left at an
	 * arbitration point and went back on later */
	uint64_t preempt_requests, preemptions;
	/* hangs and overruns inside user batches: the engine reset, the
	 * request failed, not counted as faults; time held off the GPU */
	uint64_t user_hangs, ns_held;
	uint64_t csb_events, ctx_switches, vgpu_switches;
	uint64_t irqs_raised, irqs_injected;
	/* command scanner */
	uint64_t cmds_scanned, batches_scanned, cmds_rejected;
	/* commands read by class (vgpu_cmd_scan.c cmd_class: MI, 3D incl.
	 * the common subtypes 0/1, media/GPGPU on RCS, MFX/VEBOX, 2D) and
	 * their bytes */
	uint64_t scan_mi, scan_3d, scan_media, scan_video, scan_2d;
	uint64_t scan_bytes;
	/* bytes copied into hypervisor memory before running: ring segments
	 * and batches (what the GPU runs is always the copy) */
	uint64_t ring_bytes_copied, bb_bytes_copied;
	/* non-privileged batch copies made to mean what the hardware does
	 * with them: GGTT / index selectors cleared, privileged commands
	 * turned into MI_NOOP */
	uint64_t scan_ggtt_cleared, scan_priv_nooped;
	/* register operands a non-privileged batch may not use, renamed to
	 * RING_NOPID in the copy (the hardware drops them) */
	uint64_t scan_regs_neutralized;
	/* chains back to a batch started before at the same level, with a
	 * conditional batch end on the way, made a loop in the copies (IGT's
	 * spinner; vgpu_cmd_scan.c loop_back) */
	uint64_t scan_loops;
	/* loops with no conditional end (gem_busy's batch), run while the
	 * guest pages of their body are write-protected (vgpu_bb_watch.c):
	 * accepted; refused because the vGPU's watch slots were full; guest
	 * stores of MI_BATCH_BUFFER_END over a command, mirrored into the
	 * copy (one per copy dword ended); other stores to a watched page,
	 * which change nothing the GPU runs */
	uint64_t loops_watched, loops_watch_full;
	uint64_t batch_ends_mirrored, batch_writes_ignored;
	uint64_t workloads_rejected;
	uint64_t user_faults; /* user batches refused: their request failed */
	/* shadow batch pool (per VM budget): pages backed now and at most,
	 * submissions that waited for it, requests larger than all of it */
	uint64_t sbb_pages, sbb_pages_peak, sbb_waits, sbb_too_big;
	/* shadow rings (vgpu_workload.c): grown for a segment larger than
	 * the 64 KiB at rest, the largest in pages, submissions that waited
	 * to grow one, segments larger than the budget or 2 MiB (refused) */
	uint64_t sring_grows, sring_pages_peak, sring_waits, sring_too_big;
	/* the render context's workaround batches (indirect context and
	 * per-context, vgpu_cmd_scan.c vgpu_scan_wa_ctx): copies scanned,
	 * bytes copied, workloads dispatched with them in their shadow
	 * context, workloads refused for a bad one */
	uint64_t wa_scanned, wa_bytes, wa_run, wa_refused;
	/* cycles per phase (ns) */
	uint64_t ns_shadow, ns_scan, ns_dispatch,
		ns_complete, ns_switch, ns_on_hw;
	/* gHyvi hybrid PPGTT shadowing (gpu/ghyvi/ghyvi_relax.c): its counters
	 * live here with the rest, so the host prints one struct */
	uint64_t pte_relaxed;      /* table pages switched strict -> relaxed */
	uint64_t pte_strict_again; /* table pages switched relaxed -> strict */
	uint64_t pte_late_traps;   /* traps reported for an already relaxed page */
	uint64_t recon_runs;       /* reconstructions (submissions with relaxed pages) */
	uint64_t recon_pages;      /* relaxed pages diffed against their snapshot */
	uint64_t recon_compared;   /* entries compared */
	uint64_t recon_entries;    /* entries re-validated and re-translated */
	uint64_t recon_dropped;    /* of those: not this VM's memory / garbage */
	uint64_t wp_changes;       /* EPT protection changes made by gHyvi */
	uint64_t verify_runs, verify_mismatch; /* test-mode verifier */
	uint64_t ns_reconstruct;
	/* gHyvi's unit costs, timed where they happen (make bench reads them
	 * in Bochs, where time is instructions): EPT permission changes (+
	 * INVEPT), snapshots taken at a relax, relaxed pages compared with
	 * their snapshot (the compare only), entries re-translated there. */
	uint64_t snapshots, retranslated_ptes;
	uint64_t ns_ept, ns_snapshot, ns_diff;
	uint64_t ns_retranslate; /* of the leaf entries (retranslated_ptes) */
	/* faults and resets (vgpu_reset.c) */
	uint64_t faults;          /* refused / faulted / hung / overrun */
	uint64_t resets;          /* vGPU resets, by a fault or the operator */
	uint64_t ns_reset;        /* time spent resetting, summed */
	uint64_t ns_reset_to_run; /* last: fault (or reset) to its work on
				   * the GPU again */
};

struct gvt;
struct vgpu;
struct pgpu;

/* ---- device ------------------------------------------------------------ */

/* Take over hw for mediation: reads its layout (gpu_hw_info), reserves the
 * host's GM and fences, snapshots the registers vGPUs start from, maps the
 * mediator's own GM and brings every engine up in execlist mode. The
 * struct gvt itself comes from hv pages. */
int gvt_create(struct gpu_hw *hw, const struct hv_if *hv,
	       const struct gvt_params *p, struct gvt **out);
void gvt_destroy(struct gvt *gvt);

/* How many more vGPUs of type t fit now, and which resource binds first
 * (*limit: "low-gm", "high-gm", "fences", "ids"; may be NULL). */
uint32_t gvt_room_for(const struct gvt *gvt, const struct vgpu_type *t,
		      const char **limit);

/* Run the mediator: collect finished work from the GPU, emulate its
 * completion to the guests, switch vGPUs at slice ends, dispatch queued
 * work. Call it on each physical GPU interrupt and from a periodic timer
 * (every few ms); it never waits. */
void gvt_poll(struct gvt *gvt);

/* Work a guest's submission posted for the scheduler. A trapped ELSP
 * write (vgpu_execlist.c) only validates and queues its workload, then
 * posts its vGPU here and returns: it never runs gvt_poll inside the
 * trap. One bit per vGPU id (bit id - 1), set with an atomic OR so that
 * any CPU may post; gvt_poll takes them all at its start. The hypervisor
 * runs gvt_poll after the exit, before the next entry, when this is not
 * 0 (hv/gpu/gpu_irq.c gpu_irq_after_exit). */
uint64_t gvt_posted(const struct gvt *gvt);
/* The id of the vGPU whose state is on the GPU, 0 none. */
int gvt_owner_id(const struct gvt *gvt);

/* True when no vGPU has queued or running work. */
bool gvt_idle(const struct gvt *gvt);

struct vgpu *gvt_vgpu_by_vm(struct gvt *gvt, uint32_t vm);

/* What a shell shows of the mediator (vgpu_status.c). */
struct gvt_status {
	int owner;             /* vGPU id whose state is on the GPU, 0 none */
	uint32_t nr_vgpus;
	uint64_t timeslice_ns;
	bool gscale;
	uint32_t nr_slots;     /* gScale high-GM slots */
	uint64_t slot_bytes, high_base;
	uint64_t switches, entries_copied, entries_prefetched;
	uint64_t copy_ns;      /* time spent copying at switches (hv_ops now_ns) */
	uint64_t entries_carried; /* by relocations (vgpu_relocate_high) */
	/* Physical resets (gen9-facts §10): the pGPU driver's counts (engine
	 * resets include each full one; takeover's reset counted too), the
	 * full resets the mediator escalated to, and the wedged state. */
	uint64_t hangs, engine_resets, full_resets, full_reset_failures;
	uint64_t resets_not_ready;
	uint64_t escalations, escalations_failed, wedged_fails;
	bool wedged;
};
void gvt_get_status(const struct gvt *gvt, struct gvt_status *st);
/* How many vGPUs are placed on slot (gScale only; -GPU_EINVAL otherwise). */
int gvt_slot_users(const struct gvt *gvt, uint32_t slot, uint32_t *users);
/* The slots v's high GM occupies (gScale only): the first slot of its
 * first range, and how many slots in all its ranges. */
int vgpu_slots(const struct vgpu *v, uint32_t *first, uint32_t *count);
/* A run of gScale slots: one high GM range (non-contiguous slots: a vGPU
 * has up to VGPU_MAX_RANGES of them). */
struct vgpu_slot_run {
	uint32_t first, count;
};
/* v's runs, lowest first: how many (max written). 0 under gVirt. */
uint32_t vgpu_slot_runs(const struct vgpu *v, struct vgpu_slot_run *out,
			uint32_t max);
/* Reshaping under gScale (gpu/gscale/mediator/gscale_reshape.c; what gBalloon's decisions and
 * placement=dymgpu are carried out with): v's high GM becomes the runs
 * (whole slots, lowest first, none adjacent); entries at GM addresses
 * both layouts share stay, the rest are dropped; PVINFO's ballooning
 * registers follow (its first range). -GPU_EBUSY while v has queued or
 * running work, -GPU_ENOTSUP under gVirt, -GPU_EINVAL for bad runs. No
 * address translation: see gpu/gscale/mediator/gscale_reshape.c. */
int vgpu_set_high_runs(struct vgpu *v, const struct vgpu_slot_run *runs,
		       uint32_t n);
/* The same with one run of nslots slots from slot. */
int vgpu_set_high_slots(struct vgpu *v, uint32_t slot, uint32_t nslots);
/* Relocating under gScale (gpu/gscale/mediator/gscale_reshape.c; what DymGPU's moves and the
 * operator's `place` are carried out with). A vGPU is PINNED (never
 * moved) until its guest negotiates a way to be told of a move (the
 * hypervisor calls vgpu_set_movable once the guest set up the guest
 * channel); a stock i915 read PVINFO once and stays pinned. */
void vgpu_set_movable(struct vgpu *v, bool movable);
/* A movable guest says whether it has GM addresses in flight (the guest
 * channel's `quiet` word): while it does, moves and shrinks of its high
 * GM wait (-GPU_EBUSY, retried), as for work in flight. */
void vgpu_set_gm_in_use(struct vgpu *v, bool in_use);
/* Moves v's high GM, same size, to start at slot, every entry carried to
 * the same offset in the new range (the guest must re-read its range:
 * PVINFO and the guest channel say the new one). -GPU_EBUSY with work
 * queued or running, -GPU_EPERM when pinned, -GPU_ENOTSUP under gVirt,
 * -GPU_EINVAL outside the slots. *carried: present entries moved. */
int vgpu_move_high(struct vgpu *v, uint32_t slot, uint64_t *carried);
/* The general re-placement: v's high GM, same size, becomes the runs
 * (lowest first, none adjacent; the last may be partly used), every
 * entry carried to the same high offset: the k-th page of the old ranges
 * (lowest first) is the k-th of the new ones. A move is one run; a split
 * several; a merge of several ranges one. Same conditions and codes as
 * vgpu_move_high. */
int vgpu_relocate_high(struct vgpu *v, const struct vgpu_slot_run *runs,
		       uint32_t n, uint64_t *carried);
/* v's high-GM GGTT entries the guest made present; as a share of its
 * high GM, permille. */
uint64_t vgpu_high_used(const struct vgpu *v);
/* The same count by walking every high entry (for tests). */
uint64_t vgpu_high_used_walk(const struct vgpu *v);
uint32_t vgpu_high_used_permille(const struct vgpu *v);
/* v has work gScale's scheduler may pick (gScale only; false otherwise). */
bool vgpu_busy(const struct vgpu *v);

/* ---- vGPU life cycle ----------------------------------------------------- */

/* Carve a vGPU of type t for VM vm: low GM from the aperture, high GM
 * above it, fences; -GPU_ENOSPC when any of them does not fit (nothing is
 * left allocated). */
int vgpu_create(struct gvt *gvt, const struct vgpu_type *t, uint32_t vm,
		struct vgpu **out);
void vgpu_destroy(struct vgpu *v);

#define VGPU_SHADOW_PT_KIB_DEFAULT 16384u /* 16 MiB per VM */
#define VGPU_SHADOW_PT_KIB_MIN 256u
#define VGPU_SHADOW_PT_KIB_MAX 262144u /* 256 MiB */
/* Shadow PPGTT pool (docs/shadow-ppgtt.md): the vGPU's budget of shadow
 * page-table memory, VGPU_SHADOW_PT_KIB_MIN..MAX KiB (hv.cfg
 * vgpu_shadow_pt_kib=); -GPU_EINVAL outside. Lowering it evicts idle
 * shadows at once. */
int vgpu_ppgtt_set_budget(struct vgpu *v, uint32_t kib);
struct vgpu_ppgtt_usage {
	uint32_t budget_kib, used_kib, peak_kib;
	uint32_t meta_kib; /* of used: directories, always held */
	uint32_t roots; /* records: announced or in use */
	uint32_t shadowed; /* of those, with a shadow tree now */
	uint32_t tables; /* shadow page tables */
};
void vgpu_ppgtt_usage(const struct vgpu *v, struct vgpu_ppgtt_usage *u);

int vgpu_id(const struct vgpu *v);
/* The VM's shadow batch budget (hv.cfg vgpu_batch_kib=): how much batch
 * memory its requests may hold at once, KiB, a multiple of 4 in
 * 256..65536 (vGPUs start with 2048). Only while the vGPU holds no batch
 * copies (before its guest runs): -GPU_EBUSY otherwise, -GPU_EINVAL out
 * of range, -GPU_ENOSPC when the host's GM for the pools is used up (the
 * old budget stays then). */
int vgpu_set_batch_budget(struct vgpu *v, uint32_t kib);
/* The vGPU's virtual monitor on port D (hv.cfg vgpu_display=,
 * docs/display.md): a mode name of gpu/display's table ("1024x768", what
 * a vGPU starts with) or "none" for no monitor (AUX times out, no live
 * status: the vGPU of before issue 29). Before its guest runs: the
 * change is no hotplug. -GPU_EINVAL for any other name. */
int vgpu_set_display(struct vgpu *v, const char *mode);
/* The virtual monitor's cable (the shell's `monitor VM off|on`,
 * docs/display.md "Hotplug"): unplugged, port D's live status (SDEISR)
 * drops and AUX times out; plugged back, both return. Either way the PCH
 * raises port D's hotplug event as on a real cable (PCH_PORT_HOTPLUG's
 * long pulse, SDEIIR's port D bit, the interrupt through the virtual IRQ
 * tree) when the guest's driver has enabled port D's detection. Returns
 * VGPU_HOTPLUG_RAISED, _ALREADY (no change, nothing raised) or
 * _UNDETECTED (changed, detection off: no event), or -GPU_EINVAL for a
 * vGPU without a monitor (vgpu_display=none). A device reset keeps the
 * cable as it is. */
#define VGPU_HOTPLUG_RAISED 0
#define VGPU_HOTPLUG_ALREADY 1
#define VGPU_HOTPLUG_UNDETECTED 2
int vgpu_monitor_plug(struct vgpu *v, bool on);
/* The vGPU's OpRegion (docs/display.md, "The OpRegion and its VBT"):
 * fills buf (len >= VGPU_OPREGION_SIZE) with it and makes ASLS read gpa,
 * where the VM's firmware puts buf, in memory the guest's map reserves.
 * gpa must be 4 KiB aligned and below 4 GiB (ASLS is 32 bits):
 * -GPU_EINVAL otherwise, ASLS unchanged. */
#define VGPU_OPREGION_SIZE 0x2000u
int vgpu_opregion_place(struct vgpu *v, uint64_t gpa, void *buf, size_t len);
/* What the virtual monitor shows (docs/display.md, "Planes and scanout"):
 * pipe A's primary plane as it latched, checked again against the vGPU's
 * GM now. VDISP_PLANE_OK with *pl, or why nothing is shown (off, refused:
 * vdisp_plane_why). */
int vgpu_screen_plane(struct vgpu *v, struct vdisp_plane *pl);
/* Pipe A's cursor as it latched (CURBASE armed it), checked again
 * against the vGPU's GM now: VDISP_PLANE_OK with *cur (ARGB, its
 * position on the pipe in x, y and neg), VDISP_PLANE_OFF, or why it is
 * refused. Read its rows with vgpu_screen_read (0xAARRGGBB). */
int vgpu_screen_cursor(struct vgpu *v, struct vdisp_plane *cur);
/* Pixels x0 .. x0 + n - 1 of row y of pl (from vgpu_screen_plane) as
 * 0x00RRGGBB (0xAARRGGBB for the cursor), detiled, read through the
 * vGPU's own GGTT entries from its guest's pages; a page it has not
 * mapped reads black (transparent for the cursor). n at most
 * VGPU_SCREEN_RUN; -GPU_EINVAL outside the plane. */
#define VGPU_SCREEN_RUN 256u
int vgpu_screen_read(struct vgpu *v, const struct vdisp_plane *pl, uint32_t y,
		     uint32_t x0, uint32_t n, uint32_t *rgb);
/* Pipe A's frame counter (PIPE_FRMCOUNT) and whether its vblank clock
 * runs: the box's screen follows the owner's vblanks (docs/display.md). */
uint32_t vgpu_screen_frames(const struct vgpu *v, bool *running);
/* The physical plane's view of the owner (docs/display.md, "The physical
 * plane", gpu/vgpu/display/vgpu_scanout.c): fills the half of the scanout window
 * the plane is not reading with v's translated entries for the pages of
 * pl (checked by vgpu_screen_plane), the rest of that half black; *gm is
 * the half's GGTT address, *ptes the entries written. -GPU_ENOSPC when
 * the extent is larger than a half (or no GGTT space for the window),
 * -GPU_EINVAL when a page is not v's GM. */
#define GVT_SCANOUT_PAGES 8192u	/* 32 MiB a half (less in a small host GM) */
int gvt_scanout_map(struct gvt *gvt, struct vgpu *v,
		    const struct vdisp_plane *pl, uint64_t *gm, uint32_t *ptes);
/* The same for the owner's cursor (checked by vgpu_screen_cursor), into
 * the cursor's own two halves; -GPU_EINVAL when it is not v's GM. */
int gvt_scanout_map_cursor(struct gvt *gvt, struct vgpu *v,
			   const struct vdisp_plane *cur, uint64_t *gm,
			   uint32_t *ptes);
/* Every entry of the window to the black page (the plane then shows
 * black); done before a vGPU's pages go back, and when ownership ends. */
void gvt_scanout_clear(struct gvt *gvt);
/* Has v's guest written a GGTT entry the window copies since the map? */
bool vgpu_scanout_dirty(const struct vgpu *v);
uint32_t vgpu_batch_budget(const struct vgpu *v);
/* hv.cfg vgpu_trace=batches: the scanner logs every command it reads
 * ("vgpu-cmd" lines, gpu/vgpu/cmd/vgpu_cmd_scan.c), for host replay
 * fixtures (tools/vgpu-cmds2fixture). */
void vgpu_set_scan_trace(struct vgpu *v, bool on);
const struct vgpu_stats *vgpu_get_stats(const struct vgpu *v);
/* The vGPU's slices in GGTT address space (host == guest addresses);
 * high: its first high range (the only one of a contiguous vGPU; what
 * PVINFO says). */
void vgpu_gm_ranges(const struct vgpu *v, uint64_t *low_base,
		    uint64_t *low_size, uint64_t *high_base,
		    uint64_t *high_size);
/* All its high GM ranges, lowest first (non-contiguous slots): how many
 * (at most VGPU_MAX_RANGES; max of them written). */
struct vgpu_gm_range {
	uint64_t base, size;
};
uint32_t vgpu_high_ranges(const struct vgpu *v, struct vgpu_gm_range *out,
			  uint32_t max);
/* GGTT entry index of v (inside its ranges, else -GPU_EINVAL): the value
 * the guest wrote and the validated host value behind it (0: dropped). */
int vgpu_ggtt_entry(struct vgpu *v, uint32_t index, uint64_t *guest,
		    uint64_t *host);
/* True after a rejected or hung workload, until the guest resets the GPU
 * (GDRST) or vgpu_reset does: submissions are dropped meanwhile. */
bool vgpu_failed(const struct vgpu *v);

/* ---- reset (vgpu_reset.c, docs/vgpu-reset.md) --------------------------- */

/* Put v back to its post-reset state without its VM's help: the physical
 * engines running its work reset, its queued work dropped, execlist/CSB
 * state idle, shadow PPGTTs dropped, registers from the snapshot (the
 * engines in engine_mask; ~0u: a full reset, everything below the
 * interrupt block and PVINFO); GGTT and fences kept. The guest is told
 * as i915 expects (RING_EIR and a CS error interrupt on each engine of
 * the mask). -GPU_EINVAL when v is failed for good. */
int vgpu_reset(struct vgpu *v, uint32_t engine_mask, const char *why);
/* The hypervisor's fault policy, after each gvt_poll: each failed vGPU
 * is reset (its faulting engine), unless this is its max_faults-th fault
 * within window_ns of the window's first: then it is failed for good.
 * Returns how many were reset. */
uint32_t gvt_recover(struct gvt *gvt, uint32_t max_faults, uint64_t window_ns);
/* A power cycle of the device (its VM restarts in place): vgpu_reset's
 * full reset, and its GGTT, fences, PCI config space and interrupt block
 * back to a fresh vGPU's. -GPU_EINVAL when failed for good. */
int vgpu_reset_device(struct vgpu *v);
/* Failed for good (too many faults, or overruns): only destroying it
 * helps; its VM is stopped. */
bool vgpu_dead(const struct vgpu *v);

/* ---- trapped guest accesses --------------------------------------------- */

/* PCI config space of the virtual 00:02.0; size 1, 2 or 4, naturally
 * aligned, off < 256. Reads of bad accesses give all ones. */
int vgpu_cfg_read(struct vgpu *v, uint32_t off, uint32_t *val,
		  unsigned int size);
/* The guest touched BAR2 offset `off`, a page the hypervisor has not
 * mapped (hv_ops ept_unmap_range: the aperture is mapped on demand): map
 * it if the vGPU's low GM has a page there. -GPU_EINVAL outside its low
 * GM or with BAR2 not decoded; then the access is emulated as before. */
int vgpu_aperture_fault(struct vgpu *v, uint64_t off);
/* A CPU access of len bytes (at most 8, inside one page) at BAR2 offset
 * off that a valid guest fence covers, on a GPU with no physical aperture
 * to detile it (gScale's no_aperture setting, gpu/gscale/gscale_ext.h): the bytes the fence's
 * tiling puts there, read or written in the vGPU's GM as a Gen9 aperture
 * does (gpu/hw/gen9_tiling.h). Pages without a GGTT entry read all ones,
 * writes there are dropped. -GPU_EINVAL when no such fence covers off:
 * the access is not this path's. */
int vgpu_aperture_rw(struct vgpu *v, uint64_t off, void *buf, size_t len,
		     bool write);
int vgpu_cfg_write(struct vgpu *v, uint32_t off, uint32_t val,
		   unsigned int size);

/* BAR0 access at offset off (< 16 MiB), size 1, 2, 4 or 8, naturally
 * aligned. Registers below 2 MiB, GGTT entries at 8 MiB. Neither reads
 * the clock (no hv_ops call for time): the hypervisor times its own
 * exits (hv/gpu/vgpu_dev.c). */
int vgpu_mmio_read(struct vgpu *v, uint64_t off, uint64_t *val,
		   unsigned int size);
int vgpu_mmio_write(struct vgpu *v, uint64_t off, uint64_t val,
		    unsigned int size);

/* The guest stored len bytes at gpa inside a page this vGPU write-protected
 * (hv_ops wp_page): a shadowed page table, or a batch a running loop
 * depends on (vgpu_bb_watch.c). The bytes are already in guest memory. */
int vgpu_page_write(struct vgpu *v, uint64_t gpa, const void *data,
		    size_t len);

#endif
