/* 16550 UART, polled. Register offsets and bits from the National
 * Semiconductor PC16550D data sheet. Interrupts stay off: the hypervisor
 * polls for input from its idle loop and between VM slices. */
#include "hv/console/uart16550.h"
#include "hv/cpu/x86.h"

#define UART_RBR 0 /* receive buffer (read, DLAB=0) */
#define UART_THR 0 /* transmit holding (write, DLAB=0) */
#define UART_DLL 0 /* divisor latch low (DLAB=1) */
#define UART_IER 1 /* interrupt enable (DLAB=0) */
#define UART_DLM 1 /* divisor latch high (DLAB=1) */
#define UART_FCR 2 /* FIFO control */
#define UART_LCR 3 /* line control */
#define UART_MCR 4 /* modem control */
#define UART_LSR 5 /* line status */
#define UART_SCR 7 /* scratch */

#define LCR_8N1 0x03
#define LCR_DLAB 0x80
#define FCR_ENABLE_CLEAR 0x07 /* enable FIFOs, clear RX and TX */
#define MCR_DTR_RTS_OUT2 0x0b
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY 0x20

#define UART_CLOCK 115200 /* divisor 1 = 115200 baud */

/* Bounded so a missing UART (some real boards) cannot hang the console. */
#define UART_TX_SPIN 100000

bool uart_present(uint16_t base)
{
	outb(base + UART_SCR, 0x55);
	if (inb(base + UART_SCR) != 0x55)
		return false;
	outb(base + UART_SCR, 0xaa);
	return inb(base + UART_SCR) == 0xaa;
}

void uart_init(uint16_t base, uint32_t baud)
{
	uint16_t div = (uint16_t)(UART_CLOCK / (baud ? baud : UART_CLOCK));

	outb(base + UART_IER, 0);
	outb(base + UART_LCR, LCR_DLAB);
	outb(base + UART_DLL, (uint8_t)div);
	outb(base + UART_DLM, (uint8_t)(div >> 8));
	outb(base + UART_LCR, LCR_8N1);
	outb(base + UART_FCR, FCR_ENABLE_CLEAR);
	outb(base + UART_MCR, MCR_DTR_RTS_OUT2);
}

void uart_putc(uint16_t base, char c)
{
	for (int i = 0; i < UART_TX_SPIN; i++) {
		if (inb(base + UART_LSR) & LSR_THR_EMPTY)
			break;
		cpu_relax();
	}
	outb(base + UART_THR, (uint8_t)c);
}

bool uart_tx_empty(uint16_t base)
{
	return inb(base + UART_LSR) & LSR_THR_EMPTY;
}

void uart_tx_byte(uint16_t base, char c)
{
	outb(base + UART_THR, (uint8_t)c);
}

bool uart_getc(uint16_t base, uint8_t *out)
{
	if (!(inb(base + UART_LSR) & LSR_DATA_READY))
		return false;
	*out = inb(base + UART_RBR);
	return true;
}
