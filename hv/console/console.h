/* The hypervisor console: everything printed goes to the log ring and to the
 * enabled sinks (COM1, the screen, and the 0xE9 debug port in emulators). */
#ifndef HV_CONSOLE_H
#define HV_CONSOLE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hv/console/log_ring.h"

enum console_sink {
	CONSOLE_COM1 = 1u << 0,
	CONSOLE_E9 = 1u << 1,
	CONSOLE_FB = 1u << 2,	/* the screen: hv/console/console_fb.c */
};

enum log_level { LOG_ERR, LOG_WARN, LOG_INFO, LOG_DEBUG };

void console_init(void);
/* Switches sinks. A sink that becomes enabled first receives the ring's
 * content, so nothing printed before the config was read is lost to it
 * (the screen draws the ring's end itself when it is attached). COM1 when
 * no UART answers there becomes the screen, and the console says so. */
void console_set_sinks(unsigned mask);
unsigned console_sinks(void);
void console_write(const char *s, size_t n);
/* Bulk text for the 0xE9 port alone, past the log ring and COM1 (an
 * emulator writes it to a file at once; hv/shell/shell_screen_cmds.c's
 * dump): false, nothing written, when E9 is not a sink. */
bool console_write_e9(const char *s, size_t n);
/* Several CPUs print once APs run VMs (docs/smp.md). console_smp_begin:
 * from now on every console function takes the console lock (the BSP
 * calls it before it starts the APs). console_lock/unlock: keep several
 * writes together as one piece of output; the same CPU may nest them. */
void console_smp_begin(void);
void console_lock(void);
void console_unlock(void);
/* Asynchronous COM1 (from the scheduler's start): console_write no longer
 * waits for COM1; console_poll feeds it what its FIFO takes right now,
 * console_flush waits until it has everything (before the machine stops),
 * console_backlog is how many bytes COM1 still has to send. */
void console_set_async(bool async);
void console_poll(void);
void console_flush(void);
size_t console_backlog(void);
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kvprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* One log line: "<who>: <message>\n", with an "error"/"warning" tag. */
void klog(enum log_level level, const char *who, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool console_getc(uint8_t *out);
/* The next typed byte without taking it (console_getc takes it): lets a
 * reader leave input waiting while its destination is full. */
bool console_peekc(uint8_t *out);
/* Drains COM1's receive FIFO into the console's input ring; called while
 * printing and between VM slices so typed input survives guest output. */
void console_rx_poll(void);
const struct log_ring *console_ring(void);

#define pr_err(who, ...) klog(LOG_ERR, who, __VA_ARGS__)
#define pr_warn(who, ...) klog(LOG_WARN, who, __VA_ARGS__)
#define pr_info(who, ...) klog(LOG_INFO, who, __VA_ARGS__)

#endif
