/* Issue 8, step 1 of the vGPU join: the physical GPU the mediator drives.
 *
 * At boot (only when some VM in hv.cfg has vgpu_* keys) this builds the
 * software Gen9 model (gpu/model) on pages from the page allocator, with
 * the identity map as its DMA window, and creates the mediator (gvt) on it
 * with the hypervisor's hv_ops (hv/vm/hv_ops_impl.c). Memory: the 2 MiB
 * register file plus a 512 Ki-entry GGTT (4 MiB of entries = 2 GiB of GM).
 *
 * A real Gen9 iGPU on the PCI bus (gpu_hw MMIO backend) is NOT wired yet:
 * it is reported and the model is used instead.
 *
 * The mediator runs in gScale mode: vGPUs share graphics memory through
 * private shadow GGTTs, and each guest's aperture is the ladder mapping
 * (EPT straight to the pages its GGTT entries name), which is also the only
 * aperture the model can offer: it has no physical BAR2 behind it.
 *
 * Each VM with vgpu_* keys gets a vGPU (gpu_host_vgpu_create) visible at
 * its 00:02.0 (hv/vm/vpci.c, hv/vm/vgpu_dev.c), and the VM scheduler runs
 * the mediator every round (gpu_host_poll). */
#include "boot/config.h"
#include "gpu/model/gen9_model.h"
#include "gpu/vgpu/vgpu.h"
#include "hv/console.h"
#include "hv/gpu_host.h"
#include "hv/mem.h"
#include "hv/vm/hv_ops_impl.h"
#include "hv/vm/vgpu_dev.h"
#include "hv/vm/vm.h"
#include "mini/stdio.h"

#define GPU_HOST_GGTT_ENTRIES (512u * 1024u)

static struct gen9_model host_model;
static struct gpu_hw host_hw;
static struct gvt *host_gvt;

struct gvt *gpu_host_gvt(void)
{
	return host_gvt;
}

static void *identity_phys_ptr(void *ctx, uint64_t hpa, size_t len)
{
	(void)ctx;
	(void)len;
	return hv_va(hpa);
}

void gpu_host_init(const struct hv_config *cfg, bool real_gpu_present)
{
	static const struct hv_if hv = { &hv_ops_impl, NULL };
	struct gen9_model_config mc = { 0 };
	struct gen9_model_mem mm;
	static const struct gpu_dma dma = { NULL, identity_phys_ptr };
	struct gvt_params p = { .gscale = true };
	bool want = false;
	int err;

	for (unsigned i = 0; i < cfg->nr_vms; i++)
		if (cfg->vms[i].vgpu_low_gm)
			want = true;
	if (!want)
		return;
	if (real_gpu_present)
		kprintf("gpu: real Gen9 iGPU present, but the MMIO backend is "
			"not wired yet; using the software model\n");
	mm.regs = page_alloc_contig(GEN9_MODEL_REGS_BYTES / PAGE_SIZE);
	mm.ggtt = page_alloc_contig(GPU_HOST_GGTT_ENTRIES * 8ull / PAGE_SIZE);
	mm.ggtt_entries = GPU_HOST_GGTT_ENTRIES;
	if (!mm.regs || !mm.ggtt) {
		kprintf("gpu: no memory for the software model\n");
		return;
	}
	err = gen9_model_init(&host_model, &mc, &mm, &dma);
	if (err) {
		kprintf("gpu: gen9_model_init failed (%d)\n", err);
		return;
	}
	gen9_model_attach(&host_model, &host_hw);
	err = gvt_create(&host_hw, &hv, &p, &host_gvt);
	if (err) {
		kprintf("gpu: gvt_create failed (%d)\n", err);
		host_gvt = NULL;
		return;
	}
	kprintf("gpu: mediator up on the software Gen9 model "
		"(%u GGTT entries), gScale mode\n", GPU_HOST_GGTT_ENTRIES);
}

/* A vGPU for VM id (called by vms_create_from_config after vm_create). */
void gpu_host_vgpu_create(const struct hvcfg_vm *c, uint32_t id)
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
	vgpu_gm_ranges(v, &lb, &ls, &hb, &hs);
	kprintf("vm '%s': vGPU %d: low GM %llx+%llx, high GM %llx+%llx, "
		"%u fences\n", c->name, vgpu_id(v), (unsigned long long)lb,
		(unsigned long long)ls, (unsigned long long)hb,
		(unsigned long long)hs, c->fences);
}

/* A vGPU the mediator marked failed (a refused or hung workload: its
 * reason is in the log) takes its VM down with it: the guest broke the
 * rules of the device, and the other VMs keep their GPU time. */
static void stop_failed_vms(void)
{
	for (unsigned i = 0; i < nr_vms; i++) {
		struct vm *vm = &vms[i];

		if (vm->vgpu && vm->state != VM_STOPPED &&
		    vgpu_failed(vm->vgpu))
			vm_stop(vm, "its vGPU failed (refused or hung "
				"workload, see the vgpu log lines above)");
	}
}

/* Run the mediator; the VM scheduler calls this once per scheduling round. */
void gpu_host_poll(void)
{
	if (!host_gvt)
		return;
	/* The model is the GPU: it executes only when polled (a real GPU
	 * runs on its own and interrupts). */
	gen9_model_poll(&host_model);
	gvt_poll(host_gvt);
	stop_failed_vms();
}
