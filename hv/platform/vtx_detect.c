#include "hv/platform/vtx_detect.h"
#include "hv/cpu/x86.h"

struct vtx_verdict vtx_decide(uint32_t ecx, uint64_t fc)
{
	struct vtx_verdict v = { .in_vm = (ecx & CPUID_1_ECX_HYPERVISOR) != 0 };

	if (!(ecx & CPUID_1_ECX_VMX)) {
		v.state = VTX_ABSENT;
		return v;
	}
	v.feature_control = fc;
	if (!(fc & FEATURE_CONTROL_LOCKED))
		v.state = VTX_READY_UNLOCKED;
	else if (fc & FEATURE_CONTROL_VMXON_OUTSIDE_SMX)
		v.state = VTX_READY_LOCKED;
	else
		v.state = VTX_DISABLED_BY_FW;
	return v;
}

struct vtx_verdict vtx_detect(void)
{
	uint32_t ecx = cpuid(1, 0).ecx;

	/* IA32_FEATURE_CONTROL exists only where VMX (or SMX) does; reading it
	 * elsewhere may #GP. */
	return vtx_decide(ecx, (ecx & CPUID_1_ECX_VMX) ?
				       rdmsr(MSR_IA32_FEATURE_CONTROL) : 0);
}

bool vtx_usable(const struct vtx_verdict *v)
{
	return v->state == VTX_READY_LOCKED || v->state == VTX_READY_UNLOCKED;
}

static const char *const explanations[] = {
	[VTX_ABSENT] = "absent: CPUID.1:ECX.VMX=0 (this CPU or emulator has "
		       "no VT-x); VMs cannot run, the console, PCI and GPU "
		       "inspection still work",
	[VTX_DISABLED_BY_FW] = "disabled by firmware: IA32_FEATURE_CONTROL is "
			       "locked with VMX off; enable VT-x in the "
			       "firmware setup; VMs cannot run, the console "
			       "still works",
	[VTX_READY_LOCKED] = "present: IA32_FEATURE_CONTROL locked with VMX "
			     "enabled",
	[VTX_READY_UNLOCKED] = "present: IA32_FEATURE_CONTROL unlocked; the "
			       "hypervisor enables VMX and locks it",
};

const char *vtx_explain(const struct vtx_verdict *v)
{
	/* A verdict is a plain struct callers may fill by hand: never index
	 * past the table. */
	if ((unsigned)v->state >= sizeof(explanations) / sizeof(explanations[0]))
		return "unknown: no VT-x verdict";
	return explanations[v->state];
}
