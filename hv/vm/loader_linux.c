/* Linux bzImage loader: what a boot loader does for the 64-bit entry
 * (Documentation/arch/x86/boot.rst, "64-bit Boot Protocol"): the
 * protected-mode kernel at an aligned address, a zero page with the setup
 * header and an e820 map, the command line, the initrd; then the CPU in
 * long mode with an identity map covering all of that, a GDT whose 0x10
 * and 0x18 are flat code and data, interrupts off, RSI = zero page. */
#include "hv/vm/loader_linux.h"
#include "hv/console/console.h"
#include "hv/hv_errno.h"
#include "hv/vm/bzimage.h"
#include "hv/vm/vacpi.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mem.h"
#include "mini/string.h"

#define PTE_P		(1ull << 0)
#define PTE_RW		(1ull << 1)
#define PTE_PS		(1ull << 7)
#define BOOT_CS		0x10	/* __BOOT_CS of the boot protocol */
#define BOOT_DS		0x18	/* __BOOT_DS */
#define GDT_CODE64_DESC	0x00af9a000000ffffull	/* L=1, P, DPL 0, exec/read */
#define GDT_DATA_DESC	0x00cf92000000ffffull	/* P, DPL 0, read/write */
#define MAPPED_PDS	4	/* 4 x 1 GiB of 2 MiB pages */

bool loader_linux_wants(const char *ramdisk, const void *image,
			uint64_t size)
{
	const uint8_t *p = image;

	if (ramdisk && ramdisk[0])
		return true;
	if (size >= 2 && p[0] == 'M' && p[1] == 'Z')
		return true;	/* PE (EFI stub): refused unless a bzImage */
	if (size >= 4 && !memcmp(p, "\x7f" "ELF", 4))
		return true;	/* a vmlinux: refused as unknown format */
	return size >= BP_BOOT_FLAG + 2 && p[BP_BOOT_FLAG] == 0x55 &&
	       p[BP_BOOT_FLAG + 1] == 0xaa;
}

/* Identity map of the first 4 GiB: kernel, zero page, command line and
 * initrd all lie below (bzimage_plan keeps them there). */
static int build_page_tables(struct vm *vm)
{
	uint64_t pml4e = LX_PDPT_GPA | PTE_P | PTE_RW;
	int err = vm_write_gpa(vm, LX_PML4_GPA, &pml4e, 8);

	for (unsigned i = 0; !err && i < MAPPED_PDS; i++) {
		uint64_t pdpte = (LX_PD_GPA + i * 0x1000) | PTE_P | PTE_RW;

		err = vm_write_gpa(vm, LX_PDPT_GPA + i * 8, &pdpte, 8);
	}
	for (unsigned i = 0; !err && i < MAPPED_PDS * 512; i++) {
		uint64_t pde = ((uint64_t)i << 21) | PTE_P | PTE_RW | PTE_PS;

		err = vm_write_gpa(vm, LX_PD_GPA + i * 8, &pde, 8);
	}
	return err;
}

static int refuse(struct vm *vm, const char *what, const char *why, int err)
{
	kprintf("vm '%s': not started: %s: %s\n", vm->name, what, why);
	return err;
}

static int write_everything(struct vm *vm, const void *image,
			    const struct bzimage_info *bz,
			    const struct bzimage_layout *lay,
			    const void *initrd, uint64_t initrd_size,
			    const char *cmdline)
{
	static const uint64_t gdt[4] = { 0, 0, GDT_CODE64_DESC, GDT_DATA_DESC };
	static uint8_t zp[BP_SIZE];	/* not on the hypervisor's stack */
	static uint8_t acpi[VACPI_SIZE];
	uint64_t rsdp = vacpi_build(acpi, LX_ACPI_GPA, vm->nr_vcpus);
	int err = build_page_tables(vm);

	bzimage_zero_page(zp, image, bz, lay, initrd_size, rsdp);
	if (!err)
		err = vm_write_gpa(vm, LX_GDT_GPA, gdt, sizeof(gdt));
	if (!err)
		err = vm_write_gpa(vm, LX_ACPI_GPA, acpi, sizeof(acpi));
	if (!err)
		err = vm_write_gpa(vm, LX_ZERO_PAGE_GPA, zp, sizeof(zp));
	if (!err)
		err = vm_write_gpa(vm, LX_CMDLINE_GPA, cmdline,
				   strlen(cmdline) + 1);
	if (!err)
		err = vm_write_gpa(vm, lay->kernel_gpa,
				   (const uint8_t *)image + bz->setup_bytes,
				   bz->kernel_bytes);
	if (!err && initrd_size)
		err = vm_write_gpa(vm, lay->initrd_gpa, initrd, initrd_size);
	return err;
}

static int check(struct vm *vm, const void *image, uint64_t size,
		 uint64_t mem_bytes, uint64_t initrd_size, const char *cmdline,
		 struct bzimage_info *bz, struct bzimage_layout *lay)
{
	const char *why;
	int err = bzimage_parse(image, size, bz, &why);

	if (err)
		return refuse(vm, "kernel", why, err);
	err = bzimage_plan(bz, mem_bytes, initrd_size, strlen(cmdline), lay,
			   &why);
	if (err)
		return refuse(vm, "memory", why, err);
	return 0;
}

int loader_linux_check(struct vm *vm, const void *image, uint64_t size,
		       uint64_t mem_bytes, uint64_t initrd_size,
		       const char *cmdline)
{
	struct bzimage_info bz;
	struct bzimage_layout lay;

	return check(vm, image, size, mem_bytes, initrd_size, cmdline, &bz,
		     &lay);
}

int loader_linux_load(struct vm *vm, const void *image, uint64_t size,
		      const void *initrd, uint64_t initrd_size,
		      const char *cmdline, struct vcpu_boot_state *bs)
{
	struct bzimage_info bz;
	struct bzimage_layout lay;
	int err = check(vm, image, size, vm->mem_bytes, initrd_size, cmdline,
			&bz, &lay);

	if (err)
		return err;
	err = write_everything(vm, image, &bz, &lay, initrd, initrd_size,
			       cmdline);
	if (err)
		return refuse(vm, "loading", "a write to guest RAM failed",
			      err);
	kprintf("vm '%s': Linux boot protocol %u.%02u, kernel at %llx "
		"(%u KiB, init_size %u KiB), initrd at %llx (%llu KiB)\n",
		vm->name, bz.version >> 8, bz.version & 0xff,
		(unsigned long long)lay.kernel_gpa, bz.kernel_bytes >> 10,
		bz.init_size >> 10, (unsigned long long)lay.initrd_gpa,
		(unsigned long long)(initrd_size >> 10));
	/* xAPIC mode, as a PC's firmware leaves it: Linux without ACPI
	 * finds the LAPIC at 0xFEE00000, and would leave x2APIC anyway on a
	 * platform without interrupt remapping (hv/vm/vlapic_xapic.c). */
	vm->lapic.apic_base = APIC_BASE_ADDR | APIC_BASE_BSP | APIC_BASE_EN;
	*bs = (struct vcpu_boot_state){
		.rip = lay.entry_gpa,
		.rsp = LX_STACK_TOP,
		.rsi = LX_ZERO_PAGE_GPA,
		.cr3 = LX_PML4_GPA,
		.gdt_base = LX_GDT_GPA,
		.gdt_limit = sizeof(uint64_t) * 4 - 1,
		.cs_sel = BOOT_CS,
		.ds_sel = BOOT_DS,
	};
	return 0;
}
