/* A 16550 UART for one VM, at the guest's COM1 (0x3F8..0x3FF).
 *
 * Output only, which is all the test guest and a Linux console need to
 * print: bytes written to THR are collected per line and printed on the
 * hypervisor console as "[vmname] line". The transmitter is always empty
 * (LSR.THRE|TEMT), the receiver never has data, no interrupts are raised.
 * The other registers hold what the guest writes so probing drivers see a
 * UART (scratch register test, divisor latch). */
#ifndef HV_VM_VUART_H
#define HV_VM_VUART_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/vm/mmio.h"

#define VUART_BASE 0x3f8
#define VUART_PORTS 8
#define VUART_LINE_MAX 160

struct vuart {
	uint8_t ier, lcr, mcr, scr, dll, dlm;
	unsigned len;
	char line[VUART_LINE_MAX];
	uint64_t tx_bytes;
};

struct vm;

/* One guest access to port VUART_BASE + off (0..7); `in` reads into *val. */
void vuart_io(struct vm *vm, unsigned off, bool in, uint32_t *val);
/* Prints a partial line (when the VM stops, so nothing is lost). */
void vuart_flush(struct vm *vm);
/* One byte of output, as if written to THR (the putc hypercall). */
void vuart_putc(struct vm *vm, char c);

/* Ports VUART_BASE.. in the VM's device registry. */
extern const struct pio_region vuart_pio;

#endif
