/* Every virtual device of a VM, registered in one place.
 *
 * To add a device: give it a `struct mmio_region` and/or `struct
 * pio_region` (hv/vm/mmio.h) in its own file and register it below. The
 * exit handlers find it through the registry; nothing else changes. A
 * device that exists only for some VMs, or needs more than ranges (PCI
 * config space, write-protected page stores, reset and teardown), is
 * registered whole by its owner with vdev_register (hv/vm/vdev.h): the
 * vGPU, for VMs with vgpu_* keys, by vgpu_dev_attach in
 * hv/gpu/vgpu_dev.c. */
#include "hv/vm/mmio.h"
#include "hv/vm/vlapic.h"
#include "hv/vm/vioapic.h"
#include "hv/vm/vpci.h"
#include "hv/vm/vpm.h"
#include "hv/vm/vpost.h"
#include "hv/vm/vrtc.h"
#include "hv/vm/vtestdev.h"
#include "hv/vm/vuart.h"
#include "hv/vm/vvirtio.h"

static const struct mmio_region *const platform_mmio[] = {
	&vtestdev_mmio,
	&vlapic_xapic_mmio,
	&vioapic_mmio,
};

static const struct pio_region *const platform_pio[] = {
	&vuart_pio,
	&vpci_addr_pio,
	&vpci_data_pio,
	&vpost_pio,
	&vpm_sleep_pio,
	&vpm_reset_pio,
	&vrtc_pio,
};

int vm_devices_init(struct vm *vm)
{
	int err = 0;

	for (unsigned i = 0; !err && i < sizeof(platform_mmio) /
					     sizeof(platform_mmio[0]); i++)
		err = vm_register_mmio(vm, platform_mmio[i]);
	for (unsigned i = 0; !err && i < sizeof(platform_pio) /
					     sizeof(platform_pio[0]); i++)
		err = vm_register_pio(vm, platform_pio[i]);
	if (!err)	/* hv.cfg virtio_console=yes: a whole device */
		err = vvirtio_attach(vm);
	return err;
}
