/* The attached console; see shell_console.h.
 *
 * Only the CPU that runs a VM touches its vUART (docs/smp.md "The device
 * lock"): a received byte raises the VM's interrupt in its vLAPIC, and the
 * drain that reads `attached` runs there. So the shell (CPU 0) never
 * writes the vUART of a VM on an AP: it puts typed bytes in that VM's
 * mailbox and asks the VM's CPU (VM_REQ_CONSOLE, hv/orchestrate.c) to run
 * shell_console_serve, which attaches or detaches the vUART and moves the
 * bytes into its FIFO under the device lock. For a VM of the shell's own
 * CPU, the shell calls the same function itself. */
#include "hv/shell/shell_console.h"
#include "hv/console/console.h"
#include "hv/cpu/percpu.h"
#include "hv/cpu/x86.h"
#include "hv/cpu/xcpu.h"
#include "hv/platform/tsc.h"
#include "hv/shell/attach_keys.h"
#include "hv/shell/shell.h"
#include "hv/smp.h"
#include "hv/vm/vm.h"
#include "hv/vm/vuart.h"

/* Typed bytes on their way to one VM: the shell is the only producer
 * (tail), the VM's CPU the only consumer (head); free-running indexes. */
#define MAIL_SIZE 64u
struct rx_mail {
	uint8_t b[MAIL_SIZE];
	uint32_t head, tail;	/* atomic */
	uint8_t want;		/* the vUART should be attached (atomic) */
	bool retry;		/* the shell's own CPU: lock was busy */
};

static struct rx_mail mail[VM_MAX];
static struct vm *attached;	/* the shell's: whose the keyboard is */
static struct attach_keys keys;
static uint64_t asked_tsc;	/* when the VM's CPU was last asked */

static struct rx_mail *mail_of(const struct vm *vm)
{
	return &mail[vm - vms];
}

bool shell_console_attached(void)
{
	return attached != NULL;
}

/* On the VM's CPU: the vUART attached as the shell wants, then as many
 * typed bytes as its receive FIFO takes; the rest waits in the mailbox
 * (bounded by MAIL_SIZE). A stopped VM's bytes are dropped. `wait`: for
 * the device lock; without it (the shell's own CPU, which holds the
 * mediator lock that a device-lock holder may want next: docs/smp.md
 * "The device lock") false when another CPU holds it. */
static bool serve(struct vm *vm, bool wait)
{
	struct rx_mail *m = mail_of(vm);
	uint32_t head = m->head;
	uint32_t tail = __atomic_load_n(&m->tail, __ATOMIC_ACQUIRE);

	if (wait)
		vm_dev_lock(vm);
	else if (!rlock_try(&vm->dev_lock, this_cpu()->index))
		return false;
	vuart_attach(vm, __atomic_load_n(&m->want, __ATOMIC_ACQUIRE));
	if (vm->state == VM_STOPPED)
		head = tail;
	while (head != tail && vuart_rx_room(vm)) {
		vuart_rx(vm, m->b[head % MAIL_SIZE]);
		head++;
	}
	vm_dev_unlock(vm);
	__atomic_store_n(&m->head, head, __ATOMIC_RELEASE);
	return true;
}

/* VM_REQ_CONSOLE on an AP, between slices: it holds no lock. */
void shell_console_serve(struct vm *vm)
{
	(void)serve(vm, true);
}

/* The VM's CPU runs serve: now, if it is ours (if its lock was busy,
 * `retry` says to try again next round, attached or not: a detach too);
 * else it is asked (the request bit, then a kick out of its guest or its
 * sleep). */
static unsigned retries;	/* VMs with `retry` set */

static void deliver(struct vm *vm)
{
	uint32_t cpu = __atomic_load_n(&vm->cpu, __ATOMIC_ACQUIRE);
	struct rx_mail *m = mail_of(vm);

	if (cpu == this_cpu()->index) {
		bool done = serve(vm, false);

		if (!done && !m->retry)
			retries++;
		else if (done && m->retry)
			retries--;
		m->retry = !done;
		return;
	}
	asked_tsc = rdtsc();
	__atomic_fetch_or(&vm->requests, VM_REQ_CONSOLE, __ATOMIC_SEQ_CST);
	(void)xcpu_kick(smp_cpu(cpu));
}

int shell_console_attach(struct vm *vm)
{
	if (vm->state == VM_STOPPED) {
		kprintf("vm '%s' has stopped: nothing to attach to\n",
			vm->name);
		return -1;
	}
	__atomic_store_n(&mail_of(vm)->want, 1, __ATOMIC_RELEASE);
	keys.esc = false;
	attached = vm;
	/* On the shell's CPU a half-printed line keeps its prefix before
	 * this line (vuart_attach); an AP prints it right after. */
	if (__atomic_load_n(&vm->cpu, __ATOMIC_ACQUIRE) == this_cpu()->index)
		deliver(vm);
	kprintf("console: attached to vm '%s'; Ctrl-A then . detaches\n",
		vm->name);
	if (__atomic_load_n(&vm->cpu, __ATOMIC_ACQUIRE) != this_cpu()->index)
		deliver(vm);
	return 0;
}

static void detach(const char *why)
{
	struct vm *vm = attached;

	__atomic_store_n(&mail_of(vm)->want, 0, __ATOMIC_RELEASE);
	deliver(vm);
	attached = NULL;
	kprintf("\nconsole: detached from vm '%s'%s\n", vm->name, why);
	shell_prompt();
}

static unsigned mail_room(const struct rx_mail *m)
{
	return MAIL_SIZE - (m->tail - __atomic_load_n(&m->head,
						       __ATOMIC_ACQUIRE));
}

/* Typed bytes move only while the mailbox has room for what one byte can
 * release, so a fast typist (or a script) waits in the console's input
 * ring instead of overrunning the guest's UART. True if bytes were put. */
static bool feed_vm(void)
{
	struct rx_mail *m = mail_of(attached);
	uint8_t c, out[ATTACH_MAX_OUT];
	bool put = false;
	unsigned n;

	while (mail_room(m) >= ATTACH_MAX_OUT && console_peekc(&c)) {
		console_getc(&c);
		if (attach_keys_feed(&keys, c, out, &n)) {
			if (put)
				deliver(attached);
			detach("");
			return false;
		}
		for (unsigned i = 0; i < n; i++)
			m->b[(m->tail + i) % MAIL_SIZE] = out[i];
		__atomic_store_n(&m->tail, m->tail + n, __ATOMIC_RELEASE);
		put = put || n;
	}
	return put;
}

/* Bytes left in the mailbox wait for the guest to read its FIFO: its CPU
 * is asked again at most every RETRY_MS, never while a request is still
 * pending (a guest that never reads costs a kick per RETRY_MS). */
#define RETRY_MS 10

static bool retry_due(const struct vm *vm)
{
	const struct rx_mail *m = mail_of(vm);

	if (m->tail == __atomic_load_n(&m->head, __ATOMIC_ACQUIRE))
		return false;
	if (__atomic_load_n(&vm->cpu, __ATOMIC_ACQUIRE) == this_cpu()->index)
		return true;
	return !(__atomic_load_n(&vm->requests, __ATOMIC_ACQUIRE) &
		 VM_REQ_CONSOLE) &&
	       rdtsc() - asked_tsc >= tsc_hz() / 1000 * RETRY_MS;
}

/* Each VM whose lock was busy, once per round (bounded by nr_vms). */
static void retry_busy(void)
{
	for (unsigned i = 0; retries && i < nr_vms; i++)
		if (mail[i].retry)
			deliver(&vms[i]);
}

bool shell_console_poll(void)
{
	retry_busy();
	if (!attached)
		return false;
	if (attached->state == VM_STOPPED) {
		detach(" (it stopped)");
		return false;
	}
	if (feed_vm() || (attached && retry_due(attached)))
		deliver(attached);
	return attached != NULL;
}
