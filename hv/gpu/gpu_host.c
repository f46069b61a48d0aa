/* The physical GPU the vGPU mediator drives, and the vGPUs' creation.
 *
 * At boot (only when some VM in hv.cfg has vgpu_* keys) this picks the GPU:
 * the Intel Gen9 iGPU found on the PCI bus (gpu_hw's MMIO backend over its
 * BARs, which the identity map already covers, with the firmware's MTRR
 * caching; driven through the pGPU driver), or, without one or with
 * gpu=model, the software Gen9 model (gpu/model) built on page-allocator
 * memory: the 2 MiB register file plus a 512 Ki-entry GGTT (4 MiB of
 * entries = 2 GiB of GM), also driven through the pGPU driver. It says
 * which. Then it creates the mediator on it.
 *
 * The mediator runs in gScale mode: vGPUs share graphics memory through
 * private shadow GGTTs, and each guest's aperture is the ladder mapping
 * (EPT straight to the pages its GGTT entries name); fenced ranges go
 * through the physical aperture where there is one
 * (gpu_host_aperture_target).
 *
 * Each VM with vgpu_* keys gets a vGPU (gpu_host_vgpu_create) visible at
 * its 00:02.0 (hv/vm/vpci.c, hv/gpu/vgpu_dev.c), and the main loop
 * (hv/orchestrate.c) calls gpu_host_poll every round. On the MMIO backend
 * (the iGPU, or the model behind it) the GPU's MSI is programmed to a
 * hypervisor vector (HOST_VEC_GPU): its handler marks work pending, and
 * the mediator's completion path (CSB, retirement, the scheduler) runs
 * when an interrupt came, plus a 1 ms tick for what depends on time
 * alone (slice ends, hang timeouts). The plain model has no interrupt line
 * to the CPU: there the mediator runs every round (polling). */
#include "boot/config.h"
#include "gpu/ghyvi/ghyvi.h"
#include "gpu/hw/pgpu.h"
#include "gpu/hw/pgpu_takeover.h"
#include "gpu/model/gen9_model.h"
#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/dymgpu/dymgpu_place.h"
#include "gpu/policy/slots.h"
#include "gpu/vgpu/vgpu.h"
#include "hv/console/console.h"
#include "hv/console/console_fb.h"
#include "hv/gpu/gpu_balloon.h"
#include "hv/gpu/gpu_trapdev.h"
#include "hv/gpu/gpu_place.h"
#include "hv/gpu/gpu_smoke.h"
#include "hv/gpu/gpu_teardown.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/gpu_lock.h"
#include "hv/gpu/screen_compose.h"
#include "hv/gpu/gpu_irq.h"
#include "hv/mm/mem.h"
#include "hv/mm/paging_mmio.h"
#include "hv/platform/pci.h"
#include "hv/gpu/hv_ops_impl.h"
#include "hv/gpu/vgpu_dev.h"
#include "hv/platform/tsc.h"
#include "mini/x86.h"
#include "hv/vm/vm.h"
#include "hv/platform/tsc.h"
#include "hv/cpu/x86.h"
#include "hv/cpu/percpu.h"
#include "hv/vm/sched.h"
#include "hv/vm/vm_mailbox.h"
#include "hv/cpu/xcpu.h"
#include "hv/smp.h"
#include "mini/stdio.h"

#define GPU_HOST_GGTT_ENTRIES (512u * 1024u)

static struct gen9_model host_model;
static bool model_in_use;
static struct gpu_mmio_backend host_mmio;
static struct pgpu host_pgpu;
static struct gpu_hw host_hw;
static struct gvt *host_gvt;
static uint64_t host_start_ns;	/* when the mediator came up */
static const struct pci_dev *host_dev;	/* the iGPU's function, or NULL */
static uint32_t max_faults = HVCFG_DEFAULT_VGPU_FAULTS;

static uint32_t fault_window_ms = HVCFG_DEFAULT_VGPU_FAULT_WINDOW_MS;

struct gvt *gpu_host_gvt(void)
{
	return host_gvt;
}

struct gpu_hw *gpu_host_hw(void)
{
	return host_gvt ? &host_hw : NULL;
}

struct gen9_model *gpu_host_model(void)
{
	return model_in_use ? &host_model : gpu_trapdev_model();
}

static void *identity_phys_ptr(void *ctx, uint64_t hpa, size_t len)
{
	(void)ctx;
	(void)len;
	return hv_va(hpa);
}

static const struct gpu_dma host_dma = { NULL, identity_phys_ptr };

static bool want_gpu(const struct hv_config *cfg)
{
	for (unsigned i = 0; i < cfg->nr_vms; i++)
		if (cfg->vms[i].vgpu_low_gm)
			return true;
	return false;
}

static int model_up(void)
{
	struct gen9_model_config mc = { 0 };
	struct gen9_model_mem mm;
	int err;

	mm.regs = page_alloc_contig(GEN9_MODEL_REGS_BYTES / PAGE_SIZE);
	mm.ggtt = page_alloc_contig(GPU_HOST_GGTT_ENTRIES * 8ull / PAGE_SIZE);
	mm.ggtt_entries = GPU_HOST_GGTT_ENTRIES;
	if (!mm.regs || !mm.ggtt) {
		kprintf("gpu: no memory for the software model\n");
		return -1;
	}
	err = gen9_model_init(&host_model, &mc, &mm, &host_dma);
	if (err) {
		kprintf("gpu: gen9_model_init failed (%d)\n", err);
		return err;
	}
	gen9_model_attach(&host_model, &host_hw);
	/* The same driver as on the iGPU: the demo runs pgpu too. */
	err = pgpu_init(&host_pgpu, &host_hw);
	if (err) {
		kprintf("gpu: pgpu_init on the model failed (%d)\n", err);
		return err;
	}
	model_in_use = true;
	kprintf("gpu: using the software Gen9 model (%u GGTT entries)\n",
		GPU_HOST_GGTT_ENTRIES);
	return 0;
}

/* The MMIO backend's delay: the TSC (calibrated at boot); the
 * model-behind-MMIO device's clock advances with it, as a GPU runs while
 * the CPU waits. */
static void host_udelay(uint32_t us)
{
	uint64_t t0 = rdtsc(), n = tsc_hz() / 1000000 * us;

	while (rdtsc() - t0 < n)
		cpu_relax();
	gpu_trapdev_tick(us);
}

/* BAR0 (registers and GGTT) uncached, BAR2 (the aperture) write-combined,
 * whatever the MTRRs say about a 64-bit BAR above 4 GiB. */
static int map_bars(const struct gpu_hw_info *info)
{
	int err = paging_map_mmio(info->gttmmadr, GEN9_BAR0_SIZE, PAGING_UC);

	if (!err && info->aperture_size)
		err = paging_map_mmio(info->aperture_base, info->aperture_size,
				      PAGING_WC);
	if (err) {
		kprintf("gpu: cannot map the BARs (%d)\n", err);
		return err;
	}
	kprintf("gpu: BAR0 %llx mapped %s, BAR2 %llx+%llx mapped %s%s\n",
		(unsigned long long)info->gttmmadr,
		paging_memtype_name(PAGING_UC),
		(unsigned long long)info->aperture_base,
		(unsigned long long)info->aperture_size,
		paging_memtype_name(PAGING_WC),
		paging_is_trapped(info->gttmmadr)
			? " (trapped: the model answers)" : "");
	return 0;
}

/* The firmware's GPU becomes ours (gpu/hw/pgpu_takeover.c), before the
 * mediator writes a GGTT entry; the console says what was found. */
static int take_over(void)
{
	struct pgpu_takeover_report r;
	int err = pgpu_takeover(&host_pgpu, &r);

	kprintf("gpu: takeover: %u GOP plane(s) off, %u pipe(s) running%s; "
		"forcewake acks %x; GT reset %s; %u workarounds; PPAT "
		"%016llx; %u MOCS writes\n", r.planes_disabled,
		r.pipes_active, r.vblank_timeout ? " (no vblank seen)" : "",
		r.fw_acks, r.fw_err ? "not tried" : r.reset_err ? "FAILED" :
		"done", r.workarounds, (unsigned long long)r.ppat,
		r.mocs_writes);
	kprintf("gpu: stolen memory %llx+%llx (%llu MiB usable), DSMBASE "
		"%x%s\n", (unsigned long long)r.stolen_base,
		(unsigned long long)r.stolen_size,
		(unsigned long long)(r.stolen_usable >> 20), r.dsmbase,
		r.dsmbase_mismatch ? " DOES NOT MATCH BDSM" : "");
	if (err)
		kprintf("gpu: takeover failed (%d): the GPU is left alone\n",
			err);
	return err;
}

/* The iGPU at d: its config space tells the BARs, GGTT and aperture. */
static int real_up(const struct pci_dev *d)
{
	uint8_t cfg[256];
	struct gpu_hw_info info = { 0 };
	int err;

	for (unsigned off = 0; off < sizeof(cfg); off += 4) {
		uint32_t v = pci_read32(d->bus, d->dev, d->fn, (uint16_t)off);

		for (unsigned b = 0; b < 4; b++)
			cfg[off + b] = (uint8_t)(v >> (8 * b));
	}
	host_dev = d;
	err = pgpu_decode_config(cfg, sizeof(cfg), 0, &info);
	if (err) {
		kprintf("gpu: %02x:%02x.%x: config space not usable (%d)\n",
			d->bus, d->dev, d->fn, err);
		return err;
	}
	console_fb_gpu_takeover(info.aperture_base, info.aperture_size);
	err = map_bars(&info);
	if (err)
		return err;
	host_mmio.bar0 = hv_va(info.gttmmadr);
	host_mmio.aperture = hv_va(info.aperture_base);
	host_mmio.udelay = host_udelay;
	err = gpu_hw_mmio_init(&host_hw, &host_mmio, &info, &host_dma);
	if (!err)
		err = pgpu_init(&host_pgpu, &host_hw);
	if (!err)
		err = take_over();
	if (err) {
		kprintf("gpu: the Gen9 iGPU at %02x:%02x.%x did not come up "
			"(%d)\n", d->bus, d->dev, d->fn, err);
		return err;
	}
	kprintf("gpu: using the Gen9 %s at %02x:%02x.%x: registers at %llx, "
		"aperture %llx+%llx, GGTT %llu MiB%s\n",
		gpu_trapdev_present() ? "model behind MMIO" : "iGPU", d->bus,
		d->dev, d->fn, (unsigned long long)info.gttmmadr,
		(unsigned long long)info.aperture_base,
		(unsigned long long)info.aperture_size,
		(unsigned long long)(info.ggtt_size >> 20),
		gpu_trapdev_present() ? "" : " (NOT verified on hardware by "
		"us: gpu=model in hv.cfg selects the model)");
	return 0;
}

/* hv.cfg gpu_smoke=yes, after the takeover and before the mediator; its
 * MSIs are not counted against the mediator's. */
static void smoke(bool msi_ok)
{
	kprintf("gpu: smoke test on the %s\n", model_in_use ?
		"software model (not the MMIO path: gpu=model-mmio or an "
		"iGPU runs that)" : gpu_trapdev_present() ?
		"software model behind MMIO" : "Gen9 iGPU");
	gpu_smoke_run(&host_pgpu, msi_ok ? gpu_irq_msis : NULL);
	gpu_irq_forget();
}

/* gpu=model-mmio: the device must exist before the PCI scan finds it. */
void gpu_host_early(const struct hv_config *cfg, uint64_t map_top,
		    uint64_t ram_top)
{
	if ((want_gpu(cfg) || cfg->gpu_smoke) &&
	    cfg->gpu == HVCFG_GPU_MODEL_MMIO)
		(void)gpu_trapdev_setup(map_top, ram_top);
}

static void init_unlocked(const struct hv_config *cfg,
			  const struct pci_dev *igpu)
{
	static const struct hv_if hv = { &hv_ops_impl, NULL };
	/* gHyvi is attached to every vGPU: its policy is per VM (hv.cfg
	 * vgpu_ppgtt=, strict: the baseline's behaviour) and can change at
	 * run time (the shell's ppgtt). DymGPU too: its monitor always runs
	 * (`vgpus`, gBalloon's weights), its moves unless hv.cfg says
	 * dymgpu_live=no (and only guests with the guest channel, which are
	 * told of every move, ever move: docs/dymgpu-live.md). */
	static struct dymgpu_params dp;
	static struct gscale_settings gs = { .on = true };
	struct gvt_params p = { .ext = { &ghyvi_ext_ops, &dymgpu_ext_ops,
					 &gscale_ext_ops },
				.ext_params = { NULL, &dp, &gs } };
	bool msi_ok;
	int err;

	if (!want_gpu(cfg) && !cfg->gpu_smoke)
		return;
	dp.off = !cfg->dymgpu_live;
	p.preempt = cfg->gpu_preempt;
	if (igpu && cfg->gpu == HVCFG_GPU_MODEL)
		kprintf("gpu: gpu=model in hv.cfg: leaving the iGPU alone\n");
	if (!tsc_hz())
		tsc_calibrate(); /* the MMIO backend's delays need it */
	if (igpu && cfg->gpu != HVCFG_GPU_MODEL)
		err = real_up(igpu);
	else
		err = model_up();
	if (err)
		return;
	msi_ok = !model_in_use && gpu_irq_msi_up(host_dev);
	if (cfg->gpu_smoke)
		smoke(msi_ok);
	if (!want_gpu(cfg))
		return; /* the smoke test only: no mediator */
	p.pgpu = &host_pgpu;
	/* The ladder/pool choice per backend (gpu_host_aperture_target): the
	 * plain model has no physical aperture to pool fenced pages in. */
	gs.no_aperture = model_in_use;
	err = gvt_create(&host_hw, &hv, &p, &host_gvt);
	if (err) {
		kprintf("gpu: gvt_create failed (%d)\n", err);
		host_gvt = NULL;
		return;
	}
	host_start_ns = hv_ops_impl.now_ns(NULL);
	if (msi_ok)
		gpu_irq_enable(&host_pgpu);
	if (cfg->vgpu_faults)
		max_faults = cfg->vgpu_faults;
	if (cfg->vgpu_fault_window_ms)
		fault_window_ms = cfg->vgpu_fault_window_ms;
	gpu_balloon_init(&(struct gpu_balloon_cfg){
		.period_ms = cfg->balloon_ms,
		.w_max = cfg->balloon_w_max,
		.rcopy_max = cfg->balloon_rcopy_max,
		.vcpus = cfg->nr_vms,	/* one vCPU per VM */
	});
	kprintf("gpu: mediator up on the %s (%u GGTT entries), gScale mode, "
		"GPU taken back by %s\n",
		model_in_use ? "software Gen9 model" :
		gpu_trapdev_present() ? "software Gen9 model behind MMIO" :
		"Gen9 iGPU", host_hw.info.ggtt_entries,
		p.preempt ? "preemption" : "drain or reset");
	gpu_trapdev_report();
}

/* gBalloon's R_copy (equation 1, one CPU): the share of the CPU spent
 * copying GGTT entries at vGPU switches since the mediator came up, in
 * thousandths. */
uint64_t gpu_host_rcopy_permille(void)
{
	struct gvt_status st;
	uint64_t t = hv_ops_impl.now_ns(NULL) - host_start_ns;

	if (!host_gvt || !t)
		return 0;
	gvt_get_status(host_gvt, &st);
	return st.copy_ns * 1000 / t;
}

/* Where a guest's aperture page may point, per backend. The mediator's
 * ladder maps unfenced low GM to the RAM behind each GGTT entry on every
 * backend (gScale's ladder mapping: the physical GGTT entries of shared
 * low GM may be another vGPU's at any moment, so the physical aperture
 * page at the same offset would show that vGPU's memory). Only the fence
 * pool asks for the physical aperture: its entries are copies of this
 * vGPU's private shadow in pool space nobody else is given, and only a
 * CPU access through the aperture is detiled by a fence. Here the answer
 * depends on what the aperture is:
 *   iGPU        BAR2 is memory (WC): EPT maps the guest page straight to it;
 *   model-mmio  BAR2 is trapped pages: the EPT entry stays not present and
 *               the access is repeated at hpa by the hypervisor, which
 *               faults into the model (ap_redirect.h): two traps;
 *   model       no physical aperture: the mediator does not pool fenced
 *               pages (gScale's no_aperture setting), the guest keeps its
 *               ladder mapping to RAM, undetiled; a request here is
 *               refused. */
enum gpu_ap_target gpu_host_aperture_target(uint64_t hpa)
{
	const struct gpu_hw_info *i = &host_hw.info;

	if (!host_gvt || model_in_use || hpa < i->aperture_base ||
	    hpa - i->aperture_base >= i->aperture_size)
		return GPU_AP_NONE;
	return gpu_trapdev_present() ? GPU_AP_TRAPPED : GPU_AP_DIRECT;
}

static enum vgpu_ppgtt_policy ppgtt_policy(enum hvcfg_ppgtt c)
{
	switch (c) {
	case HVCFG_PPGTT_FULL: return VGPU_PPGTT_FULL;
	case HVCFG_PPGTT_DYNAMIC: return VGPU_PPGTT_DYNAMIC;
	case HVCFG_PPGTT_SEGMENTED: return VGPU_PPGTT_DYNAMIC_SEGMENTED;
	case HVCFG_PPGTT_ADAPTIVE: return VGPU_PPGTT_ADAPTIVE;
	default: return VGPU_PPGTT_STRICT;
	}
}

/* The section's vgpu_ppgtt= (gHyvi), on top of the mediator's defaults. */
static void set_ppgtt(const struct hvcfg_vm *c, struct vgpu *v)
{
	struct vgpu_ghyvi_params gp;

	if (c->ppgtt == HVCFG_PPGTT_STRICT)
		return;
	vgpu_ghyvi_get(v, &gp);
	gp.policy = ppgtt_policy(c->ppgtt);
	if (vgpu_ghyvi_set(v, &gp))
		kprintf("vm '%s': vgpu_ppgtt not applied\n", c->name);
}

/* A vGPU for VM id (called by vms_create_from_config after vm_create). */
static void vgpu_create_unlocked(const struct hvcfg_vm *c, uint32_t id)
{
	struct vgpu_type t = { 0 };
	struct vgpu *v;
	uint64_t lb, ls, hb, hs;
	int err;

	if (!host_gvt || !c->vgpu_low_gm)
		return;
	t.name = "hv.cfg";
	t.low_gm_size = c->vgpu_low_gm;
	t.high_gm_size = c->vgpu_high_gm;
	t.fences = c->fences;
	t.weight = 1;
	err = vgpu_create(host_gvt, &t, id, &v);
	if (err) {
		kprintf("vm '%s': no vGPU: error %d\n", c->name, err);
		return;
	}
	vgpu_dev_attach(vm_by_id(id), v);
	set_ppgtt(c, v);
	if (c->vgpu_batch_kib && (err = vgpu_set_batch_budget(v, c->vgpu_batch_kib)))
		kprintf("vm '%s': vgpu_batch_kib=%u not applied (error %d): "
			"%u KiB\n", c->name, c->vgpu_batch_kib, err,
			vgpu_batch_budget(v));
	/* Without the key the vGPU keeps the monitor it was created with
	 * (1024x768, as GVT-g gives every vGPU one). */
	if (c->vgpu_display[0] && vgpu_set_display(v, c->vgpu_display))
		kprintf("vm '%s': vgpu_display=%s not applied\n", c->name,
			c->vgpu_display);
	vgpu_set_scan_trace(v, c->vgpu_trace_batches);
	if (c->shadow_pt_kib && vgpu_ppgtt_set_budget(v, c->shadow_pt_kib))
		kprintf("vm '%s': vgpu_shadow_pt_kib not applied\n", c->name);
	vgpu_gm_ranges(v, &lb, &ls, &hb, &hs);
	kprintf("vm '%s': vGPU %d: low GM %llx+%llx, high GM %llx+%llx, "
		"%u fences\n", c->name, vgpu_id(v), (unsigned long long)lb,
		(unsigned long long)ls, (unsigned long long)hb,
		(unsigned long long)hs, c->fences);
}

/* placement=dymgpu: DymGPU's size-based placement (DymGPU paper,
 * figure 5) of every vGPU at once, applied before any guest runs, so no
 * guest ever sees its GM move (moving a running vGPU needs a guest that is
 * told: see gpu/gscale/mediator/gscale_reshape.c). */
static void place_unlocked(const struct hv_config *cfg)
{
	static struct slot_layout lay;
	struct vgpu *who[SLOTS_MAX_VGPUS];
	struct gvt_status st;
	uint32_t first, n;
	int band;

	if (!host_gvt || cfg->placement != HVCFG_PLACE_DYMGPU)
		return;
	gvt_get_status(host_gvt, &st);
	lay.m = st.nr_slots;
	lay.n = 0;
	for (unsigned i = 0; i < nr_vms && lay.n < SLOTS_MAX_VGPUS; i++) {
		struct vgpu *v = vgpu_dev_vgpu(i);

		if (v && !vgpu_slots(v, &first, &n)) {
			who[lay.n] = v;
			lay.s[lay.n++] = n;
		}
	}
	band = dymgpu_place_by_size(&lay);
	if (band < 0) {
		kprintf("gpu: DymGPU placement impossible (%d); gScale's kept\n",
			band);
		return;
	}
	for (uint32_t k = 0; k < lay.n; k++) {
		int err = vgpu_set_high_slots(who[k], lay.p[k], lay.s[k]);

		kprintf("gpu: DymGPU placement: vgpu %d on slots %u-%u%s\n",
			vgpu_id(who[k]), lay.p[k], lay.p[k] + lay.s[k] - 1,
			err ? " FAILED (kept where it was)" : "");
	}
	kprintf("gpu: DymGPU placement: %u vGPUs on %u slots, shared band of "
		"%d slot(s)\n", lay.n, lay.m, band);
}

/* The physical GPU's hangs and resets (gen9-facts §10): what the pGPU driver
 * did (its full resets include the takeover's), the failed engine resets
 * the mediator escalated to a full reset, and whether the GPU is wedged.
 * At the end of a run only when something was reset. */
void gpu_host_print_resets(bool always)
{
	struct gvt_status st;

	if (!host_gvt)
		return;
	gvt_get_status(host_gvt, &st);
	if (!always && !st.hangs && !st.engine_resets && !st.full_resets &&
	    !st.full_reset_failures && !st.wedged)
		return;
	kprintf("gpu: resets: hangs %llu, engine resets %llu, full resets "
		"%llu (failed %llu, attempts without READY_TO_RESET %llu); "
		"escalated by the mediator %llu (failed %llu)%s",
		(unsigned long long)st.hangs,
		(unsigned long long)st.engine_resets,
		(unsigned long long)st.full_resets,
		(unsigned long long)st.full_reset_failures,
		(unsigned long long)st.resets_not_ready,
		(unsigned long long)st.escalations,
		(unsigned long long)st.escalations_failed,
		st.wedged ? "; GPU WEDGED" : "");
	if (st.wedged)
		kprintf(", %llu workloads failed since",
			(unsigned long long)st.wedged_fails);
	kprintf("\n");
}

static bool report_unlocked(unsigned vm_id)
{
	struct gvt *gvt = gpu_host_gvt();
	struct vgpu *v = gvt ? gvt_vgpu_by_vm(gvt, vm_id) : NULL;
	static struct gpu_vgpu_lines l;
	bool had;

	if (v) {
		gpu_host_vgpu_lines(v, vm_id, &l);
		gpu_host_print_vgpu(&l);
		had = true;
	} else {
		had = gpu_teardown_report(vm_id);
	}
	if (had)
		vgpu_dev_report_times(vm_id);
	/* gpu=model-mmio: the trapped-access counters, once, after the last
	 * VM's lines. */
	if (vm_id + 1 == nr_vms) {
		gpu_trapdev_report();
		gpu_irq_report(host_gvt, &host_pgpu, model_in_use);
		gpu_host_print_resets(false);
	}
	return had;
}

/* Faults: the mediator marked a vGPU failed (a refused, faulted, hung or
 * overrunning workload; the reason is in the log). It is reset and its VM
 * keeps running (gvt_recover, docs/vgpu-reset.md); only a vGPU with
 * hv.cfg vgpu_faults faults within vgpu_fault_window_ms is failed for
 * good, and only then is its VM stopped: the guest broke the rules of the
 * device too often, and the other VMs keep their GPU time. */
static void recover_vgpus(void)
{
	gvt_recover(host_gvt, max_faults, fault_window_ms * 1000000ull);
	for (unsigned i = 0; i < nr_vms; i++) {
		struct vm *vm = &vms[i];
		struct vgpu *v = vgpu_dev_vgpu(i);

		if (v && vm->state != VM_STOPPED && vgpu_dead(v))
			vm_stop(vm, "its vGPU failed for good (%u faults within "
				"%u ms, see the vgpu log lines above)",
				max_faults, fault_window_ms);
	}
}

/* Microseconds of TSC time since the last poll (0 the first time). The
 * model's clock (RING_TIMESTAMP, each context's CTX_TIMESTAMP) advances
 * only by what it is told: polled alone it stood still, so a guest batch
 * timed on CTX_TIMESTAMP (IGT gem_wsim's steps) looped until the hang
 * timeout, and a guest reading RING_TIMESTAMP twice saw no time pass. */
static uint32_t model_elapsed_us(void)
{
	static uint64_t last;
	uint64_t now = rdtsc(), us;

	us = last ? (now - last) / (tsc_hz() / 1000000) : 0;
	last = now;
	return us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

/* Run the GPU and the mediator; the main loop (hv/orchestrate.c) calls
 * this once per round, then tears down stopped VMs' devices (the vGPU's
 * teardown hook, hv/gpu/vgpu_dev.c), then gpu_host_tick. */
static void poll_unlocked(void)
{
	if (!host_gvt)
		return;
	/* The model is the GPU: it executes only when polled. */
	if (model_in_use)
		gen9_model_udelay(&host_model, model_elapsed_us());
	gpu_trapdev_tick(0);
	gpu_irq_run(host_gvt, &host_pgpu);
	recover_vgpus();
}

/* hv/vm/sched.h's post-exit hook: the scheduler for the submissions an
 * exit posted, before the VM's next entry, on whichever CPU the VM runs
 * (under the mediator lock: docs/smp.md "Mediator concurrency"; an MSI
 * or EPT change it makes for a VM of another CPU goes through that VM's
 * mailbox, hv/vm/vm_mailbox.h). The VM pays when its vGPU alone posted and owns the GPU
 * after the run, owning it before or nobody did: what ran was its own
 * completions, switch-in and dispatch. Otherwise (another vGPU's work,
 * a switch away from another) the hypervisor pays. */
static enum sched_post after_exit_unlocked(struct vm *vm)
{
	struct vgpu *v;
	uint64_t posted, t0;
	int mine, before;
	bool own;

	if (!host_gvt)
		return SCHED_POST_NONE;
	posted = gvt_posted(host_gvt);
	if (!posted)
		return SCHED_POST_NONE;
	v = vgpu_dev_vgpu(vm->id);
	mine = v ? vgpu_id(v) : 0;
	before = gvt_owner_id(host_gvt);
	t0 = rdtsc();
	gpu_irq_after_exit(host_gvt, &host_pgpu);
	own = mine && posted == 1ull << (mine - 1) &&
	      (before == mine || before == 0) &&
	      gvt_owner_id(host_gvt) == mine;
	vgpu_dev_note_post(vm->id, rdtsc() - t0, own);
	return own ? SCHED_POST_OWN : SCHED_POST_HV;
}

/* hv/vm/sched.h's question: with the mediator up, the main loop's rounds
 * carry GPU work a lone VM's long slice would hold back (the model runs
 * batches in gpu_host_poll, vblank ticks come from gvt_poll there, the
 * balloon and placement periods from gpu_host_tick), so no lone slices. */
bool gpu_host_needs_rounds(void)
{
	return host_gvt != NULL;
}

/* Work on the GPU side that only the BSP's main loop moves on: a
 * submission posted or queued or running (the model executes only when
 * polled; a real GPU's completion comes by MSI, which wakes the BSP from
 * its HLT all the same), gpu=model-mmio's model, or a VM's picture being
 * composed onto the box's screen a few rows per round. */
static bool busy_unlocked(void)
{
	if (screen_compose_owner() != SCREEN_OWNER_HV)
		return true;
	if (!host_gvt)
		return false;
	return gvt_posted(host_gvt) || !gvt_idle(host_gvt) ||
	       gpu_trapdev_present();
}

uint64_t gpu_host_next_event(uint64_t now)
{
	bool busy;

	gpu_lock();
	busy = busy_unlocked();
	gpu_unlock();
	return busy ? now : UINT64_MAX;
}

/* An AP's exit queued GPU work: the BSP's main loop runs it (the model)
 * and delivers its completions, so a BSP asleep in xcpu_idle_sleep is
 * kicked awake (xcpu_kick sends only to an idle or in-guest CPU). */
static void wake_bsp(void)
{
	if (this_cpu()->index && !gvt_idle(host_gvt))
		(void)xcpu_kick(smp_cpu(0));
}

static void tick_unlocked(void)
{
	screen_compose_poll();	/* the owner VM's picture, a few rows */
	if (!host_gvt)
		return;
	gpu_balloon_tick();
	gpu_place_tick();
}

/* The entries of the rest of the hypervisor into the GPU side (boot, VM
 * creation, the main loop's poll and ticks, the post-exit hook, reports),
 * each under the mediator lock (gpu_lock.h); the VMs' traps take it in
 * gpu_entry.c. */
void gpu_host_init(const struct hv_config *cfg, const struct pci_dev *igpu)
{
	gpu_lock();
	init_unlocked(cfg, igpu);
	gpu_unlock();
}

void gpu_host_vgpu_create(const struct hvcfg_vm *c, uint32_t id)
{
	gpu_lock();
	vgpu_create_unlocked(c, id);
	gpu_unlock();
}

void gpu_host_place(const struct hv_config *cfg)
{
	gpu_lock();
	place_unlocked(cfg);
	gpu_unlock();
}

bool gpu_host_report(unsigned vm_id)
{
	bool r;

	gpu_lock();
	r = report_unlocked(vm_id);
	gpu_unlock();
	return r;
}

void gpu_host_poll(void)
{
	gpu_lock();
	poll_unlocked();
	gpu_unlock();
}

enum sched_post gpu_host_after_exit(struct vm *vm)
{
	enum sched_post r;

	if (!host_gvt || !gvt_posted(host_gvt))
		return SCHED_POST_NONE;	/* most exits: no lock taken */
	gpu_lock();
	r = after_exit_unlocked(vm);
	wake_bsp();
	gpu_unlock();
	return r;
}

void gpu_host_tick(void)
{
	gpu_lock();
	tick_unlocked();
	gpu_unlock();
}

/* The mediator under concurrency (docs/smp.md "Mediator concurrency"):
 * how often its lock was taken and found held, calls into the hypervisor
 * made without it (a bug: must be 0), and what went to VMs of other CPUs
 * through their mailboxes. */
void gpu_host_print_concurrency(void)
{
	const struct rlock *l = gpu_lock_stats();
	const struct vm_mailbox_stats *m = vm_mailbox_stats();
	const struct xcpu_stats *x = xcpu_stats();

	if (!host_gvt)
		return;
	kprintf("gpu: mediator lock: %llu takes, %llu contended, %llu spins; "
		"hv ops without it: %llu\n", (unsigned long long)l->takes,
		(unsigned long long)l->contended, (unsigned long long)l->spins,
		(unsigned long long)gpu_lock_misses());
	kprintf("gpu: to VMs of other CPUs: %llu interrupts posted, %llu "
		"raised; %llu EPT flushes asked, %llu done; %llu kicks, %llu "
		"waits (%llu timed out)\n", (unsigned long long)m->posted,
		(unsigned long long)m->drained,
		(unsigned long long)m->flushes_asked,
		(unsigned long long)m->flushes_done,
		(unsigned long long)x->kicks_sent, (unsigned long long)x->waits,
		(unsigned long long)x->wait_timeouts);
}
