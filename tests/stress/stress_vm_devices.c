/* Two vCPUs of one VM on two CPUs (issue 30, docs/smp.md "The device
 * lock", "A VM on several CPUs"), built with -fsanitize=thread (make
 * stress): two threads stand for vCPU 0 on CPU 0 and vCPU 1 on CPU 1,
 * placed as cpus=0,1 would place them (two slots), each with its own
 * struct percpu (test_this_cpu). Both ways: vCPU 0 sends vCPU 1 fixed
 * IPIs and raises IOAPIC interrupts for it (vipi_device_irq under the
 * device lock: posted, never raised from the wrong CPU), and both change
 * the VM's "EPT" under its EPT lock with the flush reaching the other
 * CPU (vm_mailbox_ept_flush, as hv/vm/vm_mem.c does); each drains only
 * its own slot's mail at its "entry". Both hammer the VM's vUART as port-I/O
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
	(void)vsnprintf(buf, sizeof(buf), fmt, ap);
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
static unsigned long taken1;	/* vCPU 1's interrupts (its thread's) */
static unsigned long ept_edits;	/* under the EPT lock */
static unsigned long invepts[2];	/* per CPU, by its own thread */
static unsigned long flush_timeouts;	/* under the EPT lock */

int vmx_invept(uint64_t eptp)
{
	(void)eptp;
	invepts[me->index]++;
	return 0;
}

/* An entry of this CPU's vCPU: its slot's mail drained (an INVEPT
 * asked of this CPU done), then out of the "guest" at once. */
static void enter(void)
{
	vm_mailbox_enter(vm);
	xcpu_guest_exit();
}

/* vCPU 0's side of an entry: the mailbox drained into its vLAPIC, its
 * interrupts and NMI taken. */
static void vcpu0_entry(void)
{
	struct vcpu *vc = &vm->vcpus[0];
	int vec;

	enter();
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

/* vCPU 1's: the vectors vCPU 0 and the IOAPIC sent it. */
static void vcpu1_entry(void)
{
	struct vcpu *vc = &vm->vcpus[1];
	int vec;

	enter();
	while ((vec = vlapic_pending(vc->lapic)) >= 0) {
		vlapic_accept(vc->lapic, vec);
		(void)vlapic_eoi(vc->lapic);
		taken1++;
	}
}

/* An EPT change of the VM from this CPU: under its EPT lock, flushed on
 * both CPUs (this one at once, the other through its slot). */
static void ept_change(void)
{
	rlock_take(&vm->ept_lock, me->index);
	ept_edits++;
	if (!vm_mailbox_ept_flush(vm))
		flush_timeouts++;
	rlock_drop(&vm->ept_lock, me->index);
}

/* This CPU's vCPU writes its ICR (a vLAPIC exit, outside the device
 * lock) and the IPI goes out: to the sibling on the other CPU, through
 * its mailbox. */
static void send_ipi(uint32_t mode, uint8_t vec, unsigned dest)
{
	struct vlapic *l = vm_vcpu(vm)->lapic;

	l->icr = (uint64_t)dest << 32 | 1u << 14 | mode << 8 | vec;
	l->icr_sent = true;
	vipi_send(vm);
}

static unsigned done0;			/* vCPU 0 finished (atomic) */

static void *vcpu0(void *arg)
{
	(void)arg;
	me = &cpus[0];
	vm_set_vcpu(vm, &vm->vcpus[0]);
	for (unsigned i = 0; i < ITERS / LINE; i++) {
		vcpu0_entry();
		guest_line('a', &spins0);
		send_ipi(IPI_FIXED, (uint8_t)(0x60 + i % 16), 1);
		if (i % 4 == 0) {	/* an IOAPIC pin routed to vCPU 1 */
			vm_dev_lock(vm);
			vipi_device_irq(vm, 0x70, false, 1, false);
			vm_dev_unlock(vm);
		}
		if (i % 16 == 0)
			ept_change();
		drain();
	}
	__atomic_store_n(&done0, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&done1, __ATOMIC_ACQUIRE))
		vcpu0_entry();
	vcpu0_entry();
	return NULL;
}

static void *vcpu1(void *arg)
{
	(void)arg;
	me = &cpus[1];
	vm_set_vcpu(vm, &vm->vcpus[1]);
	for (unsigned i = 0; i < ITERS / LINE; i++) {
		vcpu1_entry();
		guest_line('b', &spins1);
		send_ipi(IPI_FIXED, (uint8_t)(0x40 + i % 32), 0);
		if (i % 8 == 0)
			send_ipi(IPI_NMI, 0, 0);
		if (i % 16 == 8)
			ept_change();
		drain();
	}
	while (!__atomic_load_n(&done0, __ATOMIC_ACQUIRE))
		vcpu1_entry();
	vcpu1_entry();
	__atomic_store_n(&done1, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void setup(void)
{
	cpus[0].index = 0, cpus[1].index = 1;
	cpus[0].self = &cpus[0], cpus[1].self = &cpus[1];
	vm->id = 1;
	vm->cpu = 0;		/* the VM's home CPU: vCPU 0's */
	vm->nr_vcpus = 2;
	vm->nr_cpus = 2;	/* cpus=0,1: vCPU i on CPU i, slot i */
	vm->cpus[0] = 0, vm->cpus[1] = 1;
	vm->cpu_mask = 0x3;
	vm->state = VM_RUNNABLE;
	vm->dev_lock = (struct rlock)RLOCK_INIT;
	vm->ept_lock = (struct rlock)RLOCK_INIT;
	strcpy(vm->name, "dev");
	for (unsigned i = 0; i < 2; i++) {
		vm->vcpus[i].idx = i;
		vm->vcpus[i].cpu = i;	/* vCPU i on CPU i */
		vm->vcpus[i].slot = (uint8_t)i;
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
	const unsigned long rounds = ITERS / LINE;
	const unsigned long sends = 2 * rounds + (rounds + 7) / 8;
	const unsigned long irqs = (rounds + 3) / 4;
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
	/* Fixed IPIs count as delivered when posted (both ways, every one
	 * to the other CPU), NMIs when their CPU applies them. */
	if (vm->stats.ipis_delivered !=
	    vm_mailbox_stats()->ipis_drained + 2 * rounds)
		return fail("IPIs delivered", vm->stats.ipis_delivered,
			    vm_mailbox_stats()->ipis_drained + 2 * rounds);
	if (!fixed_taken || !nmis_taken)
		return fail("interrupts and NMIs vCPU 0 took",
			    !fixed_taken ? fixed_taken : nmis_taken, 1);
	/* vCPU 1's IRR bits were raised by its own thread only (TSan), and
	 * every vector vCPU 0 and the IOAPIC sent it arrived (a vector sent
	 * again before its drain is one IRR bit: at least one each). */
	if (vm_mailbox_stats()->posted != 2 * rounds + irqs)
		return fail("vectors posted across CPUs",
			    vm_mailbox_stats()->posted, 2 * rounds + irqs);
	if (!taken1)
		return fail("interrupts vCPU 1 took", taken1, 1);
	if (ept_edits != (rounds + 15) / 16 + (rounds + 7) / 16)
		return fail("EPT changes", ept_edits,
			    (rounds + 15) / 16 + (rounds + 7) / 16);
	/* Each change: an INVEPT on its own CPU at once, and one on the
	 * other at its next entry (or none, if a later request merged with
	 * it: the flag is one word per CPU). */
	if (invepts[0] < (rounds + 15) / 16 || invepts[1] < (rounds + 7) / 16)
		return fail("INVEPTs on the changing CPU", invepts[0],
			    (rounds + 15) / 16);
	if (vm->ept_lock.owner != RLOCK_FREE)
		return fail("EPT lock left held", vm->ept_lock.owner, 0);
	if (vm->dev_lock.owner != RLOCK_FREE)
		return fail("device lock left held", vm->dev_lock.owner, 0);
	printf("stress-vm: %lu lines, %lu bytes dropped, %lu fixed IPIs and "
	       "%lu NMIs taken by vCPU 0, %lu interrupts by vCPU 1 (%llu "
	       "posted, %llu drained); %lu EPT changes, INVEPTs %lu on CPU 0 "
	       "and %lu on CPU 1, %lu flush waits timed out; device "
	       "lock: %llu takes, %llu found held, %llu spins\n",
	       lines, (unsigned long)u->tx_dropped, fixed_taken, nmis_taken,
	       taken1, (unsigned long long)vm_mailbox_stats()->posted,
	       (unsigned long long)vm_mailbox_stats()->drained, ept_edits,
	       invepts[0], invepts[1], flush_timeouts,
	       (unsigned long long)vm->dev_lock.takes,
	       (unsigned long long)vm->dev_lock.contended,
	       (unsigned long long)vm->dev_lock.spins);
	printf("stress-vm: PASS\n");
	return 0;
}
