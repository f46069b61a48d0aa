/* libc-mini's check hook on the machine (see mini/check.h). */
#include "hv/console/console.h"
#include "hv/platform/platform.h"
#include "mini/check.h"

void lm_check_failed(enum lm_check_scope scope, const char *file, int line,
		     const char *expr)
{
	if (scope == LM_SCOPE_HV) {
		kprintf("hv: assertion failed at %s:%d: %s\n", file, line, expr);
		platform_halt("hypervisor invariant broken");
	}
	/* VM scope: the caller backs out and the VM layer stops the VM that
	 * was running; here we only make the failure visible. */
	kprintf("vm: check failed at %s:%d: %s\n", file, line, expr);
}
