/* hv_ops (gpu/hv_ops.h) implemented by the hypervisor: the GPU mediator's
 * only door to guest memory, EPT, interrupts, time and logging. Each call
 * names the VM by id; a bad id is -GPU_EINVAL, never a crash.
 *
 * Write-protected pages: a guest store is emulated by exit_ept.c into guest
 * RAM, then reported to the VM's devices (hv/vm/vdev.h page_write; the
 * vGPU's hook in hv/gpu/vgpu_dev.c calls vgpu_page_write). The mediator's
 * own writes (op_write_gpa) are not reported.
 *
 * EPT mappings are checked here, not trusted to the mediator: a page may be
 * mapped only inside the VM's decoded BAR2 (vgpu_dev_may_map: never over
 * its RAM or a device), and only to a host page of that VM's own RAM or of
 * the physical aperture (gScale's fence pool), as the backend allows
 * (gpu_host_aperture_target: mapped on the iGPU, trapped and repeated
 * under gpu=model-mmio, refused on the plain model, which has none). */
#include "gpu/hv_ops.h"
#include "gpu/hw/gpu_hw.h"
#include "hv/console/console.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/gpu_trapdev.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/platform/tsc.h"
#include "hv/gpu/vgpu_dev.h"
#include "hv/vm/vipi.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mem.h"
#include "hv/vtd/vtd.h"
#include "hv/cpu/x86.h"
#include "mini/stdio.h"
#include "hv/gpu/hv_ops_impl.h"
#include "hv/gpu/gpu_lock.h"
#include "hv/vm/vm_mailbox.h"

static int err_to_gpu(int err)
{
	return err == -HV_ENOMEM ? -GPU_ENOMEM :
	       err == -HV_EFAULT || err == -HV_ENOENT ? -GPU_EFAULT :
	       err ? -GPU_EINVAL : 0;
}

static int op_gpa_to_hpa(void *ctx, uint32_t id, uint64_t gpa, uint64_t *hpa)
{
	struct vm *vm = vm_by_id(id);
	struct ept_xlat x;

	(void)ctx;
	gpu_lock_check(__func__);
	if (!vm)
		return -GPU_EINVAL;
	if (!vm_ram_contains(&vm->ram_layout, gpa, 1) ||
	    vm_ept_translate(vm, gpa, &x))
		return -GPU_EFAULT;
	*hpa = x.hpa;
	return 0;
}

static int op_read_gpa(void *ctx, uint32_t id, uint64_t gpa, void *buf,
		       size_t len)
{
	struct vm *vm = vm_by_id(id);

	(void)ctx;
	gpu_lock_check(__func__);
	return vm ? err_to_gpu(vm_read_gpa(vm, gpa, buf, len)) : -GPU_EINVAL;
}

static int op_write_gpa(void *ctx, uint32_t id, uint64_t gpa,
			const void *buf, size_t len)
{
	struct vm *vm = vm_by_id(id);

	(void)ctx;
	gpu_lock_check(__func__);
	/* The mediator's own store (a context image, the status page): not
	 * reported back to it as a guest store (hv_ops.h write_gpa). */
	return vm ? err_to_gpu(vm_write_gpa_direct(vm, gpa, buf, len))
		  : -GPU_EINVAL;
}

/* hpa is a page of vm's own RAM. */
static bool own_ram(const struct vm *vm, uint64_t hpa)
{
	uint64_t base = hv_pa(vm->ram);

	return hpa >= base && hpa - base < vm->mem_bytes;
}

static int op_ept_map(void *ctx, uint32_t id, uint64_t gpa, uint64_t hpa,
		      uint32_t flags)
{
	struct vm *vm = vm_by_id(id);
	unsigned perms = ((flags & HV_MAP_READ) ? EPT_R : 0) |
			 ((flags & HV_MAP_WRITE) ? EPT_RW : 0);

	enum gpu_ap_target ap;

	(void)ctx;
	gpu_lock_check(__func__);
	if (!vm || !perms)
		return -GPU_EINVAL;
	ap = own_ram(vm, hpa) ? GPU_AP_NONE : gpu_host_aperture_target(hpa);
	if (!vgpu_dev_may_map(vm, gpa) || (!own_ram(vm, hpa) && !ap)) {
		vm->stats.vgpu_maps_refused++;
		return -GPU_EFAULT;
	}
	if (ap == GPU_AP_TRAPPED) {
		/* Not present, so the guest's access exits and is repeated
		 * at hpa (vgpu_dev.c -> gpu_trapdev_ap_access). */
		(void)vm_ept_unmap(vm, gpa & PAGE_MASK, PAGE_SIZE);
		return gpu_trapdev_ap_map(id, gpa, hpa) ? -GPU_ENOMEM : 0;
	}
	gpu_trapdev_ap_unmap(id, gpa);
	return err_to_gpu(vm_ept_map(vm, gpa & PAGE_MASK, hpa & PAGE_MASK,
				     PAGE_SIZE, perms,
				     (flags & HV_MAP_WC) ? MEMTYPE_WC
							 : MEMTYPE_WB));
}

/* Any byte of [gpa, gpa+size) is RAM of vm (below the hole or above 4
 * GiB). */
static bool ram_overlaps(const struct vm *vm, uint64_t gpa, uint64_t size)
{
	const struct vm_ram_layout *l = &vm->ram_layout;

	return gpa < l->low_end ||
	       (gpa + size > VM_HIGH_RAM_BASE && gpa < l->high_end);
}

/* Anywhere but RAM: the mediator unmaps a BAR2 window it may already
 * have been told has moved. */
static int op_ept_unmap(void *ctx, uint32_t id, uint64_t gpa)
{
	struct vm *vm = vm_by_id(id);

	(void)ctx;
	gpu_lock_check(__func__);
	if (!vm || vm_ram_contains(&vm->ram_layout, gpa, 1))
		return -GPU_EINVAL;
	gpu_trapdev_ap_unmap(id, gpa);
	return err_to_gpu(vm_ept_unmap(vm, gpa & PAGE_MASK, PAGE_SIZE));
}

/* The whole old aperture window of a BAR move: one EPT walk, one flush. */
static int op_ept_unmap_range(void *ctx, uint32_t id, uint64_t gpa,
			      uint64_t size)
{
	struct vm *vm = vm_by_id(id);

	(void)ctx;
	gpu_lock_check(__func__);
	if (!vm || (gpa | size) & ~PAGE_MASK || ram_overlaps(vm, gpa, size))
		return -GPU_EINVAL;
	gpu_trapdev_ap_unmap_range(id, gpa, size);
	return err_to_gpu(vm_ept_unmap(vm, gpa, size));
}

static int op_wp_page(void *ctx, uint32_t id, uint64_t gpa)
{
	struct vm *vm = vm_by_id(id);

	(void)ctx;
	gpu_lock_check(__func__);
	if (vm && !vm_ram_contains(&vm->ram_layout, gpa, 1))
		return -GPU_EFAULT;
	return vm ? err_to_gpu(vm_ept_protect(vm, gpa & PAGE_MASK, PAGE_SIZE,
					      EPT_RX))
		  : -GPU_EINVAL;
}

static int op_unwp_page(void *ctx, uint32_t id, uint64_t gpa)
{
	struct vm *vm = vm_by_id(id);

	(void)ctx;
	gpu_lock_check(__func__);
	if (vm && !vm_ram_contains(&vm->ram_layout, gpa, 1))
		return -GPU_EFAULT;
	return vm ? err_to_gpu(vm_ept_protect(vm, gpa & PAGE_MASK, PAGE_SIZE,
					      EPT_RWX))
		  : -GPU_EINVAL;
}

/* The vGPU's MSI to the vCPUs its address names (hv/vm/vipi.h): Linux
 * programs it to the CPU it picked and moves it with the IRQ's affinity.
 * One that reaches nobody is dropped, counted and logged with the VM's
 * name and the reason. */
static int op_inject_msi(void *ctx, uint32_t id, uint64_t addr, uint32_t data)
{
	struct vm *vm = vm_by_id(id);
	enum msi_result r;

	(void)ctx;
	if (!vm)
		return -GPU_EINVAL;
	r = vipi_msi(vm, addr, data);
	if (r == MSI_DELIVERED)
		return 0;
	vm_event(vm, VM_EV_MSI_DROPPED, "vGPU MSI (address %llx, data %x) "
		 "dropped: %s", (unsigned long long)addr, data,
		 msi_result_name(r));
	return -GPU_EINVAL;
}

static void op_bar_moved(void *ctx, uint32_t id, int bar, uint64_t base,
			 uint64_t size, bool enabled)
{
	struct vm *vm = vm_by_id(id);

	(void)ctx;
	gpu_lock_check(__func__);
	if (vm)
		vgpu_dev_bar_moved(vm, bar, base, size, enabled);
}

static uint64_t op_now_ns(void *ctx)
{
	uint64_t hz = tsc_hz(), t = rdtsc();

	(void)ctx;
	return hz ? t / hz * 1000000000ull + t % hz * 1000000000ull / hz : 0;
}

/* The name of the VM vGPU id belongs to, NULL if none has it yet. */
static const char *vm_name_of_vgpu(int id)
{
	struct gvt *gvt = gpu_host_gvt();
	unsigned i;

	for (i = 0; gvt && i < nr_vms; i++) {
		struct vgpu *v = gvt_vgpu_by_vm(gvt, i);

		if (v && vgpu_id(v) == id)
			return vms[i].name;
	}
	return NULL;
}

static void op_log(void *ctx, int level, int vgpu_id, const char *msg)
{
	static const enum log_level map[] = { LOG_ERR, LOG_WARN, LOG_INFO,
					      LOG_DEBUG };
	char who[16];
	const char *vm = vm_name_of_vgpu(vgpu_id);

	(void)ctx;
	gpu_lock_check(__func__);
	snprintf(who, sizeof(who), "vgpu%d", vgpu_id);
	/* The VM's name last, so a line about bad guest input names the VM
	 * (and patterns written against the message alone still match). */
	if (vm)
		klog(map[level < 0 ? 0 : level > 3 ? 3 : level], who, "%s (vm '%s')", msg, vm);
	else
		klog(map[level < 0 ? 0 : level > 3 ? 3 : level], who, "%s", msg);
}

static void *op_page_alloc(void *ctx, size_t npages, uint64_t *hpa)
{
	void *p = page_alloc_contig(npages);

	(void)ctx;
	gpu_lock_check(__func__);
	if (p)
		vtd_gpu_pages(hv_pa(p), npages, true);	/* the GPU may reach it */
	if (p && hpa)
		*hpa = hv_pa(p);
	return p;
}

static void op_page_free(void *ctx, void *va, size_t npages)
{
	(void)ctx;
	gpu_lock_check(__func__);
	vtd_gpu_pages(hv_pa(va), npages, false);	/* before reuse */
	page_free_contig(va, npages);
}

const struct hv_ops hv_ops_impl = {
	.gpa_to_hpa = op_gpa_to_hpa,
	.read_gpa = op_read_gpa,
	.write_gpa = op_write_gpa,
	.ept_map = op_ept_map,
	.ept_unmap = op_ept_unmap,
	.wp_page = op_wp_page,
	.unwp_page = op_unwp_page,
	.inject_msi = op_inject_msi,
	.now_ns = op_now_ns,
	.log = op_log,
	.page_alloc = op_page_alloc,
	.page_free = op_page_free,
	.bar_moved = op_bar_moved,
	.ept_unmap_range = op_ept_unmap_range,
};
