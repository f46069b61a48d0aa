/* Unit tests for hv/vm/vipi_route.c: ICR decode, destination resolution
 * among one VM's vCPUs only, and the INIT/SIPI rules; and the vLAPIC's
 * side of it (hv/vm/vlapic.c: IDs, logical IDs, which ICR writes are left
 * for delivery). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/vm/vipi.h"
#include "hv/vm/vlapic.h"
#include "hv/vm/vm.h"

/* The mailbox of a VM on another CPU (hv/vm/vm_mailbox.c, tested in
 * test_vm_mailbox): here whether the VM is remote, and what was posted. */
static bool remote;
static int posted[VM_VCPUS_MAX][256];
static uint32_t remote_mask;	/* vCPUs on another CPU than the caller */
bool vm_mailbox_remote_vcpu(const struct vm *vm, unsigned i)
{
	(void)vm;
	return remote || (remote_mask >> i & 1);
}
int vm_mailbox_post(struct vm *vm, unsigned vcpu, uint8_t vec)
{
	(void)vm;
	posted[vcpu][vec]++;
	return 0;
}

/* Which CPU the code under test runs on (hv/cpu/percpu.h): the running
 * vCPU is the CPU's (vm_vcpu), so a test switches CPUs by switching this. */
static struct percpu cpu_a, cpu_b, *me = &cpu_a;
struct percpu *test_this_cpu(void)
{
	return me;
}

static int posted_ipi[VM_VCPUS_MAX][8];	/* by mode */
int vm_mailbox_post_ipi(struct vm *vm, unsigned vcpu, const struct ipi *ipi)
{
	(void)vm;
	if (ipi->mode == IPI_FIXED || (ipi->mode == IPI_INIT && ipi->deassert))
		return -1;
	posted_ipi[vcpu][ipi->mode & 7]++;
	return 0;
}

#define NR 4
static struct vlapic lapic[NR];
static const struct vlapic *lp[NR];

static void setup_lapics(void)
{
	memset(lapic, 0, sizeof(lapic));
	for (unsigned i = 0; i < NR; i++) {
		lapic[i].id = i;
		vlapic_reset(&lapic[i]);
		lp[i] = &lapic[i];
	}
}

/* ICR low word: vector, mode, logical, level assert, shorthand. */
static uint64_t icr(uint32_t dest, unsigned mode, bool logical,
		    unsigned shorthand, uint8_t vec)
{
	return (uint64_t)dest << 32 | shorthand << 18 | 1u << 14 |
	       (logical ? 1u << 11 : 0) | mode << 8 | vec;
}

static uint32_t targets(uint64_t v, bool x2apic, unsigned self, unsigned nr)
{
	struct ipi ipi;

	ipi_decode(v, x2apic, &ipi);
	return ipi_targets(&ipi, self, lp, nr);
}

static void test_decode(void **state)
{
	struct ipi ipi;

	(void)state;
	ipi_decode(icr(0x12345678, IPI_SIPI, true, IPI_OTHERS, 0x9a), true,
		   &ipi);
	assert_int_equal(ipi.vector, 0x9a);
	assert_int_equal(ipi.mode, IPI_SIPI);
	assert_int_equal(ipi.shorthand, IPI_OTHERS);
	assert_true(ipi.logical && ipi.x2apic && !ipi.deassert);
	assert_int_equal(ipi.dest, 0x12345678);
	/* xAPIC: one destination byte (hv/vm/vlapic_xapic.c puts it in
	 * bits 39:32) */
	ipi_decode(icr(0x1203, IPI_FIXED, false, IPI_DEST, 0x40), false, &ipi);
	assert_int_equal(ipi.dest, 0x03);
	assert_false(ipi.x2apic || ipi.logical);
	/* INIT level de-assert: level bit clear */
	ipi_decode((5u << 8) | (1u << 15), true, &ipi);
	assert_true(ipi.deassert);
}

static void test_shorthands(void **state)
{
	(void)state;
	setup_lapics();
	assert_int_equal(targets(icr(3, 0, false, IPI_SELF, 0x40), true, 1,
				 NR), 1u << 1);
	assert_int_equal(targets(icr(3, 0, false, IPI_ALL, 0x40), true, 1,
				 NR), 0xf);
	assert_int_equal(targets(icr(3, 0, false, IPI_OTHERS, 0x40), true, 1,
				 NR), 0xd);
	/* a one-vCPU VM: "all but self" is nobody */
	assert_int_equal(targets(icr(0, 0, false, IPI_OTHERS, 0x40), true, 0,
				 1), 0);
	/* a sender outside the VM's vCPUs reaches nobody */
	assert_int_equal(targets(icr(0, 0, false, IPI_ALL, 0x40), true, 4,
				 NR), 0);
}

static void test_physical(void **state)
{
	(void)state;
	setup_lapics();
	assert_int_equal(targets(icr(2, 0, false, 0, 0x40), true, 0, NR),
			 1u << 2);
	assert_int_equal(targets(icr(0, 0, false, 0, 0x40), true, 3, NR), 1);
	/* IDs the VM does not have: nobody, never another VM's vCPU */
	assert_int_equal(targets(icr(4, 0, false, 0, 0x40), true, 0, NR), 0);
	assert_int_equal(targets(icr(0x100, 0, false, 0, 0x40), true, 0, NR),
			 0);
	assert_int_equal(targets(icr(2, 0, false, 0, 0x40), true, 0, 2), 0);
	/* broadcast: every vCPU of the VM, and only those */
	assert_int_equal(targets(icr(0xffffffffu, 0, false, 0, 0x40), true, 0,
				 NR), 0xf);
	assert_int_equal(targets(icr(0xff, 0, false, 0, 0x40), false, 0, 3),
			 0x7);
	/* x2APIC 0xFF is an ordinary ID, not the broadcast */
	assert_int_equal(targets(icr(0xff, 0, false, 0, 0x40), true, 0, NR),
			 0);
	/* xAPIC: only the low byte counts */
	assert_int_equal(targets(icr(0x5501, 0, false, 0, 0x40), false, 0,
				 NR), 1u << 1);
}

static void test_logical(void **state)
{
	uint64_t ldr;

	(void)state;
	setup_lapics();
	/* x2APIC logical IDs: cluster 0, bit = ID */
	assert_int_equal(vlapic_rdmsr(&lapic[3], X2APIC_LDR, 0, &ldr), 0);
	assert_int_equal(ldr, 1u << 3);
	assert_int_equal(targets(icr(0x0000000a, 0, true, 0, 0x40), true, 0,
				 NR), 0xa);
	assert_int_equal(targets(icr(0x0001000a, 0, true, 0, 0x40), true, 0,
				 NR), 0);	/* cluster 1: nobody here */
	/* xAPIC flat model: LDR bits set by the guest */
	lapic[1].xapic_ldr = 0x01000000;
	lapic[2].xapic_ldr = 0x02000000;
	lapic[3].xapic_ldr = 0x04000000;
	assert_int_equal(targets(icr(0x06, 0, true, 0, 0x40), false, 0, NR),
			 0xc);
	assert_int_equal(targets(icr(0x08, 0, true, 0, 0x40), false, 0, NR),
			 0);
	/* xAPIC cluster model (DFR 0): cluster 1, member bit 1 */
	lapic[2].xapic_dfr = 0x0fffffff;
	lapic[2].xapic_ldr = 0x12000000;
	assert_int_equal(targets(icr(0x12, 0, true, 0, 0x40), false, 0, NR),
			 1u << 2);
	assert_int_equal(targets(icr(0x22, 0, true, 0, 0x40), false, 0, NR),
			 0);
	/* lowest priority: one vCPU of the set, the lowest-numbered */
	assert_int_equal(targets(icr(0x0000000c, IPI_LOWEST, true, 0, 0x40),
				 true, 0, NR), 1u << 2);
}

static enum ipi_effect effect(unsigned mode, uint8_t vec, unsigned target,
			      enum vcpu_run run)
{
	struct ipi ipi;

	ipi_decode(icr(target, mode, false, 0, vec), true, &ipi);
	return ipi_effect(&ipi, target, run);
}

/* The INIT/SIPI state machine: wait-for-SIPI takes only a SIPI; a SIPI
 * anywhere else is ignored; INIT sends an AP back to wait, never vCPU 0. */
static void test_init_sipi(void **state)
{
	struct ipi ipi;

	(void)state;
	assert_int_equal(effect(IPI_SIPI, 0x08, 1, VCPU_WAIT_SIPI),
			 IPI_EFF_START);
	assert_int_equal(effect(IPI_SIPI, 0x08, 1, VCPU_RUN), IPI_EFF_DROP);
	assert_int_equal(effect(IPI_SIPI, 0x08, 1, VCPU_HALTED), IPI_EFF_DROP);
	assert_int_equal(effect(IPI_FIXED, 0x40, 1, VCPU_WAIT_SIPI),
			 IPI_EFF_DROP);
	assert_int_equal(effect(IPI_NMI, 0, 1, VCPU_WAIT_SIPI), IPI_EFF_DROP);
	assert_int_equal(effect(IPI_INIT, 0, 1, VCPU_RUN), IPI_EFF_INIT);
	assert_int_equal(effect(IPI_INIT, 0, 1, VCPU_HALTED), IPI_EFF_INIT);
	assert_int_equal(effect(IPI_INIT, 0, 1, VCPU_WAIT_SIPI), IPI_EFF_INIT);
	assert_int_equal(effect(IPI_INIT, 0, 0, VCPU_RUN), IPI_EFF_DROP);
	/* INIT level de-assert (what Linux sends after INIT): nothing */
	ipi_decode((5u << 8) | (1u << 15), true, &ipi);
	assert_int_equal(ipi_effect(&ipi, 1, VCPU_WAIT_SIPI), IPI_EFF_NONE);
	/* interrupts and NMIs */
	assert_int_equal(effect(IPI_FIXED, 0x40, 1, VCPU_HALTED), IPI_EFF_IRR);
	assert_int_equal(effect(IPI_FIXED, 0x0f, 1, VCPU_RUN), IPI_EFF_DROP);
	assert_int_equal(effect(IPI_LOWEST, 0x40, 1, VCPU_RUN), IPI_EFF_IRR);
	assert_int_equal(effect(IPI_NMI, 0, 0, VCPU_HALTED), IPI_EFF_NMI);
	assert_int_equal(effect(IPI_SMI, 0, 1, VCPU_RUN), IPI_EFF_DROP);
	assert_int_equal(effect(IPI_EXTINT, 0, 1, VCPU_RUN), IPI_EFF_DROP);
	assert_int_equal(effect(3, 0, 1, VCPU_RUN), IPI_EFF_DROP);
}

/* The vLAPIC: its ID, BSP flag, and which ICR writes it leaves for the
 * VM to deliver (icr_sent) and which it takes itself. */
static void test_vlapic_side(void **state)
{
	uint64_t v;

	(void)state;
	setup_lapics();
	assert_int_equal(vlapic_rdmsr(&lapic[2], X2APIC_ID, 0, &v), 0);
	assert_int_equal(v, 2);
	assert_true(lapic[0].apic_base & APIC_BASE_BSP);
	assert_false(lapic[2].apic_base & APIC_BASE_BSP);
	assert_int_equal(vlapic_xapic_reg(&lapic[2], 0x020, 0), 2u << 24);
	/* reset keeps the ID */
	vlapic_reset(&lapic[2]);
	assert_int_equal(lapic[2].id, 2);
	/* fixed self-IPI by shorthand: taken here */
	assert_int_equal(vlapic_wrmsr(&lapic[1], X2APIC_ICR,
				      icr(0, 0, false, IPI_SELF, 0x50), 0), 0);
	assert_false(lapic[1].icr_sent);
	assert_true(lapic[1].irr[1] & 1ull << (0x50 - 64));
	/* anything else is left for delivery, and reads back */
	assert_int_equal(vlapic_wrmsr(&lapic[1], X2APIC_ICR,
				      icr(2, IPI_SIPI, false, 0, 8), 0), 0);
	assert_true(lapic[1].icr_sent);
	assert_int_equal(vlapic_rdmsr(&lapic[1], X2APIC_ICR, 0, &v), 0);
	assert_int_equal(v, icr(2, IPI_SIPI, false, 0, 8));
}

/* hv/vm/vipi.c on a two-vCPU VM in xAPIC mode (a Linux VM): device
 * interrupts go where the IOAPIC entry's destination says, an NMI ends a
 * parked vCPU's HLT, a fixed IPI leaves it parked with the vector
 * pending, INIT sends it back to wait for SIPI. */
static struct vm vm2;

static void setup_vm2(void)
{
	memset(&vm2, 0, sizeof(vm2));
	vm2.nr_vcpus = 2;
	for (unsigned i = 0; i < 2; i++) {
		vm2.vcpus[i].idx = i;
		vm2.vcpus[i].lapic = &vm2.lapics[i];
		vm2.lapics[i].id = i;
		vlapic_reset(&vm2.lapics[i]);
		vm2.lapics[i].apic_base = APIC_BASE_ADDR | APIC_BASE_EN |
					  (i ? 0 : APIC_BASE_BSP);
		vm2.lapics[i].xapic_ldr = (1u << i) << 24;	/* flat */
	}
	me = &cpu_a;
	vm_set_vcpu(&vm2, &vm2.vcpus[0]);
	vm2.state = VM_RUNNABLE;
}

static bool irr(unsigned cpu, unsigned vec)
{
	return vm2.lapics[cpu].irr[vec / 64] & 1ull << (vec % 64);
}

static void test_device_irq(void **state)
{
	(void)state;
	setup_vm2();
	vipi_device_irq(&vm2, 0x22, true, 0x02, false);	/* logical CPU 1 */
	assert_true(irr(1, 0x22));
	assert_false(irr(0, 0x22));
	assert_true(vm2.vcpus[0].kick);
	vipi_device_irq(&vm2, 0x23, false, 0, false);	/* physical 0 */
	assert_true(irr(0, 0x23));
	assert_false(irr(1, 0x23));
	vipi_device_irq(&vm2, 0x24, false, 7, false);	/* nobody: vCPU 0 */
	assert_true(irr(0, 0x24));
	vipi_device_irq(&vm2, 0x25, true, 0x03, true);	/* lowest: vCPU 0 */
	assert_true(irr(0, 0x25));
	assert_false(irr(1, 0x25));
	vm2.vcpus[1].run = VCPU_WAIT_SIPI;		/* not started */
	vipi_device_irq(&vm2, 0x26, false, 1, false);
	assert_false(irr(1, 0x26));
	vm2.nr_vcpus = 1;				/* one vCPU: vCPU 0 */
	vipi_device_irq(&vm2, 0x27, false, 5, false);
	assert_true(irr(0, 0x27));
}

/* A VM on two CPUs (cpus=1,2): an IOAPIC interrupt for vCPU 1, on the
 * other CPU, goes to its mailbox (its CPU raises it), never into its IRR
 * from here; one for vCPU 0, here, is raised and wakes it: its slot's
 * halted flag is cleared, not the other slot's, and the VM's state says
 * runnable again. */
static void test_device_irq_two_cpus(void **state)
{
	(void)state;
	setup_vm2();
	memset(posted, 0, sizeof(posted));
	vm2.nr_cpus = 2;
	vm2.vcpus[1].slot = 1;
	remote_mask = 1u << 1;
	vm2.vcpus[0].run = VCPU_HALTED;
	vm2.vcpus[1].run = VCPU_HALTED;
	vm2.slot_halted[0] = vm2.slot_halted[1] = 1;
	vm2.state = VM_HALTED;
	vipi_device_irq(&vm2, 0x31, false, 1, false);	/* physical 1 */
	assert_int_equal(posted[1][0x31], 1);
	assert_false(irr(1, 0x31));
	assert_int_equal(vm2.vcpus[1].run, VCPU_HALTED);	/* its CPU's */
	assert_int_equal(vm2.slot_halted[1], 1);
	assert_int_equal(vm2.state, VM_HALTED);
	vipi_device_irq(&vm2, 0x32, false, 0, false);	/* physical 0 */
	assert_true(irr(0, 0x32));
	assert_int_equal(posted[0][0x32], 0);
	assert_int_equal(vm2.vcpus[0].run, VCPU_RUN);
	assert_int_equal(vm2.slot_halted[0], 0);
	assert_int_equal(vm2.slot_halted[1], 1);
	assert_int_equal(vm2.state, VM_RUNNABLE);
	/* a stopped VM stays stopped whatever is woken */
	vm2.state = VM_STOPPED;
	vm2.vcpus[0].run = VCPU_HALTED;
	vipi_device_irq(&vm2, 0x33, false, 0, false);
	assert_int_equal(vm2.state, VM_STOPPED);
	remote_mask = 0;
}

/* MSI address: 0xFEE, destination ID 19:12, RH bit 3, DM bit 2. */
static uint64_t msi_addr(uint8_t dest, bool rh, bool logical)
{
	return 0xfee00000ull | (uint32_t)dest << 12 | (rh ? 8u : 0) |
	       (logical ? 4u : 0);
}

/* The vGPU's MSI (hv/vm/vipi.c vipi_msi) follows its address: physical
 * and logical destinations, to vCPU 1 while vCPU 0 runs (a kick), moved
 * back to vCPU 0 (Linux moving the IRQ's affinity), lowest priority,
 * nobody, and the modes, vectors and addresses that deliver nothing. */
static void test_msi(void **state)
{
	(void)state;
	setup_vm2();
	vm2.vcpus[1].run = VCPU_HALTED;
	assert_int_equal(vipi_msi(&vm2, msi_addr(1, false, false), 0x41),
			 MSI_DELIVERED);			/* physical 1 */
	assert_true(irr(1, 0x41));
	assert_false(irr(0, 0x41));
	assert_int_equal(vm2.vcpus[1].run, VCPU_RUN);	/* woken */
	assert_true(vm2.vcpus[0].kick);			/* its turn next */
	vm2.vcpus[0].kick = false;
	assert_int_equal(vipi_msi(&vm2, msi_addr(0x01, false, true), 0x42),
			 MSI_DELIVERED);	/* logical flat 0x01: vCPU 0 */
	assert_true(irr(0, 0x42));
	assert_false(irr(1, 0x42));
	assert_false(vm2.vcpus[0].kick);		/* vCPU 0 is current */
	assert_int_equal(vipi_msi(&vm2, msi_addr(0x02, false, true), 0x43),
			 MSI_DELIVERED);	/* logical 0x02: vCPU 1 */
	assert_true(irr(1, 0x43));
	assert_false(irr(0, 0x43));
	assert_int_equal(vipi_msi(&vm2, msi_addr(0x03, false, true), 0x44),
			 MSI_DELIVERED);	/* both, fixed */
	assert_true(irr(0, 0x44) && irr(1, 0x44));
	assert_int_equal(vipi_msi(&vm2, msi_addr(0x03, true, true), 0x45),
			 MSI_DELIVERED);	/* RH: lowest priority, one */
	assert_true(irr(0, 0x45));
	assert_false(irr(1, 0x45));
	assert_int_equal(vipi_msi(&vm2, msi_addr(0x03, false, true),
				  0x100 | 0x46), MSI_DELIVERED);
	assert_true(irr(0, 0x46));		/* lowest-priority mode */
	assert_false(irr(1, 0x46));
	assert_int_equal(vm2.vcpus[0].msis, 4);
	assert_int_equal(vm2.vcpus[1].msis, 3);
	/* nobody: APIC ID 5, logical 0x10; vCPU 1 waiting for SIPI */
	assert_int_equal(vipi_msi(&vm2, msi_addr(5, false, false), 0x47),
			 MSI_NOBODY);
	assert_int_equal(vipi_msi(&vm2, msi_addr(0x10, false, true), 0x47),
			 MSI_NOBODY);
	vm2.vcpus[1].run = VCPU_WAIT_SIPI;
	assert_int_equal(vipi_msi(&vm2, msi_addr(1, false, false), 0x47),
			 MSI_NOBODY);
	assert_int_equal(vipi_msi(&vm2, msi_addr(0x03, true, true), 0x48),
			 MSI_DELIVERED);	/* lowest: the started one */
	assert_true(irr(0, 0x48));
	assert_false(irr(1, 0x47) || irr(1, 0x48) || irr(0, 0x47));
	/* not delivered at all */
	assert_int_equal(vipi_msi(&vm2, msi_addr(0, false, false), 0x40f),
			 MSI_MODE);			/* NMI */
	assert_int_equal(vipi_msi(&vm2, msi_addr(0, false, false), 0x230),
			 MSI_MODE);			/* SMI */
	assert_int_equal(vipi_msi(&vm2, msi_addr(0, false, false), 0x730),
			 MSI_MODE);			/* ExtINT */
	assert_int_equal(vipi_msi(&vm2, msi_addr(0, false, false), 0x0f),
			 MSI_VECTOR);
	assert_int_equal(vipi_msi(&vm2, 0xfed00000ull, 0x49), MSI_NOT_FEE);
	assert_int_equal(vipi_msi(&vm2, 0x1fee00000ull, 0x49), MSI_NOT_FEE);
	assert_false(irr(0, 0x49) || irr(0, 0x30));
	assert_int_equal(vm2.vcpus[0].msis, 5);
	assert_int_equal(vm2.vcpus[1].msis, 3);
	/* one vCPU (x2APIC, the test guest's 0xFEE00000): vCPU 0; any other
	 * ID is nobody, as on hardware */
	setup_vm2();
	vm2.nr_vcpus = 1;
	vm2.lapics[0].apic_base |= APIC_BASE_EXTD;
	assert_int_equal(vipi_msi(&vm2, 0xfee00000ull, 0x4a), MSI_DELIVERED);
	assert_true(irr(0, 0x4a));
	assert_int_equal(vipi_msi(&vm2, msi_addr(1, false, false), 0x4b),
			 MSI_NOBODY);
	assert_int_equal(vipi_msi(&vm2, msi_addr(0xff, false, false), 0x4c),
			 MSI_DELIVERED);		/* broadcast */
	assert_true(irr(0, 0x4c));
	assert_string_equal(msi_result_name(MSI_NOBODY),
			    "its destination names no started vCPU");
}

static void send_from0(uint64_t v)
{
	vm2.lapics[0].icr = v;
	vm2.lapics[0].icr_sent = true;
	vipi_send(&vm2);
}

static void test_parked(void **state)
{
	(void)state;
	setup_vm2();
	vm2.vcpus[1].run = VCPU_PARKED;
	send_from0(icr(1, IPI_FIXED, false, 0, 0xfd));
	assert_int_equal(vm2.vcpus[1].run, VCPU_PARKED);
	assert_true(irr(1, 0xfd));
	send_from0(icr(1, IPI_SIPI, false, 0, 0x9a));	/* not waiting */
	assert_int_equal(vm2.vcpus[1].run, VCPU_PARKED);
	send_from0(icr(1, IPI_NMI, false, 0, 0));
	assert_int_equal(vm2.vcpus[1].run, VCPU_RUN);
	assert_true(vm2.vcpus[1].nmi_pending);
	vm2.vcpus[1].run = VCPU_PARKED;
	send_from0(icr(1, IPI_INIT, false, 0, 0));
	assert_int_equal(vm2.vcpus[1].run, VCPU_WAIT_SIPI);
	send_from0(icr(1, IPI_SIPI, false, 0, 0x9a));
	assert_int_equal(vm2.vcpus[1].run, VCPU_RUN);
	assert_true(vm2.vcpus[1].start_pending);
	assert_int_equal(vm2.vcpus[1].start_rip, 0x9a000);
	assert_int_equal(vm2.stats.ipis_sent, 5);
	assert_int_equal(vm2.stats.ipis_dropped, 1);
}

/* A VM on another CPU: the targets are resolved here, each vector goes
 * to the target's mailbox, and nothing of the VM's own state (IRR, run
 * state, turn) is touched from this CPU. */
static void test_msi_remote(void **state)
{
	(void)state;
	setup_vm2();
	memset(posted, 0, sizeof(posted));
	vm2.vcpus[1].run = VCPU_HALTED;
	remote = true;
	assert_int_equal(vipi_msi(&vm2, msi_addr(1, false, false), 0x41),
			 MSI_DELIVERED);
	assert_int_equal(posted[1][0x41], 1);
	assert_int_equal(posted[0][0x41], 0);
	assert_false(irr(1, 0x41));
	assert_int_equal(vm2.vcpus[1].run, VCPU_HALTED);
	assert_false(vm2.vcpus[0].kick);
	assert_int_equal(vm2.vcpus[1].msis, 1);
	assert_int_equal(vipi_msi(&vm2, msi_addr(5, false, false), 0x42),
			 MSI_NOBODY);
	remote = false;
}

/* The running vCPU is the CPU's (hv/vm/vm.h vm_vcpu): CPU b runs vCPU 1
 * while CPU a runs vCPU 0, and each IPI comes from the sender its own
 * CPU runs (a self IPI lands on it, not on the other). */
static void test_running_vcpu_per_cpu(void **state)
{
	(void)state;
	setup_vm2();
	me = &cpu_b;
	vm_set_vcpu(&vm2, &vm2.vcpus[1]);
	me = &cpu_a;
	assert_ptr_equal(vm_vcpu(&vm2), &vm2.vcpus[0]);
	me = &cpu_b;
	assert_ptr_equal(vm_vcpu(&vm2), &vm2.vcpus[1]);
	vm2.lapics[1].icr = icr(0, IPI_FIXED, false, 1, 0x51);	/* self */
	vm2.lapics[1].icr_sent = true;
	vipi_send(&vm2);
	assert_true(irr(1, 0x51));
	assert_false(irr(0, 0x51));
	me = &cpu_a;
	send_from0(icr(0, IPI_FIXED, false, 1, 0x52));		/* self */
	assert_true(irr(0, 0x52));
	assert_false(irr(1, 0x52));
	assert_int_equal(vm2.stats.ipis_sent, 2);
}

/* A sibling on another CPU (the VM remote from the sender's CPU): the
 * fixed vector goes to its mailbox, NMI/INIT/SIPI to its event word, an
 * INIT de-assert nowhere; nothing of its state is touched from here. */
static void test_send_remote(void **state)
{
	(void)state;
	setup_vm2();
	memset(posted, 0, sizeof(posted));
	memset(posted_ipi, 0, sizeof(posted_ipi));
	vm2.vcpus[1].run = VCPU_HALTED;
	remote = true;
	send_from0(icr(1, IPI_FIXED, false, 0, 0x61));
	send_from0(icr(1, IPI_NMI, false, 0, 0));
	send_from0(icr(1, IPI_INIT, false, 0, 0));
	send_from0(icr(1, IPI_INIT, false, 0, 0) & ~(1ull << 14));
	send_from0(icr(1, IPI_SIPI, false, 0, 0x9a));
	remote = false;
	assert_int_equal(posted[1][0x61], 1);
	assert_int_equal(posted_ipi[1][IPI_NMI], 1);
	assert_int_equal(posted_ipi[1][IPI_INIT], 1);
	assert_int_equal(posted_ipi[1][IPI_SIPI], 1);
	assert_false(irr(1, 0x61));
	assert_int_equal(vm2.vcpus[1].run, VCPU_HALTED);
	assert_false(vm2.vcpus[1].nmi_pending);
	assert_false(vm2.vcpus[0].kick);
	assert_int_equal(vm2.stats.ipis_sent, 5);
	/* the fixed vector counted as it is posted (its IRR bit is set at
	 * the drain); NMI, INIT and SIPI where they are applied */
	assert_int_equal(vm2.stats.ipis_delivered, 1);
	assert_int_equal(vm2.stats.ipis_dropped, 0);
}

/* Each target by its own CPU: an all-including-self IPI from vCPU 0
 * sets its own IRR here and goes to vCPU 1's mailbox, vCPU 1 being on
 * another CPU. */
static void test_send_mixed(void **state)
{
	(void)state;
	setup_vm2();
	memset(posted, 0, sizeof(posted));
	remote_mask = 1u << 1;
	send_from0(icr(0, IPI_FIXED, false, 2, 0x70));
	remote_mask = 0;
	assert_true(irr(0, 0x70));
	assert_false(irr(1, 0x70));
	assert_int_equal(posted[1][0x70], 1);
	assert_int_equal(posted[0][0x70], 0);
	assert_int_equal(vm2.stats.ipis_delivered, 2);	/* here, and posted */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_shorthands),
		cmocka_unit_test(test_physical),
		cmocka_unit_test(test_logical),
		cmocka_unit_test(test_init_sipi),
		cmocka_unit_test(test_vlapic_side),
		cmocka_unit_test(test_device_irq),
		cmocka_unit_test(test_device_irq_two_cpus),
		cmocka_unit_test(test_parked),
		cmocka_unit_test(test_msi),
		cmocka_unit_test(test_msi_remote),
		cmocka_unit_test(test_running_vcpu_per_cpu),
		cmocka_unit_test(test_send_remote),
		cmocka_unit_test(test_send_mixed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
