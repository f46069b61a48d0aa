/* PCI enumeration. Every function of every device on every bus in range is
 * probed (a brute-force scan is simple and finds devices behind bridges the
 * firmware left unconfigured); absent functions read back 0xFFFF. */
#include "hv/platform/pci.h"
#include "hv/console/console.h"
#include "hv/mm/mem.h"
#include "hv/cpu/x86.h"

#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA 0xcfc
#define PCI_ENABLE (1u << 31)

static struct pci_bus_info bus_info;
static const struct pci_emulated *emul;

void pci_set_emulated(const struct pci_emulated *e)
{
	emul = e;
}

static bool is_emulated(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t off)
{
	return emul && bus == emul->bus && dev == emul->dev &&
	       fn == emul->fn && off < 256;
}

void pci_init(uint64_t ecam_base, uint8_t bus_start, uint8_t bus_end)
{
	bus_info.ecam = ecam_base != 0;
	bus_info.ecam_base = ecam_base;
	bus_info.bus_start = ecam_base ? bus_start : 0;
	bus_info.bus_end = ecam_base ? bus_end : 255;
}

static volatile uint32_t *ecam_ptr(uint8_t bus, uint8_t dev, uint8_t fn,
				   uint16_t off)
{
	/* The MCFG base address is that of bus 0, whatever the start bus. */
	uint64_t pa = bus_info.ecam_base + ((uint64_t)bus << 20) +
		      ((uint64_t)dev << 15) + ((uint64_t)fn << 12) + (off & 0xffc);

	return hv_va(pa);
}

static uint32_t port_address(uint8_t bus, uint8_t dev, uint8_t fn,
			     uint16_t off)
{
	return PCI_ENABLE | (uint32_t)bus << 16 | (uint32_t)dev << 11 |
	       (uint32_t)fn << 8 | (off & 0xfc);
}

static bool ecam_covers(uint8_t bus, uint16_t off)
{
	return bus_info.ecam && bus >= bus_info.bus_start &&
	       bus <= bus_info.bus_end && off < 4096;
}

uint32_t pci_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t off)
{
	if (is_emulated(bus, dev, fn, off))
		return emul->read32(off & 0xfc);
	if (ecam_covers(bus, off))
		return *ecam_ptr(bus, dev, fn, off);
	if (off >= 256)
		return 0xffffffff;
	outl(PCI_CONFIG_ADDRESS, port_address(bus, dev, fn, off));
	return inl(PCI_CONFIG_DATA);
}

void pci_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t off,
		 uint32_t v)
{
	if (is_emulated(bus, dev, fn, off)) {
		emul->write32(off & 0xfc, v);
		return;
	}
	if (ecam_covers(bus, off)) {
		*ecam_ptr(bus, dev, fn, off) = v;
		return;
	}
	if (off >= 256)
		return;
	outl(PCI_CONFIG_ADDRESS, port_address(bus, dev, fn, off));
	outl(PCI_CONFIG_DATA, v);
}

uint16_t pci_read16(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t off)
{
	return (uint16_t)(pci_read32(bus, dev, fn, off) >> ((off & 2) * 8));
}

uint8_t pci_read8(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t off)
{
	return (uint8_t)(pci_read32(bus, dev, fn, off) >> ((off & 3) * 8));
}

static void record(uint8_t bus, uint8_t dev, uint8_t fn, uint32_t id)
{
	struct pci_dev *d;
	uint32_t class_rev;

	if (bus_info.nr_devs == PCI_MAX_DEVICES) {
		bus_info.dropped++;
		return;
	}
	class_rev = pci_read32(bus, dev, fn, PCI_REVISION_ID);
	d = &bus_info.devs[bus_info.nr_devs++];
	d->bus = bus;
	d->dev = dev;
	d->fn = fn;
	d->vendor = (uint16_t)id;
	d->device = (uint16_t)(id >> 16);
	d->revision = (uint8_t)class_rev;
	d->class_code = class_rev >> 8;
	d->header_type = pci_read8(bus, dev, fn, PCI_HEADER_TYPE);
}

static void scan_device(uint8_t bus, uint8_t dev)
{
	uint32_t id = pci_read32(bus, dev, 0, PCI_VENDOR_ID);

	if ((uint16_t)id == 0xffff)
		return;
	record(bus, dev, 0, id);
	if (!(pci_read8(bus, dev, 0, PCI_HEADER_TYPE) &
	      PCI_HEADER_MULTI_FUNCTION))
		return;
	for (uint8_t fn = 1; fn < 8; fn++) {
		id = pci_read32(bus, dev, fn, PCI_VENDOR_ID);
		if ((uint16_t)id != 0xffff)
			record(bus, dev, fn, id);
	}
}

void pci_scan(void)
{
	bus_info.nr_devs = 0;
	bus_info.dropped = 0;
	for (unsigned bus = bus_info.bus_start; bus <= bus_info.bus_end; bus++)
		for (uint8_t dev = 0; dev < 32; dev++)
			scan_device((uint8_t)bus, dev);
}

const struct pci_bus_info *pci_info(void)
{
	return &bus_info;
}

struct class_name {
	uint32_t class_sub; /* base << 8 | sub */
	const char *name;
};

static const struct class_name class_names[] = {
	{ 0x0100, "SCSI controller" }, { 0x0101, "IDE controller" },
	{ 0x0106, "SATA controller" }, { 0x0108, "NVMe controller" },
	{ 0x0200, "Ethernet controller" }, { 0x0300, "VGA controller" },
	{ 0x0380, "display controller" }, { 0x0403, "audio device" },
	{ 0x0600, "host bridge" }, { 0x0601, "ISA bridge" },
	{ 0x0604, "PCI bridge" }, { 0x0680, "bridge" },
	{ 0x0c03, "USB controller" }, { 0x0c05, "SMBus controller" },
	{ 0x0780, "communication controller" }, { 0x0880, "system peripheral" },
};

const char *pci_class_name(uint32_t class_code)
{
	uint32_t cs = class_code >> 8;

	for (unsigned i = 0; i < sizeof(class_names) / sizeof(class_names[0]);
	     i++)
		if (class_names[i].class_sub == cs)
			return class_names[i].name;
	return "device";
}

void pci_print_devices(void)
{
	for (uint32_t i = 0; i < bus_info.nr_devs; i++) {
		const struct pci_dev *d = &bus_info.devs[i];

		kprintf("  %02x:%02x.%x %04x:%04x class %06x rev %02x  %s\n",
			d->bus, d->dev, d->fn, d->vendor, d->device,
			d->class_code, d->revision, pci_class_name(d->class_code));
	}
	if (bus_info.dropped)
		kprintf("  (%u more devices not recorded)\n", bus_info.dropped);
}
