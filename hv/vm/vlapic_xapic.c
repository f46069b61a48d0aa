/* The vLAPIC's xAPIC view: the 4 KiB MMIO page at 0xFEE00000, decoded
 * while IA32_APIC_BASE says xAPIC mode (SDM 11.4).
 *
 * Why both views: Linux 6.1 keeps x2APIC only with interrupt remapping
 * or on a hypervisor it knows (try_to_enable_x2apic); on anything else it
 * turns x2APIC off again, even when the firmware left it on, and talks to
 * the xAPIC page. So a stock kernel here runs in xAPIC mode, our test
 * guest in x2APIC mode, and both reach the same registers: register at
 * offset N*16 is x2APIC MSR 0x800+N, except the few below whose xAPIC
 * form differs (ID in bits 24-31, ICR split in two, LDR/DFR writable). */
#include "hv/platform/tsc.h"
#include "hv/vm/mmio.h"
#include "hv/vm/vlapic.h"
#include "hv/vm/vipi.h"
#include "hv/vm/vm.h"
#include "hv/cpu/x86.h"

#define XAPIC_EOI	0x0b0
#define XAPIC_LDR	0x0d0
#define XAPIC_DFR	0x0e0
#define XAPIC_ICR_LO	0x300
#define XAPIC_ICR_HI	0x310

static bool xapic_off(struct vm *vm, uint64_t off, unsigned size)
{
	/* Registers are 32 bits at 16-byte strides; other accesses and
	 * accesses in x2APIC mode reach nothing. */
	if (!vlapic_xapic_mode(vm_vcpu(vm)->lapic) || size != 4 || (off & 0xf)) {
		vm_event(vm, VM_EV_UNCLAIMED_MMIO, "xAPIC page access at +%llx "
			 "(%u bytes) outside xAPIC mode or not a register",
			 (unsigned long long)off, size);
		return true;
	}
	return false;
}

static uint64_t xapic_read(struct vm *vm, uint64_t off, unsigned size)
{
	if (xapic_off(vm, off, size))
		return 0xffffffffu;
	return vlapic_xapic_reg(vm_vcpu(vm)->lapic, (uint32_t)off, rdtsc());
}

static void xapic_write(struct vm *vm, uint64_t off, unsigned size,
			uint64_t val)
{
	struct vlapic *l = vm_vcpu(vm)->lapic;
	uint32_t msr = X2APIC_MSR_BASE + (uint32_t)(off >> 4);

	if (xapic_off(vm, off, size))
		return;
	l->vapic_dirty |= VAPIC_DIRTY_ALL;
	switch (off) {
	case XAPIC_LDR: l->xapic_ldr = (uint32_t)val & 0xff000000u; return;
	case XAPIC_DFR: l->xapic_dfr = (uint32_t)val | 0x0fffffffu; return;
	case XAPIC_ICR_HI: l->icr_hi = (uint32_t)val & 0xff000000u; return;
	case XAPIC_EOI: val = 0; break;	/* any value signals EOI */
	case XAPIC_ICR_LO:
		val = (uint64_t)(l->icr_hi >> 24) << 32 | (uint32_t)val;
		break;
	default: break;
	}
	if (vlapic_wrmsr(l, msr, val, rdtsc()))
		vm_event(vm, VM_EV_UNCLAIMED_MMIO, "xAPIC write of %llx to "
			 "read-only or reserved register +%llx: dropped",
			 (unsigned long long)val, (unsigned long long)off);
	vipi_send(vm);	/* an ICR write to other vCPUs */
}

const struct mmio_region vlapic_xapic_mmio = {
	"xAPIC", APIC_BASE_ADDR, 0x1000, xapic_read, xapic_write,
	NULL,
};
