/* The per-VM device registry; see mmio.h. Tables are a few entries long:
 * a linear search costs less than the exit that led here. */
#include "hv/vm/mmio.h"
#include "hv/hv_errno.h"
#include "hv/vm/vm.h"

static bool ranges_overlap(uint64_t a, uint64_t as, uint64_t b, uint64_t bs)
{
	return as && bs && a < b + bs && b < a + as;
}

const struct mmio_region *mmio_overlap(const struct vm *vm, uint64_t gpa,
				       uint64_t size,
				       const struct mmio_region *self)
{
	const struct vm_devices *d = &vm->devices;

	for (unsigned i = 0; i < d->nr_mmio; i++)
		if (d->mmio[i] != self &&
		    ranges_overlap(gpa, size, d->mmio[i]->gpa, d->mmio[i]->size))
			return d->mmio[i];
	return NULL;
}

int vm_register_mmio(struct vm *vm, const struct mmio_region *r)
{
	struct vm_devices *d = &vm->devices;

	if (d->nr_mmio == VM_MMIO_MAX)
		return -HV_ENOSPC;
	if (mmio_overlap(vm, r->gpa, r->size, NULL))
		return -HV_EBUSY;
	d->mmio[d->nr_mmio++] = r;
	return 0;
}

int vm_register_pio(struct vm *vm, const struct pio_region *r)
{
	struct vm_devices *d = &vm->devices;

	if (d->nr_pio == VM_PIO_MAX)
		return -HV_ENOSPC;
	for (unsigned i = 0; i < d->nr_pio; i++)
		if (ranges_overlap(r->first, r->count, d->pio[i]->first,
				   d->pio[i]->count))
			return -HV_EBUSY;
	d->pio[d->nr_pio++] = r;
	return 0;
}

void vm_unregister_mmio(struct vm *vm, const struct mmio_region *r)
{
	struct vm_devices *d = &vm->devices;

	for (unsigned i = 0; i < d->nr_mmio; i++)
		if (d->mmio[i] == r) {
			for (d->nr_mmio--; i < d->nr_mmio; i++)
				d->mmio[i] = d->mmio[i + 1];
			return;
		}
}

void vm_unregister_pio(struct vm *vm, const struct pio_region *r)
{
	struct vm_devices *d = &vm->devices;

	for (unsigned i = 0; i < d->nr_pio; i++)
		if (d->pio[i] == r) {
			for (d->nr_pio--; i < d->nr_pio; i++)
				d->pio[i] = d->pio[i + 1];
			return;
		}
}

const struct mmio_region *mmio_find(const struct vm *vm, uint64_t gpa)
{
	return mmio_overlap(vm, gpa, 1, NULL);
}

const struct pio_region *pio_find(const struct vm *vm, uint16_t port)
{
	const struct vm_devices *d = &vm->devices;

	for (unsigned i = 0; i < d->nr_pio; i++)
		if (port >= d->pio[i]->first &&
		    port - d->pio[i]->first < d->pio[i]->count)
			return d->pio[i];
	return NULL;
}

/* Nothing decodes the address: a PC's bus floats, reads return all ones
 * and writes vanish. Counted and the first few logged, the guest goes on
 * (probes of absent devices are normal for an OS). */
static uint64_t unclaimed_read(struct vm *vm, uint64_t gpa, unsigned size)
{
	vm_event(vm, VM_EV_UNCLAIMED_MMIO, "%u-byte read of unclaimed MMIO "
		 "%llx: all ones", size, (unsigned long long)gpa);
	return size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
}

static void unclaimed_write(struct vm *vm, uint64_t gpa, unsigned size,
			    uint64_t val)
{
	vm_event(vm, VM_EV_UNCLAIMED_MMIO, "%u-byte write of %llx to "
		 "unclaimed MMIO %llx: dropped", size,
		 (unsigned long long)val, (unsigned long long)gpa);
}

const struct mmio_region mmio_unclaimed = {
	"unclaimed MMIO", 0, 0, unclaimed_read, unclaimed_write,
	NULL,
};
