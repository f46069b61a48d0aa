/* Tables of exit-reason and VM-instruction-error names. Indexed by number;
 * holes (numbers the SDM leaves unassigned) are NULL and print "UNKNOWN". */
#include <stddef.h>

#include "hv/vmx/exit_reason.h"
#include "hv/vmx/vmx_defs.h"

#define NAME(r) [EXIT_REASON_##r] = #r

/* SDM Appendix C, Table C-1 "Basic Exit Reasons". */
static const char *const exit_reason_names[EXIT_REASON_COUNT] = {
	NAME(EXCEPTION_NMI),
	NAME(EXTERNAL_INTERRUPT),
	NAME(TRIPLE_FAULT),
	NAME(INIT_SIGNAL),
	NAME(SIPI),
	NAME(IO_SMI),
	NAME(OTHER_SMI),
	NAME(INTERRUPT_WINDOW),
	NAME(NMI_WINDOW),
	NAME(TASK_SWITCH),
	NAME(CPUID),
	NAME(GETSEC),
	NAME(HLT),
	NAME(INVD),
	NAME(INVLPG),
	NAME(RDPMC),
	NAME(RDTSC),
	NAME(RSM),
	NAME(VMCALL),
	NAME(VMCLEAR),
	NAME(VMLAUNCH),
	NAME(VMPTRLD),
	NAME(VMPTRST),
	NAME(VMREAD),
	NAME(VMRESUME),
	NAME(VMWRITE),
	NAME(VMXOFF),
	NAME(VMXON),
	NAME(CR_ACCESS),
	NAME(DR_ACCESS),
	NAME(IO_INSTRUCTION),
	NAME(RDMSR),
	NAME(WRMSR),
	NAME(ENTRY_FAIL_GUEST_STATE),
	NAME(ENTRY_FAIL_MSR_LOADING),
	NAME(MWAIT),
	NAME(MONITOR_TRAP_FLAG),
	NAME(MONITOR),
	NAME(PAUSE),
	NAME(ENTRY_FAIL_MACHINE_CHECK),
	NAME(TPR_BELOW_THRESHOLD),
	NAME(APIC_ACCESS),
	NAME(VIRTUALIZED_EOI),
	NAME(GDTR_IDTR_ACCESS),
	NAME(LDTR_TR_ACCESS),
	NAME(EPT_VIOLATION),
	NAME(EPT_MISCONFIG),
	NAME(INVEPT),
	NAME(RDTSCP),
	NAME(PREEMPTION_TIMER),
	NAME(INVVPID),
	NAME(WBINVD),
	NAME(XSETBV),
	NAME(APIC_WRITE),
	NAME(RDRAND),
	NAME(INVPCID),
	NAME(VMFUNC),
	NAME(ENCLS),
	NAME(RDSEED),
	NAME(PML_FULL),
	NAME(XSAVES),
	NAME(XRSTORS),
	NAME(PCONFIG),
	NAME(SPP_EVENT),
	NAME(UMWAIT),
	NAME(TPAUSE),
	NAME(LOADIWKEY),
	NAME(ENCLV),
	NAME(ENQCMD_PASID_FAIL),
	NAME(ENQCMDS_PASID_FAIL),
	NAME(BUS_LOCK),
	NAME(INSTRUCTION_TIMEOUT),
	NAME(SEAMCALL),
	NAME(TDCALL),
	NAME(RDMSRLIST),
	NAME(WRMSRLIST),
};

/* SDM 31.4 "VM Instruction Error Numbers". */
static const char *const insn_error_names[VMXERR_COUNT] = {
	[VMXERR_VMCALL_IN_ROOT] =
		"VMCALL executed in VMX root operation",
	[VMXERR_VMCLEAR_INVALID_ADDR] =
		"VMCLEAR with invalid physical address",
	[VMXERR_VMCLEAR_VMXON_PTR] =
		"VMCLEAR with VMXON pointer",
	[VMXERR_VMLAUNCH_NONCLEAR_VMCS] =
		"VMLAUNCH with non-clear VMCS",
	[VMXERR_VMRESUME_NONLAUNCHED_VMCS] =
		"VMRESUME with non-launched VMCS",
	[VMXERR_VMRESUME_AFTER_VMXOFF] =
		"VMRESUME after VMXOFF",
	[VMXERR_ENTRY_INVALID_CONTROL] =
		"VM entry with invalid control field(s)",
	[VMXERR_ENTRY_INVALID_HOST_STATE] =
		"VM entry with invalid host-state field(s)",
	[VMXERR_VMPTRLD_INVALID_ADDR] =
		"VMPTRLD with invalid physical address",
	[VMXERR_VMPTRLD_VMXON_PTR] =
		"VMPTRLD with VMXON pointer",
	[VMXERR_VMPTRLD_BAD_REVISION] =
		"VMPTRLD with incorrect VMCS revision identifier",
	[VMXERR_UNSUPPORTED_VMCS_COMPONENT] =
		"VMREAD/VMWRITE from/to unsupported VMCS component",
	[VMXERR_VMWRITE_READONLY_COMPONENT] =
		"VMWRITE to read-only VMCS component",
	[VMXERR_VMXON_IN_ROOT] =
		"VMXON executed in VMX root operation",
	[VMXERR_ENTRY_INVALID_EXECUTIVE_VMCS] =
		"VM entry with invalid executive-VMCS pointer",
	[VMXERR_ENTRY_NONLAUNCHED_EXECUTIVE_VMCS] =
		"VM entry with non-launched executive VMCS",
	[VMXERR_ENTRY_EXECUTIVE_NOT_VMXON_PTR] =
		"VM entry with executive-VMCS pointer not VMXON pointer",
	[VMXERR_VMCALL_NONCLEAR_VMCS] =
		"VMCALL with non-clear VMCS",
	[VMXERR_VMCALL_INVALID_EXIT_CONTROL] =
		"VMCALL with invalid VM-exit control fields",
	[VMXERR_VMCALL_BAD_MSEG_REVISION] =
		"VMCALL with incorrect MSEG revision identifier",
	[VMXERR_VMXOFF_DUAL_MONITOR] =
		"VMXOFF under dual-monitor treatment of SMIs and SMM",
	[VMXERR_VMCALL_INVALID_SMM_FEATURES] =
		"VMCALL with invalid SMM-monitor features",
	[VMXERR_ENTRY_INVALID_EXECUTIVE_CONTROL] =
		"VM entry with invalid VM-execution control fields in executive VMCS",
	[VMXERR_ENTRY_MOV_SS_BLOCKING] =
		"VM entry with events blocked by MOV SS",
	[VMXERR_INVALID_INVEPT_INVVPID_OPERAND] =
		"Invalid operand to INVEPT/INVVPID",
};

static const char *lookup(const char *const *table, size_t n, uint32_t i)
{
	if (i >= n || table[i] == NULL)
		return "UNKNOWN";
	return table[i];
}

const char *vmx_exit_reason_name(uint32_t basic)
{
	return lookup(exit_reason_names, EXIT_REASON_COUNT,
		      EXIT_REASON_BASIC(basic));
}

const char *vmx_insn_error_name(uint32_t err)
{
	return lookup(insn_error_names, VMXERR_COUNT, err);
}
