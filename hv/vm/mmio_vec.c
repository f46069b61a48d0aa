/* SSE accesses to emulated MMIO; see mmio_vec.h. */
#include "hv/vm/cpu_state_switch.h"
#include "hv/vm/mmio_edge.h"
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

/* [gpa, gpa + len) to or from buf, in pieces the device takes. */
static void pieces(struct vm *vm, const struct mmio_region *reg,
		   uint64_t gpa, uint8_t *buf, unsigned len, bool write)
{
	for (unsigned done = 0, n; done < len; done += n) {
		uint64_t v = 0;

		n = mmio_piece(gpa + done, len - done);
		if (write) {
			memcpy(&v, buf + done, n);
			reg->write(vm, gpa + done - reg->gpa, n, v);
		} else {
			v = reg->read(vm, gpa + done - reg->gpa, n);
			memcpy(buf + done, &v, n);
		}
	}
}

/* Only XMM registers are live here: a VEX form never gets this far, the
 * guest has no AVX state (exit_cpuid.c hides it, so CR4.OSXSAVE stays
 * clear and mmio_vec_fault injected #UD). */
void mmio_vec_access(struct vm *vm, const struct mmio_region *reg,
		     uint64_t gpa, const struct mmio_insn *insn)
{
	uint8_t buf[INSN_VEC_BYTES];
	struct vec_regs vr;

	cpu_state_xmm_read(&vr);
	if (insn->kind == INSN_VEC_STORE) {
		mmio_insn_vec_store_bytes(insn, &vr, buf);
		pieces(vm, reg, gpa, buf, insn->size, true);
		return;
	}
	memset(buf, 0, sizeof(buf));
	pieces(vm, reg, gpa, buf, insn->size, false);
	mmio_insn_vec_complete_load(insn, &vr, buf);
	cpu_state_xmm_write(&vr);
}
