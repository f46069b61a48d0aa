/* Unit tests for hv/vm/vpci_fw.c against a fake PCI bus that behaves as
 * hardware does (BARs read back their size mask after all ones are
 * written): a host bridge without BARs at 00:00.0 and a GPU-like function
 * at 00:02.0 with a 64-bit 16 MiB BAR0, a 64-bit prefetchable BAR2 of
 * configurable size and a 64-byte I/O BAR4. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hv/vm/bzimage.h"
#include "hv/vm/vacpi.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vm.h"
#include "hv/vm/vpci.h"
#include "hv/vm/vpci_fw.h"

#define GPU VPCI_BDF(0u, 2u, 0u)
#define HOST VPCI_BDF(0u, 0u, 0u)

static char printed[1024];

void kprintf(const char *fmt, ...)
{
	va_list ap;
	size_t n = strlen(printed);

	va_start(ap, fmt);
	vsnprintf(printed + n, sizeof(printed) - n, fmt, ap);
	va_end(ap);
}

/* 00:02.0: dwords 0x00-0x3c; BAR i (dword 4 + i) keeps only its mask. */
static uint32_t gpu_cfg[16];
static uint32_t bar_mask[6];
static unsigned gpu_writes;

static uint32_t gpu_class = 0x03000000u;	/* VGA-compatible display */

static void gpu_reset(uint64_t bar2_size)
{
	memset(gpu_cfg, 0, sizeof(gpu_cfg));
	gpu_cfg[0] = 0x19128086u;
	gpu_cfg[2] = gpu_class;
	gpu_cfg[4] = 0x4;		/* BAR0: 64-bit memory */
	gpu_cfg[6] = 0xc;		/* BAR2: 64-bit prefetchable */
	gpu_cfg[8] = 0x1;		/* BAR4: I/O */
	bar_mask[0] = (uint32_t)~((16u << 20) - 1);
	bar_mask[1] = 0xffffffffu;
	bar_mask[2] = (uint32_t)~(bar2_size - 1);
	bar_mask[3] = (uint32_t)(~(bar2_size - 1) >> 32);
	bar_mask[4] = ~63u;
	bar_mask[5] = 0;
	gpu_writes = 0;
}

uint32_t vpci_config_read(struct vm *vm, uint32_t bdf, unsigned reg)
{
	(void)vm;
	assert_int_equal(reg & 3, 0);
	if (bdf == HOST)
		return reg == 0 ? 0x191f8086u : reg == 8 ? 0x06000000u : 0;
	if (bdf == GPU && reg < sizeof(gpu_cfg))
		return gpu_cfg[reg / 4];
	return 0xffffffffu;
}

void vpci_config_write(struct vm *vm, uint32_t bdf, unsigned off,
		       unsigned size, uint32_t val)
{
	(void)vm;
	if (bdf != GPU)
		return;
	gpu_writes++;
	if (off == 0x04) {
		assert_int_equal(size, 2);
		gpu_cfg[1] = (gpu_cfg[1] & 0xffff0000u) | (val & 0xffff);
		return;
	}
	assert_int_equal(size, 4);
	if (off >= 0x10 && off < 0x28) {
		unsigned i = (off - 0x10) / 4;
		uint32_t flags = gpu_cfg[4 + i] & ((i == 4) ? 0x3u : 0xfu);

		if (i == 1 || i == 3)
			flags = 0;	/* high dwords */
		gpu_cfg[4 + i] = (val & bar_mask[i]) | flags;
	}
}

/* A device with a firmware region (the vGPU's OpRegion), when wanted. */
static bool fw_dev_present;
static uint64_t fw_gpa;
static size_t fw_len;

static size_t fw_fill(void *opaque, uint64_t gpa, void *buf, size_t len)
{
	(void)opaque;
	fw_gpa = gpa;
	fw_len = len;
	memcpy(buf, "IntelGraphicsMem", 16);
	return 8192;
}

static const struct vdev_ops fw_ops = { .fw_region = fw_fill };
static const struct vdev fw_dev = { .name = "vGPU", .ops = &fw_ops };

const struct vdev *vdev_with_fw_region(const struct vm *vm)
{
	(void)vm;
	return fw_dev_present ? &fw_dev : NULL;
}

static uint64_t bar(unsigned i)
{
	return (gpu_cfg[4 + i] & ~0xfull) | (uint64_t)gpu_cfg[5 + i] << 32;
}

static struct vm vm;

static void boot(uint64_t mem, bool linux_guest, uint64_t bar2_size)
{
	memset(&vm, 0, sizeof(vm));
	strcpy(vm.name, "lx");
	vm.mem_bytes = mem;
	vm_ram_layout_init(&vm.ram_layout, mem, VM_PCI_HOLE_BASE);
	vm.linux_guest = linux_guest;
	printed[0] = 0;
	gpu_reset(bar2_size);
	vpci_fw_assign(&vm);
}

/* Largest first, naturally aligned, inside the DSDT's windows; the flag
 * bits kept; one console line per BAR; a display controller's decoding
 * left off (no VGA BIOS ran: Linux must not look for its shadowed ROM). */
static void test_places_like_firmware(void **state)
{
	(void)state;
	boot(128u << 20, true, 256u << 20);
	assert_int_equal(bar(2), VACPI_PCI_MEM_BASE);
	assert_int_equal(bar(0), VACPI_PCI_MEM_BASE + (256u << 20));
	assert_int_equal(gpu_cfg[4] & 0xf, 0x4);
	assert_int_equal(gpu_cfg[6] & 0xf, 0xc);
	assert_int_equal(gpu_cfg[8], VACPI_PCI_IO_FW_BASE | 1);
	assert_int_equal(gpu_cfg[1] & 0x3, 0);	/* display: decode off */
	assert_non_null(strstr(printed, "vm 'lx': firmware: PCI 00:02.0 BAR2 "
			       "[mem 0xc0000000-0xcfffffff 64bit]\n"));
	assert_non_null(strstr(printed, "BAR0 [mem 0xd0000000-0xd0ffffff "
			       "64bit]\n"));
	assert_non_null(strstr(printed, "BAR4 [io 0x1000-0x103f]\n"));
	assert_null(strstr(printed, "00:00.0"));	/* no BARs there */
}

/* Any other function decodes what was placed, memory and I/O. */
static void test_other_class_decodes(void **state)
{
	(void)state;
	gpu_class = 0x02000000u;	/* a network controller */
	boot(128u << 20, true, 256u << 20);
	gpu_class = 0x03000000u;
	assert_int_equal(bar(2), VACPI_PCI_MEM_BASE);
	assert_int_equal(gpu_cfg[1] & 0x3, 0x3);	/* memory + I/O */
}

/* The raw test image places its own BARs: nothing is touched. */
static void test_leaves_test_guests_alone(void **state)
{
	(void)state;
	boot(128u << 20, false, 256u << 20);
	assert_int_equal(gpu_writes, 0);
	assert_int_equal(bar(0), 0);
	assert_string_equal(printed, "");
}

/* The device's table lands at LX_FW_REGION_GPA of the VM's own RAM
 * (reserved in its e820 map), for Linux VMs only; one console line. */
static void test_fw_region(void **state)
{
	static uint8_t ram[2u << 20];

	(void)state;
	boot(sizeof(ram), false, 256u << 20);
	vm.ram = ram;
	fw_dev_present = true;
	vpci_fw_region(&vm);
	assert_int_equal(fw_len, 0);	/* a test guest: nothing */
	fw_dev_present = false;
	boot(sizeof(ram), true, 256u << 20);
	vm.ram = ram;
	printed[0] = 0;
	fw_dev_present = true;
	vpci_fw_region(&vm);
	fw_dev_present = false;
	assert_int_equal(fw_gpa, LX_FW_REGION_GPA);
	assert_int_equal(fw_len, LX_FW_REGION_SIZE);
	assert_memory_equal(ram + LX_FW_REGION_GPA, "IntelGraphicsMem", 16);
	assert_non_null(strstr(printed, "vm 'lx': firmware: vGPU's table at "
			       "0xf0000, 8192 bytes (reserved)"));
}

/* 3.5 GiB of RAM: 3 GiB below the hole, 512 MiB from 4 GiB; the BARs
 * are placed in the hole as for a small VM. */
static void test_ram_over_window(void **state)
{
	(void)state;
	boot(3584ull << 20, true, 256u << 20);
	assert_int_equal(vm.ram_layout.low_end, 0xc0000000ull);
	assert_int_equal(vm.ram_layout.high_end, 0x120000000ull);
	assert_int_equal(bar(2), VACPI_PCI_MEM_BASE);
	assert_int_equal(bar(0), VACPI_PCI_MEM_BASE + (256u << 20));
	assert_null(strstr(printed, "left unassigned"));
}

/* A BAR bigger than the window is left unassigned and said so; the
 * others are still placed from the window's base. */
static void test_bar_too_big(void **state)
{
	(void)state;
	boot(128u << 20, true, 2048ull << 20);
	assert_int_equal(bar(2), 0);
	assert_int_equal(bar(0), VACPI_PCI_MEM_BASE);
	assert_non_null(strstr(printed, "BAR2 (mem, 80000000 bytes) does not "
			       "fit the root bridge's window: left "
			       "unassigned"));
	assert_int_equal(gpu_cfg[1] & 0x3, 0);	/* display: decode off */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_places_like_firmware),
		cmocka_unit_test(test_other_class_decodes),
		cmocka_unit_test(test_leaves_test_guests_alone),
		cmocka_unit_test(test_ram_over_window),
		cmocka_unit_test(test_bar_too_big),
		cmocka_unit_test(test_fw_region),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
