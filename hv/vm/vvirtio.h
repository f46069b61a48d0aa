/* A virtio console for a VM (hv.cfg virtio_console=yes): a legacy
 * virtio-pci function (virtio 1.2 section 4.1.4.8 "Legacy Interfaces: A
 * Note on PCI Device Layout"; section 5.3 the console) at 00:03.0,
 * vendor 0x1AF4, device 0x1003, subsystem 3 (console), revision 0, with
 * its registers in I/O BAR0 (32 bytes, placed by the VM's firmware,
 * hv/vm/vpci_fw.c) and INTx on GSI VVIRTIO_IRQ (the DSDT's _PRT). Linux 6.1's
 * virtio_pci takes it through its legacy path (no vendor capabilities:
 * "leaving for legacy driver") and virtio_console makes it hvc0.
 *
 * No feature is offered (no multiport, no size, no emergency write):
 * one port, receiveq0 (queue 0, never filled: the console has no input
 * here) and transmitq0 (queue 1). A notify of queue 1 walks its available
 * ring (hv/vm/virtq.h: every index and buffer checked against the VM's
 * RAM, bounded by the queue size and VVIRTIO_NOTIFY_BUDGET bytes) and
 * hands the bytes to the VM's console exactly where the vUART's go
 * (vuart_putc: the "[vm] " lines, `console <vm>`). One exit per batch
 * (Linux: one per 16 bytes of kernel log, one per tty write) instead of
 * two per byte on COM1.
 *
 * A malformed queue breaks it: the device sets NEEDS_RESET (0x40) in
 * its status, says why on the console with the VM's name, counts it,
 * and takes nothing more from that queue until the driver resets the
 * device (status 0). Nothing else of the VM changes. */
#ifndef HV_VM_VVIRTIO_H
#define HV_VM_VVIRTIO_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/vm/virtq.h"
#include "hv/vm/mmio.h"
#include "hv/vm/vdev.h"

#define VVIRTIO_BDF		((3u << 3) | 0)	/* 00:03.0 */
#define VVIRTIO_VENDOR		0x1af4u
#define VVIRTIO_DEVICE		0x1003u	/* transitional console */
#define VVIRTIO_SUBSYS_CONSOLE	3u
#define VVIRTIO_BAR_SIZE	32u
#define VVIRTIO_IRQ		10u	/* INTA's GSI (= IOAPIC pin): the DSDT's
					 * _PRT, hv/vm/vacpi.h VACPI_PCI_INTA_GSI */
#define VVIRTIO_QUEUES		2
#define VVIRTIO_QUEUE_NUM	64	/* <= VIRTQ_NUM_MAX */
#define VVIRTIO_NOTIFY_BUDGET	16384	/* bytes per notify (then resumes
					 * at the next) */

/* Legacy register offsets in BAR0 (virtio 1.2, 4.1.4.8). */
#define VIRTIO_PCI_HOST_FEATURES	0	/* 32, RO */
#define VIRTIO_PCI_GUEST_FEATURES	4	/* 32, RW */
#define VIRTIO_PCI_QUEUE_PFN		8	/* 32, RW */
#define VIRTIO_PCI_QUEUE_NUM		12	/* 16, RO */
#define VIRTIO_PCI_QUEUE_SEL		14	/* 16, RW */
#define VIRTIO_PCI_QUEUE_NOTIFY		16	/* 16, WO */
#define VIRTIO_PCI_STATUS		18	/* 8, RW */
#define VIRTIO_PCI_ISR			19	/* 8, RO, read clears */
#define VIRTIO_PCI_CONFIG		20	/* the console's config */

#define VIRTIO_STATUS_NEEDS_RESET	0x40
#define VIRTIO_ISR_QUEUE		0x01

struct vvirtio_stats {
	uint64_t notifies, chains, bytes, irqs, budget_stops;
	uint64_t errors;	/* queues broken (NEEDS_RESET) */
	uint64_t bad_access;	/* register accesses of a wrong size/offset */
	uint64_t resets;	/* status 0 written */
};

struct vvirtio {
	struct vm *vm;
	struct vdev vdev;
	struct pio_region bar;	/* count 0 while not decoded */
	uint32_t bar0;		/* the BAR register: base | 1 (I/O) */
	uint16_t command;
	uint8_t irq_line;
	/* the virtio device */
	uint32_t guest_features;
	uint16_t queue_sel;
	uint8_t status, isr;
	uint32_t pfn[VVIRTIO_QUEUES];
	struct virtq q[VVIRTIO_QUEUES];
	struct vvirtio_stats stats;
};

/* vm_devices_init: the VM's virtio console when its hv.cfg asks for it
 * (0 otherwise too), or the registry's error. */
int vvirtio_attach(struct vm *vm);
/* The VM's console device, or NULL (none). */
struct vvirtio *vvirtio_of(struct vm *vm);

/* One guest access of `size` bytes at BAR0 + off (the port handler's
 * work; host tests call it directly). */
void vvirtio_io(struct vvirtio *c, unsigned off, unsigned size, bool in,
		uint32_t *val);

#endif
