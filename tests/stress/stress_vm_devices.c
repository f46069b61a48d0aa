/* Two vCPUs of one VM on two CPUs (issue 30, docs/smp.md "The device
 * lock"), built with -fsanitize=thread (make stress): two threads stand
 * for vCPU 0 on the VM's CPU and vCPU 1 on another, each with its own
 * struct percpu (test_this_cpu). Both hammer the VM's vUART as port-I/O
 * exits do, under the VM's device lock exactly as the exit dispatcher
 * takes it (vm_dev_lock, hv/vm/vmexit.c; hv/cpu/rlock.c linked as is),
 * and drain it to the console as the scheduler does (hv/vm/sched.c).
 * vCPU 1 sends vCPU 0 sibling IPIs through the real vipi_send: fixed
 * vectors and NMIs, which cross CPUs through the mailbox
 * (hv/vm/vm_mailbox.c); vCPU 0 drains them into its own vLAPIC before
 * each "entry", takes each pending interrupt (accept + EOI) and NMI.
 * ThreadSanitizer reports any access to the vUART made outside the lock
 * and any unordered access to the mailbox; at the end every byte written
 * is counted once (sent or dropped), the console got every line and
 * every byte,
 * the IPI counts add up and vCPU 0 took at least one of each kind.
 * Exit status 0 and "stress-vm: PASS" or 1 and the failure. */
#define _GNU_SOURCE	/* the recursive mutex initializer */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hv/cpu/host_irq.h"
#include "hv/cpu/xcpu.h"
#include "hv/smp.h"
#include "hv/vm/vipi.h"
#include "hv/vm/vlapic.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mailbox.h"
#include "hv/vm/vuart.h"

#ifndef ITERS
#define ITERS 20000
#endif
#define LINE 40		/* bytes per guest line, '\n' included */

struct vm vms[VM_MAX];
unsigned nr_vms = 2;

static struct percpu cpus[2];
static __thread struct percpu *me;
static pthread_mutex_t con = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static unsigned long con_letters, con_lines;
static unsigned long irq4_edges;	/* under the device lock */
static unsigned done1;			/* vCPU 1 finished (atomic) */

struct percpu *test_this_cpu(void) { return me; }
struct percpu *smp_cpu(unsigned i) { return i < 2 ? &cpus[i] : NULL; }
int lapic_send_fixed(uint32_t dest, uint8_t vector)
{
	(void)dest, (void)vector;
	return 0;
}
int host_irq_register(uint8_t vector, host_irq_fn fn, void *ctx)
{
	(void)vector, (void)fn, (void)ctx;
	return 0;
}
bool lapic_deadline_ok(void) { return false; }
void lapic_deadline_arm(uint8_t vector, uint64_t tsc) { (void)vector, (void)tsc; }
void host_irq_idle(void) { }
uint64_t tsc_hz(void) { return 1000000; }
int vmx_invept(uint64_t eptp) { (void)eptp; return 0; }
void vioapic_assert(struct vm *vm, unsigned pin)
{
	(void)vm, (void)pin;
	irq4_edges++;	/* TSan: only ever under the device lock */
}
void console_rx_poll(void) { }
void console_poll(void) { }
void console_lock(void) { pthread_mutex_lock(&con); }
void console_unlock(void) { pthread_mutex_unlock(&con); }
size_t console_backlog(void) { return 0; }
void console_write(const char *s, size_t n)
{
	/* Under console_lock, as the vUART calls it: the guests' bytes. */
	for (size_t i = 0; i < n; i++)
		con_letters += s[i] == 'a' || s[i] == 'b';
}
void kprintf(const char *fmt, ...)
{
	char buf[VUART_LINE_MAX + 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&con);
	/* "[dev] " before a line's bytes, "[dev]\n" for an empty one
	 * (both vCPUs write one UART: their bytes interleave, as on a
	 * real one, and two newlines may meet). */
	if (!strncmp(buf, "[dev]", 5))
		con_lines++;
	pthread_mutex_unlock(&con);
}

static struct vm *vm = &vms[1];

/* One port-I/O exit of this CPU's vCPU, as the dispatcher runs it. */
static uint32_t port(unsigned off, bool in, uint32_t v)
{
	vm_dev_lock(vm);
	vuart_io(vm, off, in, &v);
	vm_dev_unlock(vm);
	return v;
}

/* One guest line: LSR polled until THRE, then the bytes. */
static void guest_line(char letter, unsigned long *spins)
{
	for (unsigned i = 0; i < LINE; i++) {
		unsigned n = 0;

		while (!(port(5, true, 0) & 0x20) && n++ < 1000)
			(*spins)++;
		port(0, false, i == LINE - 1 ? '\n' : (uint32_t)letter);
	}
	port(7, false, (uint32_t)letter);	/* scratch */
	(void)port(2, true, 0);			/* IIR */
}

/* The scheduler's drain of the VM's output, under the lock as well. */
static void drain(void)
{
	vm_dev_lock(vm);
	vuart_tx_drain(vm, true);
	vm_dev_unlock(vm);
}

static unsigned long fixed_taken, nmis_taken, spins0, spins1;

/* vCPU 0's side of an entry: the mailbox drained into its vLAPIC, its
 * interrupts and NMI taken. */
static void vcpu0_entry(void)
{
	struct vcpu *vc = &vm->vcpus[0];
	int vec;

	vm_mailbox_drain(vm);
	while ((vec = vlapic_pending(vc->lapic)) >= 0) {
		vlapic_accept(vc->lapic, vec);
		(void)vlapic_eoi(vc->lapic);
		fixed_taken++;
	}
	if (vc->nmi_pending) {
		vc->nmi_pending = false;
		nmis_taken++;
	}
}

static void *vcpu0(void *arg)
{
	(void)arg;
	me = &cpus[0];
	vm_set_vcpu(vm, &vm->vcpus[0]);
	for (unsigned i = 0; i < ITERS / LINE; i++) {
		vcpu0_entry();
		guest_line('a', &spins0);
		drain();
	}
	while (!__atomic_load_n(&done1, __ATOMIC_ACQUIRE))
		vcpu0_entry();
	vcpu0_entry();
	return NULL;
}

/* vCPU 1 writes its ICR (a vLAPIC exit, outside the device lock) and
 * the IPI goes out: to vCPU 0 on the other CPU, through its mailbox. */
static void send_ipi(uint32_t mode, uint8_t vec)
{
	struct vlapic *l = vm_vcpu(vm)->lapic;

	l->icr = 1u << 14 | mode << 8 | vec;	/* destination 0 */
	l->icr_sent = true;
	vipi_send(vm);
}

static void *vcpu1(void *arg)
{
	(void)arg;
	me = &cpus[1];
	vm_set_vcpu(vm, &vm->vcpus[1]);
	for (unsigned i = 0; i < ITERS / LINE; i++) {
		guest_line('b', &spins1);
		send_ipi(IPI_FIXED, (uint8_t)(0x40 + i % 32));
		if (i % 8 == 0)
			send_ipi(IPI_NMI, 0);
		drain();
	}
	__atomic_store_n(&done1, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void setup(void)
{
	cpus[0].index = 0, cpus[1].index = 1;
	cpus[0].self = &cpus[0], cpus[1].self = &cpus[1];
	vm->id = 1;
	vm->cpu = 0;		/* the VM's CPU: vCPU 0's */
	vm->nr_vcpus = 2;
	vm->state = VM_RUNNABLE;
	vm->dev_lock = (struct rlock)RLOCK_INIT;
	strcpy(vm->name, "dev");
	for (unsigned i = 0; i < 2; i++) {
		vm->vcpus[i].idx = i;
		vm->vcpus[i].cpu = i;	/* vCPU i on CPU i */
		vm->vcpus[i].lapic = &vm->lapics[i];
		vm->vcpus[i].run = VCPU_RUN;
		vm->lapics[i].id = i;
		vlapic_reset(&vm->lapics[i]);
		vm->lapics[i].svr |= 0x100;	/* software-enabled */
		vm->lapics[i].apic_base = APIC_BASE_ADDR | APIC_BASE_EN |
					  (i ? 0 : APIC_BASE_BSP);
	}
	vuart_set_fifo_temt(true);
}

static int fail(const char *what, unsigned long got, unsigned long want)
{
	printf("stress-vm: FAIL: %s: %lu, want %lu\n", what, got, want);
	return 1;
}

int main(void)
{
	pthread_t t0, t1;
	const unsigned long lines = 2ul * (ITERS / LINE);
	const unsigned long sends = ITERS / LINE + (ITERS / LINE + 7) / 8;
	const struct vuart *u = &vm->uart;

	setup();
	pthread_create(&t0, NULL, vcpu0, NULL);
	pthread_create(&t1, NULL, vcpu1, NULL);
	pthread_join(t0, NULL);
	pthread_join(t1, NULL);
	me = &cpus[0];
	drain();
	if (u->tx_bytes + u->tx_dropped != lines * LINE)
		return fail("bytes sent + dropped", u->tx_bytes + u->tx_dropped,
			    lines * LINE);
	if (!u->tx_dropped && con_lines != lines)
		return fail("lines on the console", con_lines, lines);
	if (!u->tx_dropped && con_letters != lines * (LINE - 1))
		return fail("guest bytes on the console", con_letters,
			    lines * (LINE - 1));
	if (vm->stats.ipis_sent != sends)
		return fail("IPIs sent", vm->stats.ipis_sent, sends);
	if (vm->stats.ipis_delivered != vm_mailbox_stats()->ipis_drained)
		return fail("NMIs delivered", vm->stats.ipis_delivered,
			    vm_mailbox_stats()->ipis_drained);
	if (!fixed_taken || !nmis_taken)
		return fail("interrupts and NMIs vCPU 0 took",
			    !fixed_taken ? fixed_taken : nmis_taken, 1);
	if (vm->dev_lock.owner != RLOCK_FREE)
		return fail("device lock left held", vm->dev_lock.owner, 0);
	printf("stress-vm: %lu lines, %lu bytes dropped, %lu fixed IPIs and "
	       "%lu NMIs taken by vCPU 0 (%llu posted, %llu drained); device "
	       "lock: %llu takes, %llu found held, %llu spins\n",
	       lines, (unsigned long)u->tx_dropped, fixed_taken, nmis_taken,
	       (unsigned long long)vm_mailbox_stats()->posted,
	       (unsigned long long)vm_mailbox_stats()->drained,
	       (unsigned long long)vm->dev_lock.takes,
	       (unsigned long long)vm->dev_lock.contended,
	       (unsigned long long)vm->dev_lock.spins);
	printf("stress-vm: PASS\n");
	return 0;
}
