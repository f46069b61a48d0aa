/* The VM side of its virtual GPU; see vgpu_dev.h. */
#include "gpu/vgpu/vgpu.h"
#include "guest-shim/include/g9hv/hypercall.h"
#include "hv/console/console.h"
#include "hv/gpu/gpu_entry.h"
#include "hv/gpu/gpu_lock.h"
#include "hv/gpu/gpu_teardown.h"
#include "hv/gpu/gpu_trapdev.h"
#include "hv/gpu/vgpu_dev.h"
#include "hv/hv_errno.h"
#include "hv/vm/sched.h"
#include "mini/x86.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vm.h"
#include "hv/vm/vmrpc.h"
#include "hv/vm/vpci.h"

#define BAR0 0
#define BAR2 1

/* Each VM's vGPU device, by VM id: the vGPU (NULL: none, or torn down),
 * its two BARs as MMIO regions, and its entry in the VM's device registry
 * (hv/vm/vdev.h), whose opaque pointer is this entry. */
static struct vgpu_dev {
	struct vm *vm;
	struct vgpu *v;
	struct mmio_region bar[2];	/* BAR0, BAR2; size 0 = off */
	struct vdev dev;
} devs[VM_MAX];

static struct vgpu_dev *dev_of(const struct vm *vm)
{
	return &devs[vm->id];
}

struct vgpu *vgpu_dev_vgpu(unsigned vm_id)
{
	return vm_id < VM_MAX ? devs[vm_id].v : NULL;
}
#define GPA_LIMIT (1ull << 39)	/* what our 4-level EPT and guests use */
/* Besides the VM's registered devices, a BAR must stay clear of the
 * IOAPIC/LAPIC range (0xFEC00000-0xFEFFFFFF). */
#define APIC_WINDOW_BASE 0xfec00000ull
#define APIC_WINDOW_SIZE 0x400000ull

static uint64_t all_ones(unsigned size)
{
	return size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
}

/* vgpu_trace=yes (hv.cfg): one console line per guest access to BAR0, the
 * format tools/vgpu-trace2fixture turns into a replay fixture
 * (tests/unit/test_vgpu_i915_replay.c): "vgpu-trace VM R|W OFFSET SIZE VALUE",
 * the value read or written, or "!" after it when the vGPU refused it. */
static void trace(const struct vm *vm, char dir, uint64_t off, unsigned size,
		  uint64_t val, int err)
{
	if (vm->cfg->vgpu_trace)
		kprintf("vgpu-trace %s %c %llx %u %llx%s\n", vm->cfg->name, dir,
			(unsigned long long)off, size,
			(unsigned long long)val, err ? " !" : "");
}

static void note_bar0(struct vm *vm, uint64_t ticks, bool submitted);

static uint64_t bar0_read(struct vm *vm, uint64_t off, unsigned size)
{
	struct vgpu *v = dev_of(vm)->v;
	uint64_t val = 0, t0 = rdtsc();
	int err = gpu_entry_mmio_read(v, off, &val, size);

	note_bar0(vm, rdtsc() - t0, false);
	trace(vm, 'R', off, size, val, err);

	if (err) {
		vm_event(vm, VM_EV_VGPU_BAD_MMIO, "vGPU refused a %u-byte read "
			 "of BAR0+%llx (error %d)", size,
			 (unsigned long long)off, err);
		return all_ones(size);
	}
	return val;
}

static struct vgpu_dev_times times[VM_MAX];

/* One BAR0 access took ticks (the clock read here, never by the
 * mediator); submitted: it was an ELSP write that queued work, which the
 * scheduler takes after this exit (sched_post_request). */
static void note_bar0(struct vm *vm, uint64_t ticks, bool submitted)
{
	struct vgpu_dev_times *t = &times[vm->id];

	t->bar0++;
	t->bar0_tsc += ticks;
	if (!submitted)
		return;
	sched_post_request();
	t->elsp++;
	t->elsp_tsc += ticks;
	if (ticks > t->elsp_max_tsc)
		t->elsp_max_tsc = ticks;
}

static void bar0_write(struct vm *vm, uint64_t off, unsigned size,
		       uint64_t val)
{
	struct vgpu *v = dev_of(vm)->v;
	uint64_t t0 = rdtsc();
	bool submitted = false;
	int err = gpu_entry_mmio_write(v, off, val, size, &submitted);

	note_bar0(vm, rdtsc() - t0, submitted);
	trace(vm, 'W', off, size, val, err);
	if (err)
		vm_event(vm, VM_EV_VGPU_BAD_MMIO, "vGPU refused a %u-byte write "
			 "of %llx to BAR0+%llx (error %d)", size,
			 (unsigned long long)val, (unsigned long long)off, err);
}

/* A fenced page on the plain model: the mediator detiles the access. */
static bool detiled_rw(struct vm *vm, uint64_t off, unsigned size,
		       bool write, uint64_t *val)
{
	struct vgpu *v = dev_of(vm)->v;

	return v && !gpu_entry_aperture_rw(v, off, val, size, write);
}

/* Only aperture pages the ladder did not map reach these: outside the
 * vGPU's low GM, with no GGTT entry behind them, (gpu=model-mmio) a
 * fenced page standing for the trapped physical aperture, repeated there,
 * or (gpu=model, no physical aperture) a fenced page the mediator
 * detiles itself (gpu/gscale/mediator/gscale_ap_detile.c). */
static uint64_t bar2_read(struct vm *vm, uint64_t off, unsigned size)
{
	uint64_t val;

	if (gpu_trapdev_ap_access(vm->id, dev_of(vm)->bar[BAR2].gpa + off, size,
				  false, &val))
		return val;
	val = 0;
	if (detiled_rw(vm, off, size, false, &val))
		return val;
	vm_event(vm, VM_EV_VGPU_APERTURE, "read of aperture offset %llx: no "
		 "graphics memory of this vGPU there; reads all ones",
		 (unsigned long long)off);
	return all_ones(size);
}

static void bar2_write(struct vm *vm, uint64_t off, unsigned size,
		       uint64_t val)
{
	if (gpu_trapdev_ap_access(vm->id, dev_of(vm)->bar[BAR2].gpa + off, size,
				  true, &val) ||
	    detiled_rw(vm, off, size, true, &val))
		return;
	vm_event(vm, VM_EV_VGPU_APERTURE, "write to aperture offset %llx: no "
		 "graphics memory of this vGPU there; dropped",
		 (unsigned long long)off);
}

/* The mediator maps aperture pages on demand (hv_ops ept_unmap_range):
 * a BAR2 move costs one range unmap, and the first touch of each page
 * maps it here. */
static void bar2_fault(struct vm *vm, uint64_t off)
{
	(void)gpu_entry_aperture_fault(dev_of(vm)->v, off);
}

/* 00:02.0's config space is the mediator's (gpu/vgpu/mmio/vgpu_cfg.c); a BAR
 * the guest moves comes back through hv_ops bar_moved. */
static int dev_cfg_read(void *opaque, unsigned reg, uint32_t *val)
{
	struct vgpu_dev *d = opaque;

	return d->v ? gpu_entry_cfg_read(d->v, reg, val) : -1;
}

static void dev_cfg_write(void *opaque, unsigned off, unsigned size,
			  uint32_t val)
{
	struct vgpu_dev *d = opaque;

	if (d->v)
		gpu_entry_cfg_write(d->v, off, val, size);
}

/* A store into a page the mediator write-protected (a guest GPU page
 * table it shadows), made by the guest or on its behalf. */
static void dev_page_write(void *opaque, uint64_t gpa, const void *data,
			   size_t len)
{
	struct vgpu_dev *d = opaque;

	if (d->v)
		(void)gpu_entry_page_write(d->v, gpa, data, len);
}

/* The VM's firmware lends the OpRegion's place (hv/vm/vpci_fw.c): the
 * mediator builds it there and points ASLS at it. */
static size_t dev_fw_region(void *opaque, uint64_t gpa, void *buf,
			    size_t len)
{
	struct vgpu_dev *d = opaque;
	int err;

	if (!d->v)
		return 0;
	gpu_lock();
	err = vgpu_opregion_place(d->v, gpa, buf, len);
	gpu_unlock();
	return err ? 0 : VGPU_OPREGION_SIZE;
}

/* The VM restarts in place: the vGPU is power-cycled (reset, GGTT and
 * fences cleared, BARs unprogrammed, docs/vgpu-reset.md). */
static int dev_reset(void *opaque)
{
	struct vgpu_dev *d = opaque;

	if (!d->v)
		return 0;
	if (gpu_entry_reset(d->v))
		return -HV_EINVAL;
	d->bar[BAR0].size = d->bar[BAR2].size = 0;
	return 0;
}

/* The VM stopped: the registry has taken the BARs out already; they stop
 * decoding before the vGPU behind them goes (gpu_teardown.c). */
static void dev_teardown(void *opaque)
{
	struct vgpu_dev *d = opaque;
	struct vgpu *v = d->v;

	if (!v)
		return;
	gpu_lock();
	d->bar[BAR0].size = d->bar[BAR2].size = 0;
	d->v = NULL;
	gpu_teardown_vgpu(d->vm->id, v);
	gpu_unlock();
}

static const struct vdev_ops vgpu_vdev_ops = {
	.cfg_read = dev_cfg_read,
	.cfg_write = dev_cfg_write,
	.page_write = dev_page_write,
	.fw_region = dev_fw_region,
	.reset = dev_reset,
	.teardown = dev_teardown,
};

void vgpu_dev_attach(struct vm *vm, struct vgpu *v)
{
	struct vgpu_dev *d = dev_of(vm);

	d->vm = vm;
	d->v = v;
	d->bar[BAR0] = (struct mmio_region){ "vGPU BAR0", 0, 0,
					     bar0_read, bar0_write, NULL };
	d->bar[BAR2] = (struct mmio_region){ "vGPU aperture", 0, 0,
					     bar2_read, bar2_write,
					     bar2_fault };
	d->dev = (struct vdev){
		.name = "vGPU",
		.ops = &vgpu_vdev_ops,
		.opaque = d,
		.bdf = VPCI_BDF(0, 2, 0),
		.dma = true,	/* the GPU reads and writes its RAM */
		.mmio = { &d->bar[BAR0], &d->bar[BAR2] },
	};
	/* BARs registered undecoded (size 0); bar_moved places them. Two
	 * free MMIO slots and a device slot are part of the registry's
	 * sizing: cannot fail. */
	vdev_register(vm, &d->dev);
}

int vgpu_dev_gm_layout(unsigned vm_id, struct vmrpc_gm_layout *l)
{
	struct vgpu_gm_range hr[VMRPC_MAX_RANGES];
	struct vgpu *v = vgpu_dev_vgpu(vm_id);
	uint64_t hb, hs;
	uint32_t n;

	if (!v)
		return -HV_ENOENT;
	vgpu_gm_ranges(v, &l->low_base, &l->low_size, &hb, &hs);
	n = vgpu_high_ranges(v, hr, VMRPC_MAX_RANGES);
	l->nr_high = n < VMRPC_MAX_RANGES ? n : VMRPC_MAX_RANGES;
	for (uint32_t i = 0; i < l->nr_high; i++) {
		l->high[i].base = hr[i].base;
		l->high[i].size = hr[i].size;
	}
	return 0;
}

static bool overlaps(uint64_t a, uint64_t as, uint64_t b, uint64_t bs)
{
	return a < b + bs && b < a + as;
}

/* Why a window [base, base+size) cannot be decoded, or NULL. */
static const char *misplaced(const struct vm *vm, int self, uint64_t base,
			     uint64_t size)
{
	const struct mmio_region *dev =
		mmio_overlap(vm, base, size, &dev_of(vm)->bar[self]);

	if (!base || base + size < base || base + size > GPA_LIMIT)
		return "outside the guest-physical space";
	if (overlaps(base, size, 0, vm->ram_layout.low_end) ||
	    overlaps(base, size, VM_HIGH_RAM_BASE,
		     vm_ram_high_bytes(&vm->ram_layout)))
		return "over its RAM";
	if (dev || overlaps(base, size, APIC_WINDOW_BASE, APIC_WINDOW_SIZE))
		return "over another device";
	return NULL;
}

void vgpu_dev_bar_moved(struct vm *vm, int bar, uint64_t base, uint64_t size,
			bool enabled)
{
	int idx = bar == 0 ? BAR0 : bar == 2 ? BAR2 : -1;
	struct mmio_region *r;
	const char *why;

	if (idx < 0 || !dev_of(vm)->v)
		return;		/* BAR4 (I/O): nothing behind it */
	r = &dev_of(vm)->bar[idx];
	if (enabled && r->size && r->gpa == base)
		return;		/* unchanged */
	r->size = 0;
	if (!enabled)
		return;
	why = misplaced(vm, idx, base, size);
	if (why) {
		vm_event(vm, VM_EV_VGPU_BAR, "vGPU BAR%d at %llx+%llx is %s: not "
			 "decoded", bar, (unsigned long long)base,
			 (unsigned long long)size, why);
		return;
	}
	r->gpa = base;
	r->size = size;
}

bool vgpu_dev_may_map(const struct vm *vm, uint64_t gpa)
{
	const struct mmio_region *ap = &dev_of(vm)->bar[BAR2];

	return ap->size && gpa >= ap->gpa && gpa - ap->gpa < ap->size;
}

const struct vgpu_dev_times *vgpu_dev_times(unsigned vm_id)
{
	return vm_id < VM_MAX ? &times[vm_id] : NULL;
}

void vgpu_dev_note_post(unsigned vm_id, uint64_t ticks, bool own)
{
	struct vgpu_dev_times *t;

	if (vm_id >= VM_MAX)
		return;
	t = &times[vm_id];
	if (own) {
		t->post_own++;
		t->post_own_tsc += ticks;
	} else {
		t->post_hv++;
		t->post_hv_tsc += ticks;
	}
	if (ticks > t->post_max_tsc)
		t->post_max_tsc = ticks;
}

void vgpu_dev_report_times(unsigned vm_id)
{
	const struct vgpu_dev_times *t = vgpu_dev_times(vm_id);

	if (!t || !t->bar0)
		return;
	kprintf("  exits: %llu BAR0 accesses, %llu ticks; %llu ELSP "
		"submissions, %llu ticks, longest %llu; scheduler after its "
		"exits: %llu runs its own (%llu ticks), %llu the "
		"hypervisor's (%llu ticks), longest %llu\n",
		(unsigned long long)t->bar0, (unsigned long long)t->bar0_tsc,
		(unsigned long long)t->elsp, (unsigned long long)t->elsp_tsc,
		(unsigned long long)t->elsp_max_tsc,
		(unsigned long long)t->post_own,
		(unsigned long long)t->post_own_tsc,
		(unsigned long long)t->post_hv,
		(unsigned long long)t->post_hv_tsc,
		(unsigned long long)t->post_max_tsc);
}
