/* The rule hv/vtd/vtd_vms.c applies every main-loop round: the GPU may reach
 * the RAM of a VM while it has a device that does DMA (the vGPU, as the
 * VM's device registry hv/vm/vdev.h says) and has not stopped. The VM
 * table and the registry are the real ones (hv/vm/vm.h, hv/vm/vdev.c);
 * vtd.c's entry points are recorded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/mm/mem.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vm.h"
#include "hv/vtd/vtd.h"
#include "hv/vtd/vtd_vms.h"

struct vm vms[VM_MAX];
unsigned nr_vms;

void vm_event(struct vm *vm, enum vm_event ev, const char *fmt, ...)
{
	(void)vm;
	(void)ev;
	(void)fmt;
}

/* A vGPU as the registry sees it: a name and DMA. */
static const struct vdev_ops no_ops;
static const struct vdev vgpu_dev = {
	"vGPU", &no_ops, NULL, 0x10, true, { NULL }, { NULL },
};

static bool active;
static unsigned polls;
static struct call {
	unsigned id;
	bool want;
	uint64_t base, len;
	const char *name;
} calls[VM_MAX];
static unsigned nr_calls;

bool vtd_active(void)
{
	return active;
}

void vtd_vm_ram(unsigned id, const char *name, bool want, uint64_t base,
		uint64_t len)
{
	assert_true(nr_calls < VM_MAX);
	calls[nr_calls++] = (struct call){ id, want, base, len, name };
}

unsigned vtd_poll_faults(void)
{
	polls++;
	return 0;
}

static uint8_t ram[3][4096] __attribute__((aligned(4096)));

static void add_vm(const char *name, bool vgpu, enum vm_state st)
{
	struct vm *vm = &vms[nr_vms++];

	memset(vm, 0, sizeof(*vm));
	strcpy(vm->name, name);
	vm->ram = ram[nr_vms - 1];
	vm->mem_bytes = (nr_vms) * 2ull << 20;
	if (vgpu)
		assert_int_equal(vdev_register(vm, &vgpu_dev), 0);
	vm->state = st;
}

static void test_ram_follows_vgpu_and_state(void **state)
{
	(void)state;
	nr_vms = nr_calls = polls = 0;
	active = true;
	add_vm("alpha", true, VM_RUNNABLE);
	add_vm("plain", false, VM_RUNNABLE);
	add_vm("gone", true, VM_STOPPED);
	vtd_poll();
	assert_int_equal(nr_calls, 3);
	assert_int_equal(polls, 1);
	assert_true(calls[0].want);
	assert_int_equal(calls[0].base, hv_pa(ram[0]));
	assert_int_equal(calls[0].len, 2ull << 20);
	assert_string_equal(calls[0].name, "alpha");
	assert_false(calls[1].want);	/* no vGPU: never mapped */
	assert_false(calls[2].want);	/* stopped: taken back */
	assert_int_equal(calls[2].id, 2);
	/* paused and halted VMs keep their RAM: GPU work may be in flight */
	vms[0].state = VM_PAUSED;
	vms[1].state = VM_HALTED;
	nr_calls = 0;
	vtd_poll();
	assert_true(calls[0].want);
	/* alpha stops, its vGPU is torn down later: taken back at once */
	vms[0].state = VM_STOPPED;
	nr_calls = 0;
	vtd_poll();
	assert_false(calls[0].want);
	/* restarted without a vGPU: stays out */
	vms[0].state = VM_RUNNABLE;
	vdev_remove(&vms[0], &vgpu_dev);
	nr_calls = 0;
	vtd_poll();
	assert_false(calls[0].want);
}

static void test_nothing_without_vtd(void **state)
{
	(void)state;
	nr_vms = nr_calls = polls = 0;
	active = false;
	add_vm("alpha", true, VM_RUNNABLE);
	vtd_poll();
	assert_int_equal(nr_calls, 0);
	assert_int_equal(polls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ram_follows_vgpu_and_state),
		cmocka_unit_test(test_nothing_without_vtd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
