/* Per-VM ACPI tables: what a PC's firmware would publish for our virtual
 * platform, built into a buffer the loader copies to guest RAM.
 *
 *   RSDP (rev 2) -> XSDT -> FADT (hardware-reduced, S5 through the sleep
 *   control register, reset register, CMOS century index) -> DSDT (\_S5,
 *   COM1, the CMOS RTC, the PCI root bridge; see vacpi.c)
 *                       -> MADT (a local APIC per vCPU, one IOAPIC,
 *                          IRQ0 -> GSI2)
 *
 * Pure: no hypervisor state, unit-tested on the host. */
#ifndef HV_VM_VACPI_H
#define HV_VM_VACPI_H

#include <stddef.h>
#include <stdint.h>

/* The platform's fixed resources the tables describe. */
#define VACPI_IOAPIC_GPA	0xfec00000ull
#define VACPI_LAPIC_GPA		0xfee00000ull
#define VACPI_PM_PORT		0x600	/* sleep control / status, 1 byte each */
#define VACPI_SLEEP_CTL_PORT	VACPI_PM_PORT
#define VACPI_SLEEP_STS_PORT	(VACPI_PM_PORT + 1)
#define VACPI_RESET_PORT	0xcf9	/* FADT reset register */
#define VACPI_RESET_VALUE	0x06	/* full reset */
#define VACPI_S5_TYP		5	/* SLP_TYP of \_S5 */
#define VACPI_SLP_EN		(1u << 5)	/* sleep control: go */
#define VACPI_SLP_TYP_SHIFT	2
#define VACPI_COM1_PORT		0x3f8
#define VACPI_COM1_IRQ		4
#define VACPI_RTC_PORT		0x70	/* index, data (hv/vm/vrtc.c) */
#define VACPI_RTC_PORTS		2
#define VACPI_RTC_IRQ		8
#define VACPI_RTC_CENTURY	0x32	/* CMOS index of the century (FADT) */

/* The PCI root bridge \_SB.PCI0 (bus 0 only) and the windows it decodes
 * for its devices: every I/O port but the config ports 0xCF8-0xCFF, and
 * 32-bit memory between the guest's RAM (at most 3 GiB for a VM whose
 * BARs are placed, hv/vm/vpci_fw.c) and the test device's page at
 * 0xFE000000 (then the IOAPIC and LAPIC). The firmware pass places the
 * BARs inside these windows; I/O BARs from VACPI_PCI_IO_FW_BASE, clear of
 * the legacy ports. */
#define VACPI_PCI_MEM_BASE	0xc0000000u
#define VACPI_PCI_MEM_END	0xfdffffffu	/* inclusive */
#define VACPI_PCI_INTA_GSI	10u	/* _PRT: 00:03.0 INTA (hv/vm/vvirtio.h) */
#define VACPI_PCI_IO_LOW_END	0x0cf7u		/* window 0x0000-0x0CF7 */
#define VACPI_PCI_IO_HIGH_BASE	0x0d00u		/* window 0x0D00-0xFFFF */
#define VACPI_PCI_IO_END	0xffffu
#define VACPI_PCI_IO_FW_BASE	0x1000u

/* Offsets of the tables in the buffer (all 16-byte aligned). */
#define VACPI_RSDP_OFF		0x000
#define VACPI_XSDT_OFF		0x040
#define VACPI_FADT_OFF		0x080
#define VACPI_MADT_OFF		0x200	/* 44 + 8 per CPU + 22 bytes */
#define VACPI_DSDT_OFF		0x300
#define VACPI_SIZE		0x500	/* bytes the loader must reserve */
#define VACPI_CPUS_MAX		8	/* VM_VCPUS_MAX: MADT room for 26 */

/* Builds every table into buf (VACPI_SIZE bytes), which the guest will
 * see at guest-physical base, with nr_cpus local APICs in the MADT (IDs
 * 0..nr_cpus-1; 1 if nr_cpus is 0 or above VACPI_CPUS_MAX); returns the
 * RSDP's address (base). */
uint64_t vacpi_build(uint8_t *buf, uint64_t base, unsigned nr_cpus);

/* Sum of len bytes mod 256 (0 for a table with a valid checksum). */
uint8_t vacpi_sum(const void *p, size_t len);

#endif
