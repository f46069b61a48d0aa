/* A virtual IOAPIC (82093AA register model, 24 pins) at 0xFEC00000, the
 * one the VM's MADT announces. Devices raise their ISA IRQ on its pin;
 * an unmasked fixed or lowest-priority entry sets the vector in the IRR
 * of the vCPU(s) its destination names (hv/vm/vipi.h, vipi_device_irq).
 * Pins are treated as edge-triggered: our only source (the vUART) is an
 * ISA edge interrupt; level entries are accepted but behave as edge
 * (Remote IRR is never set). */
#ifndef HV_VM_VIOAPIC_H
#define HV_VM_VIOAPIC_H

#include <stdint.h>

#include "hv/vm/mmio.h"

#define VIOAPIC_PINS	24

struct vioapic {
	uint32_t regsel;
	uint32_t id;
	uint64_t redir[VIOAPIC_PINS];
	uint64_t delivered, masked_drops;
	/* Bumped by every redirection-entry write and reset: the EOI-exit
	 * bitmap of virtual-interrupt delivery is recomputed only when it
	 * moved (hv/vm/vlapic_apicv.c). */
	uint32_t gen;
};

struct vm;

void vioapic_reset(struct vioapic *io);
/* An edge on the pin (ISA IRQ n is pin n, except IRQ0 -> pin 2). */
void vioapic_assert(struct vm *vm, unsigned pin);

extern const struct mmio_region vioapic_mmio;

#endif
