/* libc-mini: assert-style checks with a defined scope.
 *
 * Two kinds of failure exist in a hypervisor and they must not be confused:
 *  - VM_CHECK: an invariant about one VM's state broke (usually because of
 *    what the guest did). The failure is logged with file:line and only the
 *    current VM is stopped; the caller gets false and must back out.
 *  - HV_ASSERT: the hypervisor's own invariant broke. Logged with file:line,
 *    then the hypervisor halts: continuing could hand one guest another's
 *    memory.
 * The environment supplies lm_check_failed(): hv/ on the machine, a test
 * double on the host. */
#ifndef MINI_CHECK_H
#define MINI_CHECK_H

#include <stdbool.h>

enum lm_check_scope {
	LM_SCOPE_VM = 0, /* stop the current VM, keep running */
	LM_SCOPE_HV = 1, /* halt the hypervisor; does not return */
};

void lm_check_failed(enum lm_check_scope scope, const char *file, int line,
		     const char *expr);

/* Evaluates to true when cond holds; otherwise reports and evaluates false. */
#define VM_CHECK(cond)                                                         \
	((cond) ? true                                                         \
		: (lm_check_failed(LM_SCOPE_VM, __FILE__, __LINE__, #cond),   \
		   false))

#define HV_ASSERT(cond)                                                        \
	do {                                                                   \
		if (!(cond))                                                   \
			lm_check_failed(LM_SCOPE_HV, __FILE__, __LINE__,       \
					#cond);                                \
	} while (0)

#endif
