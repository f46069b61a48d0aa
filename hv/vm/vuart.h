/* A 16550A UART for one VM, at the guest's COM1 (0x3F8..0x3FF), on ISA
 * IRQ 4 (the VM's IOAPIC pin 4).
 *
 * Transmit: bytes written to THR go into a VUART_TX_BUF-byte transmit
 * buffer, never to the console inside the exit. vuart_tx_drain moves them
 * on (collected per line and printed on the hypervisor console as
 * "[vmname] line", or raw while the console is attached to this VM:
 * `console <vm>`) only while COM1's backlog is under VUART_DRAIN_BELOW, so
 * the guest's output goes at COM1's pace without anyone waiting for COM1.
 * LSR.THRE says a FIFO's worth (16 bytes) fits, and so does LSR.TEMT
 * (with vuart_fifo_temt=no: only once the buffer is empty): a driver that
 * polls LSR waits only while the buffer is full; with
 * IER.ETBEI a THRE interrupt is raised whenever a write or a drain leaves
 * room (what Linux's 8250 driver waits for to send more). A byte written
 * into a full buffer is dropped and counted (tx_dropped), as a real FIFO
 * loses it: only a guest that ignores LSR (REP OUTSB) gets there.
 * Receive: a 16-byte FIFO filled by vuart_rx (the console, when attached
 * to this VM); LSR.DR while it holds data, the "received data available"
 * interrupt with IER.ERBFI, overrun counted when it is full. Interrupts
 * reach the IOAPIC only with MCR.OUT2 set, as on a PC. IIR reports the
 * highest-priority source and, with FCR bit 0, FIFOs enabled (0xC0): the
 * driver identifies a 16550A. Modem status is fixed: DCD, DSR, CTS. */
#ifndef HV_VM_VUART_H
#define HV_VM_VUART_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/vm/mmio.h"

#define VUART_BASE 0x3f8
#define VUART_PORTS 8
/* A guest line is shown whole up to this length (Linux's printk lines and
 * a test program's status lines run past 160 characters; a cut line gets
 * the VM's prefix again mid-text and a console reader misses it). */
#define VUART_LINE_MAX 1024

#define VUART_FIFO 16
#define VUART_TX_BUF 4096	/* a few lines of Linux's boot log */
#define VUART_DRAIN_BELOW 256	/* COM1 backlog under which guests' bytes move */
#define VUART_IRQ 4

struct vuart {
	uint8_t ier, lcr, mcr, scr, dll, dlm, fcr;
	bool thre_pending;	/* THRE interrupt until IIR read / THR write */
	uint8_t rx[VUART_FIFO];
	unsigned rx_head, rx_count;
	uint64_t rx_bytes, rx_overruns, irqs;
	unsigned len;
	char line[VUART_LINE_MAX];
	uint8_t tx[VUART_TX_BUF];
	unsigned tx_head, tx_count;
	uint64_t tx_bytes, tx_dropped;
	bool attached;	/* the console shows this VM's output raw */
};

struct vm;

/* One guest access to port VUART_BASE + off (0..7); `in` reads into *val. */
void vuart_io(struct vm *vm, unsigned off, bool in, uint32_t *val);
/* The console attached to this VM (`on`: its output raw from here, after
 * what was buffered and a partial line are printed as before) or not;
 * the VM's reset to power-on state, keeping whether it is attached. Both
 * under the VM's device lock, on the CPU that runs the VM (the shell on
 * another CPU asks it: hv/shell/shell_console.c). */
void vuart_attach(struct vm *vm, bool on);
void vuart_reset(struct vm *vm);
/* Prints a partial line (when the VM stops, so nothing is lost). */
void vuart_flush(struct vm *vm);
/* Moves the transmit buffer on to the console while COM1's backlog is
 * under VUART_DRAIN_BELOW (or all of it: `all`, when the VM stops or the
 * machine reports); raises THRE when room appears. Bounded by the
 * buffer. */
void vuart_tx_drain(struct vm *vm, bool all);
/* One byte of input, as if it arrived on the wire. False when the FIFO
 * is full (the byte is lost and counted as an overrun). */
bool vuart_rx(struct vm *vm, uint8_t byte);
/* Free bytes in the receive FIFO (the attached console waits for room). */
unsigned vuart_rx_room(const struct vm *vm);
/* hv.cfg's vuart_fifo_temt= (on by default): LSR.TEMT set whenever THRE
 * is, rather than only once the VM's buffer has gone to COM1. */
void vuart_set_fifo_temt(bool on);
/* One byte of output, as if written to THR (the putc hypercall). */
void vuart_putc(struct vm *vm, char c);

/* Ports VUART_BASE.. in the VM's device registry. */
extern const struct pio_region vuart_pio;

#endif
