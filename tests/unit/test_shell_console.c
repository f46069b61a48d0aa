/* hv/shell/shell_console.c with the real vUART (hv/vm/vuart.c) and device
 * lock (hv/cpu/rlock.c): `console VM` for a VM on another CPU than the
 * shell's. The shell (CPU 0) never touches that VM's vUART: it attaches
 * and types through the VM's mailbox and a VM_REQ_CONSOLE request with a
 * kick, and the VM's CPU (the test switches to CPU 1) carries it out with
 * shell_console_serve under the device lock. A VM of the shell's own CPU
 * is served at once. The console, the IOAPIC and the kick are recorders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hv/cpu/xcpu.h"
#include "hv/shell/shell_console.h"
#include "hv/smp.h"
#include "hv/vm/vm.h"
#include "hv/vm/vuart.h"

struct vm vms[VM_MAX];
unsigned nr_vms = 3;

static struct percpu cpus[2];
static struct percpu *me = &cpus[0];
static unsigned kicks[2];
static char printed[4096];
static const char *typed;	/* what the operator typed, not yet read */
static unsigned irqs;

struct percpu *test_this_cpu(void) { return me; }
struct percpu *smp_cpu(unsigned i) { return i < 2 ? &cpus[i] : NULL; }
bool xcpu_kick(struct percpu *p)
{
	kicks[p->index]++;
	return true;
}
uint64_t tsc_hz(void) { return 1000; }	/* RETRY_MS: 10 ticks */
/* The VM's interrupt goes into its vLAPIC: only its own CPU may. */
void vioapic_assert(struct vm *vm, unsigned pin)
{
	assert_int_equal(pin, VUART_IRQ);
	assert_int_equal(me->index, vm->cpu);
	irqs++;
}

void kprintf(const char *fmt, ...)
{
	size_t n = strlen(printed);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(printed + n, sizeof(printed) - n, fmt, ap);
	va_end(ap);
}

void console_write(const char *s, size_t n)
{
	size_t have = strlen(printed);

	if (have + n < sizeof(printed)) {
		memcpy(printed + have, s, n);
		printed[have + n] = 0;
	}
}

void console_lock(void) { }
void console_unlock(void) { }
void console_rx_poll(void) { }
void console_poll(void) { }
size_t console_backlog(void) { return 0; }
void shell_prompt(void) { kprintf("hv> "); }

bool console_peekc(uint8_t *out)
{
	if (!typed || !*typed)
		return false;
	*out = (uint8_t)*typed;
	return true;
}

bool console_getc(uint8_t *out)
{
	if (!console_peekc(out))
		return false;
	typed++;
	return true;
}

static struct vm *const alpha = &vms[0];	/* on CPU 1 */
static struct vm *const beta = &vms[1];		/* the shell's CPU 0 */
static struct vm *const gamma = &vms[2];	/* CPU 0 too */

static int setup(void **state)
{
	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		memset(&vms[i], 0, sizeof(vms[i]));
		vms[i].id = i;
		vms[i].dev_lock = (struct rlock)RLOCK_INIT;
		vms[i].state = VM_RUNNABLE;
	}
	for (unsigned i = 0; i < 2; i++) {
		cpus[i].index = i;
		kicks[i] = 0;
	}
	strcpy(gamma->name, "gamma");
	gamma->cpu = 0;
	strcpy(alpha->name, "alpha");
	alpha->cpu = 1;
	strcpy(beta->name, "beta");
	beta->cpu = 0;
	me = &cpus[0];
	printed[0] = 0;
	typed = NULL;
	irqs = 0;
	return 0;
}

/* CPU 1 between two slices: what hv/orchestrate.c's take_requests does
 * for its VM. False when nothing was asked. */
static bool cpu1_takes_requests(void)
{
	uint32_t r = __atomic_exchange_n(&alpha->requests, 0,
					 __ATOMIC_ACQUIRE);

	if (!(r & VM_REQ_CONSOLE))
		return false;
	me = &cpus[1];
	shell_console_serve(alpha);
	me = &cpus[0];
	return true;
}

/* The guest's driver: receive interrupts on, OUT2 lets them out. */
static void guest_irq_on(struct vm *vm)
{
	uint32_t v = 0x01;		/* IER.ERBFI */

	vuart_io(vm, 1, false, &v);
	v = 0x08;			/* MCR.OUT2 */
	vuart_io(vm, 4, false, &v);
}

/* The guest reads its receive FIFO empty: n bytes into buf. */
static unsigned guest_reads(struct vm *vm, char *buf)
{
	unsigned n = 0;
	uint32_t v;

	for (;;) {
		vuart_io(vm, 5, true, &v);	/* LSR */
		if (!(v & 1))
			return n;
		vuart_io(vm, 0, true, &v);	/* RBR */
		buf[n++] = (char)v;
	}
}

/* Attach, type a line, detach on an AP's VM: each step is only asked of
 * CPU 1, which then does it; the line arrives whole; the guest's output
 * comes raw while attached and with its prefix again after. */
static void test_ap_vm_attach_type_detach(void **state)
{
	char got[32] = { 0 };

	(void)state;
	me = &cpus[1];
	guest_irq_on(alpha);
	me = &cpus[0];
	assert_int_equal(shell_console_attach(alpha), 0);
	assert_non_null(strstr(printed, "console: attached to vm 'alpha'"));
	assert_true(shell_console_attached());
	assert_false(alpha->uart.attached);	/* not CPU 0's to set */
	assert_int_equal(kicks[1], 1);
	assert_true(cpu1_takes_requests());
	assert_true(alpha->uart.attached);
	assert_int_equal(alpha->dev_lock.owner, RLOCK_FREE);

	typed = "ls\r";
	assert_true(shell_console_poll());
	assert_int_equal(alpha->uart.rx_count, 0);	/* in the mailbox */
	assert_int_equal(kicks[1], 2);
	assert_true(cpu1_takes_requests());
	assert_true(irqs > 0);
	me = &cpus[1];
	assert_int_equal(guest_reads(alpha, got), 3);
	me = &cpus[0];
	assert_string_equal(got, "ls\r");
	assert_int_equal(alpha->uart.rx_overruns, 0);

	printed[0] = 0;
	vuart_putc(alpha, 'o');
	vuart_putc(alpha, 'k');
	assert_string_equal(printed, "ok");

	typed = "\x01.";
	assert_false(shell_console_poll());
	assert_false(shell_console_attached());
	assert_non_null(strstr(printed, "console: detached from vm 'alpha'"));
	assert_true(alpha->uart.attached);	/* until CPU 1 takes it */
	assert_true(cpu1_takes_requests());
	assert_false(alpha->uart.attached);
	printed[0] = 0;
	vuart_putc(alpha, 'x');
	vuart_putc(alpha, '\n');
	assert_string_equal(printed, "[alpha] x\n");
	assert_int_equal(alpha->dev_lock.owner, RLOCK_FREE);
	assert_int_equal(alpha->dev_lock.contended, 0);
}

/* More typed than the guest's FIFO holds: the rest waits in the mailbox,
 * no byte overruns the FIFO; the shell does not ask again while a request
 * is pending, and asks again once CPU 1 took the last one; the guest gets
 * every byte in order. */
static void test_ap_vm_fifo_full_waits(void **state)
{
	static const char line[] = "0123456789abcdefghij\r";	/* 21 */
	char got[64] = { 0 };
	unsigned n;

	(void)state;
	me = &cpus[1];
	guest_irq_on(alpha);
	me = &cpus[0];
	assert_int_equal(shell_console_attach(alpha), 0);
	typed = line;
	assert_true(shell_console_poll());
	assert_true(cpu1_takes_requests());
	assert_int_equal(alpha->uart.rx_count, VUART_FIFO);
	assert_true(shell_console_poll());	/* due: nothing pending */
	unsigned k = kicks[1];
	assert_true(shell_console_poll());	/* pending: no new kick */
	assert_int_equal(kicks[1], k);
	me = &cpus[1];
	n = guest_reads(alpha, got);
	me = &cpus[0];
	assert_int_equal(n, VUART_FIFO);
	assert_true(cpu1_takes_requests());
	me = &cpus[1];
	n += guest_reads(alpha, got + n);
	me = &cpus[0];
	assert_int_equal(n, sizeof(line) - 1);
	assert_string_equal(got, line);
	assert_int_equal(alpha->uart.rx_overruns, 0);
	assert_true(irqs > 0);		/* raised on CPU 1, by serve */
	typed = "\x01.";
	assert_false(shell_console_poll());
	assert_true(cpu1_takes_requests());
	assert_false(cpu1_takes_requests());	/* nothing more asked */
}

/* A VM of the shell's own CPU: attached and fed at once, nobody kicked. */
static void test_own_cpu_vm_direct(void **state)
{
	char got[8] = { 0 };

	(void)state;
	guest_irq_on(beta);
	vuart_putc(beta, 'h');			/* half a line before */
	assert_int_equal(shell_console_attach(beta), 0);
	assert_true(beta->uart.attached);
	assert_non_null(strstr(printed, "[beta] h\nconsole: attached"));
	typed = "ab";
	assert_true(shell_console_poll());
	assert_int_equal(guest_reads(beta, got), 2);
	assert_string_equal(got, "ab");
	typed = "\x01.";
	assert_false(shell_console_poll());
	assert_false(beta->uart.attached);
	assert_int_equal(kicks[0] + kicks[1], 0);
	assert_int_equal(beta->requests, 0);
}

/* A VM of the shell's CPU whose device lock another CPU holds (a vCPU of
 * it there, in an exit that may want the mediator lock the shell holds):
 * the shell does not wait; attach, bytes and detach are done in the
 * first round after the lock is free. */
static void test_own_cpu_vm_lock_busy(void **state)
{
	char got[8] = { 0 };

	(void)state;
	rlock_take(&beta->dev_lock, 1);
	assert_int_equal(shell_console_attach(beta), 0);
	assert_false(beta->uart.attached);
	typed = "ok";
	assert_true(shell_console_poll());
	assert_int_equal(beta->uart.rx_count, 0);
	rlock_drop(&beta->dev_lock, 1);
	assert_true(shell_console_poll());
	assert_true(beta->uart.attached);
	assert_int_equal(guest_reads(beta, got), 2);
	assert_string_equal(got, "ok");
	rlock_take(&beta->dev_lock, 1);
	typed = "\x01.";
	assert_false(shell_console_poll());
	assert_false(shell_console_attached());
	assert_true(beta->uart.attached);	/* lock busy: not yet */
	assert_false(shell_console_poll());
	assert_true(beta->uart.attached);
	rlock_drop(&beta->dev_lock, 1);
	assert_false(shell_console_poll());
	assert_false(beta->uart.attached);
	assert_int_equal(kicks[0] + kicks[1], 0);
}

/* Two VMs of the shell's CPU: beta's detach waits for its busy lock
 * while gamma is attached and detached; beta's is still done once its
 * lock is free. */
static void test_own_cpu_two_busy(void **state)
{
	(void)state;
	assert_int_equal(shell_console_attach(beta), 0);
	assert_true(beta->uart.attached);
	rlock_take(&beta->dev_lock, 1);
	typed = "\x01.";
	assert_false(shell_console_poll());
	assert_int_equal(shell_console_attach(gamma), 0);
	assert_true(gamma->uart.attached);
	typed = "\x01.";
	assert_false(shell_console_poll());
	assert_false(gamma->uart.attached);
	assert_true(beta->uart.attached);	/* still busy */
	rlock_drop(&beta->dev_lock, 1);
	assert_false(shell_console_poll());
	assert_false(beta->uart.attached);
}

/* The AP's VM stops with bytes in its mailbox: CPU 1 drops them, the
 * shell detaches; a stopped VM cannot be attached. */
static void test_ap_vm_stopped(void **state)
{
	(void)state;
	assert_int_equal(shell_console_attach(alpha), 0);
	typed = "abc";
	assert_true(shell_console_poll());
	alpha->state = VM_STOPPED;
	assert_true(cpu1_takes_requests());
	assert_int_equal(alpha->uart.rx_count, 0);
	assert_false(shell_console_poll());
	assert_non_null(strstr(printed, "detached from vm 'alpha' (it "
				"stopped)"));
	assert_true(cpu1_takes_requests());
	assert_false(alpha->uart.attached);
	assert_int_equal(shell_console_attach(alpha), -1);
	assert_non_null(strstr(printed, "has stopped: nothing to attach"));
	assert_false(shell_console_attached());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_ap_vm_attach_type_detach, setup),
		cmocka_unit_test_setup(test_ap_vm_fifo_full_waits, setup),
		cmocka_unit_test_setup(test_own_cpu_vm_direct, setup),
		cmocka_unit_test_setup(test_own_cpu_vm_lock_busy, setup),
		cmocka_unit_test_setup(test_own_cpu_two_busy, setup),
		cmocka_unit_test_setup(test_ap_vm_stopped, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
