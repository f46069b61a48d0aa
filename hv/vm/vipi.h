/* IPIs between the vCPUs of one VM (docs/smp.md, "Several vCPUs"): the
 * ICR decoded, its destination resolved among the VM's own vCPUs only,
 * and what it does to each target, INIT and STARTUP included (SDM Vol. 3A
 * 10.6.1 for the ICR, 10.6.2 for destinations, 8.4.4 for INIT-SIPI-SIPI).
 * The decode and the rules (vipi_route.c) touch no VMX state; vipi.c
 * carries them out on the VM's vCPUs. */
#ifndef HV_VM_VIPI_H
#define HV_VM_VIPI_H

#include <stdbool.h>
#include <stdint.h>

struct vlapic;
struct vm;

/* Where a vCPU is. */
enum vcpu_run {
	VCPU_RUN,		/* runs when the VM is picked */
	VCPU_HALTED,		/* HLT: waits for an interrupt */
	VCPU_WAIT_SIPI,		/* an AP before its STARTUP IPI, or after
				 * an INIT */
	VCPU_PARKED,		/* HLT with interrupts off (not vCPU 0):
				 * waits for an NMI or INIT */
};

/* ICR delivery modes (bits 10:8) and shorthands (bits 19:18). */
enum ipi_mode {
	IPI_FIXED = 0, IPI_LOWEST = 1, IPI_SMI = 2, IPI_NMI = 4,
	IPI_INIT = 5, IPI_SIPI = 6, IPI_EXTINT = 7,
};
enum ipi_shorthand { IPI_DEST, IPI_SELF, IPI_ALL, IPI_OTHERS };

struct ipi {
	uint8_t vector, mode, shorthand;
	bool logical;		/* destination mode (bit 11) */
	bool deassert;		/* level (bit 14) clear: INIT de-assert */
	bool x2apic;		/* 32-bit destination, x2APIC logical IDs */
	uint32_t dest;
};

/* An ICR value as the vLAPIC keeps it (x2APIC layout; in xAPIC mode the
 * destination byte is bits 39:32, hv/vm/vlapic_xapic.c). */
void ipi_decode(uint64_t icr, bool x2apic, struct ipi *ipi);

/* The vCPUs (bit i: vCPU i) of the sender's VM an IPI reaches, from vCPU
 * `self` among `nr` whose local APICs are l[0..nr-1]: the shorthand, else
 * the physical or logical destination matched against each APIC's ID or
 * logical ID (xAPIC: flat or cluster model by the target's DFR), with the
 * broadcast destination. Nothing outside the VM can be named: the result
 * has no bit at or above nr. Lowest priority reaches the lowest-numbered
 * vCPU of the set. */
uint32_t ipi_targets(const struct ipi *ipi, unsigned self,
		     const struct vlapic *const *l, unsigned nr);

/* A message-signalled interrupt (SDM Vol. 3A 10.11.1-2): address
 * 0xFEExxxxx with the destination ID in bits 19:12, RH bit 3, DM bit 2
 * (logical when set, as KVM reads it: Linux sets DM without RH); data:
 * vector 7:0, delivery mode 10:8. RH with fixed delivery is lowest
 * priority. false for an address outside 0xFEExxxxx (upper half
 * included): no interrupt at all. */
bool msi_decode(uint64_t addr, uint32_t data, bool x2apic, struct ipi *ipi);

/* What an IPI does to one target vCPU in state `run`. */
enum ipi_effect {
	IPI_EFF_IRR,	/* fixed: the vector's IRR bit, wake it */
	IPI_EFF_NMI,	/* an NMI to inject, wake it */
	IPI_EFF_INIT,	/* back to wait-for-SIPI, its LAPIC reset */
	IPI_EFF_START,	/* a SIPI to a waiting vCPU: starts at vector<<12 */
	IPI_EFF_NONE,	/* INIT de-assert: nothing, not an error */
	IPI_EFF_DROP,	/* not delivered (counted): an illegal vector, a
			 * mode we do not deliver (SMI, ExtINT, reserved),
			 * an interrupt or NMI to a vCPU waiting for SIPI,
			 * a SIPI to a vCPU not waiting, an INIT to vCPU 0
			 * (the guest resets the VM through port 0xCF9) */
};
enum ipi_effect ipi_effect(const struct ipi *ipi, unsigned target,
			   enum vcpu_run run);

/* After a guest write of its current vCPU's local APIC: an ICR write
 * that is not a fixed self-IPI (vlapic->icr_sent) is delivered to the
 * VM's vCPUs now. Each write is one exit of the sender and reaches at
 * most its VM's vCPUs: an IPI storm costs the sender's VM its own time. */
void vipi_send(struct vm *vm);

/* One IPI's effect (ipi_effect) on vCPU i of vm, counted in the VM's
 * stats: on the target's own CPU, for an IPI of a sibling on the same
 * CPU (vipi_send) or one posted from another (vm_mailbox_post_ipi). */
void vipi_deliver(struct vm *vm, unsigned i, const struct ipi *ipi);

/* A device interrupt (an IOAPIC redirection entry: fixed or lowest
 * priority, vector, destination mode and 8-bit destination) to the vCPUs
 * the destination names, resolved as an IPI's (ipi_targets; Linux spreads
 * its IRQs and gives each a vector on the CPU it picked). One vCPU, or a
 * destination that names none of them: vCPU 0, as before vcpus=. A vCPU
 * waiting for SIPI takes none. */
void vipi_device_irq(struct vm *vm, uint8_t vector, bool logical,
		     uint8_t dest, bool lowest);

/* A device's MSI (the vGPU's, hv/gpu/hv_ops_impl.c) to the vCPUs its
 * address names, resolved as an IPI's: the VM's own vCPUs only, lowest
 * priority to one. Fixed or lowest priority with a vector >= 16 sets the
 * IRR of each target that is started and wakes it (a halted one, or the
 * one not current: its turn comes next); each counts it (vcpu->msis).
 * For a VM on another CPU than the caller's (the mediator runs on any
 * CPU) the targets are resolved here and each vector goes to the
 * target's mailbox, which the VM's own CPU drains into its vLAPIC
 * (vm_mailbox.h); the destination's logical IDs are read as that CPU
 * last left them: an MSI that crosses the guest's own change of them
 * reaches the old or the new holder, as on hardware.
 * Anything else is dropped and the reason returned for the caller to
 * count and log with the VM's name; nothing falls back to vCPU 0. */
enum msi_result {
	MSI_DELIVERED,
	MSI_NOT_FEE,		/* address outside 0xFEExxxxx */
	MSI_MODE,		/* SMI, NMI, INIT, SIPI, ExtINT, reserved */
	MSI_VECTOR,		/* vector 0..15 */
	MSI_NOBODY,		/* the destination names no started vCPU */
};
enum msi_result vipi_msi(struct vm *vm, uint64_t addr, uint32_t data);
const char *msi_result_name(enum msi_result r);

#endif
