/* The virtio console (legacy virtio-pci); see vvirtio.h. */
#include "hv/vm/vvirtio.h"
#include "hv/console/console.h"
#include "hv/vm/vioapic.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mem.h"
#include "hv/vm/vuart.h"
#include "mini/string.h"

#define PCI_COMMAND_IO		0x0001u
#define PCI_COMMAND_INTX_OFF	0x0400u
#define PCI_COMMAND_MASK	0x0405u	/* I/O, bus master, INTx disable */
#define PCI_CLASS_COMM_OTHER	0x07800000u	/* communication, other, rev 0 */
#define PCI_INT_PIN_A		1u
#define BAR_IO			1u
#define ERR_LOG_MAX		8	/* broken-queue lines per VM */
#define CONFIG_BYTES		12	/* cols, rows, max_nr_ports, emerg_wr */

static struct vvirtio cons[VM_MAX];

struct vvirtio *vvirtio_of(struct vm *vm)
{
	struct vvirtio *c = vm->id < VM_MAX ? &cons[vm->id] : NULL;

	return c && c->vm == vm ? c : NULL;
}

/* --- the virtio device --- */

static void device_reset(struct vvirtio *c)
{
	c->guest_features = 0;
	c->queue_sel = 0;
	c->status = c->isr = 0;
	for (unsigned i = 0; i < VVIRTIO_QUEUES; i++) {
		c->pfn[i] = 0;
		virtq_setup_legacy(&c->q[i], VVIRTIO_QUEUE_NUM, 0);
	}
}

static int mem_read(void *ctx, uint64_t gpa, void *buf, size_t len)
{
	return vm_read_gpa(ctx, gpa, buf, len);
}

/* The rings are the device's own writes: no device is told of them. */
static int mem_write(void *ctx, uint64_t gpa, const void *buf, size_t len)
{
	return vm_write_gpa_direct(ctx, gpa, buf, len);
}

/* Where the vUART's bytes go (vuart.h vuart_putc): the VM's console. */
static void to_console(void *ctx, const uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		vuart_putc(ctx, (char)buf[i]);
}

static void raise_irq(struct vvirtio *c)
{
	c->isr |= VIRTIO_ISR_QUEUE;
	if (c->command & PCI_COMMAND_INTX_OFF)
		return;
	c->stats.irqs++;
	vioapic_assert(c->vm, VVIRTIO_IRQ);
}

static void queue_broke(struct vvirtio *c, unsigned qi, enum virtq_err e)
{
	c->status |= VIRTIO_STATUS_NEEDS_RESET;
	if (++c->stats.errors <= ERR_LOG_MAX)
		kprintf("vm '%s': virtio console: queue %u stopped (%s): "
			"device needs reset\n", c->vm->name, qi,
			virtq_err_name(e));
}

static void notify(struct vvirtio *c, uint32_t qi)
{
	static const struct virtq_mem ram = { mem_read, mem_write, NULL };
	struct virtq_mem m = ram;
	struct virtq_run run;
	enum virtq_err e;

	c->stats.notifies++;
	if (qi != 1)
		return;	/* receiveq0: no input to give; others: none */
	m.ctx = c->vm;
	e = virtq_tx(&c->q[1], &m, VVIRTIO_NOTIFY_BUDGET, to_console, c->vm,
		     &run);
	c->stats.chains += run.chains;
	c->stats.bytes += run.bytes;
	c->stats.budget_stops += run.more;
	if (e && !(c->status & VIRTIO_STATUS_NEEDS_RESET))
		queue_broke(c, qi, e);
	if (run.interrupt)
		raise_irq(c);
}

/* --- the legacy register block (BAR0) --- */

struct reg {
	uint8_t off, size;
	uint32_t (*rd)(struct vvirtio *c);
	void (*wr)(struct vvirtio *c, uint32_t v);
};

static uint32_t rd_zero(struct vvirtio *c) { (void)c; return 0; }
static uint32_t rd_gfeat(struct vvirtio *c) { return c->guest_features; }
static uint32_t rd_pfn(struct vvirtio *c)
{
	return c->queue_sel < VVIRTIO_QUEUES ? c->pfn[c->queue_sel] : 0;
}
static uint32_t rd_qnum(struct vvirtio *c)
{
	return c->queue_sel < VVIRTIO_QUEUES ? VVIRTIO_QUEUE_NUM : 0;
}
static uint32_t rd_qsel(struct vvirtio *c) { return c->queue_sel; }
static uint32_t rd_status(struct vvirtio *c) { return c->status; }
static uint32_t rd_isr(struct vvirtio *c)
{
	uint32_t v = c->isr;

	c->isr = 0;	/* reading ISR acknowledges it */
	return v;
}

static void wr_gfeat(struct vvirtio *c, uint32_t v)
{
	(void)v;
	c->guest_features = 0;	/* we offer nothing */
}

static void wr_pfn(struct vvirtio *c, uint32_t v)
{
	if (c->queue_sel >= VVIRTIO_QUEUES)
		return;
	c->pfn[c->queue_sel] = v;
	virtq_setup_legacy(&c->q[c->queue_sel], VVIRTIO_QUEUE_NUM, v);
}

static void wr_qsel(struct vvirtio *c, uint32_t v) { c->queue_sel = (uint16_t)v; }
static void wr_notify(struct vvirtio *c, uint32_t v) { notify(c, v & 0xffff); }

static void wr_status(struct vvirtio *c, uint32_t v)
{
	if (!(v & 0xff)) {
		c->stats.resets++;
		device_reset(c);
		return;
	}
	c->status = (uint8_t)v | (c->status & VIRTIO_STATUS_NEEDS_RESET);
}

static const struct reg regs[] = {
	{ VIRTIO_PCI_HOST_FEATURES, 4, rd_zero, NULL },
	{ VIRTIO_PCI_GUEST_FEATURES, 4, rd_gfeat, wr_gfeat },
	{ VIRTIO_PCI_QUEUE_PFN, 4, rd_pfn, wr_pfn },
	{ VIRTIO_PCI_QUEUE_NUM, 2, rd_qnum, NULL },
	{ VIRTIO_PCI_QUEUE_SEL, 2, rd_qsel, wr_qsel },
	{ VIRTIO_PCI_QUEUE_NOTIFY, 2, rd_zero, wr_notify },
	{ VIRTIO_PCI_STATUS, 1, rd_status, wr_status },
	{ VIRTIO_PCI_ISR, 1, rd_isr, NULL },
};

/* struct virtio_console_config, little-endian: cols 0, rows 0 (no
 * F_SIZE), max_nr_ports 1, emerg_wr 0. */
static const uint8_t console_config[CONFIG_BYTES] = { 0, 0, 0, 0, 1 };

static bool config_access(unsigned off, unsigned size, bool in,
			  uint32_t *val)
{
	unsigned at = off - VIRTIO_PCI_CONFIG;

	if (off < VIRTIO_PCI_CONFIG || at + size > CONFIG_BYTES)
		return false;
	if (in) {
		*val = 0;
		for (unsigned i = 0; i < size; i++)
			*val |= (uint32_t)console_config[at + i] << (8 * i);
	}	/* writes: emerg_wr is not offered, the rest is read-only */
	return true;
}

void vvirtio_io(struct vvirtio *c, unsigned off, unsigned size, bool in,
		uint32_t *val)
{
	for (unsigned i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		const struct reg *r = &regs[i];

		if (r->off != off || r->size != size)
			continue;
		if (in)
			*val = r->rd(c);
		else if (r->wr)
			r->wr(c, *val);
		return;
	}
	if (config_access(off, size, in, val))
		return;
	c->stats.bad_access++;	/* a wrong width or offset: the bus floats */
	if (in)
		*val = 0xffffffffu;
}

static void bar_io(struct vm *vm, uint16_t port, unsigned size, bool in,
		   uint32_t *val)
{
	struct vvirtio *c = vvirtio_of(vm);

	if (c)
		vvirtio_io(c, (unsigned)(port - c->bar.first), size, in, val);
}

/* --- PCI configuration space --- */

static uint32_t bar_base(const struct vvirtio *c)
{
	return c->bar0 & 0xffffu & ~(VVIRTIO_BAR_SIZE - 1);
}

/* BAR0 decoded where the guest put it, if I/O decoding is on and no
 * other device answers there; else not at all. */
static void bar_update(struct vvirtio *c)
{
	uint32_t base = bar_base(c);

	c->bar.count = 0;
	if (!(c->command & PCI_COMMAND_IO) || !base ||
	    base + VVIRTIO_BAR_SIZE > 0x10000u)
		return;
	for (uint32_t p = base; p < base + VVIRTIO_BAR_SIZE; p++)
		if (pio_find(c->vm, (uint16_t)p)) {
			kprintf("vm '%s': virtio console: BAR0 at %#x overlaps "
				"%s: not decoded\n", c->vm->name, base,
				pio_find(c->vm, (uint16_t)p)->name);
			return;
		}
	c->bar.first = (uint16_t)base;
	c->bar.count = VVIRTIO_BAR_SIZE;
}

static int cfg_read(void *opaque, unsigned reg, uint32_t *val)
{
	struct vvirtio *c = opaque;

	switch (reg) {
	case 0x00: *val = VVIRTIO_VENDOR | VVIRTIO_DEVICE << 16; break;
	case 0x04: *val = c->command; break;	/* status 0: no caps */
	case 0x08: *val = PCI_CLASS_COMM_OTHER; break;	/* revision 0 */
	case 0x10: *val = c->bar0; break;
	case 0x2c: *val = VVIRTIO_VENDOR | VVIRTIO_SUBSYS_CONSOLE << 16; break;
	case 0x3c: *val = c->irq_line | PCI_INT_PIN_A << 8; break;
	default: *val = 0; break;	/* no other BAR, no capability */
	}
	return 0;
}

static void cfg_write(void *opaque, unsigned off, unsigned size, uint32_t val)
{
	struct vvirtio *c = opaque;

	if (off == 0x04 && size >= 2) {
		c->command = (uint16_t)(val & PCI_COMMAND_MASK);
		bar_update(c);
	} else if (off == 0x10 && size == 4) {
		c->bar0 = (val & ~(VVIRTIO_BAR_SIZE - 1)) | BAR_IO;
		bar_update(c);
	} else if (off == 0x3c) {
		c->irq_line = (uint8_t)val;
	}
}

/* The VM restarts in place: the virtio device starts over; BAR0 and the
 * command register stay as the firmware left them (vm_restart does not
 * run the firmware's placement again, hv/vm/vm_restart.c). */
static int dev_reset(void *opaque)
{
	struct vvirtio *c = opaque;

	device_reset(c);
	return 0;
}

/* The VM has stopped: what the console carried, then the slot is free. */
static void dev_teardown(void *opaque)
{
	struct vvirtio *c = opaque;
	const struct vvirtio_stats *s = &c->stats;

	kprintf("vm '%s': virtio console: %llu notifies, %llu chains, %llu "
		"bytes, %llu interrupts, %llu budget stops, %llu queue errors, "
		"%llu bad accesses, %llu resets\n", c->vm->name,
		(unsigned long long)s->notifies, (unsigned long long)s->chains,
		(unsigned long long)s->bytes, (unsigned long long)s->irqs,
		(unsigned long long)s->budget_stops,
		(unsigned long long)s->errors,
		(unsigned long long)s->bad_access,
		(unsigned long long)s->resets);
	c->vm = NULL;
}

static const struct vdev_ops vvirtio_ops = {
	.cfg_read = cfg_read,
	.cfg_write = cfg_write,
	.reset = dev_reset,
	.teardown = dev_teardown,
};

int vvirtio_attach(struct vm *vm)
{
	struct vvirtio *c;
	int err;

	if (vm->id >= VM_MAX)
		return 0;
	c = &cons[vm->id];
	if (!vm->cfg || !vm->cfg->virtio_console) {
		c->vm = NULL;	/* a slot's earlier VM had one */
		return 0;
	}
	memset(c, 0, sizeof(*c));
	c->vm = vm;
	c->irq_line = VVIRTIO_IRQ;
	c->bar0 = BAR_IO;
	c->bar = (struct pio_region){ "virtio console", 0, 0, bar_io };
	device_reset(c);
	c->vdev = (struct vdev){
		.name = "virtio console", .ops = &vvirtio_ops, .opaque = c,
		.bdf = VVIRTIO_BDF, .dma = false, .pio = { &c->bar },
	};
	err = vdev_register(vm, &c->vdev);
	if (err)
		c->vm = NULL;
	return err;
}
