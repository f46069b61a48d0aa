/* fake_hv_protect_ram, on which the vGPU fuzz targets' "not a byte of the
 * victim's memory changes" rests: a store into a protected VM's RAM must
 * not complete, a store elsewhere must, and unprotecting restores writes.
 * The store runs in a child process, which dies of the fault (default
 * SIGSEGV action there: cmocka's handler would carry on with the tests). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/world/fake_hv_ops.h"

#define RAM (1ull << 20)

/* 0: the store completed; otherwise the child faulted. */
static int store_in_child(uint32_t protect_vm, uint32_t vm, uint64_t gpa,
			  bool unprotect)
{
	struct fake_hv f;
	uint32_t v = 0xdeadbeef, back = 0;
	pid_t pid;
	int status;

	assert_int_equal(fake_hv_init(&f, 1, 4), 0);
	assert_int_equal(fake_hv_add_vm(&f, 1, RAM), 0);
	assert_int_equal(fake_hv_add_vm(&f, 2, RAM), 0);
	assert_int_equal(fake_hv_protect_ram(&f, protect_vm, true), 0);
	if (unprotect)
		assert_int_equal(fake_hv_protect_ram(&f, protect_vm, false), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		fake_hv_guest_write(&f, vm, gpa, &v, 4);
		fake_hv_guest_read(&f, vm, gpa, &back, 4);
		_exit(back == v ? 0 : 3);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	fake_hv_fini(&f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void protected_vm_store_faults(void **state)
{
	(void)state;
	assert_int_not_equal(store_in_child(2, 2, 0, false), 0);
	assert_int_not_equal(store_in_child(2, 2, RAM - 4, false), 0);
}

static void other_vm_store_completes(void **state)
{
	(void)state;
	/* VM 1's last page and VM 2's neighbour pages stay writable. */
	assert_int_equal(store_in_child(2, 1, RAM - 4, false), 0);
	assert_int_equal(store_in_child(1, 2, 0, false), 0);
}

static void unprotected_store_completes(void **state)
{
	(void)state;
	assert_int_equal(store_in_child(2, 2, 0, true), 0);
}

static void unknown_vm_refused(void **state)
{
	struct fake_hv f;

	(void)state;
	assert_int_equal(fake_hv_init(&f, 1, 4), 0);
	assert_int_equal(fake_hv_protect_ram(&f, 3, true), -1);
	fake_hv_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(protected_vm_store_faults),
		cmocka_unit_test(other_vm_store_completes),
		cmocka_unit_test(unprotected_store_completes),
		cmocka_unit_test(unknown_vm_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
