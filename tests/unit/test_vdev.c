/* The VM's device registry for whole devices (hv/vm/vdev.c, issue 27): a
 * device is reached only through what it registered, with its own opaque
 * pointer: PCI config cycles by BDF (through the real hv/vm/vpci.c), its
 * MMIO ranges (the real hv/vm/mmio.c), stores into write-protected pages,
 * reset on a restart (and the console note it gives), teardown of stopped
 * VMs, DMA. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/hv_errno.h"
#include "hv/vm/mmio.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vm.h"
#include "hv/vm/vpci.h"

struct vm vms[VM_MAX];
unsigned nr_vms;

void vm_event(struct vm *vm, enum vm_event ev, const char *fmt, ...)
{
	(void)vm;
	(void)ev;
	(void)fmt;
}

/* A fake device: what each hook saw, per device. */
struct fake {
	uint32_t cfg[64];
	unsigned cfg_writes, page_writes, resets, teardowns;
	uint64_t last_gpa;
	size_t last_len;
	int reset_err;
	struct mmio_region bar;
};

static int cfg_read(void *opaque, unsigned reg, uint32_t *val)
{
	struct fake *f = opaque;

	if (reg >= sizeof(f->cfg))
		return -1;
	*val = f->cfg[reg / 4];
	return 0;
}

static void cfg_write(void *opaque, unsigned off, unsigned size,
		      uint32_t val)
{
	struct fake *f = opaque;

	f->cfg_writes++;
	if (size == 4 && off < sizeof(f->cfg))
		f->cfg[off / 4] = val;
}

static void page_write(void *opaque, uint64_t gpa, const void *data,
		       size_t len)
{
	struct fake *f = opaque;

	(void)data;
	f->page_writes++;
	f->last_gpa = gpa;
	f->last_len = len;
}

static int reset(void *opaque)
{
	struct fake *f = opaque;

	f->resets++;
	return f->reset_err;
}

static void teardown(void *opaque)
{
	struct fake *f = opaque;

	f->teardowns++;
	f->bar.size = 0;
}

static uint64_t bar_read(struct vm *vm, uint64_t off, unsigned size)
{
	(void)vm;
	(void)size;
	return off;
}

static size_t fw_region(void *opaque, uint64_t gpa, void *buf, size_t len)
{
	struct fake *f = opaque;

	f->last_gpa = gpa;
	f->last_len = len;
	memset(buf, 0xa5, 16);
	return 16;
}

static const struct vdev_ops all_ops = {
	cfg_read, cfg_write, page_write, reset, teardown, fw_region,
};
static const struct vdev_ops no_ops;

static struct fake fa, fb;
static struct vdev gpu, other;

static int setup(void **state)
{
	(void)state;
	memset(vms, 0, sizeof(vms));
	nr_vms = 2;
	vms[0].id = 0;
	vms[1].id = 1;
	memset(&fa, 0, sizeof(fa));
	memset(&fb, 0, sizeof(fb));
	fa.cfg[0] = 0x19128086u;
	fa.bar = (struct mmio_region){ "fake BAR", 0xd0000000ull, 0x1000,
				       bar_read, NULL, NULL };
	fb.bar = (struct mmio_region){ "other BAR", 0xd0000800ull, 0x1000,
				       bar_read, NULL, NULL };
	gpu = (struct vdev){ "vGPU", &all_ops, &fa, VPCI_BDF(0, 2, 0), true,
			     { &fa.bar }, { NULL } };
	other = (struct vdev){ "NIC", &no_ops, &fb, VPCI_BDF(0, 3, 0), false,
			       { NULL }, { NULL } };
	return 0;
}

static void test_config_space_by_bdf(void **state)
{
	struct vm *vm = &vms[0];

	(void)state;
	assert_int_equal(vpci_config_read(vm, VPCI_BDF(0, 2, 0), 0),
			 0xffffffffu);	/* nothing there yet */
	assert_int_equal(vdev_register(vm, &gpu), 0);
	assert_ptr_equal(vdev_by_bdf(vm, VPCI_BDF(0, 2, 0)), &gpu);
	assert_int_equal(vpci_config_read(vm, VPCI_BDF(0, 2, 0), 0),
			 0x19128086u);
	vpci_config_write(vm, VPCI_BDF(0, 2, 0), 0x10, 4, 0xe0000000u);
	assert_int_equal(fa.cfg_writes, 1);
	assert_int_equal(vpci_config_read(vm, VPCI_BDF(0, 2, 0), 0x10),
			 0xe0000000u);
	/* A device without config hooks reads as absent; the bridges stay. */
	assert_int_equal(vdev_register(vm, &other), 0);
	assert_int_equal(vpci_config_read(vm, VPCI_BDF(0, 3, 0), 0),
			 0xffffffffu);
	vpci_config_write(vm, VPCI_BDF(0, 3, 0), 0, 4, 1);
	assert_int_equal(vpci_config_read(vm, VPCI_BDF(0, 0, 0), 0),
			 0x191f8086u);
	/* The other VM has none of it. */
	assert_int_equal(vpci_config_read(&vms[1], VPCI_BDF(0, 2, 0), 0),
			 0xffffffffu);
}

static void test_ranges_come_and_go_with_the_device(void **state)
{
	struct vm *vm = &vms[0];

	(void)state;
	assert_int_equal(vdev_register(vm, &gpu), 0);
	assert_ptr_equal(mmio_find(vm, 0xd0000010ull), &fa.bar);
	vdev_remove(vm, &gpu);
	assert_null(mmio_find(vm, 0xd0000010ull));
	assert_null(vdev_by_bdf(vm, VPCI_BDF(0, 2, 0)));
	assert_int_equal(vm->devices.nr_vdev, 0);
	assert_int_equal(vm->devices.nr_mmio, 0);
}

static void test_refused_registration_leaves_nothing(void **state)
{
	struct vm *vm = &vms[0];
	struct vdev same_bdf = other, clash = other;

	(void)state;
	assert_int_equal(vdev_register(vm, &gpu), 0);
	/* The BDF is taken. */
	same_bdf.bdf = gpu.bdf;
	assert_int_equal(vdev_register(vm, &same_bdf), -HV_EBUSY);
	/* Its BAR overlaps the first device's: refused, and the first
	 * device's range stays registered. */
	clash.mmio[0] = &fb.bar;
	assert_int_equal(vdev_register(vm, &clash), -HV_EBUSY);
	assert_int_equal(vm->devices.nr_vdev, 1);
	assert_int_equal(vm->devices.nr_mmio, 1);
	assert_ptr_equal(mmio_find(vm, 0xd0000900ull), &fa.bar);
	/* A full table. */
	for (unsigned i = 1; i < VM_VDEV_MAX; i++) {
		static struct vdev more[VM_VDEV_MAX];

		more[i] = (struct vdev){ "more", &no_ops, NULL, VDEV_NO_BDF,
					 false, { NULL }, { NULL } };
		assert_int_equal(vdev_register(vm, &more[i]), 0);
	}
	assert_int_equal(vdev_register(vm, &other), -HV_ENOSPC);
}

static void test_page_writes_reach_hooked_devices(void **state)
{
	struct vm *vm = &vms[0];
	uint64_t v = 7;

	(void)state;
	assert_int_equal(vdev_register(vm, &other), 0);	/* no hook */
	assert_int_equal(vdev_register(vm, &gpu), 0);
	vdev_page_write(vm, 0x5008, &v, 8);
	assert_int_equal(fa.page_writes, 1);
	assert_int_equal(fa.last_gpa, 0x5008);
	assert_int_equal(fa.last_len, 8);
	vdev_page_write(&vms[1], 0x5008, &v, 8);
	assert_int_equal(fa.page_writes, 1);
}

static void test_reset_and_its_note(void **state)
{
	struct vm *vm = &vms[0];
	struct fake fc = { .reset_err = 0 };
	struct vdev third = { "display", &all_ops, &fc, VDEV_NO_BDF, false,
			      { NULL }, { NULL } };
	char note[64];

	(void)state;
	vdev_reset_note(vm, note, sizeof(note));
	assert_string_equal(note, "");
	assert_null(vdev_reset_all(vm));
	assert_int_equal(vdev_register(vm, &other), 0);	/* no reset hook */
	assert_int_equal(vdev_register(vm, &gpu), 0);
	/* vm_restart's line: "vm 'x': restarting with its vGPU reset: ..." */
	vdev_reset_note(vm, note, sizeof(note));
	assert_string_equal(note, " with its vGPU reset");
	assert_null(vdev_reset_all(vm));
	assert_int_equal(fa.resets, 1);
	assert_int_equal(vdev_register(vm, &third), 0);
	vdev_reset_note(vm, note, sizeof(note));
	assert_string_equal(note, " with its vGPU and display reset");
	/* The first that fails is named; the rest are not reset. */
	fa.reset_err = -1;
	assert_ptr_equal(vdev_reset_all(vm), &gpu);
	assert_int_equal(fc.resets, 0);
	/* A short buffer is cut, never overrun. */
	vdev_reset_note(vm, note, 12);
	assert_string_equal(note, " with its v");
}

/* The firmware region goes to the first device that has the hook. */
static void test_fw_region_device(void **state)
{
	(void)state;
	assert_null(vdev_with_fw_region(&vms[0]));
	assert_int_equal(vdev_register(&vms[0], &other), 0);
	assert_null(vdev_with_fw_region(&vms[0]));
	assert_int_equal(vdev_register(&vms[0], &gpu), 0);
	assert_ptr_equal(vdev_with_fw_region(&vms[0]), &gpu);
}

static void test_teardown_of_stopped_vms_only(void **state)
{
	struct vdev gpu1 = gpu;
	struct fake f1 = fa;

	(void)state;
	gpu1.opaque = &f1;
	gpu1.mmio[0] = &f1.bar;
	assert_int_equal(vdev_register(&vms[0], &gpu), 0);
	assert_int_equal(vdev_register(&vms[0], &other), 0);
	assert_int_equal(vdev_register(&vms[1], &gpu1), 0);
	vms[0].state = VM_STOPPED;
	vms[1].state = VM_RUNNABLE;
	assert_true(vdev_any_dma(&vms[0]));
	vdev_teardown_stopped();
	assert_int_equal(fa.teardowns, 1);
	assert_int_equal(f1.teardowns, 0);
	assert_int_equal(vms[0].devices.nr_vdev, 0);
	assert_int_equal(vms[0].devices.nr_mmio, 0);
	assert_false(vdev_any_dma(&vms[0]));
	assert_int_equal(vms[1].devices.nr_vdev, 1);
	assert_true(vdev_any_dma(&vms[1]));
	/* Once: the next round finds nothing left. */
	vdev_teardown_stopped();
	assert_int_equal(fa.teardowns, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_config_space_by_bdf, setup),
		cmocka_unit_test_setup(test_ranges_come_and_go_with_the_device,
				       setup),
		cmocka_unit_test_setup(test_refused_registration_leaves_nothing,
				       setup),
		cmocka_unit_test_setup(test_page_writes_reach_hooked_devices,
				       setup),
		cmocka_unit_test_setup(test_reset_and_its_note, setup),
		cmocka_unit_test_setup(test_teardown_of_stopped_vms_only, setup),
		cmocka_unit_test_setup(test_fw_region_device, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
