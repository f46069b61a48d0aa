#include "hv/console.h"
#include "hv/console_fb.h"
#include "hv/uart16550.h"
#include "hv/x86.h"
#include "mini/stdio.h"
#include "mini/string.h"

#define DEBUG_PORT_E9 0xe9
#define LOG_RING_SIZE (64 * 1024)
#define LINE_MAX 512

static char ring_buf[LOG_RING_SIZE];
static struct log_ring ring;
static unsigned sinks = CONSOLE_COM1;
static bool com1_present;

/* Bytes typed on COM1, moved out of the UART's 16-byte FIFO whenever the
 * console is busy printing (guest output can be long) so none are lost. */
#define RX_RING_SIZE 256
static uint8_t rx_ring[RX_RING_SIZE];
static unsigned rx_head, rx_tail;

void console_init(void)
{
	log_ring_init(&ring, ring_buf, sizeof(ring_buf));
	com1_present = uart_present(COM1_BASE);
	if (com1_present)
		uart_init(COM1_BASE, 115200);
	else
		sinks = 0;	/* the ring keeps it for the sinks hv.cfg names */
}

static void sink_write(unsigned mask, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (mask & CONSOLE_COM1) {
			/* Terminals want CR LF; the ring and 0xE9 keep LF. */
			if (s[i] == '\n')
				uart_putc(COM1_BASE, '\r');
			uart_putc(COM1_BASE, s[i]);
		}
		if (mask & CONSOLE_E9)
			outb(DEBUG_PORT_E9, (uint8_t)s[i]);
	}
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

void console_set_sinks(unsigned mask)
{
	bool no_com1 = (mask & CONSOLE_COM1) && !com1_present;
	unsigned added;

	if (no_com1)
		mask = (mask & ~CONSOLE_COM1) | CONSOLE_FB;
	added = mask & ~sinks & ~CONSOLE_FB;
	if (added)
		replay_ring(added);
	sinks = mask;
	if (no_com1)
		kprintf("console: no serial port answers at 0x3F8 (scratch "
			"register test): the console goes to the screen\n");
}

unsigned console_sinks(void)
{
	return sinks;
}

void console_write(const char *s, size_t n)
{
	log_ring_write(&ring, s, n);
	sink_write(sinks, s, n);
	console_rx_poll();
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

	kprintf("%s: %s", who, level_tag[level]);
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	console_write("\n", 1);
}

void console_rx_poll(void)
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

bool console_peekc(uint8_t *out)
{
	console_rx_poll();
	if (rx_tail == rx_head)
		return false;
	*out = rx_ring[rx_tail];
	return true;
}

bool console_getc(uint8_t *out)
{
	console_rx_poll();
	if (rx_tail == rx_head)
		return false;
	*out = rx_ring[rx_tail];
	rx_tail = (rx_tail + 1) % RX_RING_SIZE;
	return true;
}

const struct log_ring *console_ring(void)
{
	return &ring;
}
