/* PCI configuration space access (ECAM when ACPI's MCFG gives a window, the
 * legacy 0xCF8/0xCFC ports otherwise) and the device list found at boot. */
#ifndef HV_PCI_H
#define HV_PCI_H

#include <stdbool.h>
#include <stdint.h>

#define PCI_MAX_DEVICES 128

#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define PCI_REVISION_ID 0x08
#define PCI_CLASS_PROG 0x09
#define PCI_HEADER_TYPE 0x0e
#define PCI_BAR0 0x10
#define PCI_SECONDARY_BUS 0x19
#define PCI_HEADER_MULTI_FUNCTION 0x80
#define PCI_VENDOR_INTEL 0x8086

struct pci_dev {
	uint8_t bus, dev, fn;
	uint16_t vendor, device;
	uint8_t revision;
	uint32_t class_code; /* base << 16 | sub << 8 | prog-if */
	uint8_t header_type;
};

struct pci_bus_info {
	bool ecam;
	uint64_t ecam_base;
	uint8_t bus_start, bus_end;
	uint32_t nr_devs, dropped;
	struct pci_dev devs[PCI_MAX_DEVICES];
};

/* One function whose configuration space the hypervisor itself answers
 * (the first 256 bytes), in place of whatever the bus has there: the
 * model-behind-MMIO GPU (hv/gpu/gpu_trapdev.c) at 00:02.0, found by
 * pci_scan like any device. off is dword aligned. */
struct pci_emulated {
	uint8_t bus, dev, fn;
	uint32_t (*read32)(uint16_t off);
	void (*write32)(uint16_t off, uint32_t v);
};

void pci_set_emulated(const struct pci_emulated *e);

/* Selects the access method; ecam_base 0 = legacy ports. */
void pci_init(uint64_t ecam_base, uint8_t bus_start, uint8_t bus_end);
uint32_t pci_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t off);
void pci_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t off,
		 uint32_t v);
uint16_t pci_read16(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t off);
uint8_t pci_read8(uint8_t bus, uint8_t dev, uint8_t fn, uint16_t off);

void pci_scan(void);
const struct pci_bus_info *pci_info(void);
const char *pci_class_name(uint32_t class_code);
void pci_print_devices(void);

#endif
