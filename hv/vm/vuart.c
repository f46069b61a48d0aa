/* Per-VM 16550 emulation (output side); see vuart.h. */
#include "hv/vm/vuart.h"
#include "hv/console.h"
#include "hv/shell.h"
#include "hv/vm/vm.h"

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
#define LSR_THRE	0x20
#define LSR_TEMT	0x40
#define IIR_NO_INT	0x01
#define MSR_DCD_DSR_CTS	0xb0

void vuart_flush(struct vm *vm)
{
	struct vuart *u = &vm->uart;

	if (!u->len)
		return;
	kprintf("[%s] %.*s\n", vm->name, (int)u->len, u->line);
	u->len = 0;
	/* Guest output can be long: keep the console's own input moving so
	 * nothing typed meanwhile is lost in the UART's small FIFO. */
	console_rx_poll();
}

void vuart_putc(struct vm *vm, char c)
{
	struct vuart *u = &vm->uart;

	u->tx_bytes++;
	if (c == '\r')
		return;
	if (c == '\n') {
		if (!u->len)
			kprintf("[%s]\n", vm->name);
		vuart_flush(vm);
		return;
	}
	/* Control bytes would drive the operator's terminal: show them. */
	if ((unsigned char)c < 0x20 && c != '\t')
		c = '?';
	u->line[u->len++] = c;
	if (u->len == VUART_LINE_MAX)
		vuart_flush(vm);
}

static uint32_t vuart_read(struct vuart *u, unsigned off)
{
	bool dlab = u->lcr & LCR_DLAB;

	switch (off) {
	case UART_RBR_THR: return dlab ? u->dll : 0;
	case UART_IER: return dlab ? u->dlm : u->ier;
	case UART_IIR_FCR: return IIR_NO_INT;
	case UART_LCR: return u->lcr;
	case UART_MCR: return u->mcr;
	case UART_LSR: return LSR_THRE | LSR_TEMT;
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
		if (dlab)
			u->dll = v;
		else
			vuart_putc(vm, (char)v);
		break;
	case UART_IER:
		if (dlab)
			u->dlm = v;
		else
			u->ier = v & 0x0f;
		break;
	case UART_IIR_FCR: break;	/* FIFO control: nothing to model */
	case UART_LCR: u->lcr = v; break;
	case UART_MCR: u->mcr = v & 0x1f; break;
	case UART_SCR: u->scr = v; break;
	default: break;			/* LSR, MSR are read-only */
	}
}

void vuart_io(struct vm *vm, unsigned off, bool in, uint32_t *val)
{
	if (in)
		*val = vuart_read(&vm->uart, off & 7);
	else
		vuart_write(vm, off & 7, (uint8_t)*val);
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
