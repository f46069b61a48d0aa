/* Can this CPU run VMs? Decided from CPUID.1:ECX.VMX and IA32_FEATURE_CONTROL
 * before anything VMX-specific is touched. */
#ifndef HV_VTX_DETECT_H
#define HV_VTX_DETECT_H

#include <stdbool.h>
#include <stdint.h>

enum vtx_state {
	VTX_ABSENT,            /* CPUID.1:ECX.VMX = 0 */
	VTX_DISABLED_BY_FW,    /* FEATURE_CONTROL locked with VMX off */
	VTX_READY_LOCKED,      /* locked with VMX outside SMX on */
	VTX_READY_UNLOCKED,    /* unlocked: we enable VMX and lock it */
};

struct vtx_verdict {
	enum vtx_state state;
	uint64_t feature_control; /* valid unless VTX_ABSENT */
	bool in_vm;               /* CPUID.1:ECX.hypervisor: we are nested */
};

/* Pure decision from the raw register values (host-tested). */
struct vtx_verdict vtx_decide(uint32_t cpuid1_ecx, uint64_t feature_control);
/* Reads the CPU and decides. */
struct vtx_verdict vtx_detect(void);
bool vtx_usable(const struct vtx_verdict *v);
/* One line for the console: what was found and what follows from it. */
const char *vtx_explain(const struct vtx_verdict *v);

#endif
