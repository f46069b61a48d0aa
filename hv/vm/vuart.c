/* Per-VM 16550A emulation; see vuart.h. */
#include "hv/vm/vuart.h"
#include "hv/console/console.h"
#include "hv/vm/vioapic.h"
#include "hv/vm/vm.h"
#include "mini/string.h"

/* Register offsets (16550 data sheet); DLAB = LCR bit 7 remaps 0 and 1. */
#define UART_RBR_THR	0
#define UART_IER	1
#define UART_IIR_FCR	2
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define UART_MSR	6
#define UART_SCR	7
#define LCR_DLAB	0x80
#define LSR_DR		0x01
#define LSR_THRE	0x20
#define LSR_TEMT	0x40
#define IIR_NO_INT	0x01
#define IIR_THRE	0x02
#define IIR_RDA		0x04
#define IIR_FIFO_ON	0xc0
#define IER_ERBFI	0x01	/* received data available */
#define IER_ETBEI	0x02	/* THR empty */
#define FCR_ENABLE	0x01
#define FCR_CLEAR_RX	0x02
#define MCR_OUT2	0x08	/* gates the IRQ line on a PC */
#define MSR_DCD_DSR_CTS	0xb0

/* hv.cfg's vuart_fifo_temt= (vuart.h). */
static bool temt_with_room = true;

void vuart_set_fifo_temt(bool on)
{
	temt_with_room = on;
}

static void line_flush(struct vm *vm)
{
	struct vuart *u = &vm->uart;

	if (!u->len)
		return;
	/* Written in pieces: a guest's line may be longer than kprintf's;
	 * held together under the console lock, as another CPU may print. */
	console_lock();
	kprintf("[%s] ", vm->name);
	console_write(u->line, u->len);
	console_write("\n", 1);
	console_unlock();
	u->len = 0;
	/* Guest output can be long: keep the console's own input moving so
	 * nothing typed meanwhile is lost in the UART's small FIFO. */
	console_rx_poll();
}

void vuart_putc(struct vm *vm, char c)
{
	struct vuart *u = &vm->uart;

	u->tx_bytes++;
	if (u->attached) {
		/* The operator's terminal is this VM's: its bytes as sent. */
		console_write(&c, 1);
		return;
	}
	if (c == '\r')
		return;
	if (c == '\n') {
		if (!u->len)
			kprintf("[%s]\n", vm->name);
		line_flush(vm);
		return;
	}
	/* Control bytes would drive the operator's terminal: show them. */
	if ((unsigned char)c < 0x20 && c != '\t')
		c = '?';
	u->line[u->len++] = c;
	if (u->len == VUART_LINE_MAX)
		line_flush(vm);
}

void vuart_flush(struct vm *vm)
{
	vuart_tx_drain(vm, true);
	line_flush(vm);
}

/* The VM's own CPU only (vuart.h): the drain that reads `attached` runs
 * there under the device lock, and the flush may raise its interrupt. */
void vuart_attach(struct vm *vm, bool on)
{
	vm_dev_lock(vm);
	if (on && !vm->uart.attached)
		vuart_flush(vm);
	vm->uart.attached = on;
	vm_dev_unlock(vm);
}

void vuart_reset(struct vm *vm)
{
	bool attached;

	vm_dev_lock(vm);
	attached = vm->uart.attached;	/* the operator's choice */
	vuart_flush(vm);
	memset(&vm->uart, 0, sizeof(vm->uart));
	vm->uart.attached = attached;
	vm_dev_unlock(vm);
}

/* The source IIR reports: received data first, then THR empty. */
static uint8_t iir_source(const struct vuart *u)
{
	if ((u->ier & IER_ERBFI) && u->rx_count)
		return IIR_RDA;
	if ((u->ier & IER_ETBEI) && u->thre_pending)
		return IIR_THRE;
	return IIR_NO_INT;
}

/* A new interrupt condition: an edge on IRQ 4 if OUT2 lets it out. The
 * driver reads IIR until it says "none", so one edge per new condition
 * is all an ISA edge-triggered line gives too. */
static void raise_if_pending(struct vm *vm)
{
	struct vuart *u = &vm->uart;

	if (iir_source(u) != IIR_NO_INT && (u->mcr & MCR_OUT2)) {
		u->irqs++;
		vioapic_assert(vm, VUART_IRQ);
	}
}

bool vuart_rx(struct vm *vm, uint8_t byte)
{
	struct vuart *u = &vm->uart;

	if (u->rx_count == VUART_FIFO) {
		u->rx_overruns++;
		return false;
	}
	u->rx[(u->rx_head + u->rx_count++) % VUART_FIFO] = byte;
	u->rx_bytes++;
	raise_if_pending(vm);
	return true;
}

unsigned vuart_rx_room(const struct vm *vm)
{
	return VUART_FIFO - vm->uart.rx_count;
}

static uint8_t rx_pop(struct vuart *u)
{
	uint8_t b;

	if (!u->rx_count)
		return 0;
	b = u->rx[u->rx_head];
	u->rx_head = (u->rx_head + 1) % VUART_FIFO;
	u->rx_count--;
	return b;
}

static unsigned tx_room(const struct vuart *u)
{
	return VUART_TX_BUF - u->tx_count;
}

/* THR "empty": a FIFO's worth fits (Linux's 8250 driver writes up to 16
 * bytes per THRE without looking at LSR again). */
static bool tx_ready(const struct vuart *u)
{
	return tx_room(u) >= VUART_FIFO;
}

static void tx_push(struct vuart *u, uint8_t b)
{
	if (!tx_room(u)) {
		u->tx_dropped++;
		return;
	}
	u->tx[(u->tx_head + u->tx_count++) % VUART_TX_BUF] = b;
}

void vuart_tx_drain(struct vm *vm, bool all)
{
	struct vuart *u = &vm->uart;
	bool was_ready = tx_ready(u);

	while (u->tx_count && (all || console_backlog() < VUART_DRAIN_BELOW)) {
		char c = (char)u->tx[u->tx_head];

		u->tx_head = (u->tx_head + 1) % VUART_TX_BUF;
		u->tx_count--;
		vuart_putc(vm, c);
	}
	if (!was_ready && tx_ready(u)) {
		u->thre_pending = true;	/* room again */
		raise_if_pending(vm);
	}
}

static uint32_t read_iir(struct vuart *u)
{
	uint8_t src = iir_source(u);

	if (src == IIR_THRE)
		u->thre_pending = false;	/* reading IIR clears it */
	return src | ((u->fcr & FCR_ENABLE) ? IIR_FIFO_ON : 0);
}

/* THRE: a FIFO's worth fits. TEMT: the transmitter holds nothing the
 * guest could still lose; the bytes past it are in the VM's buffer, which
 * reaches COM1 whatever the guest does next, so TEMT goes with THRE. Linux
 * waits for both after every console line and gives up only after 10,000
 * reads; TEMT waiting for the buffer to reach COM1 (vuart_fifo_temt=no,
 * the old rule) costs those reads whenever the buffer is longer than
 * 10 ms of COM1. */
static uint32_t read_lsr(const struct vuart *u)
{
	bool empty = temt_with_room ? tx_ready(u) : !u->tx_count;

	return (tx_ready(u) ? LSR_THRE : 0) | (empty ? LSR_TEMT : 0) |
	       (u->rx_count ? LSR_DR : 0);
}

static uint32_t vuart_read(struct vuart *u, unsigned off)
{
	bool dlab = u->lcr & LCR_DLAB;

	switch (off) {
	case UART_RBR_THR: return dlab ? u->dll : rx_pop(u);
	case UART_IER: return dlab ? u->dlm : u->ier;
	case UART_IIR_FCR: return read_iir(u);
	case UART_LCR: return u->lcr;
	case UART_MCR: return u->mcr;
	case UART_LSR:
		return read_lsr(u);
	case UART_MSR: return MSR_DCD_DSR_CTS;
	default: return u->scr;
	}
}

static void vuart_write(struct vm *vm, unsigned off, uint8_t v)
{
	struct vuart *u = &vm->uart;
	bool dlab = u->lcr & LCR_DLAB;

	switch (off) {
	case UART_RBR_THR:
		if (dlab) {
			u->dll = v;
			break;
		}
		tx_push(u, v);
		u->thre_pending = tx_ready(u);	/* room for more */
		raise_if_pending(vm);
		break;
	case UART_IER:
		if (dlab) {
			u->dlm = v;
			break;
		}
		/* Enabling ETBEI with THR empty raises THRE (16550 data sheet:
		 * the interrupt is set whenever THR is empty and enabled). */
		if ((v & IER_ETBEI) && !(u->ier & IER_ETBEI) && tx_ready(u))
			u->thre_pending = true;
		u->ier = v & 0x0f;
		raise_if_pending(vm);
		break;
	case UART_IIR_FCR:
		u->fcr = v & FCR_ENABLE;
		if (v & FCR_CLEAR_RX)
			u->rx_count = 0;
		break;
	case UART_LCR: u->lcr = v; break;
	case UART_MCR:
		u->mcr = v & 0x1f;
		raise_if_pending(vm);
		break;
	case UART_SCR: u->scr = v; break;
	default: break;			/* LSR, MSR are read-only */
	}
}

/* Each access also moves output on (COM1's FIFO, then this VM's buffer):
 * a guest polling LSR sees room appear at COM1's pace. */
void vuart_io(struct vm *vm, unsigned off, bool in, uint32_t *val)
{
	console_poll();
	vuart_tx_drain(vm, false);
	if (in) {
		*val = vuart_read(&vm->uart, off & 7);
		return;
	}
	vuart_write(vm, off & 7, (uint8_t)*val);
	vuart_tx_drain(vm, false);
}

static void vuart_pio_io(struct vm *vm, uint16_t port, unsigned size, bool in,
			 uint32_t *val)
{
	(void)size;
	vuart_io(vm, port - VUART_BASE, in, val);
}

const struct pio_region vuart_pio = {
	"COM1", VUART_BASE, VUART_PORTS, vuart_pio_io,
};
