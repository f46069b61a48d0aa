/* Unit tests for hv/vm/vuart.c, the 16550A a Linux guest drives: what
 * Linux's 8250 driver relies on to identify the chip and to send with THRE
 * interrupts (IIR sources and priorities, FIFO bits, OUT2 gating, a new
 * edge per THR write) and the receive FIFO. The IOAPIC and the console
 * are replaced by recorders. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hv/vm/vm.h"
#include "hv/vm/vuart.h"

/* One CPU, index 0: the device lock's owner id (hv/vm/vm.h). */
static struct percpu cpu0;

struct percpu *test_this_cpu(void)
{
	return &cpu0;
}

static struct vm vm;
static unsigned irq4_edges;
static bool dev_lock_at_write;	/* held at the last console write */
static char printed[16384];
/* COM1's backlog as console_backlog reports it: a fixed value, or (when
 * backlog_grows) everything printed so far, as if COM1 sent nothing. */
static size_t backlog;
static bool backlog_grows;

void vioapic_assert(struct vm *vm, unsigned pin)
{
	(void)vm;
	assert_int_equal(pin, 4);
	irq4_edges++;
}

void kprintf(const char *fmt, ...)
{
	va_list ap;
	size_t n = strlen(printed);

	va_start(ap, fmt);
	vsnprintf(printed + n, sizeof(printed) - n, fmt, ap);
	va_end(ap);
}

void console_rx_poll(void) { }
void console_poll(void) { }

/* The console lock: a guest's line goes out in pieces that must stay
 * together when another CPU prints (docs/smp.md). */
static int lock_depth;
static unsigned unlocked_writes;

void console_lock(void)
{
	lock_depth++;
}

void console_unlock(void)
{
	assert_true(lock_depth > 0);
	lock_depth--;
}

size_t console_backlog(void)
{
	return backlog_grows ? strlen(printed) : backlog;
}

void console_write(const char *s, size_t n)
{
	size_t have = strlen(printed);

	if (!lock_depth)
		unlocked_writes++;
	dev_lock_at_write = rlock_held(&vm.dev_lock, 0);
	if (have + n < sizeof(printed)) {
		memcpy(printed + have, s, n);
		printed[have + n] = 0;
	}
}

static unsigned accesses;	/* port accesses: one VM exit each */

static uint8_t in(unsigned off)
{
	uint32_t v = 0xffffffffu;

	accesses++;
	vuart_io(&vm, off, true, &v);
	return (uint8_t)v;
}

static void out(unsigned off, uint8_t v)
{
	uint32_t val = v;

	accesses++;
	vuart_io(&vm, off, false, &val);
}

static int setup(void **state)
{
	(void)state;
	memset(&vm, 0, sizeof(vm));
	vm.dev_lock = (struct rlock)RLOCK_INIT;
	strcpy(vm.name, "lx");
	dev_lock_at_write = false;
	irq4_edges = 0;
	printed[0] = 0;
	lock_depth = 0;
	unlocked_writes = 0;
	backlog = 0;
	backlog_grows = false;
	accesses = 0;
	vuart_set_fifo_temt(true);
	return 0;
}

/* Linux's autoconfig: FIFO enable shows in IIR bits 7:6 (a 16550A),
 * scratch register holds its value. */
static void test_identifies_as_16550a(void **state)
{
	(void)state;
	assert_int_equal(in(2) & 0xc0, 0);
	out(2, 0x07);			/* FCR: enable, clear both FIFOs */
	assert_int_equal(in(2) & 0xc0, 0xc0);
	assert_int_equal(in(2) & 0x0f, 0x01);	/* no interrupt */
	out(7, 0xa5);
	assert_int_equal(in(7), 0xa5);
	assert_int_equal(in(5) & 0x61, 0x60);	/* THRE, TEMT, no data */
}

/* The 8250 THRE test and transmit path: enabling ETBEI raises THRE, a
 * read of IIR clears it, every THR write raises it again (an edge each
 * time, only with OUT2). */
static void test_thre_interrupts(void **state)
{
	(void)state;
	out(1, 0x02);			/* ETBEI, OUT2 still off */
	assert_int_equal(in(2) & 0x0f, 0x02);
	assert_int_equal(irq4_edges, 0);
	assert_int_equal(in(2) & 0x0f, 0x01);	/* cleared by the read */
	out(1, 0x00);
	out(4, 0x08);			/* OUT2 */
	out(1, 0x02);
	assert_int_equal(irq4_edges, 1);
	assert_int_equal(in(2) & 0x0f, 0x02);
	out(0, 'h');
	out(0, 'i');
	assert_int_equal(irq4_edges, 3);
	out(0, '\n');
	assert_string_equal(printed, "[lx] hi\n");
	/* prefix, text and newline written under one hold of the lock */
	assert_int_equal(unlocked_writes, 0);
	assert_int_equal(lock_depth, 0);
}

/* Received bytes: LSR.DR, RDA before THRE, FIFO order, overrun. */
static void test_receive_fifo(void **state)
{
	(void)state;
	out(4, 0x08);
	out(1, 0x03);			/* ERBFI + ETBEI */
	irq4_edges = 0;
	assert_true(vuart_rx(&vm, 'a'));
	assert_int_equal(irq4_edges, 1);
	assert_true(vuart_rx(&vm, 'b'));
	assert_int_equal(in(5) & 0x01, 0x01);
	assert_int_equal(in(2) & 0x0f, 0x04);	/* RDA outranks THRE */
	assert_int_equal(in(0), 'a');
	assert_int_equal(in(0), 'b');
	assert_int_equal(in(5) & 0x01, 0);
	assert_int_equal(in(2) & 0x0f, 0x02);	/* then THRE */
	for (unsigned i = 0; i < VUART_FIFO; i++)
		assert_true(vuart_rx(&vm, (uint8_t)i));
	assert_false(vuart_rx(&vm, 0xee));
	assert_int_equal(vm.uart.rx_overruns, 1);
	out(2, 0x03);			/* FCR: clear RX FIFO */
	assert_int_equal(in(5) & 0x01, 0);
}

/* Attached console: bytes go out raw, CR and control bytes included, with
 * no prefix; the FIFO's room is what the console may still send. */
static void test_attached_raw(void **state)
{
	(void)state;
	vm.uart.attached = true;
	out(0, 'o');
	out(0, 'k');
	out(0, '\r');
	out(0, '\n');
	out(0, 0x1b);
	assert_string_equal(printed, "ok\r\n\x1b");
	vm.uart.attached = false;
	assert_int_equal(vuart_rx_room(&vm), VUART_FIFO);
	assert_true(vuart_rx(&vm, 'x'));
	assert_int_equal(vuart_rx_room(&vm), VUART_FIFO - 1);
}

/* `console VM` on the VM's CPU: what was buffered and the partial line
 * go out first with the prefix, under the device lock (the drain on the
 * VM's CPU reads `attached` under it), then the bytes come raw;
 * detaching changes only the flag. */
static void test_attach_flushes_then_raw(void **state)
{
	(void)state;
	out(0, 'p');
	out(0, 'a');
	out(0, 'r');
	assert_string_equal(printed, "");	/* still in the buffer */
	vuart_attach(&vm, true);
	assert_string_equal(printed, "[lx] par\n");
	assert_true(dev_lock_at_write);
	assert_true(vm.uart.attached);
	assert_int_equal(vm.dev_lock.owner, RLOCK_FREE);
	assert_int_equal(vm.dev_lock.takes, 1);
	out(0, 'x');
	vuart_tx_drain(&vm, false);
	assert_string_equal(printed, "[lx] par\nx");
	vuart_attach(&vm, true);		/* again: nothing to flush */
	vuart_attach(&vm, false);
	assert_false(vm.uart.attached);
	assert_int_equal(vm.dev_lock.takes, 3);
	assert_int_equal(vm.dev_lock.owner, RLOCK_FREE);
}

/* vm_restart's reset: power-on state, a partial line printed first, the
 * operator's attach kept, all under the device lock. */
static void test_reset_keeps_attach(void **state)
{
	(void)state;
	out(1, 0x03);			/* IER */
	out(7, 0x5a);			/* scratch */
	assert_true(vuart_rx(&vm, 'k'));
	out(0, 'h');
	out(0, 'i');
	vuart_reset(&vm);
	assert_string_equal(printed, "[lx] hi\n");
	assert_true(dev_lock_at_write);
	assert_false(vm.uart.attached);
	assert_int_equal(vm.uart.rx_count, 0);
	assert_int_equal(vm.uart.ier, 0);
	assert_int_equal(vm.uart.scr, 0);
	assert_int_equal(vm.uart.tx_bytes, 0);
	vm.uart.attached = true;
	vuart_reset(&vm);
	assert_true(vm.uart.attached);
	assert_int_equal(vm.dev_lock.owner, RLOCK_FREE);
	assert_int_equal(vm.dev_lock.takes, 2);
}

/* DLAB: ports 0 and 1 are the divisor latch, not THR/IER. */
static void test_divisor_latch(void **state)
{
	(void)state;
	out(3, 0x80);
	out(0, 0x01);
	out(1, 0x00);
	assert_int_equal(in(0), 0x01);
	out(3, 0x03);
	assert_string_equal(printed, "");
	assert_int_equal(in(1), 0);
}

/* COM1 busy: the guest's bytes wait in the transmit buffer, none is
 * printed in the exit; LSR says not ready once less than a FIFO's worth
 * fits (THRE) and not empty (TEMT); a byte written anyway into the full
 * buffer is dropped and counted. Drained, everything comes out in order,
 * LSR is ready again and THRE interrupts the guest. */
static void test_tx_full_not_ready_then_drained(void **state)
{
	unsigned i;

	(void)state;
	backlog = 100000;
	out(4, 0x08);			/* OUT2 */
	for (i = 0; i < VUART_TX_BUF - VUART_FIFO; i++)
		out(0, (uint8_t)(i % 79 == 78 ? '\n' : 'a' + i % 26));
	assert_string_equal(printed, "");
	/* room for 16: THRE, and TEMT with it (vuart_fifo_temt) */
	assert_int_equal(in(5) & 0x60, 0x60);
	out(0, 'x');
	assert_int_equal(in(5) & 0x60, 0);	/* neither THRE nor TEMT */
	out(1, 0x02);			/* ETBEI: no THRE while full */
	irq4_edges = 0;
	assert_int_equal(in(2) & 0x0f, 0x01);
	while (vm.uart.tx_count < VUART_TX_BUF)
		out(0, 'y');
	assert_int_equal(vm.uart.tx_dropped, 0);
	out(0, '#');
	assert_int_equal(vm.uart.tx_dropped, 1);
	assert_string_equal(printed, "");

	backlog = 0;
	vuart_tx_drain(&vm, false);
	assert_int_equal(vm.uart.tx_count, 0);
	assert_int_equal(in(5) & 0x60, 0x60);
	assert_int_equal(irq4_edges, 1);	/* room again */
	assert_int_equal(in(2) & 0x0f, 0x02);
	assert_true(!strncmp(printed, "[lx] abcdefghijklmnopqrstuvwxyzabc", 34));
	assert_null(strchr(printed, '#'));
}

/* The drain stops while COM1's backlog is VUART_DRAIN_BELOW or more, so
 * a guest's flood never piles up in the console's ring. */
static void test_drain_waits_for_com1(void **state)
{
	(void)state;
	backlog = 100000;
	for (unsigned i = 0; i < 2000; i++)
		out(0, (uint8_t)(i % 50 == 49 ? '\n' : 'q'));
	backlog_grows = true;
	vuart_tx_drain(&vm, false);
	assert_true(strlen(printed) >= VUART_DRAIN_BELOW);
	assert_true(strlen(printed) < VUART_DRAIN_BELOW + 60);
	assert_true(vm.uart.tx_count > 0);
	vuart_tx_drain(&vm, true);	/* the VM stops: everything */
	assert_int_equal(vm.uart.tx_count, 0);
	assert_int_equal(strlen(printed), 40 * (5 + 49 + 1));
}

/* A guest line longer than the old 160-byte buffer (Linux's longer printk
 * lines, a test program's status lines) reaches the console whole, with
 * one prefix; only a line past VUART_LINE_MAX is cut, and then once per
 * VUART_LINE_MAX bytes. */
static void put_line(unsigned n, char fill)
{
	for (unsigned i = 0; i < n; i++)
		vuart_putc(&vm, fill);
	vuart_putc(&vm, '\n');
}

static void test_long_lines_whole(void **state)
{
	char want[400];

	(void)state;
	put_line(300, 'x');
	memset(want, 'x', 300);
	want[300] = 0;
	assert_true(!strncmp(printed, "[lx] ", 5));
	assert_true(!strncmp(printed + 5, want, 300));
	assert_string_equal(printed + 305, "\n");
	printed[0] = 0;
	put_line(VUART_LINE_MAX + 10, 'y');
	assert_int_equal(strlen(printed), 2 * 5 + VUART_LINE_MAX + 10 + 2);
	assert_non_null(strstr(printed, "y\n[lx] yyyyyyyyyy\n"));
}

/* Linux's 8250 console write, in the two shapes it takes: save IER and
 * clear it, send the text ('\n' as "\r\n"), wait for THRE and TEMT,
 * restore IER. Byte by byte, each byte waits for THRE (an LSR read) and
 * is written (what Linux does until the tty is opened, i.e. up to
 * "Run /init"); with the FIFO (a 16550A with FCR's FIFO enable, once the
 * tty is open), one LSR read per 16 bytes. wait_lsr gives up after
 * 10,000 reads as Linux does (its udelay(1) between them) and counts the
 * reads past the first, which a guest spends only while the buffer is
 * full. */
static unsigned lsr_spins;

static void wait_lsr(uint8_t bits)
{
	for (unsigned n = 0; n < 10000; n++) {
		if ((in(5) & bits) == bits)
			return;
		lsr_spins++;
	}
}

static void console_write_linux(const char *s, bool fifo)
{
	uint8_t ier = in(1);
	bool cr_sent = false;

	out(1, 0);
	while (*s) {
		wait_lsr(0x20);
		for (unsigned i = 0; i < (fifo ? 16u : 1u) && *s; i++) {
			if (*s == '\n' && !cr_sent) {
				out(0, '\r');
				cr_sent = true;
			} else {
				out(0, (uint8_t)*s++);
				cr_sent = false;
			}
		}
	}
	wait_lsr(0x60);
	out(1, ier);
}

/* Exits per byte of a Linux boot's console, both ways: 2 per byte byte
 * by byte (the floor without the FIFO: an LSR read and a THR write),
 * 17 per 16 with it, plus 4 per printk line; never an LSR spin while
 * COM1 keeps up (the boot's case: the console's backlog stays low).
 * Fails if the model made the guest read or poll once more per byte or
 * per line, or lost a byte. */
static void test_linux_console_exits_per_byte(void **state)
{
	char line[81];
	unsigned bytes = 0, lines = 200;

	(void)state;
	memset(line, 'k', 79);
	line[79] = '\n';
	line[80] = 0;
	for (int fifo = 0; fifo < 2; fifo++) {
		accesses = lsr_spins = 0;
		bytes = (unsigned)vm.uart.tx_bytes;
		for (unsigned i = 0; i < lines; i++)
			console_write_linux(line, fifo);
		bytes = (unsigned)vm.uart.tx_bytes - bytes;
		assert_int_equal(bytes, lines * 81);	/* with the '\r' */
		assert_int_equal(lsr_spins, 0);
		if (fifo)
			assert_int_equal(accesses,
					 lines * ((81 + 15) / 16 + 81 + 4));
		else
			assert_int_equal(accesses, lines * (2 * 81 + 4));
		print_message("console %s: %u exits for %u bytes (%u.%02u "
			      "per byte)\n", fifo ? "with FIFO" : "byte by byte",
			      accesses, bytes, accesses / bytes,
			      accesses * 100 / bytes % 100);
	}
	assert_int_equal(vm.uart.tx_dropped, 0);
}

/* COM1 behind (its backlog over VUART_DRAIN_BELOW: nothing drains): with
 * vuart_fifo_temt, 20 Linux console lines cost no LSR spin, the buffer
 * has room; with the old rule (TEMT once the buffer is empty) each line's
 * wait for TEMT runs Linux's 10,000 reads out. */
static void test_linux_console_com1_behind(void **state)
{
	char line[81];

	(void)state;
	memset(line, 'b', 79);
	line[79] = '\n';
	line[80] = 0;
	backlog = 100000;
	for (int old = 0; old < 2; old++) {
		vuart_set_fifo_temt(!old);
		lsr_spins = 0;
		for (unsigned i = 0; i < 20; i++)
			console_write_linux(line, false);
		assert_int_equal(lsr_spins, old ? 20 * 10000 : 0);
		print_message("COM1 behind, %s: %u LSR spins for 20 lines\n",
			      old ? "old TEMT" : "TEMT with THRE", lsr_spins);
	}
	assert_int_equal(vm.uart.tx_dropped, 0);
	assert_int_equal(vm.uart.tx_count, 2 * 20 * 81);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_identifies_as_16550a, setup),
		cmocka_unit_test_setup(test_tx_full_not_ready_then_drained, setup),
		cmocka_unit_test_setup(test_drain_waits_for_com1, setup),
		cmocka_unit_test_setup(test_thre_interrupts, setup),
		cmocka_unit_test_setup(test_receive_fifo, setup),
		cmocka_unit_test_setup(test_divisor_latch, setup),
		cmocka_unit_test_setup(test_attached_raw, setup),
		cmocka_unit_test_setup(test_attach_flushes_then_raw, setup),
		cmocka_unit_test_setup(test_reset_keeps_attach, setup),
		cmocka_unit_test_setup(test_long_lines_whole, setup),
		cmocka_unit_test_setup(test_linux_console_exits_per_byte, setup),
		cmocka_unit_test_setup(test_linux_console_com1_behind, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
