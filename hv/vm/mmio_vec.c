/* SSE accesses to emulated MMIO; see mmio_vec.h. */
#include "hv/vm/cpu_state_switch.h"
#include "hv/vm/mmio_vec.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm.h"
#include "hv/vmx/vmx_insn.h"

#include "mini/string.h"

static const char *const exc_name[] = {
	[INSN_EXC_UD] = "#UD", [INSN_EXC_NM] = "#NM", [INSN_EXC_GP] = "#GP",
};

bool mmio_vec_fault(struct vm *vm, const struct mmio_insn *insn,
		    uint64_t lin)
{
	int vec = mmio_insn_vec_fault(insn, vmread(VMCS_GUEST_CR0),
				      vmread(VMCS_GUEST_CR4), lin);

	if (vec < 0)
		return false;
	vm_event(vm, VM_EV_MMIO_FAULT, "%s of MMIO at linear %llx (opcode "
		 "%x%s) at rip %llx: %s injected",
		 mmio_insn_kind_name(insn->kind), (unsigned long long)lin,
		 insn->opcode, insn->vex ? ", VEX" : "",
		 (unsigned long long)vmread(VMCS_GUEST_RIP), exc_name[vec]);
	vcpu_inject_exception(vm, (unsigned)vec, vec == INSN_EXC_GP, 0);
	return true;
}

void mmio_vec_store_bytes(const struct mmio_insn *insn,
			  uint8_t out[INSN_VEC_BYTES])
{
	struct vec_regs vr;

	cpu_state_xmm_read(&vr);
	mmio_insn_vec_store_bytes(insn, &vr, out);
}

void mmio_vec_complete_load(const struct mmio_insn *insn,
			    const uint8_t in[INSN_VEC_BYTES])
{
	struct vec_regs vr;

	cpu_state_xmm_read(&vr);
	mmio_insn_vec_complete_load(insn, &vr, in);
	cpu_state_xmm_write(&vr);
}
