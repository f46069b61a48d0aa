/* Unit tests for hv/vm/vvirtio.c, the virtio console a Linux guest's
 * virtio_pci (legacy path) and virtio_console drive: its PCI identity as
 * Linux matches it, BAR0 sizing and placement (and refusal over another
 * device's ports), the legacy register block as the driver's probe uses
 * it, bytes of transmitq0 reaching the VM's console through vuart_putc,
 * the interrupt and ISR, NEEDS_RESET on a bad queue (one line, a counter,
 * nothing more taken until the driver resets the device), wrong-width
 * accesses, and the VM restart. Guest RAM, the console, the vUART's sink
 * and the IOAPIC are recorders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hv/hv_errno.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vm.h"
#include "hv/vm/vpci.h"
#include "hv/vm/vvirtio.h"

struct vm vms[VM_MAX];
unsigned nr_vms;

#define RAM_SIZE	(1u << 20)
#define BAR		0xc040u
#define PFN_TX		0x10u	/* transmitq0 at 0x10000 */
#define PFN_RX		0x20u
#define TXQ		(PFN_TX * 4096ull)
#define TX_AVAIL	(TXQ + 16ull * VVIRTIO_QUEUE_NUM)

static uint8_t ram[RAM_SIZE];
static char putc_out[4096];
static size_t putc_len;
static char printed[4096];
static unsigned pin10_edges, other_edges;
static struct hvcfg_vm cfg;

void vm_event(struct vm *vm, enum vm_event ev, const char *fmt, ...)
{
	(void)vm;
	(void)ev;
	(void)fmt;
}

int vm_read_gpa(struct vm *vm, uint64_t gpa, void *buf, size_t len)
{
	(void)vm;
	if (gpa >= RAM_SIZE || len > RAM_SIZE - gpa)
		return -HV_EFAULT;
	memcpy(buf, ram + gpa, len);
	return 0;
}

int vm_write_gpa_direct(struct vm *vm, uint64_t gpa, const void *buf,
			size_t len)
{
	(void)vm;
	if (gpa >= RAM_SIZE || len > RAM_SIZE - gpa)
		return -HV_EFAULT;
	memcpy(ram + gpa, buf, len);
	return 0;
}

void vuart_putc(struct vm *vm, char c)
{
	assert_ptr_equal(vm, &vms[0]);
	putc_out[putc_len++ % sizeof(putc_out)] = c;
}

void vioapic_assert(struct vm *vm, unsigned pin)
{
	(void)vm;
	if (pin == VVIRTIO_IRQ)
		pin10_edges++;
	else
		other_edges++;
}

void kprintf(const char *fmt, ...)
{
	va_list ap;
	size_t n = strlen(printed);

	va_start(ap, fmt);
	vsnprintf(printed + n, sizeof(printed) - n, fmt, ap);
	va_end(ap);
}

static struct vm *vm = &vms[0];

static void no_io(struct vm *v, uint16_t port, unsigned size, bool in,
		  uint32_t *val)
{
	(void)v; (void)port; (void)size; (void)in; (void)val;
}

static const struct pio_region com1 = { "COM1", 0x3f8, 8, no_io };

static int setup(void **state)
{
	(void)state;
	memset(vm, 0, sizeof(*vm));
	memset(ram, 0, sizeof(ram));
	putc_len = 0;
	printed[0] = '\0';
	pin10_edges = other_edges = 0;
	cfg = (struct hvcfg_vm){ .virtio_console = true };
	strcpy(vm->name, "t");
	vm->cfg = &cfg;
	assert_int_equal(vm_register_pio(vm, &com1), 0);
	assert_int_equal(vvirtio_attach(vm), 0);
	return 0;
}

static uint32_t cfg_rd(unsigned reg)
{
	return vpci_config_read(vm, VVIRTIO_BDF, reg);
}

static void cfg_wr(unsigned reg, unsigned size, uint32_t v)
{
	vpci_config_write(vm, VVIRTIO_BDF, reg, size, v);
}

/* A guest port access, through the VM's registry as exit_io does. */
static uint32_t io(uint16_t port, unsigned size, bool in, uint32_t v)
{
	const struct pio_region *r = pio_find(vm, port);
	uint32_t val = in ? 0xffffffffu : v;

	if (!r)
		return 0xdeadbeefu;	/* nothing decodes it */
	r->io(vm, port, size, in, &val);
	return val;
}

static uint32_t rd(unsigned off, unsigned size)
{
	return io((uint16_t)(BAR + off), size, true, 0);
}

static void wr(unsigned off, unsigned size, uint32_t v)
{
	io((uint16_t)(BAR + off), size, false, v);
}

static void place_bar(void)
{
	cfg_wr(0x10, 4, BAR);
	cfg_wr(0x04, 2, 0x1);	/* I/O decoding on */
}

/* virtio_pci's legacy probe and virtqueue setup (drivers/virtio/
 * virtio_pci_legacy.c in Linux 6.1), then DRIVER_OK. */
static void driver_probe(void)
{
	place_bar();
	wr(VIRTIO_PCI_STATUS, 1, 0);		/* reset */
	wr(VIRTIO_PCI_STATUS, 1, 1 | 2);	/* ACKNOWLEDGE | DRIVER */
	assert_int_equal(rd(VIRTIO_PCI_HOST_FEATURES, 4), 0);
	wr(VIRTIO_PCI_GUEST_FEATURES, 4, 0);
	for (unsigned q = 0; q < 2; q++) {
		wr(VIRTIO_PCI_QUEUE_SEL, 2, q);
		assert_int_equal(rd(VIRTIO_PCI_QUEUE_NUM, 2),
				 VVIRTIO_QUEUE_NUM);
		assert_int_equal(rd(VIRTIO_PCI_QUEUE_PFN, 4), 0);
		wr(VIRTIO_PCI_QUEUE_PFN, 4, q ? PFN_TX : PFN_RX);
	}
	wr(VIRTIO_PCI_QUEUE_SEL, 2, 2);		/* no third queue */
	assert_int_equal(rd(VIRTIO_PCI_QUEUE_NUM, 2), 0);
	wr(VIRTIO_PCI_STATUS, 1, 1 | 2 | 4);	/* DRIVER_OK */
}

static uint64_t used_ring(void)
{
	/* Legacy layout: desc 16 * 64, avail 4 + 2 * 64 + 2, aligned */
	return TXQ + 4096;
}

static uint16_t tx_avail;

/* One chain of one descriptor at desc i holding text, offered. */
static void send(unsigned i, const char *text)
{
	uint64_t buf = 0x30000 + 0x100 * i, addr = buf;
	uint32_t len = (uint32_t)strlen(text);
	uint16_t flags = 0, head = (uint16_t)i;

	memcpy(ram + buf, text, len);
	memcpy(ram + TXQ + 16 * i, &addr, 8);
	memcpy(ram + TXQ + 16 * i + 8, &len, 4);
	memcpy(ram + TXQ + 16 * i + 12, &flags, 2);
	memcpy(ram + TX_AVAIL + 4 + 2 * (tx_avail % VVIRTIO_QUEUE_NUM),
	       &head, 2);
	tx_avail++;
	memcpy(ram + TX_AVAIL + 2, &tx_avail, 2);
}

static uint16_t used_idx(void)
{
	uint16_t v;

	memcpy(&v, ram + used_ring() + 2, 2);
	return v;
}

static void test_pci_identity(void **state)
{
	(void)state;
	assert_int_equal(cfg_rd(0x00), 0x10031af4);
	assert_int_equal(cfg_rd(0x08), 0x07800000);	/* revision 0 */
	assert_int_equal(cfg_rd(0x2c), 0x00031af4);	/* console */
	assert_int_equal(cfg_rd(0x3c), 0x0100 | VVIRTIO_IRQ);
	assert_int_equal(cfg_rd(0x34), 0);	/* no capabilities */
	/* Sizing: 32 bytes of I/O. */
	cfg_wr(0x10, 4, 0xffffffffu);
	assert_int_equal(cfg_rd(0x10), 0xffffffe1u);
}

static void test_no_device_without_key(void **state)
{
	(void)state;
	memset(vm, 0, sizeof(*vm));
	cfg.virtio_console = false;
	vm->cfg = &cfg;
	assert_int_equal(vvirtio_attach(vm), 0);
	assert_null(vvirtio_of(vm));
	assert_int_equal(cfg_rd(0x00), 0xffffffffu);
}

static void test_bar_decoding(void **state)
{
	(void)state;
	cfg_wr(0x10, 4, BAR);
	assert_null(pio_find(vm, BAR));		/* I/O decoding off */
	cfg_wr(0x04, 2, 0x1);
	assert_non_null(pio_find(vm, BAR));
	assert_non_null(pio_find(vm, BAR + 31));
	assert_null(pio_find(vm, BAR + 32));
	cfg_wr(0x10, 4, 0xc100);		/* moved */
	assert_null(pio_find(vm, BAR));
	assert_non_null(pio_find(vm, 0xc100));
	cfg_wr(0x04, 2, 0);
	assert_null(pio_find(vm, 0xc100));
}

/* Over COM1's ports: refused, said, COM1 still COM1. */
static void test_bar_over_another_device(void **state)
{
	(void)state;
	cfg_wr(0x10, 4, 0x3e0);
	cfg_wr(0x04, 2, 0x1);
	assert_ptr_equal(pio_find(vm, 0x3f8), &com1);
	assert_null(pio_find(vm, 0x3e0));
	assert_non_null(strstr(printed, "vm 't': virtio console: BAR0 at "
				       "0x3e0 overlaps COM1: not decoded"));
}

static void test_transmit(void **state)
{
	struct vvirtio *c = vvirtio_of(vm);

	(void)state;
	tx_avail = 0;
	driver_probe();
	assert_int_equal(rd(VIRTIO_PCI_STATUS, 1), 7);
	send(0, "hello ");
	send(1, "world\n");
	wr(VIRTIO_PCI_QUEUE_NOTIFY, 2, 1);
	assert_int_equal(putc_len, 12);
	assert_memory_equal(putc_out, "hello world\n", 12);
	assert_int_equal(used_idx(), 2);
	assert_int_equal(pin10_edges, 1);	/* one per notify */
	assert_int_equal(other_edges, 0);
	assert_int_equal(rd(VIRTIO_PCI_ISR, 1), VIRTIO_ISR_QUEUE);
	assert_int_equal(rd(VIRTIO_PCI_ISR, 1), 0);	/* read cleared it */
	/* receiveq0's notify: nothing to give, nothing taken. */
	wr(VIRTIO_PCI_QUEUE_NOTIFY, 2, 0);
	assert_int_equal(putc_len, 12);
	assert_int_equal(c->stats.notifies, 2);
	assert_int_equal(c->stats.chains, 2);
	assert_int_equal(c->stats.bytes, 12);
	assert_int_equal(c->stats.errors, 0);
	/* INTx disabled in the command register: ISR set, no edge. */
	cfg_wr(0x04, 2, 0x401);
	send(2, "x");
	wr(VIRTIO_PCI_QUEUE_NOTIFY, 2, 1);
	assert_int_equal(pin10_edges, 1);
	assert_int_equal(rd(VIRTIO_PCI_ISR, 1), VIRTIO_ISR_QUEUE);
}

static void test_bad_queue_needs_reset(void **state)
{
	struct vvirtio *c = vvirtio_of(vm);
	uint16_t bad = VVIRTIO_QUEUE_NUM;	/* a head beyond the queue */

	(void)state;
	tx_avail = 0;
	driver_probe();
	memcpy(ram + TX_AVAIL + 4, &bad, 2);
	tx_avail = 1;
	memcpy(ram + TX_AVAIL + 2, &tx_avail, 2);
	wr(VIRTIO_PCI_QUEUE_NOTIFY, 2, 1);
	assert_int_equal(putc_len, 0);
	assert_int_equal(rd(VIRTIO_PCI_STATUS, 1),
			 7 | VIRTIO_STATUS_NEEDS_RESET);
	assert_non_null(strstr(printed, "vm 't': virtio console: queue 1 "
				       "stopped (a chain's head index beyond "
				       "the queue): device needs reset"));
	assert_int_equal(c->stats.errors, 1);
	assert_int_equal(pin10_edges, 0);
	/* Still broken: nothing taken, said once. */
	printed[0] = '\0';
	wr(VIRTIO_PCI_QUEUE_NOTIFY, 2, 1);
	assert_int_equal(c->stats.errors, 1);
	assert_string_equal(printed, "");
	/* The driver's status keeps NEEDS_RESET until it resets. */
	wr(VIRTIO_PCI_STATUS, 1, 7);
	assert_true(rd(VIRTIO_PCI_STATUS, 1) & VIRTIO_STATUS_NEEDS_RESET);
	/* Reset: queues off; set up again, it works. */
	memset(ram + TXQ, 0, 8192);
	tx_avail = 0;
	driver_probe();
	assert_int_equal(rd(VIRTIO_PCI_STATUS, 1), 7);
	send(0, "again\n");
	wr(VIRTIO_PCI_QUEUE_NOTIFY, 2, 1);
	assert_memory_equal(putc_out, "again\n", 6);
	assert_int_equal(c->stats.resets, 2);
}

/* A ring outside RAM is a bad queue too. */
static void test_ring_outside_ram(void **state)
{
	(void)state;
	driver_probe();
	wr(VIRTIO_PCI_QUEUE_SEL, 2, 1);
	wr(VIRTIO_PCI_QUEUE_PFN, 4, RAM_SIZE / 4096);
	wr(VIRTIO_PCI_QUEUE_NOTIFY, 2, 1);
	assert_true(rd(VIRTIO_PCI_STATUS, 1) & VIRTIO_STATUS_NEEDS_RESET);
	assert_non_null(strstr(printed, "outside the VM's RAM"));
}

static void test_register_widths(void **state)
{
	struct vvirtio *c = vvirtio_of(vm);

	(void)state;
	place_bar();
	assert_int_equal(rd(VIRTIO_PCI_HOST_FEATURES, 2), 0xffffffffu);
	assert_int_equal(rd(VIRTIO_PCI_STATUS + 1, 2), 0xffffffffu);
	wr(VIRTIO_PCI_QUEUE_NOTIFY, 4, 1);	/* a dword notify: dropped */
	assert_int_equal(c->stats.notifies, 0);
	assert_int_equal(c->stats.bad_access, 3);
	/* The console's config, as Linux reads it: byte by byte. */
	assert_int_equal(rd(VIRTIO_PCI_CONFIG + 4, 1), 1);	/* 1 port */
	assert_int_equal(rd(VIRTIO_PCI_CONFIG + 4, 4), 1);
	assert_int_equal(rd(VIRTIO_PCI_CONFIG, 2), 0);		/* cols */
	assert_int_equal(rd(VIRTIO_PCI_CONFIG + 10, 4), 0xffffffffu);
	assert_int_equal(c->stats.bad_access, 4);
	/* Guest features: none offered, none taken. */
	wr(VIRTIO_PCI_GUEST_FEATURES, 4, 0xffffffffu);
	assert_int_equal(rd(VIRTIO_PCI_GUEST_FEATURES, 4), 0);
}

/* vm_restart: the device starts over, BAR0 stays where it was. */
static void test_vm_restart(void **state)
{
	(void)state;
	driver_probe();
	assert_null(vdev_reset_all(vm));
	assert_int_equal(rd(VIRTIO_PCI_STATUS, 1), 0);
	wr(VIRTIO_PCI_QUEUE_SEL, 2, 1);
	assert_int_equal(rd(VIRTIO_PCI_QUEUE_PFN, 4), 0);
	assert_int_equal(cfg_rd(0x10), BAR | 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_pci_identity, setup),
		cmocka_unit_test_setup(test_no_device_without_key, setup),
		cmocka_unit_test_setup(test_bar_decoding, setup),
		cmocka_unit_test_setup(test_bar_over_another_device, setup),
		cmocka_unit_test_setup(test_transmit, setup),
		cmocka_unit_test_setup(test_bad_queue_needs_reset, setup),
		cmocka_unit_test_setup(test_ring_outside_ram, setup),
		cmocka_unit_test_setup(test_register_widths, setup),
		cmocka_unit_test_setup(test_vm_restart, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
