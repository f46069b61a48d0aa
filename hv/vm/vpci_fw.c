/* See vpci_fw.h. BAR sizing: PCI Local Bus 3.0, section 6.2.5.1. */
#include "hv/vm/vpci_fw.h"
#include "hv/console/console.h"
#include "hv/vm/bzimage.h"
#include "hv/vm/vacpi.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vm.h"
#include "hv/vm/vpci.h"

#define PCI_VENDOR_ID	0x00
#define PCI_COMMAND	0x04
#define PCI_CMD_IO	0x1u
#define PCI_CMD_MEM	0x2u
#define PCI_CLASS	0x08	/* dword: base class in bits 24-31 */
#define PCI_CLASS_DISPLAY 0x03u
#define PCI_HEADER	0x0c	/* dword: header type in bits 16-22 */
#define PCI_BAR0	0x10
#define PCI_NR_BARS	6	/* of a type 0 header */
#define BAR_IO		0x1u
#define BAR_MEM_64	0x4u	/* memory type 10b */
#define BAR_MEM_FLAGS	0xfu
#define BAR_IO_FLAGS	0x3u
#define FW_BARS_MAX	16

struct fw_bar {
	uint32_t bdf;
	unsigned reg;		/* config offset of its (low) dword */
	uint32_t flags;		/* the low bits as read: type, prefetch */
	uint64_t size;
	uint64_t at;		/* 0: not placed */
};

static bool is_io(const struct fw_bar *b) { return b->flags & BAR_IO; }
static bool is64(const struct fw_bar *b)
{
	return !is_io(b) && (b->flags & 0x6u) == BAR_MEM_64;
}

/* One dword: all ones written, the mask read back, the value restored. */
static uint32_t size_mask(struct vm *vm, uint32_t bdf, unsigned reg)
{
	uint32_t old = vpci_config_read(vm, bdf, reg), mask;

	vpci_config_write(vm, bdf, reg, 4, 0xffffffffu);
	mask = vpci_config_read(vm, bdf, reg);
	vpci_config_write(vm, bdf, reg, 4, old);
	return mask;
}

/* The BAR at reg: its size (0 = none) and low flag bits. */
static void size_bar(struct vm *vm, struct fw_bar *b)
{
	uint32_t lo = vpci_config_read(vm, b->bdf, b->reg), mlo;
	uint64_t mask;

	b->flags = lo & ((lo & BAR_IO) ? BAR_IO_FLAGS : BAR_MEM_FLAGS);
	mlo = size_mask(vm, b->bdf, b->reg);
	if (is_io(b))	/* 16-bit decoders read 0 above bit 15 */
		mask = 0xffffffffffff0000ull | (mlo & ~BAR_IO_FLAGS);
	else if (is64(b))
		mask = (uint64_t)size_mask(vm, b->bdf, b->reg + 4) << 32 |
		       (mlo & ~BAR_MEM_FLAGS);
	else
		mask = 0xffffffff00000000ull | (mlo & ~BAR_MEM_FLAGS);
	b->size = ~mask + 1;
	if (mlo == 0 || mlo == 0xffffffffu || (b->size & (b->size - 1)))
		b->size = 0;	/* unimplemented, or not a BAR we understand */
}

/* Every BAR of the functions on bus 0; returns how many. */
static unsigned find_bars(struct vm *vm, struct fw_bar *bars)
{
	unsigned n = 0;

	for (uint32_t dev = 0; dev < 32; dev++) {
		for (uint32_t fn = 0; fn < 8; fn++) {
			uint32_t bdf = VPCI_BDF(0u, dev, fn);

			if ((vpci_config_read(vm, bdf, PCI_VENDOR_ID) & 0xffff)
			    == 0xffff)
				continue;
			if ((vpci_config_read(vm, bdf, PCI_HEADER) >> 16 & 0x7f))
				continue;	/* a bridge: no BARs of ours */
			for (unsigned i = 0; i < PCI_NR_BARS && n < FW_BARS_MAX;
			     i++) {
				struct fw_bar *b = &bars[n];

				*b = (struct fw_bar){ .bdf = bdf,
						      .reg = PCI_BAR0 + 4 * i };
				size_bar(vm, b);
				if (b->size)
					n++;
				if (is64(b))
					i++;	/* its high dword */
			}
		}
	}
	return n;
}

/* Largest first: each BAR is aligned to its size, so this packs them. */
static void sort_by_size(struct fw_bar *bars, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		struct fw_bar b = bars[i];
		unsigned j = i;

		for (; j > 0 && bars[j - 1].size < b.size; j--)
			bars[j] = bars[j - 1];
		bars[j] = b;
	}
}

/* The next naturally aligned place at or above *next that ends by end
 * (inclusive); 0 if none. */
static uint64_t take(uint64_t *next, uint64_t end, uint64_t size)
{
	uint64_t at = (*next + size - 1) & ~(size - 1);

	if (at < *next || at + size - 1 > end || at + size - 1 < at)
		return 0;
	*next = at + size;
	return at;
}

static void report(struct vm *vm, const struct fw_bar *b)
{
	kprintf("vm '%s': firmware: PCI 00:%02x.%x BAR%u ", vm->name,
		(unsigned)(b->bdf >> 3 & 0x1f), (unsigned)(b->bdf & 7),
		(b->reg - PCI_BAR0) / 4);
	if (!b->at) {
		kprintf("(%s, %llx bytes) does not fit the root bridge's "
			"window: left unassigned\n", is_io(b) ? "io" : "mem",
			(unsigned long long)b->size);
		return;
	}
	kprintf("[%s %#llx-%#llx%s]\n", is_io(b) ? "io" : "mem",
		(unsigned long long)b->at,
		(unsigned long long)(b->at + b->size - 1),
		is64(b) ? " 64bit" : "");
}

static void program(struct vm *vm, const struct fw_bar *b)
{
	vpci_config_write(vm, b->bdf, b->reg, 4, (uint32_t)b->at | b->flags);
	if (is64(b))
		vpci_config_write(vm, b->bdf, b->reg + 4, 4,
				  (uint32_t)(b->at >> 32));
}

/* A display controller keeps decoding off. This firmware runs no option
 * ROM, so no VGA BIOS was shadowed at 0xC0000; but Linux takes a display
 * controller that decodes at boot for the boot VGA device whose ROM is
 * that shadow (pci_fixup_video), and its driver then reads zeros there
 * ("Invalid PCI ROM header signature"). The driver turns decoding on
 * when it enables the device, as it does for any secondary adapter. */
static bool keeps_decode_off(struct vm *vm, uint32_t bdf)
{
	return vpci_config_read(vm, bdf, PCI_CLASS) >> 24 == PCI_CLASS_DISPLAY;
}

/* Decoding on for each function with a placed BAR of that kind. */
static void enable(struct vm *vm, const struct fw_bar *bars, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint32_t cmd;

		if (!bars[i].at || keeps_decode_off(vm, bars[i].bdf))
			continue;
		cmd = vpci_config_read(vm, bars[i].bdf, PCI_COMMAND) & 0xffff;
		cmd |= is_io(&bars[i]) ? PCI_CMD_IO : PCI_CMD_MEM;
		vpci_config_write(vm, bars[i].bdf, PCI_COMMAND, 2, cmd);
	}
}

/* A PC's firmware puts a display adapter's OpRegion in memory its map
 * reserves (ACPI NVS on a real board) and writes ASLS; here the device
 * fills the bytes in place and sets its ASLS itself, which the guest
 * cannot write (gpu/vgpu/mmio/vgpu_cfg.c). The region is the VM's own
 * RAM, reserved in the e820 map (hv/vm/bzimage.c), below the PCI hole. */
void vpci_fw_region(struct vm *vm)
{
	const struct vdev *d = vdev_with_fw_region(vm);
	size_t n;

	if (!vm->linux_guest || !d ||
	    !vm_ram_contains(&vm->ram_layout, LX_FW_REGION_GPA,
			     LX_FW_REGION_SIZE))
		return;
	n = d->ops->fw_region(d->opaque, LX_FW_REGION_GPA,
			      (uint8_t *)vm->ram +
			      vm_ram_offset(&vm->ram_layout, LX_FW_REGION_GPA),
			      LX_FW_REGION_SIZE);
	if (n)
		kprintf("vm '%s': firmware: %s's table at %#llx, %zu bytes "
			"(reserved)\n", vm->name, d->name,
			(unsigned long long)LX_FW_REGION_GPA, n);
}

void vpci_fw_assign(struct vm *vm)
{
	struct fw_bar bars[FW_BARS_MAX];
	uint64_t mem = VACPI_PCI_MEM_BASE, io = VACPI_PCI_IO_FW_BASE;
	unsigned n;

	if (!vm->linux_guest)
		return;
	/* RAM stops at the window's base (hv/vm/vm_layout.h): the rest of
	 * a large VM's RAM is above 4 GiB. */
	_Static_assert(VACPI_PCI_MEM_BASE == VM_PCI_HOLE_BASE, "PCI hole");
	n = find_bars(vm, bars);
	sort_by_size(bars, n);
	for (unsigned i = 0; i < n; i++) {
		struct fw_bar *b = &bars[i];

		b->at = is_io(b) ? take(&io, VACPI_PCI_IO_END, b->size)
				 : take(&mem, VACPI_PCI_MEM_END, b->size);
		if (b->at)
			program(vm, b);
		report(vm, b);
	}
	enable(vm, bars, n);
	vpci_fw_region(vm);
}
