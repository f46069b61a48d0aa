/* The mediator's data model, shared by its areas (gpu/vgpu/README.md): the
 * device, the vGPU and what they hold, memory and log helpers, the vreg
 * file, the research systems' hook calls. Each area's functions are in its
 * own header (mmio/mmio.h, gtt/gtt.h, ppgtt/ppgtt.h, exec/exec.h,
 * cmd/cmd.h, display/display.h; gScale's in gpu/gscale/mediator/).
 * Not an API for hv/; tests include it to look at state. */
#ifndef GPU_VGPU_VGPU_PRIV_H
#define GPU_VGPU_VGPU_PRIV_H

#include "gpu/hw/gen9_cmds.h"
#include "gpu/hw/gen9_regs.h"
#include "gpu/hw/pgpu.h"
#include "gpu/display/vdisp_aux.h"
#include "gpu/display/vdisp_pipe.h"
#include "gpu/display/vdisp_plane.h"
struct gscale; /* gScale's shared GM (gpu/gscale), behind the hook table */
#include "gpu/vgpu/vgpu.h"

#define VGPU_PAGE 4096u
#define VGPU_PTES_PER_PAGE 512u

/* ---- memory from hv pages ------------------------------------------------ */

/* A large zeroed array held as separate pages (the hypervisor's
 * allocator cannot promise megabytes of contiguous memory). */
struct parray {
	uint8_t **page;
	size_t npages;
	size_t tab_pages; /* pages holding page[] itself */
};

/* ---- PPGTT shadowing (vgpu_spt.c, vgpu_ppgtt.c) ------------------------- */

/* Objects kept in chunks allocated as they are needed and freed when
 * empty (vgpu_slab.c), so an index stays valid while its object lives and
 * memory at rest is the directory alone. The chunks' pages count against
 * the vGPU's shadow page-table budget (pt_pages). A free object holds its
 * chunk's free-list link in its first four bytes. */
#define VSLAB_PER 64u /* objects per chunk */
struct vslab_chunk {
	int32_t head; /* first free object, SPT_NONE */
	uint32_t nfree;
};
struct vslab {
	void **dir; /* chunk pointers; NULL: not allocated */
	struct vslab_chunk *info;
	uint32_t size, max_chunks, chunk_pages, meta_pages;
	uint32_t span; /* chunks [0, span) may be allocated */
	uint32_t hint; /* no chunk below it has a free object */
	uint32_t used; /* objects allocated */
};
#define VSLAB_AT(type, sl, i) \
	(((type *)(sl)->dir[(uint32_t)(i) / VSLAB_PER])[(uint32_t)(i) % VSLAB_PER])

/* PPGTT shadowing: shadow page tables and shadow mm records are slab
 * objects within the vGPU's budget of shadow page-table memory (hv.cfg
 * vgpu_shadow_pt_kib=, docs/shadow-ppgtt.md). SPT()/MM() name one. */
#define VGPU_SPT_MAX 65536 /* index space: the largest budget's tables */
#define VGPU_SPT_HASH 1024 /* power of two */
#define VGPU_MM_MAX 65536 /* records (announced or in use) per vGPU */
#define VGPU_MM_HASH 1024 /* power of two */
#define SPT_NONE (-1)
#define SPT(v, i) VSLAB_AT(struct spt, &(v)->spts, i)
#define MM(v, i) VSLAB_AT(struct shadow_mm, &(v)->mms, i)

/* Levels, as i915 numbers them from the leaf. */
enum { SPT_PT = 1, SPT_PD = 2, SPT_PDP = 3, SPT_PML4 = 4 };

/* One guest page-table page and its shadow. */
struct spt {
	uint64_t gfn; /* guest page frame of the table */
	uint8_t level; /* SPT_* ; 0 = free slot */
	bool dead; /* stopped being a page table: untracked */
	uint32_t refs; /* parents (and mm roots) pointing at it */
	int32_t hnext; /* hash chain, or free list */
	uint32_t visit; /* repair walk stamp */
	uint64_t *shadow; /* CPU view of the shadow table (GPU reads it) */
	uint64_t shadow_hpa;
	int32_t *child; /* levels > 1: spt index per entry, SPT_NONE */
	uint64_t post[VGPU_PTES_PER_PAGE / 64]; /* entries left half-written */
	/* Unprotected: the research system with the PPGTT hooks (gHyvi,
	 * vgpu_ext.h) brings the shadow up to date before each use; the
	 * baseline does not write-protect its frame. */
	bool relaxed;
	/* Its own index: spt_set, the hot loop of every fill, keeps only
	 * the pointer, and the rare post-shadow mark needs the index. */
	int32_t self;
	/* Optional: the guest entries the shadow was built from (that
	 * system allocates and frees it; spt_fill and spt_update_entry keep
	 * it current). */
	uint64_t *snap;
	/* That system's own per-table state, zeroed at allocation. */
	_Alignas(8) unsigned char ext[VGPU_SPT_EXT_BYTES];
};

/* A guest PPGTT root the vGPU knows of: announced (g2v) and/or used by
 * queued work. Its shadow tree exists only while root != SPT_NONE; an idle
 * one (refs == 0) may be evicted for the budget and is rebuilt at its next
 * submission (vgpu_ppgtt.c). */
struct shadow_mm {
	uint64_t root_gpa; /* guest PML4 (first: the slab's link when free) */
	bool used;
	bool g2v; /* announced by the guest (PVINFO g2v_notify) */
	bool over_budget; /* its tables alone exceed the budget: partial */
	bool evicted; /* its shadow was evicted; not rebuilt since */
	bool destroyed; /* g2v destroy while busy: goes when idle */
	int32_t root; /* spt index, SPT_NONE while not shadowed */
	uint32_t gen; /* vgpu->ppgtt_gen when built */
	uint32_t refs; /* queued / running workloads */
	uint64_t last_use;
	int32_t hnext; /* root_gpa hash chain, or free list */
	int32_t lprev, lnext; /* LRU list of shadowed roots, newest first */
};

/* ---- execlists and workloads -------------------------------------------- */

#define VGPU_WL_QUEUE 8 /* workloads queued per engine per vGPU */
#define VGPU_SRING_PAGES 16 /* shadow ring at rest: 64 KiB */
/* The largest ring RING_CTL can describe (RING_NR_PAGES): 2 MiB. A guest
 * segment is at most its ring's size, so a shadow ring this large holds
 * any segment; it grows to the size a segment needs (vgpu_workload.c). */
#define VGPU_SRING_MAX_PAGES 512
/* Shadow batches: the copies of every batch a workload runs come from a
 * per-vGPU pool of pages (vgpu_own_gm.c) shared by its engines: a window
 * of GGTT space as large as the VM's budget (hv.cfg vgpu_batch_kib=),
 * backed by hypervisor pages on demand, given back when the vGPU idles.
 * A copy is a run of pool pages linked by MI_BATCH_BUFFER_STARTs
 * (vgpu_cmd_scan.c), so copies of any level interleave without a fixed
 * split. A workload holds its pages until it completes. */
#define VGPU_SBB_DEFAULT_KIB 2048u /* one request of 1 MiB and more fits */
#define VGPU_SBB_MIN_KIB 256u
#define VGPU_SBB_MAX_KIB 65536u
#define VGPU_SBB_REST_PAGES 16u /* kept backed while idle: 64 KiB */
#define VGPU_SBB_JUMP 12u /* bytes of the MI_BATCH_BUFFER_START between pages */
#define VGPU_DEFER_MAX 8 /* ELSP pairs that may wait for shadow space */
#define VGPU_CTX_MAX_PAGES 22 /* RCS context image on gen9 */

/* An object in the mediator's own GM: host pages mapped in the GGTT. */
struct own_obj {
	uint32_t gm; /* GGTT address */
	uint32_t pages;
	uint64_t hpa;
	uint8_t *va;
};

/* One page of the shadow batch pool: page i is GGTT sbb_pool.gm + i * 4K. */
struct sbb_page {
	uint8_t *va; /* NULL: not backed (no GGTT entry) */
	uint64_t hpa;
	int32_t next; /* free list or the holding workload's list */
	bool user; /* holds copies of non-privileged batches only */
	bool held; /* by a workload or a grown shadow ring: not on a free list */
};

struct sbb_pool {
	uint64_t gm; /* GGTT window, budget pages */
	uint32_t budget; /* pages */
	uint32_t used; /* held by workloads */
	uint32_t backed; /* with a host page */
	uint32_t peak_backed;
	uint32_t gen; /* bumped when a page is backed or given back */
	int32_t free_backed, free_bare; /* free lists */
	struct sbb_page *pg;
	size_t pg_pages;
	uint64_t defer_seq; /* next deferred pair's number */
};

struct workload {
	uint64_t desc; /* guest descriptor */
	uint64_t pair1; /* element 0: the descriptor of element 1, or 0 */
	uint32_t lrca, ctx_id;
	bool schedule_in; /* element 0 of an ELSP write */
	bool dispatched;
	bool abandoned; /* reset while on the GPU: complete silently */
	int status; /* 0, or negative: failed */
	int32_t mm; /* shadow_mm index */
	uint32_t ctx_ctrl;
	uint32_t ring_start, ring_ctl, ring_size;
	uint32_t head, tail; /* in the guest ring */
	uint32_t s_head, s_tail, s_len; /* in the shadow ring */
	uint32_t events; /* per-engine IIR bits to raise on completion */
	uint32_t hw_ctx_id; /* tag on the physical descriptor */
	uint64_t t_queued, t_dispatched;
	/* Runs only up to a user batch the scanner refused; on completion
	 * its request fails as after a hang (vgpu_user_fault.c). */
	const char *user_fault;
	/* Taken off the GPU at an arbitration point for another vGPU: its
	 * shadow context holds where it stopped, and it goes back on as it
	 * is, unseen by the guest (vgpu_sched.c). */
	bool preempted;
	/* Shadow batch pool pages its copies use: a list through
	 * sbb_page.next, sbb_n of them. */
	int32_t sbb_first;
	uint32_t sbb_n;
	/* Pool pages of a shadow ring grown for this workload (it found the
	 * engine's ring empty): they count against the budget with its
	 * batches, so a request the two together cannot fit fails alone. */
	uint32_t sring_pages;
	/* Watched runs of its looped batches (v->bbw), released with its
	 * pool pages (vgpu_bb_watch.c). */
	uint32_t bbw_mask;
	/* RCS: the context's workaround batch pointers as the guest's image
	 * had them at submission (CTX_INDIRECT_*, CTX_PER_CTX_*), and the
	 * GGTT addresses of their scanned copies in the pool (0: none). */
	uint32_t wa_ictx, wa_ictx_off, wa_per_ctx;
	uint32_t wa_ictx_gm, wa_per_gm;
};

/* Virtual execlist: two slots, each an ELSP pair (gvt-facts §8). */
struct vexeclist_slot {
	bool valid;
	uint64_t desc[2];
	unsigned int cur; /* element running */
};

struct vgpu_engine {
	bool present;
	int id;
	uint32_t base;
	uint32_t elsp[4];
	unsigned int elsp_n;
	struct vexeclist_slot slot[2];
	int running, pending; /* slot index or -1 */
	uint8_t csb_wptr; /* last virtual CSB entry written, 7 = none */
	struct workload wl[VGPU_WL_QUEUE];
	unsigned int wl_head, wl_count;
	/* sring: the shadow ring at rest, VGPU_SRING_PAGES in the fixed
	 * slot. A segment larger than it, arriving while the engine's ring is
	 * empty, gets a ring of its size from the VM's shadow batch pool: a
	 * run of sr_pages pool pages from sr_first (GGTT sr_gm), given back
	 * when the engine's queue empties again. sr_first < 0: at rest
	 * (sr_gm = sring.gm, sr_pages = sring.pages). */
	struct own_obj sctx, sring;
	int32_t sr_first;
	uint32_t sr_gm, sr_pages;
	uint32_t sring_tail, sring_used;
	/* ELSP pairs that found no shadow space (batch pool, shadow ring or
	 * workload queue) while earlier work of this vGPU was queued: they
	 * wait, in the order they came (seq, vGPU-wide), until that work
	 * completes (vgpu_execlist.c). */
	/* second: desc0 is element 1 of a pair whose element 0 was queued
	 * alone (vgpu_execlist.c execlist_queue) */
	struct { uint64_t desc0, desc1, seq; bool second; } deferred[VGPU_DEFER_MAX];
	unsigned int n_deferred;
	uint32_t last_lrca; /* engine pages already in the shadow ctx */
	bool tlb_inval;
};

/* ---- the vGPU ----------------------------------------------------------- */

#define VGPU_PARTIAL_PTES 16
#define VGPU_CFG_SIZE 256

struct ggtt_partial {
	bool used;
	uint8_t have; /* bit 0 low half, bit 1 high half */
	uint32_t index;
	uint64_t val;
	uint64_t seq;
};

/* A batch start the scanner followed (vgpu_cmd_scan.c seen_start): the
 * target with its level and privilege, where its copy begins in the
 * pool's GM, and how many conditional batch ends (exits) the scan had
 * passed when it began. */
struct scan_seen {
	uint64_t key;
	uint32_t gm;
	uint32_t exits;
	uint32_t segs; /* watch runs the scan had recorded by then */
};

/* A run of a user batch's copy (vgpu_bb_watch.c): the source bytes of
 * guest page gfn lie in pool page `page` at their page offset + delta,
 * and hdr marks which source dwords the scanner decoded as command
 * headers. Recorded while scanning; kept (watched) while a loop with no
 * conditional end runs over it. */
#define VGPU_SCAN_SEGS 64 /* runs one scan records */
#define VGPU_BBW_MAX 32   /* runs a vGPU watches at once */
struct bbw_seg {
	uint64_t gfn;
	int32_t page;
	int32_t delta;
	uint32_t hdr[VGPU_PAGE / 4 / 32];
};

/* A research system attached to a vGPU (vgpu_ext.h): its hooks and the
 * state its attach made. */
struct vgpu_ext_slot {
	const struct vgpu_ext_ops *ops;
	void *state;
};

/* One scanned plane of a pipe (vgpu_display.c): what the registers said
 * when PLANE_SURF / CURBASE armed it, checked against the vGPU's GM, and
 * what latched at the vblank; the last refusal logged, so a guest
 * repeating it is not logged again. */
#define VGPU_SCAN_PRIMARY 0
#define VGPU_SCAN_CURSOR 1
#define VGPU_SCAN_PLANES 2
struct vgpu_scan {
	struct vdisp_plane armed, live;
	uint8_t armed_err, live_err; /* enum vdisp_plane_err */
	uint8_t logged_err;
	uint64_t logged_surf;
};

struct vgpu {
	struct gvt *gvt;
	int id; /* 1..GVT_MAX_VGPUS */
	uint32_t vm;
	struct vgpu_type type;
	uint64_t low_base, low_size, high_base, high_size;
	/* High GM as ranges (gScale's non-contiguous slots, vgpu_gm.c):
	 * nr_high of them, lowest GM first; high_base/high_size is hr[0],
	 * the range PVINFO names; high_total their sum. The vGPU's own
	 * arrays (GGTT entries) hold low GM, then each range in order. */
	uint32_t nr_high;
	struct vgpu_gm_range hr[VGPU_MAX_RANGES];
	uint64_t high_total;
	uint32_t fence_base, fence_num; /* physical fences owned */
	int gs_id; /* gScale's id for this vGPU, -1 under gVirt */
	bool movable; /* its guest is told of moves (else pinned) */
	bool gm_in_use; /* its guest has GM addresses in flight: no move now */
	uint64_t gm_present; /* present entries in its private shadow */
	/* Guest GGTT entries with the present bit in its high GM, kept on
	 * every entry write (vgpu_ggtt.c): gBalloon's utilization without a
	 * walk over the whole high GM per request (vgpu_high_used). */
	uint64_t high_present;
	/* Fences remapped into the fence memory space pool (gScale): the
	 * guest's range [gm, gm + size) lives at pool_gm while fenced. */
	struct {
		uint64_t gm, size, pool_gm;
	} pooled[GEN9_NUM_FENCES];
	/* Fences over low GM detiled in software (no physical aperture,
	 * gScale's no_aperture setting; gpu/gscale/mediator/gscale_ap_detile.c): the guest's
	 * pages of [gm, gm + size) stay unmapped while fenced. */
	struct {
		uint64_t gm, size;
	} detiled[GEN9_NUM_FENCES];
	uint64_t fence_hw[GEN9_NUM_FENCES]; /* validated value for the hardware */

	/* virtual state */
	uint8_t cfg[VGPU_CFG_SIZE];
	uint64_t bar_size[3]; /* BAR0, BAR2, BAR4 sizes */
	bool bar_sizing[6]; /* dword i of BARs holds the sizing pattern */
	bool ap_mapped; /* low slice of the aperture mapped in EPT */
	uint64_t ap_base; /* guest BAR2 base it is mapped at */
	struct parray vreg; /* 2 MiB register file */
	uint8_t *unknown_logged; /* bitmap, one bit per dword */
	bool pv_notified; /* guest read PVINFO magic */
	bool pv_odd_read_logged;
	bool display_ready;
	/* The OpRegion (vgpu_opregion.c): its guest-physical address, what
	 * ASLS reads (0: none); a guest write to ASLS is ignored, logged
	 * once. */
	uint32_t opregion_gpa;
	bool asls_write_logged;
	/* The virtual monitor (vgpu_display.c): its mode (NULL: headless)
	 * and port D's AUX channel, which reaches it. */
	const struct vdisp_mode *disp_mode;
	bool monitor_unplugged; /* vgpu_monitor_plug: the cable is out */
	struct vdisp_aux aux_d;
	/* Pipes A-C (vgpu_display.c): vblank clock, counters, latched
	 * surfaces; pipes_on counts the running ones. */
	struct vdisp_pipe pipe[VDISP_PIPES];
	uint32_t pipes_on;
	/* Each pipe's primary plane and cursor as checked when the guest
	 * armed them, and as latched (vgpu_display.c, "Planes"). */
	struct vgpu_scan scan[VDISP_PIPES][VGPU_SCAN_PLANES];
	uint32_t planes_logged; /* refusals logged (bounded) */
	/* GGTT indexes the scanout window copies (vgpu_scanout.c; scan_n 0:
	 * none) and whether the guest wrote one since. */
	uint32_t scan_first, scan_n;
	uint32_t scan_cur_first, scan_cur_n; /* the cursor's */
	bool scan_dirty;
	uint64_t pv_pdp[4];
	bool failed;
	bool banned; /* failed for good: too many GPU time overruns */
	uint32_t overruns;
	/* Faults and resets (vgpu_reset.c): the engine and time of the
	 * fault that failed it, the hypervisor's fault window, and when the
	 * last reset began (cleared when its work reaches the GPU again). */
	int fault_engine;
	/* Its state on the GPU was lost to a full GPU reset: the next vGPU
	 * reset is a full one, whatever engine faulted (vgpu_reset). */
	bool full_reset_due;
	uint64_t t_fault, fault_window_start, t_reset;
	uint32_t window_faults;
	/* The fault was a hang inside a user batch: the engine was reset and
	 * its request fails, but it is not counted in the fault window; the
	 * vGPU gets no GPU before hold_until, paying for the engine time the
	 * hang took (vgpu_sched.c). */
	bool fault_user;
	uint64_t hold_until;
	char fault_why[64];
	uint32_t pcode_mem_latency_calls;

	/* GGTT: guest values and what we put in the physical GGTT */
	struct parray ggtt_guest, ggtt_host;
	struct ggtt_partial partial[VGPU_PARTIAL_PTES];
	uint64_t partial_seq;

	/* PPGTT */
	struct vslab spts; /* struct spt */
	int32_t spt_hash[VGPU_SPT_HASH];
	uint32_t spt_count;
	struct vslab mms; /* struct shadow_mm */
	int32_t mm_hash[VGPU_MM_HASH];
	int32_t lru_head, lru_tail; /* shadowed roots, most recent first */
	uint32_t mm_shadowed;
	/* Shadow page-table memory in pages (shadow tables, their child
	 * indices, gHyvi snapshots, descriptor and record chunks) and the
	 * budget it stays within. short_pages: an allocation was refused for
	 * the budget since it was last cleared (vgpu_ppgtt.c). */
	uint32_t pt_pages, pt_budget, pt_peak;
	bool pt_short;
	/* An idle root was released while submissions waited for shadow
	 * memory: the execlists retry every engine's waiting pairs. */
	bool mm_wake;
	uint32_t ppgtt_gen; /* bumped when a table is untracked */
	/* Tables with post-shadow marks (struct spt.post): each has its
	 * slab flag set, and its chunk's bit here, so the pass before a
	 * submission visits those tables and no other (vgpu_ppgtt.c). A
	 * bit may outlive the flags of its chunk; the pass clears it. */
	uint64_t post_chunks[VGPU_SPT_MAX / VSLAB_PER / 64];
	/* A table was flagged since the last pass began: spares a
	 * submission with nothing half written the look at post_chunks. */
	bool post_pending;
	uint32_t visit_stamp;

	struct vgpu_engine eng[GEN9_NUM_ENGINES];
	uint32_t own_slot; /* index of its slice of the mediator's GM */
	struct sbb_pool sbb; /* shadow batch pages (vgpu_own_gm.c) */
	/* The scan under way: batches started at each level since the
	 * level was entered (vgpu_cmd_scan.c finds loops with it). */
	struct scan_seen scan_seen[256];
	/* ... and the runs of its user batch copies (vgpu_bb_watch.c) */
	struct bbw_seg scan_segs[VGPU_SCAN_SEGS];
	/* Watched runs: bit i of bbw_used, held by the workload whose
	 * bbw_mask has it. */
	struct bbw_seg bbw[VGPU_BBW_MAX];
	uint32_t bbw_used;
	uint64_t slice_used_ns;
	struct vgpu_stats stats;
	bool scan_trace; /* hv.cfg vgpu_trace=batches */
	/* The research systems attached to it (vgpu_ext.c). */
	struct vgpu_ext_slot ext[VGPU_EXT_MAX];
};

/* ---- the device --------------------------------------------------------- */

/* One extent allocator per GM region (low, high). */
#define GM_MAX_EXTENTS (GVT_MAX_VGPUS + 1)
struct gm_region {
	uint64_t base, size;
	struct {
		uint64_t start, size;
	} ext[GM_MAX_EXTENTS]; /* sorted by start */
	unsigned int n;
};

/* Per physical engine: the workload on it now. */
struct pexec_engine {
	bool present;
	int id;
	uint32_t base;
	struct own_obj hwsp;
	struct vgpu *owner_vgpu; /* of the in-flight workload */
	struct workload *inflight;
	uint64_t t_submit;
	uint32_t submits, completions, resets;
	/* The CSB reported the in-flight workload complete just before a
	 * full reset: the next poll reports it done. */
	bool done_before_reset;
	/* Preemption (vgpu_pexec.c): an empty context of ours, submitted
	 * over the in-flight workload to take the engine from it at its
	 * next arbitration point; busy until that context completes. */
	struct own_obj null_ctx, null_ring;
	bool preempting;
	uint32_t null_id; /* its tag on the descriptor */
	uint64_t t_preempt;
	uint32_t preempt_requests, preemptions;
};

#define GVT_OWN_SLOT_PAGES 256u /* 1 MiB of mediator GM per vGPU */
#define GVT_OWN_GM_SIZE ((uint64_t)(GVT_MAX_VGPUS + 1) * GVT_OWN_SLOT_PAGES * VGPU_PAGE)

struct gvt_mmio_switch_save; /* vgpu_mmio_switch.c */

/* The register table (mmio/mmio.h, vgpu_mmio_table.c): mmio/'s ranges
 * and the areas' parts, joined at gvt_create, and the hooks the areas
 * filled. */
struct mmio_range;
typedef int (*mmio_window_read_fn)(struct vgpu *v, uint64_t off,
				   uint64_t *val, unsigned int size);
typedef int (*mmio_window_write_fn)(struct vgpu *v, uint64_t off,
				    uint64_t val, unsigned int size);
typedef int (*mmio_g2v_fn)(struct vgpu *v, uint32_t what, uint64_t pdp0);
/* The register table's index by 4 KiB page of BAR0's registers. */
#define GVT_REGS_PAGE_SHIFT 12
#define GVT_REGS_PAGES (GEN9_MMIO_SIZE >> GVT_REGS_PAGE_SHIFT)
struct gvt_regs {
	struct mmio_range *tab; /* sorted, non-overlapping */
	uint32_t n, pages;
	/* page_first[p]: the first range that ends at or after page p's
	 * start (n if none); the range holding an offset of page p is one of
	 * [page_first[p], page_first[p + 1]] (mmio_lookup) */
	uint16_t page_first[GVT_REGS_PAGES + 1];
	mmio_window_read_fn window_read;
	mmio_window_write_fn window_write;
	mmio_g2v_fn g2v_ppgtt;
};

struct gvt {
	struct gpu_hw *hw;
	struct hv_if hv;
	struct gvt_params p;
	uint32_t engine_mask;
	uint64_t aperture_size, ggtt_size;
	uint32_t ggtt_entries;
	struct gm_region low, high;
	uint32_t fences_total;
	uint32_t fence_used; /* bitmap of physical fences given to vGPUs */
	struct parray golden; /* register snapshot vGPUs start from */
	struct gvt_regs regs; /* the register table */
	struct vgpu *vgpu[GVT_MAX_VGPUS + 1]; /* by id; [0] unused */
	uint64_t vgpu_ids; /* bit id - 1 set while vgpu[id] is: the polls
			    * visit the vGPUs there are, not all 64 slots */
	uint32_t nr_vgpus;
	uint64_t own_gm_base; /* mediator's objects */
	/* The vGPUs' shadow batch windows: the host's high GM below
	 * own_gm_base (vgpu_own_gm.c). */
	struct gm_region sbb_region;
	uint32_t hw_ctx_seq;
	bool fw_held; /* forcewake reference taken through pgpu */
	/* The pGPU driver the engines are driven through: p.pgpu when the
	 * caller gave one, else this one, set up by pexec_init. */
	struct pgpu *pgpu;
	struct pgpu own_pgpu;
	struct pexec_engine pe[GEN9_NUM_ENGINES];
	/* A failed engine reset escalated to the whole GPU
	 * (vgpu_pexec_full.c); wedged: that failed too, nothing is
	 * submitted again and every workload fails (-GPU_EIO). */
	uint64_t full_resets, full_reset_failures, wedged_fails;
	bool wedged;
	/* scheduler */
	struct vgpu *owner; /* vGPU whose MMIO state is on the hardware */
	struct vgpu *next_owner; /* switch pending until engines idle */
	uint64_t slice_start;
	int rr_last; /* id last given a slice */
	uint32_t *host_mmio_save; /* host values of the switched registers */
	size_t host_mmio_save_pages;
	uint64_t poll_calls;
	/* Submissions posted since the last gvt_poll (gvt_posted, vgpu.h):
	 * atomic, the only field another CPU may write. */
	uint64_t posted;
	/* Running display pipes of all vGPUs (vgpu_display.c): 0 and the
	 * vblank tick returns at once. Recounted at every tick, so a vGPU
	 * destroyed with pipes on costs one walk, not a stale count. */
	uint32_t disp_pipes_on;
	uint32_t gvt_pages; /* pages of this struct */
	/* The scanout window (vgpu_scanout.c): two halves of host GGTT the
	 * physical plane reads through, filled from scan_src's entries. */
	uint64_t scan_gm;	/* 0: not carved yet */
	uint32_t scan_half_pages;	/* GVT_SCANOUT_PAGES, or less */
	uint64_t scan_black;	/* PTE of the black page */
	void *scan_black_va;
	/* entries of each slot not black: the plane's two halves, then
	 * the cursor's two (vgpu_scanout.c) */
	uint32_t scan_filled[4];
	unsigned scan_half;	/* the plane's half last filled */
	unsigned scan_cur_half;	/* the cursor's */
	struct vgpu *scan_src;
	/* The research systems listed in p.ext, with the per-gvt state
	 * their gvt_attach made (vgpu_ext.c). */
	struct vgpu_ext_slot ext[VGPU_EXT_MAX];
	/* The one of them that shares GM (its shared-GM entries filled and
	 * a per-gvt state made: gScale), or NULL: GM is partitioned. */
	const struct vgpu_ext_slot *gm;
};

/* ---- the shadow batch pool's and the shadow rings' pages (data only;
 * the pool is exec/vgpu_own_gm.c's) -------------------------------------- */

static inline uint8_t *vgpu_sbb_va(struct vgpu *v, int32_t page)
{
	return v->sbb.pg[page].va;
}
static inline uint32_t vgpu_sbb_gm(const struct vgpu *v, int32_t page)
{
	return (uint32_t)(v->sbb.gm + (uint64_t)page * VGPU_PAGE);
}

/* The shadow ring the engine runs now (vgpu_engine.sr_*): its size, and
 * the hypervisor address of byte off. A grown ring's pages are not
 * contiguous in hypervisor memory, only in GM: callers access it a dword
 * (or up to a page boundary) at a time. */
static inline uint32_t vgpu_sring_size(const struct vgpu_engine *e)
{
	return e->sr_pages * VGPU_PAGE;
}
static inline uint8_t *vgpu_sring_at(struct vgpu *v, struct vgpu_engine *e,
				     uint32_t off)
{
	if (e->sr_first < 0)
		return e->sring.va + off;
	return v->sbb.pg[e->sr_first + (int32_t)(off / VGPU_PAGE)].va +
	       off % VGPU_PAGE;
}


/* ---- helpers (vgpu_util.c) ---------------------------------------------- */

void *gvt_pages(struct gvt *gvt, size_t n, uint64_t *hpa);
void gvt_free_pages(struct gvt *gvt, void *va, size_t n);
int parray_init(struct gvt *gvt, struct parray *a, size_t bytes);
void parray_fini(struct gvt *gvt, struct parray *a);
static inline void *parray_at(const struct parray *a, size_t byte_off)
{
	return a->page[byte_off >> 12] + (byte_off & 0xfff);
}
static inline uint64_t gvt_now(const struct gvt *gvt)
{
	return gvt->hv.ops->now_ns(gvt->hv.ctx);
}
void gvt_log(const struct gvt *gvt, int level, int vgpu_id, const char *fmt,
	     ...) __attribute__((format(printf, 4, 5)));
#define vgpu_err(v, ...) gvt_log((v)->gvt, HV_LOG_ERR, (v)->id, __VA_ARGS__)
#define vgpu_warn(v, ...) gvt_log((v)->gvt, HV_LOG_WARN, (v)->id, __VA_ARGS__)
#define vgpu_info(v, ...) gvt_log((v)->gvt, HV_LOG_INFO, (v)->id, __VA_ARGS__)
#define vgpu_dbg(v, ...) gvt_log((v)->gvt, HV_LOG_DEBUG, (v)->id, __VA_ARGS__)

/* Guest memory of the vGPU's VM. */
int vgpu_read_gpa(struct vgpu *v, uint64_t gpa, void *buf, size_t len);
int vgpu_write_gpa(struct vgpu *v, uint64_t gpa, const void *buf, size_t len);
int vgpu_gpa_to_hpa(struct vgpu *v, uint64_t gpa, uint64_t *hpa);

/* ---- vreg (vgpu_mmio.c) ------------------------------------------------- */

static inline uint32_t *vreg_ptr(struct vgpu *v, uint32_t off)
{
	return parray_at(&v->vreg, off & (GEN9_MMIO_SIZE - 4));
}
static inline uint32_t vreg(struct vgpu *v, uint32_t off)
{
	return *vreg_ptr(v, off);
}
static inline void vreg_set(struct vgpu *v, uint32_t off, uint32_t val)
{
	*vreg_ptr(v, off) = val;
}

/* ---- research systems' hooks (vgpu_ext.c; vgpu_ext.h) -------------------- */

/* -GPU_EINVAL when the list cannot work (two systems with PPGTT hooks). */
int vgpu_ext_check(const struct gvt_params *p);
int vgpu_ext_gvt_attach(struct gvt *gvt);
void vgpu_ext_gvt_detach(struct gvt *gvt);
int vgpu_ext_attach(struct vgpu *v);
void vgpu_ext_detach(struct vgpu *v);
bool vgpu_ext_spt_new(struct vgpu *v, int32_t idx);
void vgpu_ext_spt_gone(struct vgpu *v, int32_t idx);
void vgpu_ext_ppgtt_write(struct vgpu *v, uint64_t gfn);
void vgpu_ext_ppgtt_sync(struct vgpu *v);
int vgpu_ext_ppgtt_check(struct vgpu *v, int mm);
/* The scheduler's points (each does nothing for a NULL v): a workload of
 * v went to the GPU at t; one came off it (it ran from start to end); a
 * switch into v copied n GGTT entries in ns. */
void vgpu_ext_dispatch(struct vgpu *v, uint64_t t);
void vgpu_ext_ran(struct vgpu *v, uint64_t start, uint64_t end);
void vgpu_ext_switch_in(struct vgpu *v, uint64_t n, uint64_t ns);
/* The shared-GM points (vgpu_ext.h), called only with gvt->gm set. */
static inline const struct vgpu_ext_ops *gvt_gm_ops(const struct gvt *gvt)
{
	return gvt->gm->ops;
}
static inline void *gvt_gm_state(const struct gvt *gvt)
{
	return gvt->gm->state;
}

/* v queued work for the scheduler: the next gvt_poll dispatches it. */
static inline void gvt_post(struct gvt *gvt, const struct vgpu *v)
{
	__atomic_fetch_or(&gvt->posted, 1ull << (v->id - 1), __ATOMIC_RELEASE);
}

static inline uint64_t vgpu_time_start(struct vgpu *v)
{
	return gvt_now(v->gvt);
}
static inline void vgpu_time_add(struct vgpu *v, uint64_t *acc, uint64_t t0)
{
	*acc += gvt_now(v->gvt) - t0;
}

#endif
