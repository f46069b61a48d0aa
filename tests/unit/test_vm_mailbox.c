/* hv/vm/vm_mailbox.c and hv/cpu/xcpu.c: an MSI for a VM on another CPU
 * goes into its vCPU's mailbox and kicks that CPU only while it is in the
 * guest; the VM's CPU drains it into the right vLAPIC before entering; an
 * EPT change of a remote VM asks that CPU to INVEPT and waits, bounded,
 * only when it is in the guest (docs/smp.md "Mediator concurrency"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/cpu/host_irq.h"
#include "hv/cpu/xcpu.h"
#include "hv/smp.h"
#include "hv/vm/vipi.h"
#include "hv/vm/vlapic.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mailbox.h"

struct vm vms[VM_MAX];
unsigned nr_vms;

static struct percpu cpus[2];
static struct percpu *me;
static int ipis, ipi_dest, ipi_vec, invepts, raised[VM_VCPUS_MAX][256];
static int lines;

struct percpu *test_this_cpu(void) { return me; }
struct percpu *smp_cpu(unsigned i) { return i < 2 ? &cpus[i] : NULL; }
int lapic_send_fixed(uint32_t dest, uint8_t vector)
{
	ipis++;
	ipi_dest = (int)dest;
	ipi_vec = vector;
	return 0;
}
int host_irq_register(uint8_t vector, host_irq_fn fn, void *ctx)
{
	(void)vector, (void)fn, (void)ctx;
	return 0;
}
void vlapic_raise(struct vlapic *l, int vec)
{
	struct vm *vm = &vms[1];

	raised[l - vm->lapics][vec]++;
}
/* What the drain applied (vipi.c's side, tested in test_vipi): vCPU,
 * mode and vector of each, in order. */
static struct { unsigned vcpu; uint8_t mode, vec; } applied[16];
static unsigned nr_applied;
void vipi_deliver(struct vm *vm, unsigned i, const struct ipi *ipi)
{
	assert_ptr_equal(vm, &vms[1]);
	assert_int_equal(vm->vcpus[i].cpu, me->index);	/* on its own CPU */
	assert_true(nr_applied < 16);
	applied[nr_applied].vcpu = i;
	applied[nr_applied].mode = ipi->mode;
	applied[nr_applied++].vec = ipi->vector;
}
int vmx_invept(uint64_t eptp)
{
	assert_int_equal(eptp, 0x1234);
	invepts++;
	return 0;
}
static int arms, halts;
static uint64_t armed_at;
bool lapic_deadline_ok(void) { return true; }
void lapic_deadline_arm(uint8_t vector, uint64_t tsc)
{
	assert_int_equal(vector, HOST_VEC_WAKE);
	arms++;
	armed_at = tsc;
}
void host_irq_idle(void)
{
	/* asleep: the timer is armed, and a kick would find the CPU idle */
	assert_int_not_equal(armed_at, 0);
	assert_int_equal(me->idle, 1);
	halts++;
}
uint64_t tsc_hz(void) { return 1000000; } /* 10 ms: 10,000 ticks */
void kprintf(const char *fmt, ...)
{
	(void)fmt;
	lines++;
}

static int setup(void **state)
{
	(void)state;
	memset(cpus, 0, sizeof(cpus));
	memset(raised, 0, sizeof(raised));
	ipis = invepts = lines = arms = halts = 0;
	nr_applied = 0;
	armed_at = 0;
	cpus[0].index = 0, cpus[0].apic_id = 0;
	cpus[1].index = 1, cpus[1].apic_id = 7;
	memset(&vms[1], 0, sizeof(vms[1]));
	vms[1].id = 1;
	vms[1].cpu = 1;
	vms[1].nr_vcpus = 2;
	/* both vCPUs on CPU 1, its one slot (hv/orchestrate.c place) */
	vms[1].nr_cpus = 1;
	vms[1].cpus[0] = 1;
	vms[1].cpu_mask = 1u << 1;
	vms[1].vcpus[0].cpu = vms[1].vcpus[1].cpu = 1;
	cpus[1].vcpu = &vms[1].vcpus[0];	/* the vCPU CPU 1 runs */
	vms[1].eptp = 0x1234;
	strcpy(vms[1].name, "ap-vm");
	me = &cpus[0];
	return 0;
}

static void test_post_kicks_only_in_guest(void **state)
{
	struct vm *vm = &vms[1];

	(void)state;
	assert_true(vm_mailbox_remote(vm));
	assert_int_equal(vm_mailbox_post(vm, 0, 0x41), 0);
	assert_int_equal(ipis, 0);	/* CPU 1 not in its guest */
	cpus[1].in_guest = 1;
	assert_int_equal(vm_mailbox_post(vm, 1, 0x42), 0);
	assert_int_equal(ipis, 1);
	assert_int_equal(ipi_dest, 7);
	assert_int_equal(ipi_vec, HOST_VEC_KICK);
	/* Refused: a vCPU it has not, vectors below 16. */
	assert_int_equal(vm_mailbox_post(vm, 2, 0x43), -1);
	assert_int_equal(vm_mailbox_post(vm, 0, 15), -1);
	assert_int_equal(ipis, 1);
}

static void test_drain_on_its_cpu(void **state)
{
	struct vm *vm = &vms[1];

	(void)state;
	assert_int_equal(vm_mailbox_post(vm, 0, 0x41), 0);
	assert_int_equal(vm_mailbox_post(vm, 0, 0xff), 0);
	assert_int_equal(vm_mailbox_post(vm, 1, 0x10), 0);
	assert_int_equal(vm_mailbox_post(vm, 0, 0x41), 0); /* twice: one IRR bit */
	me = &cpus[1];
	assert_false(vm_mailbox_remote(vm));
	vm_mailbox_enter(vm);
	assert_int_equal(cpus[1].in_guest, 1);
	assert_int_equal(raised[0][0x41], 1);
	assert_int_equal(raised[0][0xff], 1);
	assert_int_equal(raised[1][0x10], 1);
	assert_int_equal(raised[1][0x41], 0);
	xcpu_guest_exit();
	assert_int_equal(cpus[1].in_guest, 0);
	vm_mailbox_drain(vm);	/* nothing new: nothing raised again */
	assert_int_equal(raised[0][0x41], 1);
	assert_int_equal(invepts, 0);
}

static void test_ept_flush_not_in_guest(void **state)
{
	struct vm *vm = &vms[1];

	(void)state;
	/* CPU 1 outside: no kick, no wait; safe to free what was detached */
	assert_true(vm_mailbox_ept_flush(vm));
	assert_int_equal(ipis, 0);
	assert_int_equal(lines, 0);
	me = &cpus[1];
	vm_mailbox_enter(vm);		/* it flushes before entering */
	assert_int_equal(invepts, 1);
	xcpu_guest_exit();
	vm_mailbox_drain(vm);
	assert_int_equal(invepts, 1);
}

static void test_ept_flush_in_guest_times_out(void **state)
{
	struct vm *vm = &vms[1];
	uint64_t timeouts = xcpu_stats()->wait_timeouts;

	(void)state;
	cpus[1].in_guest = 1;		/* and it never leaves */
	assert_false(vm_mailbox_ept_flush(vm));	/* the caller keeps tables */
	assert_int_equal(ipis, 1);
	assert_int_equal(xcpu_stats()->wait_timeouts, timeouts + 1);
	assert_int_equal(lines, 1);	/* said with the VM's name */
	me = &cpus[1];
	cpus[1].in_guest = 0;
	vm_mailbox_enter(vm);
	assert_int_equal(invepts, 1);
}

/* An idle CPU (an AP whose VMs all halted, asleep in HLT) is kicked
 * like one in its guest: the post is what wakes it. */
static void test_post_wakes_idle_cpu(void **state)
{
	struct vm *vm = &vms[1];

	(void)state;
	me = &cpus[1];
	xcpu_idle_begin();
	me = &cpus[0];
	assert_false(vm_mailbox_waiting(vm));
	assert_int_equal(vm_mailbox_post(vm, 0, 0x41), 0);
	assert_int_equal(ipis, 1);
	assert_int_equal(ipi_vec, HOST_VEC_KICK);
	/* CPU 1's last look before its HLT sees the post */
	me = &cpus[1];
	assert_true(vm_mailbox_waiting(vm));
	xcpu_idle_end();
	vm_mailbox_drain(vm);
	assert_false(vm_mailbox_waiting(vm));
	assert_int_equal(raised[0][0x41], 1);
}

/* The sleep arms the TSC deadline, halts, disarms and clears the mark;
 * a deadline already past does not halt at all. */
static void test_idle_sleep(void **state)
{
	(void)state;
	me = &cpus[1];
	xcpu_init();
	assert_true(xcpu_can_sleep());
	xcpu_idle_begin();
	xcpu_idle_sleep(UINT64_MAX / 2);
	assert_int_equal(halts, 1);
	assert_int_equal(arms, 2);
	assert_int_equal(armed_at, 0);	/* disarmed after */
	assert_int_equal(cpus[1].idle, 0);
	assert_int_equal(cpus[1].sleeps, 1);
	xcpu_idle_begin();
	xcpu_idle_sleep(1);
	assert_int_equal(halts, 1);
	assert_int_equal(cpus[1].idle, 0);
}

static int post_ipi(unsigned vcpu, uint8_t mode, uint8_t vec, bool deassert)
{
	struct ipi ipi = { .vector = vec, .mode = mode, .deassert = deassert };

	return vm_mailbox_post_ipi(&vms[1], vcpu, &ipi);
}

static void expect(unsigned k, unsigned vcpu, uint8_t mode, uint8_t vec)
{
	assert_int_equal(applied[k].vcpu, vcpu);
	assert_int_equal(applied[k].mode, mode);
	assert_int_equal(applied[k].vec, vec);
}

/* A sibling vCPU's NMI, INIT and SIPI from another CPU: kicked like a
 * vector, applied by the VM's own CPU in the order INIT, SIPI, NMI; an
 * INIT drops the SIPI posted before it, a second SIPI is merged away;
 * what does nothing or is not theirs is refused. */
static void test_ipi_events(void **state)
{
	struct vm *vm = &vms[1];
	uint64_t merged = vm_mailbox_stats()->sipis_merged;

	(void)state;
	cpus[1].in_guest = 1;
	assert_int_equal(post_ipi(1, IPI_SIPI, 0x9a, false), 0);
	assert_int_equal(ipis, 1);
	assert_int_equal(post_ipi(1, IPI_NMI, 0, false), 0);
	assert_int_equal(post_ipi(1, IPI_INIT, 0, false), 0);
	assert_int_equal(post_ipi(1, IPI_SIPI, 0x9b, false), 0);
	assert_int_equal(post_ipi(0, IPI_NMI, 0, false), 0);
	assert_int_equal(post_ipi(1, IPI_FIXED, 0x41, false), -1);
	assert_int_equal(post_ipi(1, IPI_INIT, 0, true), -1);	/* de-assert */
	assert_int_equal(post_ipi(2, IPI_NMI, 0, false), -1);	/* no vCPU 2 */
	assert_int_equal(post_ipi(1, IPI_SMI, 0, false), -1);
	assert_false(vm_mailbox_waiting(vm));	/* asked on CPU 0: not its */
	cpus[1].in_guest = 0;
	me = &cpus[1];
	assert_true(vm_mailbox_waiting(vm));
	vm_mailbox_drain(vm);
	assert_int_equal(nr_applied, 4);
	expect(0, 0, IPI_NMI, 0);
	expect(1, 1, IPI_INIT, 0);
	expect(2, 1, IPI_SIPI, 0x9b);
	expect(3, 1, IPI_NMI, 0);
	assert_false(vm_mailbox_waiting(vm));
	me = &cpus[0];
	assert_int_equal(post_ipi(1, IPI_SIPI, 0x10, false), 0);
	assert_int_equal(post_ipi(1, IPI_SIPI, 0x20, false), 0);
	assert_int_equal(vm_mailbox_stats()->sipis_merged, merged + 1);
	me = &cpus[1];
	vm_mailbox_drain(vm);
	assert_int_equal(nr_applied, 5);
	expect(4, 1, IPI_SIPI, 0x10);
	vm_mailbox_drain(vm);		/* nothing left */
	assert_int_equal(nr_applied, 5);
}

/* Which vCPU is remote is asked per vCPU (its cpu field), not per VM. */
static void test_remote_per_vcpu(void **state)
{
	struct vm *vm = &vms[1];

	(void)state;
	vm->vcpus[0].cpu = 1;
	vm->vcpus[1].cpu = 0;
	assert_true(vm_mailbox_remote_vcpu(vm, 0));
	assert_false(vm_mailbox_remote_vcpu(vm, 1));
	me = &cpus[1];
	assert_false(vm_mailbox_remote_vcpu(vm, 0));
	assert_true(vm_mailbox_remote_vcpu(vm, 1));
	assert_false(vm_mailbox_remote_vcpu(vm, VM_VCPUS_MAX));
}

/* A VM on two CPUs (cpus=1,0 here: vCPU 0 on CPU 1, slot 0; vCPU 1 on
 * CPU 0, slot 1): a post kicks the target vCPU's CPU, not the VM's
 * first; each CPU drains only its own vCPUs' mail; an EPT flush from one
 * of its CPUs INVEPTs there at once and asks the other, and each CPU's
 * request is its own (one CPU's drain does not clear the other's). */
static void test_two_cpus(void **state)
{
	struct vm *vm = &vms[1];

	(void)state;
	vm->nr_cpus = 2;
	vm->cpus[1] = 0;
	vm->cpu_mask = 0x3;
	vm->vcpus[1].cpu = 0;
	vm->vcpus[1].slot = 1;
	cpus[0].vcpu = &vm->vcpus[1];
	cpus[0].in_guest = 1;
	me = &cpus[1];			/* vCPU 0 sends to vCPU 1 */
	assert_false(vm_mailbox_remote(vm));
	assert_true(vm_mailbox_remote_vcpu(vm, 1));
	assert_int_equal(vm_mailbox_post(vm, 1, 0x42), 0);
	assert_int_equal(ipis, 1);
	assert_int_equal(ipi_dest, 0);	/* CPU 0's APIC ID */
	assert_int_equal(post_ipi(1, IPI_NMI, 0, false), 0);
	me = &cpus[0];			/* and something for vCPU 0 */
	assert_int_equal(vm_mailbox_post(vm, 0, 0x43), 0);
	me = &cpus[1];
	vm_mailbox_drain(vm);		/* CPU 1: its own, not vCPU 1's */
	assert_int_equal(raised[0][0x43], 1);
	assert_int_equal(raised[1][0x42], 0);
	assert_int_equal(nr_applied, 0);
	assert_false(vm_mailbox_waiting(vm));	/* nothing for CPU 1 */
	cpus[0].in_guest = 0;
	me = &cpus[0];
	assert_true(vm_mailbox_waiting(vm));
	vm_mailbox_enter(vm);		/* CPU 0 takes it before entering */
	assert_int_equal(raised[1][0x42], 1);
	assert_int_equal(raised[0][0x42], 0);
	xcpu_guest_exit();

	/* An EPT change on CPU 0: INVEPT here, CPU 1 asked (not in its
	 * guest: no wait), and it flushes at its next entry. */
	assert_true(vm_mailbox_ept_flush(vm));
	assert_int_equal(invepts, 1);
	vm_mailbox_drain(vm);		/* CPU 0's request: none left */
	assert_int_equal(invepts, 1);
	me = &cpus[1];
	vm_mailbox_enter(vm);
	assert_int_equal(invepts, 2);
	xcpu_guest_exit();
	/* and CPU 1 in its guest, never leaving: bounded, said, false */
	cpus[1].in_guest = 1;
	me = &cpus[0];
	assert_false(vm_mailbox_ept_flush(vm));
	assert_int_equal(invepts, 3);	/* its own at once */
	assert_int_equal(lines, 1);
	cpus[1].in_guest = 0;
	me = &cpus[1];
	vm_mailbox_drain(vm);
	assert_int_equal(invepts, 4);
	/* NMI of vCPU 1 was applied by CPU 0's drain above */
	assert_int_equal(nr_applied, 1);
	expect(0, 1, IPI_NMI, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_post_kicks_only_in_guest, setup),
		cmocka_unit_test_setup(test_drain_on_its_cpu, setup),
		cmocka_unit_test_setup(test_ept_flush_not_in_guest, setup),
		cmocka_unit_test_setup(test_ept_flush_in_guest_times_out, setup),
		cmocka_unit_test_setup(test_post_wakes_idle_cpu, setup),
		cmocka_unit_test_setup(test_idle_sleep, setup),
		cmocka_unit_test_setup(test_ipi_events, setup),
		cmocka_unit_test_setup(test_remote_per_vcpu, setup),
		cmocka_unit_test_setup(test_two_cpus, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
