/* A VM's devices as wholes; see vdev.h. A VM has a handful at most: a
 * linear search costs less than the exit that led here. */
#include "hv/vm/vdev.h"
#include "hv/hv_errno.h"
#include "hv/vm/vm.h"
#include "mini/stdio.h"
#include "mini/string.h"

/* The first nm MMIO regions and np port ranges of d out of the VM. */
static void remove_ranges(struct vm *vm, const struct vdev *d, unsigned nm,
			  unsigned np)
{
	for (unsigned i = 0; i < nm; i++)
		vm_unregister_mmio(vm, d->mmio[i]);
	for (unsigned i = 0; i < np; i++)
		vm_unregister_pio(vm, d->pio[i]);
}

static unsigned nr_mmio(const struct vdev *d)
{
	unsigned n = 0;

	while (n < VDEV_MMIO_MAX && d->mmio[n])
		n++;
	return n;
}

static unsigned nr_pio(const struct vdev *d)
{
	unsigned n = 0;

	while (n < VDEV_PIO_MAX && d->pio[n])
		n++;
	return n;
}

int vdev_register(struct vm *vm, const struct vdev *d)
{
	struct vm_devices *t = &vm->devices;
	unsigned nm = 0, np = 0;
	int err = 0;

	if (t->nr_vdev == VM_VDEV_MAX)
		return -HV_ENOSPC;
	if (d->bdf != VDEV_NO_BDF && vdev_by_bdf(vm, d->bdf))
		return -HV_EBUSY;
	while (!err && nm < nr_mmio(d) &&
	       !(err = vm_register_mmio(vm, d->mmio[nm])))
		nm++;
	while (!err && np < nr_pio(d) &&
	       !(err = vm_register_pio(vm, d->pio[np])))
		np++;
	if (err) {
		remove_ranges(vm, d, nm, np);	/* only what this call added */
		return err;
	}
	t->vdev[t->nr_vdev++] = d;
	return 0;
}

void vdev_remove(struct vm *vm, const struct vdev *d)
{
	struct vm_devices *t = &vm->devices;

	for (unsigned i = 0; i < t->nr_vdev; i++)
		if (t->vdev[i] == d) {
			remove_ranges(vm, d, nr_mmio(d), nr_pio(d));
			for (t->nr_vdev--; i < t->nr_vdev; i++)
				t->vdev[i] = t->vdev[i + 1];
			return;
		}
}

const struct vdev *vdev_by_bdf(const struct vm *vm, uint32_t bdf)
{
	const struct vm_devices *t = &vm->devices;

	for (unsigned i = 0; i < t->nr_vdev; i++)
		if (t->vdev[i]->bdf == bdf)
			return t->vdev[i];
	return NULL;
}

void vdev_page_write(struct vm *vm, uint64_t gpa, const void *data,
		     size_t len)
{
	const struct vm_devices *t = &vm->devices;

	for (unsigned i = 0; i < t->nr_vdev; i++)
		if (t->vdev[i]->ops->page_write)
			t->vdev[i]->ops->page_write(t->vdev[i]->opaque, gpa,
						    data, len);
}

const struct vdev *vdev_with_fw_region(const struct vm *vm)
{
	const struct vm_devices *t = &vm->devices;

	for (unsigned i = 0; i < t->nr_vdev; i++)
		if (t->vdev[i]->ops->fw_region)
			return t->vdev[i];
	return NULL;
}

const struct vdev *vdev_reset_all(struct vm *vm)
{
	const struct vm_devices *t = &vm->devices;

	for (unsigned i = 0; i < t->nr_vdev; i++)
		if (t->vdev[i]->ops->reset &&
		    t->vdev[i]->ops->reset(t->vdev[i]->opaque))
			return t->vdev[i];
	return NULL;
}

void vdev_reset_note(const struct vm *vm, char *buf, size_t len)
{
	const struct vm_devices *t = &vm->devices;
	size_t at = 0;
	bool first = true;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < t->nr_vdev && at < len; i++) {
		if (!t->vdev[i]->ops->reset)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       first ? " with its " : " and ",
				       t->vdev[i]->name);
		first = false;
	}
	if (!first && at < len)
		snprintf(buf + at, len - at, " reset");
}

bool vdev_any_dma(const struct vm *vm)
{
	const struct vm_devices *t = &vm->devices;

	for (unsigned i = 0; i < t->nr_vdev; i++)
		if (t->vdev[i]->dma)
			return true;
	return false;
}

/* Each device leaves the VM first, then its hook runs: from then on no
 * exit or config cycle reaches what the hook releases. */
void vdev_teardown_stopped(void)
{
	for (unsigned i = 0; i < nr_vms && i < VM_MAX; i++) {
		struct vm *vm = &vms[i];
		struct vm_devices *t = &vm->devices;

		if (vm->state != VM_STOPPED)
			continue;
		while (t->nr_vdev) {
			const struct vdev *d = t->vdev[0];

			vdev_remove(vm, d);
			if (d->ops->teardown)
				d->ops->teardown(d->opaque);
		}
	}
}
