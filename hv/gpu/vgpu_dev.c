/* The VM side of its virtual GPU; see vgpu_dev.h. */
#include "gpu/vgpu/vgpu.h"
#include "guest-shim/include/g9hv/hypercall.h"
#include "hv/console.h"
#include "hv/gpu/gpu_trapdev.h"
#include "hv/gpu/vgpu_dev.h"
#include "hv/vm/vm.h"

#define BAR0 0
#define BAR2 1
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

static uint64_t bar0_read(struct vm *vm, uint64_t off, unsigned size)
{
	uint64_t val = 0;
	int err = vgpu_mmio_read(vm->vgpu, off, &val, size);

	trace(vm, 'R', off, size, val, err);

	if (err) {
		vm_event(vm, VM_EV_VGPU_BAD_MMIO, "vGPU refused a %u-byte read "
			 "of BAR0+%llx (error %d)", size,
			 (unsigned long long)off, err);
		return all_ones(size);
	}
	return val;
}

static void bar0_write(struct vm *vm, uint64_t off, unsigned size,
		       uint64_t val)
{
	int err = vgpu_mmio_write(vm->vgpu, off, val, size);

	trace(vm, 'W', off, size, val, err);
	if (err)
		vm_event(vm, VM_EV_VGPU_BAD_MMIO, "vGPU refused a %u-byte write "
			 "of %llx to BAR0+%llx (error %d)", size,
			 (unsigned long long)val, (unsigned long long)off, err);
}

/* Only aperture pages the ladder did not map reach these: outside the
 * vGPU's low GM, with no GGTT entry behind them, or (gpu=model-mmio) a
 * fenced page standing for the trapped physical aperture, repeated there. */
static uint64_t bar2_read(struct vm *vm, uint64_t off, unsigned size)
{
	uint64_t val;

	if (gpu_trapdev_ap_access(vm->id, vm->vgpu_bar[BAR2].gpa + off, size,
				  false, &val))
		return val;
	vm_event(vm, VM_EV_VGPU_APERTURE, "read of aperture offset %llx: no "
		 "graphics memory of this vGPU there; reads all ones",
		 (unsigned long long)off);
	return all_ones(size);
}

static void bar2_write(struct vm *vm, uint64_t off, unsigned size,
		       uint64_t val)
{
	if (gpu_trapdev_ap_access(vm->id, vm->vgpu_bar[BAR2].gpa + off, size,
				  true, &val))
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
	(void)vgpu_aperture_fault(vm->vgpu, off);
}

void vgpu_dev_attach(struct vm *vm, struct vgpu *v)
{
	vm->vgpu = v;
	vm->vgpu_bar[BAR0] = (struct mmio_region){ "vGPU BAR0", 0, 0,
						   bar0_read, bar0_write, NULL };
	vm->vgpu_bar[BAR2] = (struct mmio_region){ "vGPU aperture", 0, 0,
						   bar2_read, bar2_write,
						   bar2_fault };
	/* Registered undecoded (size 0); bar_moved places them. Two free
	 * slots are part of the registry's sizing: cannot fail. */
	vm_register_mmio(vm, &vm->vgpu_bar[BAR0]);
	vm_register_mmio(vm, &vm->vgpu_bar[BAR2]);
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
		mmio_overlap(vm, base, size, &vm->vgpu_bar[self]);

	if (!base || base + size < base || base + size > GPA_LIMIT)
		return "outside the guest-physical space";
	if (overlaps(base, size, 0, vm->mem_bytes))
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

	if (idx < 0 || !vm->vgpu)
		return;		/* BAR4 (I/O): nothing behind it */
	r = &vm->vgpu_bar[idx];
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
	const struct mmio_region *ap = &vm->vgpu_bar[BAR2];

	return ap->size && gpa >= ap->gpa && gpa - ap->gpa < ap->size;
}
