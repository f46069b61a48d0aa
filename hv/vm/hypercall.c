/* VMCALL (exit reason 18): the hypercall ABI of g9hv/hypercall.h.
 *
 * Decode, then act (seL4's split): each entry of the table names the
 * handler; a handler checks its arguments and either fails with a negated
 * G9HV_E* code in RAX or does the work. RIP advances (a bad hypercall is
 * an error value, not a fault) unless the call has more work than one exit
 * may do: then it stays and the guest repeats the call (the guest channel's
 * kick). */
#include "guest-shim/include/g9hv/hypercall.h"
#include "hv/console/console.h"
#include "hv/platform/tsc.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm_mem.h"
#include "hv/vm/vmexit.h"
#include "hv/vm/vmrpc.h"
#include "hv/vm/vuart.h"
#include "hv/vmx/vmx_insn.h"

struct hc_ctx {
	struct vm *vm;
	uint64_t a1, a2, a3;
	enum exit_action action;	/* EXIT_RESUME unless the call says */
	bool again;	/* not done: the guest repeats the VMCALL (RIP, RAX stay) */
};

typedef int64_t (*hc_fn)(struct hc_ctx *c);

/* A (pointer, length) string argument, copied in. Control bytes other
 * than newline and tab become '?': a guest must not drive the operator's
 * terminal through our console. */
static int64_t get_string(struct hc_ctx *c, char *buf)
{
	if (c->a2 > G9HV_STR_MAX)
		return -G9HV_E2BIG;
	if (vm_read_gva(c->vm, c->a1, buf, c->a2))
		return -G9HV_EFAULT;
	for (uint64_t i = 0; i < c->a2; i++)
		if ((unsigned char)buf[i] < 0x20 && buf[i] != '\n' &&
		    buf[i] != '\t')
			buf[i] = '?';
	buf[c->a2] = 0;
	return (int64_t)c->a2;
}

static int64_t hc_version(struct hc_ctx *c)
{
	(void)c;
	return G9HV_ABI_VERSION;
}

static int64_t hc_putc(struct hc_ctx *c)
{
	if (c->a1 > 0xff)
		return -G9HV_EINVAL;
	vuart_putc(c->vm, (char)c->a1);
	return 0;
}

static int64_t hc_puts(struct hc_ctx *c)
{
	char buf[G9HV_STR_MAX + 1];
	int64_t n = get_string(c, buf);

	for (int64_t i = 0; i < n; i++)
		vuart_putc(c->vm, buf[i]);
	return n;
}

static int64_t hc_test_report(struct hc_ctx *c)
{
	char name[G9HV_STR_MAX + 1];
	int64_t n = get_string(c, name);

	if (n < 0)
		return n;
	if (c->a3 != G9HV_TEST_PASS && c->a3 != G9HV_TEST_FAIL)
		return -G9HV_EINVAL;
	if (c->a3 == G9HV_TEST_PASS)
		c->vm->stats.tests_passed++;
	else
		c->vm->stats.tests_failed++;
	vuart_flush(c->vm);
	kprintf("vm '%s': check %s: %s\n", c->vm->name, name,
		c->a3 == G9HV_TEST_PASS ? "PASS" : "FAIL");
	return 0;
}

static int64_t hc_exit(struct hc_ctx *c)
{
	struct vm *vm = c->vm;

	vm->exit_status = (int)c->a1;
	vm_stop(vm, "exit hypercall, status %d (%llu checks passed, %llu "
		"failed)", vm->exit_status,
		(unsigned long long)vm->stats.tests_passed,
		(unsigned long long)vm->stats.tests_failed);
	c->action = EXIT_STOP;
	return 0;
}

static int64_t hc_tsc_hz(struct hc_ctx *c)
{
	(void)c;
	return (int64_t)tsc_hz();
}

static int64_t hc_vm_id(struct hc_ctx *c)
{
	return c->vm->id;
}

static int64_t hc_yield(struct hc_ctx *c)
{
	c->action = EXIT_YIELD;
	return 0;
}

static int64_t hc_vmrpc_setup(struct hc_ctx *c)
{
	return vmrpc_setup(c->vm, c->a1, c->a2);
}

static int64_t hc_vmrpc_kick(struct hc_ctx *c)
{
	return vmrpc_kick(c->vm, &c->again);
}

static const hc_fn hypercalls[G9HV_HC_COUNT] = {
	[G9HV_HC_VERSION] = hc_version,
	[G9HV_HC_PUTC] = hc_putc,
	[G9HV_HC_PUTS] = hc_puts,
	[G9HV_HC_TEST_REPORT] = hc_test_report,
	[G9HV_HC_EXIT] = hc_exit,
	[G9HV_HC_TSC_HZ] = hc_tsc_hz,
	[G9HV_HC_VM_ID] = hc_vm_id,
	[G9HV_HC_YIELD] = hc_yield,
	[G9HV_HC_VMRPC_SETUP] = hc_vmrpc_setup,
	[G9HV_HC_VMRPC_KICK] = hc_vmrpc_kick,
};

enum exit_action handle_vmcall(struct vm *vm, const struct vm_exit *ex)
{
	struct guest_regs *r = &vm_vcpu(vm)->regs;
	struct hc_ctx c = { vm, r->rdi, r->rsi, r->rdx, EXIT_RESUME, false };
	uint64_t nr = r->rax, rip = vmread(VMCS_GUEST_RIP);
	int64_t ret;

	(void)ex;
	vcpu_skip_insn();
	if (vcpu_cpl() != 0) {
		ret = -G9HV_EPERM;
		vm_event(vm, VM_EV_BAD_HYPERCALL, "hypercall %llu from CPL %u: "
			 "-EPERM", (unsigned long long)nr, vcpu_cpl());
	} else if (nr >= G9HV_HC_COUNT || !hypercalls[nr]) {
		ret = -G9HV_ENOSYS;
		vm_event(vm, VM_EV_BAD_HYPERCALL, "unknown hypercall %llu: "
			 "-ENOSYS", (unsigned long long)nr);
	} else {
		ret = hypercalls[nr](&c);
		if (ret < 0)
			vm_event(vm, VM_EV_BAD_HYPERCALL, "hypercall %llu "
				 "failed: %lld", (unsigned long long)nr,
				 (long long)ret);
	}
	if (c.again && ret >= 0) {
		/* Work left (bounded per exit): the guest re-enters at the
		 * VMCALL with its arguments, as after an interrupted REP. */
		vmwrite(VMCS_GUEST_RIP, rip);
		return c.action;
	}
	r->rax = (uint64_t)ret;
	return c.action;
}
