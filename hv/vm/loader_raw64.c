/* Raw 64-bit image loader: everything a flat 64-bit kernel expects to find
 * when its first instruction runs (see g9hv/raw64_boot.h). */
#include "hv/vm/loader_raw64.h"
#include "guest-shim/include/g9hv/raw64_boot.h"
#include "hv/hv_errno.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mem.h"
#include "mini/string.h"

#define PTE_P		(1ull << 0)
#define PTE_RW		(1ull << 1)
#define PTE_PS		(1ull << 7)
#define GDT_CODE64_DESC	0x00af9a000000ffffull	/* L=1, P, DPL 0, exec/read */
#define GDT_DATA_DESC	0x00cf92000000ffffull	/* P, DPL 0, read/write */
#define STACK_RESERVE	(64ull << 10)	/* below the image, at least */

/* Identity map of RAW64_MAPPED_BYTES with 2 MiB pages: PML4[0] -> PDPT,
 * PDPT[0..3] -> four page directories. */
static int build_page_tables(struct vm *vm)
{
	uint64_t pml4e = RAW64_PDPT_GPA | PTE_P | PTE_RW;
	int err = vm_write_gpa(vm, RAW64_PML4_GPA, &pml4e, 8);

	for (unsigned i = 0; !err && i < 4; i++) {
		uint64_t pdpte = (RAW64_PD_GPA + i * 0x1000) | PTE_P | PTE_RW;

		err = vm_write_gpa(vm, RAW64_PDPT_GPA + i * 8, &pdpte, 8);
	}
	for (unsigned i = 0; !err && i < 4 * 512; i++) {
		uint64_t pde = ((uint64_t)i << 21) | PTE_P | PTE_RW | PTE_PS;

		err = vm_write_gpa(vm, RAW64_PD_GPA + i * 8, &pde, 8);
	}
	return err;
}

static int write_boot_info(struct vm *vm, const char *cmdline)
{
	static struct raw64_boot_info bi;	/* ~600 bytes: not on the stack */

	memset(&bi, 0, sizeof(bi));
	bi.magic = RAW64_BOOT_MAGIC;
	bi.mem_bytes = vm->ram_layout.low_end;	/* its RAM from 0 */
	bi.vm_id = vm->id;
	strlcpy(bi.vm_name, vm->name, sizeof(bi.vm_name));
	bi.cmdline_len = (uint32_t)strlcpy(bi.cmdline, cmdline,
					   sizeof(bi.cmdline));
	if (bi.cmdline_len >= sizeof(bi.cmdline))
		bi.cmdline_len = sizeof(bi.cmdline) - 1;
	return vm_write_gpa(vm, RAW64_BOOT_INFO_GPA, &bi, sizeof(bi));
}

int loader_raw64_load(struct vm *vm, const void *image, uint64_t size,
		      const char *cmdline, struct vcpu_boot_state *bs)
{
	static const uint64_t gdt[3] = { 0, GDT_CODE64_DESC, GDT_DATA_DESC };
	uint64_t ram = vm->ram_layout.low_end;
	int err;

	if (!size || ram < RAW64_LOAD_GPA + STACK_RESERVE ||
	    size > ram - RAW64_LOAD_GPA - STACK_RESERVE)
		return -HV_E2BIG;
	err = build_page_tables(vm);
	if (!err)
		err = vm_write_gpa(vm, RAW64_GDT_GPA, gdt, sizeof(gdt));
	if (!err)
		err = write_boot_info(vm, cmdline);
	if (!err)
		err = vm_write_gpa(vm, RAW64_LOAD_GPA, image, size);
	if (err)
		return err;
	*bs = (struct vcpu_boot_state){
		.rip = RAW64_LOAD_GPA,
		.rsp = RAW64_STACK_TOP,
		.rsi = RAW64_BOOT_INFO_GPA,
		.cr3 = RAW64_PML4_GPA,
		.gdt_base = RAW64_GDT_GPA,
		.gdt_limit = sizeof(gdt) - 1,
	};
	return 0;
}
