#include "boot/boot_info.h"
#include "hv/console/console.h"
#include "hv/console/console_fb.h"
#include "hv/console/uart16550.h"
#include "hv/cpu/percpu.h"
#include "hv/cpu/x86.h"
#include "mini/stdio.h"
#include "mini/string.h"

#define DEBUG_PORT_E9 0xe9
#define LOG_RING_SIZE (64 * 1024)
#define LINE_MAX 512

static char ring_buf[LOG_RING_SIZE];
static struct log_ring ring;
static unsigned sinks = CONSOLE_COM1;
static bool com1_present;

/* COM1 is slow (115200 baud: 87 us a byte) and must never be waited for
 * in a VM exit. Once the scheduler runs (console_set_async), console_write
 * only appends to the ring; COM1 is fed from it, as much as its transmit
 * FIFO takes without waiting, whenever the hypervisor passes by
 * (console_poll: between slices, on guest UART accesses, on a preemption
 * timer while bytes wait). com1_at is the ring position (bytes ever
 * written) COM1 has been given; bytes overwritten before COM1 got them
 * are counted in com1_lost and said once COM1 catches up. Guest output
 * only enters the ring while the backlog is small (hv/vm/vuart.c), so
 * what can be lost is the hypervisor's own flood. */
static uint64_t com1_at, com1_lost, com1_lost_said;
static bool com1_cr_sent;	/* the '\r' before the '\n' at com1_at */
static bool com1_async;

/* Bytes typed on COM1, moved out of the UART's 16-byte FIFO whenever the
 * console is busy printing (guest output can be long) so none are lost. */
#define RX_RING_SIZE 256
static uint8_t rx_ring[RX_RING_SIZE];
static unsigned rx_head, rx_tail;

/* Every CPU prints here once APs run VMs (docs/smp.md): one lock over
 * the ring, COM1's position and the input ring. Held by a CPU, not a
 * caller: the same CPU may take it again (a caller keeping its pieces
 * together around kprintf, an exception while printing), so the owner is
 * the CPU index from the per-CPU area and the depth is counted. Before
 * the BSP starts the APs (console_smp_begin) there is no lock to take,
 * and this_cpu() may not be valid yet. The hypervisor runs with
 * interrupts off, so no handler can interrupt a holder on its own CPU. */
#define NO_OWNER 0xffffffffu
static bool smp_locking;
static uint32_t lock_owner = NO_OWNER;
static unsigned lock_depth;

void console_smp_begin(void)
{
	smp_locking = true;
}

void console_lock(void)
{
	uint32_t me, free_;

	if (!smp_locking)
		return;
	me = this_cpu()->index;
	if (__atomic_load_n(&lock_owner, __ATOMIC_RELAXED) == me) {
		lock_depth++;
		return;
	}
	for (;;) {
		free_ = NO_OWNER;
		if (__atomic_compare_exchange_n(&lock_owner, &free_, me, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			break;
		cpu_relax();
	}
	lock_depth = 1;
}

void console_unlock(void)
{
	if (!smp_locking || --lock_depth)
		return;
	__atomic_store_n(&lock_owner, NO_OWNER, __ATOMIC_RELEASE);
}

void console_init(void)
{
	log_ring_init(&ring, ring_buf, sizeof(ring_buf));
	com1_present = uart_present(COM1_BASE);
	if (com1_present)
		uart_init(COM1_BASE, 115200);
	else
		sinks = 0;	/* the ring keeps it for the sinks hv.cfg names */
}

static bool com1_on(void)
{
	return com1_present && (sinks & CONSOLE_COM1);
}

/* The byte at ring position `at` (held: at >= the oldest). */
static char ring_byte(uint64_t at)
{
	char c = 0;

	log_ring_read(&ring, (size_t)(at - (ring.head - log_ring_used(&ring))),
		      &c, 1);
	return c;
}

/* Terminals want CR LF; the ring and 0xE9 keep LF. */
static void com1_send_next(bool wait)
{
	char c = ring_byte(com1_at);

	if (c == '\n' && !com1_cr_sent) {
		wait ? uart_putc(COM1_BASE, '\r') : uart_tx_byte(COM1_BASE, '\r');
		com1_cr_sent = true;
		return;
	}
	wait ? uart_putc(COM1_BASE, c) : uart_tx_byte(COM1_BASE, c);
	com1_cr_sent = false;
	com1_at++;
}

/* Feeds COM1 from the ring: with `wait`, everything (polling the UART);
 * without, one FIFO's worth if the FIFO is empty, else nothing. */
static void com1_pump(bool wait)
{
	uint64_t oldest = ring.head - log_ring_used(&ring);

	if (!com1_on()) {
		com1_at = ring.head;
		return;
	}
	if (com1_at < oldest) {
		com1_lost += oldest - com1_at;
		com1_at = oldest;
		com1_cr_sent = false;
	}
	if (!wait && (com1_at == ring.head || !uart_tx_empty(COM1_BASE)))
		return;
	for (unsigned k = 0; com1_at < ring.head && (wait || k < UART_TX_FIFO);
	     k++)
		com1_send_next(wait);
}

static void sink_write(unsigned mask, const char *s, size_t n)
{
	if (mask & CONSOLE_E9)
		for (size_t i = 0; i < n; i++)
			outb(DEBUG_PORT_E9, (uint8_t)s[i]);
	if (mask & CONSOLE_FB)
		console_fb_write(s, n);
}

static void replay_ring(unsigned mask)
{
	char chunk[256];
	size_t from = 0, n;

	while ((n = log_ring_read(&ring, from, chunk, sizeof(chunk))) > 0) {
		sink_write(mask, chunk, n);
		from += n;
	}
}

static void console_set_sinks_held(unsigned mask)
{
	bool no_com1 = (mask & CONSOLE_COM1) && !com1_present;
	unsigned added;

	if (no_com1)
		mask = (mask & ~CONSOLE_COM1) | CONSOLE_FB;
	added = mask & ~sinks & ~CONSOLE_FB;
	if (added & ~CONSOLE_COM1)
		replay_ring(added & ~CONSOLE_COM1);
	if (added & CONSOLE_COM1)	/* COM1 replays from the oldest byte */
		com1_at = ring.head - log_ring_used(&ring);
	sinks = mask;
	com1_pump(!com1_async);
	if (no_com1)
		kprintf("console: no serial port answers at 0x3F8 (scratch "
			"register test): the console goes to the screen\n");
}

void console_set_sinks(unsigned mask)
{
	console_lock();
	console_set_sinks_held(mask);
	console_unlock();
}

unsigned console_sinks(void)
{
	return sinks;
}

static void console_write_held(const char *s, size_t n)
{
	log_ring_write(&ring, s, n);
	sink_write(sinks, s, n);
	com1_pump(!com1_async);
	console_rx_poll();
}

void console_write(const char *s, size_t n)
{
	console_lock();
	console_write_held(s, n);
	console_unlock();
}

bool console_write_e9(const char *s, size_t n)
{
	bool on;

	console_lock();
	on = sinks & CONSOLE_E9;
	if (on)
		sink_write(CONSOLE_E9, s, n);
	console_unlock();
	return on;
}

static void console_set_async_held(bool async)
{
	com1_async = async;
	com1_pump(!async);
}

void console_set_async(bool async)
{
	console_lock();
	console_set_async_held(async);
	console_unlock();
}

static void console_poll_held(void)
{
	com1_pump(false);
	if (com1_lost != com1_lost_said && com1_at == ring.head) {
		com1_lost_said = com1_lost;
		kprintf("console: %llu bytes of output were lost before COM1 "
			"could send them (the log ring holds %u)\n",
			(unsigned long long)com1_lost, LOG_RING_SIZE);
	}
}

void console_poll(void)
{
	console_lock();
	console_poll_held();
	console_unlock();
}

static void console_flush_held(void)
{
	com1_pump(true);
}

void console_flush(void)
{
	console_lock();
	console_flush_held();
	console_unlock();
}

/* Unlocked: a glance (two aligned 64-bit reads) that the caller only
 * uses to decide whether to poll or hold output back. */
size_t console_backlog(void)
{
	return com1_on() ? (size_t)(ring.head - com1_at) : 0;
}

void kvprintf(const char *fmt, va_list ap)
{
	char line[LINE_MAX];
	int n = vsnprintf(line, sizeof(line), fmt, ap);

	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	console_write(line, (size_t)n);
}

void kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
}

static const char *const level_tag[] = {
	[LOG_ERR] = "error: ",
	[LOG_WARN] = "warning: ",
	[LOG_INFO] = "",
	[LOG_DEBUG] = "debug: ",
};

void klog(enum log_level level, const char *who, const char *fmt, ...)
{
	va_list ap;

	console_lock();		/* one line, whoever else prints */
	kprintf("%s: %s", who, level_tag[level]);
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	console_write("\n", 1);
	console_unlock();
}

static void console_rx_poll_held(void)
{
	uint8_t c;

	/* A missing UART reads 0xFF, "data ready", forever: not input. */
	while ((rx_head + 1) % RX_RING_SIZE != rx_tail &&
	       ((com1_present && uart_getc(COM1_BASE, &c)) ||
		console_fb_getc(&c))) {
		rx_ring[rx_head] = c;
		rx_head = (rx_head + 1) % RX_RING_SIZE;
	}
}

void console_rx_poll(void)
{
	console_lock();
	console_rx_poll_held();
	console_unlock();
}

/* The next input byte, taken off the ring when consume is set. */
static bool rx_next(uint8_t *out, bool consume)
{
	bool r;

	console_lock();
	console_rx_poll_held();
	r = rx_tail != rx_head;
	if (r) {
		*out = rx_ring[rx_tail];
		if (consume)
			rx_tail = (rx_tail + 1) % RX_RING_SIZE;
	}
	console_unlock();
	return r;
}

bool console_peekc(uint8_t *out)
{
	return rx_next(out, false);
}

bool console_getc(uint8_t *out)
{
	return rx_next(out, true);
}

const struct log_ring *console_ring(void)
{
	return &ring;
}
