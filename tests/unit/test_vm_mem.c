/* Unit tests for hv/vm/vm_mem.c: the hypervisor's own copies into guest
 * RAM go through EPT, and a write into a page a device write-protected
 * (the vGPU: a shadowed GPU page table) is reported to the VM's devices
 * (hv/vm/vdev.h page_write) like a guest store (issue 19), except a
 * device's own write (vm_write_gpa_direct: the mediator's, issue 27). The
 * VM's RAM is host memory; EPT is the real hv/vmx/ept.c; the registry is
 * the real hv/vm/vdev.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mem.h"
#include "hv/vmx/vmx.h"
#include "tests/harness/fake_pages.h"

#define RAM (4ull << 20)

struct vmx_cpu vmx_cpu;	/* .on = false: no INVEPT, but in the flush tests */
int vmx_invept(uint64_t eptp) { (void)eptp; return 0; }
/* A VM placed on its CPUs (hv/vm/vm_mailbox.c flushes on each): only in
 * the flush tests, which say whether its other CPUs left the guest in
 * time. The flush runs under the VM's EPT lock, so an edit from another
 * CPU of the VM cannot come between the change and its flush. */
static bool remote_out_in_time = true;
static unsigned remote_flushes;
static struct percpu this_one = { .index = 3 };
struct percpu *test_this_cpu(void) { return &this_one; }
bool vm_mailbox_ept_flush(struct vm *vm)
{
	assert_true(rlock_held(&vm->ept_lock, this_one.index));
	remote_flushes++;
	return remote_out_in_time;
}

struct vm vms[VM_MAX];
unsigned nr_vms;

void vm_event(struct vm *vm, enum vm_event ev, const char *fmt, ...)
{
	(void)vm;
	(void)ev;
	(void)fmt;
}

/* The device's side: what it was told. */
static struct { unsigned calls; uint64_t gpa; size_t len; uint8_t data[64];
		void *opaque; } told;

static void page_write(void *opaque, uint64_t gpa, const void *data,
		       size_t len)
{
	told.calls++;
	told.opaque = opaque;
	told.gpa = gpa;
	told.len = len;
	memcpy(told.data, data, len < sizeof(told.data) ? len : sizeof(told.data));
}

static const struct vdev_ops dev_ops = { .page_write = page_write };
static int dev_state;
static const struct vdev dev = {
	"tracker", &dev_ops, &dev_state, VDEV_NO_BDF, false, { NULL }, { NULL },
};

static struct vm vm;

static int setup(void **state)
{
	(void)state;
	fake_pages_reset();
	memset(&vm, 0, sizeof(vm));
	vm.ept_lock = (struct rlock)RLOCK_INIT;
	memset(&told, 0, sizeof(told));
	assert_int_equal(vdev_register(&vm, &dev), 0);
	vm.ram = aligned_alloc(2u << 20, RAM);
	assert_non_null(vm.ram);
	memset(vm.ram, 0, RAM);
	vm.mem_bytes = RAM;
	vm_ram_layout_init(&vm.ram_layout, RAM, VM_PCI_HOLE_BASE);
	assert_int_equal(ept_init(&vm.ept), 0);
	assert_int_equal(ept_map(&vm.ept, 0, hv_pa(vm.ram), RAM, EPT_RWX,
				 MEMTYPE_WB), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ept_destroy(&vm.ept);
	free(vm.ram);
	fake_pages_reset();
	return 0;
}

static void test_plain_write_not_reported(void **state)
{
	uint64_t v = 0x1122334455667788ull, back = 0;

	(void)state;
	assert_int_equal(vm_write_gpa(&vm, 0x5000, &v, 8), 0);
	assert_int_equal(vm_read_gpa(&vm, 0x5000, &back, 8), 0);
	assert_int_equal(back, v);
	assert_int_equal(told.calls, 0);
}

static void test_write_to_protected_page_reported(void **state)
{
	uint8_t buf[16], back[16];

	(void)state;
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(0xa0 + i);
	assert_int_equal(vm_ept_protect(&vm, 0x5000, 4096, EPT_R), 0);
	/* 8 bytes on the protected page, 8 on the next (writable) one. */
	assert_int_equal(vm_write_gpa(&vm, 0x5ff8, buf, 16), 0);
	assert_int_equal(told.calls, 1);
	assert_ptr_equal(told.opaque, &dev_state);
	assert_int_equal(told.gpa, 0x5ff8);
	assert_int_equal(told.len, 8);
	assert_memory_equal(told.data, buf, 8);
	/* The bytes are in RAM all the same, as for a guest store. */
	assert_int_equal(vm_read_gpa(&vm, 0x5ff8, back, 16), 0);
	assert_memory_equal(back, buf, 16);
	/* Reading never tells. */
	assert_int_equal(told.calls, 1);
}

/* The mediator's own store (hv_ops write_gpa) into a page it protected
 * lands, but is not reported back to it. */
static void test_direct_write_not_reported(void **state)
{
	uint64_t v = 0x55aa55aa55aa55aaull, back = 0;

	(void)state;
	assert_int_equal(vm_ept_protect(&vm, 0x5000, 4096, EPT_R), 0);
	assert_int_equal(vm_write_gpa_direct(&vm, 0x5010, &v, 8), 0);
	assert_int_equal(vm_read_gpa(&vm, 0x5010, &back, 8), 0);
	assert_int_equal(back, v);
	assert_int_equal(told.calls, 0);
	/* The same store on the guest's behalf is. */
	assert_int_equal(vm_write_gpa(&vm, 0x5010, &v, 8), 0);
	assert_int_equal(told.calls, 1);
	/* Out of RAM: nothing copied either way. */
	assert_int_equal(vm_write_gpa_direct(&vm, RAM - 4, &v, 8), -HV_EFAULT);
}

static void test_failed_write_not_reported(void **state)
{
	uint64_t v = 1;

	(void)state;
	assert_int_equal(vm_ept_protect(&vm, RAM - 4096, 4096, EPT_R), 0);
	/* Runs past the end of RAM: nothing copied, nothing reported. */
	assert_int_equal(vm_write_gpa(&vm, RAM - 4, &v, 8), -HV_EFAULT);
	assert_int_equal(told.calls, 0);
	/* An unmapped page is not RAM either. */
	assert_int_equal(vm_ept_unmap(&vm, 0x9000, 4096), 0);
	assert_int_equal(vm_write_gpa(&vm, 0x9000, &v, 8), -HV_EFAULT);
	assert_int_equal(told.calls, 0);
}

/* RAM split around a hole (8 MiB below it, 4 MiB from 4 GiB, as a big
 * VM has 3 GiB and the rest): both parts are RAM, in one host run, and
 * the hole is not. */
static void test_ram_above_4g(void **state)
{
	const uint64_t low = 8ull << 20, high = 4ull << 20, g4 = 1ull << 32;
	uint64_t v = 0x0123456789abcdefull, back = 0;
	struct ept_xlat x;

	(void)state;
	ept_destroy(&vm.ept);
	assert_int_equal(ept_init(&vm.ept), 0);
	vm.mem_bytes = low + high;
	free(vm.ram);
	vm.ram = aligned_alloc(2u << 20, low + high);
	assert_non_null(vm.ram);
	memset(vm.ram, 0, low + high);
	vm_ram_layout_init(&vm.ram_layout, low + high, low);
	assert_int_equal(vm_mem_map(&vm), 0);
	assert_int_equal(vm_write_gpa(&vm, g4 + 0x1ff8, &v, 8), 0);
	assert_memory_equal((uint8_t *)vm.ram + low + 0x1ff8, &v, 8);
	assert_int_equal(vm_read_gpa(&vm, g4 + 0x1ff8, &back, 8), 0);
	assert_int_equal(back, v);
	assert_int_equal(vm_ept_translate(&vm, g4 + high - 4096, &x), 0);
	assert_int_equal(x.hpa, hv_pa(vm.ram) + low + high - 4096);
	assert_int_equal(vm_ept_translate(&vm, low - 4096, &x), 0);
	assert_int_equal(x.hpa, hv_pa(vm.ram) + low - 4096);
	/* The hole and past the end: not RAM, not mapped. */
	assert_int_equal(vm_read_gpa(&vm, low, &back, 8), -HV_EFAULT);
	assert_int_equal(vm_read_gpa(&vm, low - 4, &back, 8), -HV_EFAULT);
	assert_int_equal(vm_read_gpa(&vm, g4 + high, &back, 8), -HV_EFAULT);
	assert_int_not_equal(vm_ept_translate(&vm, low, &x), 0);
	assert_int_not_equal(vm_ept_translate(&vm, g4 + high, &x), 0);
}

/* An EPT change of a VM on another CPU whose CPU did not leave the guest
 * within the bound: the table the unmap detached is not freed (the guest
 * may still walk it) and the flush stays needed; the next change whose
 * flush is seen through frees it. */
static void test_remote_flush_timeout_keeps_tables(void **state)
{
	(void)state;
	vmx_cpu.on = true;
	vm.nr_cpus = 2;			/* placed: flushed on its CPUs */
	remote_out_in_time = false;
	remote_flushes = 0;
	/* split the first 2 MiB page, then unmap it whole: table detached */
	assert_int_equal(vm_ept_protect(&vm, 0x5000, 4096, EPT_R), 0);
	assert_int_equal(vm_ept_unmap(&vm, 0, 2u << 20), 0);
	assert_int_equal(remote_flushes, 2);
	assert_true(vm.ept.deferred_pages > 0);
	assert_true(ept_flush_needed(&vm.ept));
	/* the next change's flush is seen through: now they go */
	remote_out_in_time = true;
	assert_int_equal(vm_ept_protect(&vm, 0x205000, 4096, EPT_R), 0);
	assert_int_equal(remote_flushes, 3);
	assert_int_equal(vm.ept.deferred_pages, 0);
	assert_false(ept_flush_needed(&vm.ept));
	vmx_cpu.on = false;
	assert_false(rlock_held(&vm.ept_lock, this_one.index));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_remote_flush_timeout_keeps_tables, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_plain_write_not_reported,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_write_to_protected_page_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_direct_write_not_reported,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_write_not_reported,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_ram_above_4g, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
