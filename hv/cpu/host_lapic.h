/* The hypervisor's own local APIC (each CPU's own; the BSP's until the APs
 * are up, hv/smp.c): its
 * mode (xAPIC MMIO or x2APIC MSRs, whichever the firmware left), its id,
 * end of interrupt, and a fixed interrupt sent to an APIC id the way a
 * device's MSI write arrives (SDM 3A 10.6, 10.11, 10.12). */
#ifndef HV_HOST_LAPIC_H
#define HV_HOST_LAPIC_H

#include <stdbool.h>
#include <stdint.h>

/* Spurious-interrupt vector we program (SVR); never acknowledged. */
#define LAPIC_SPURIOUS_VECTOR 0xff

/* Software-enable the LAPIC (SVR bit 8) with our spurious vector, TPR 0
 * so every vector is delivered; the firmware's timer and LINT0 masked.
 * Idempotent. */
void lapic_init(void);
bool lapic_is_x2apic(void);
/* The APIC id an MSI must name to reach this CPU. */
uint32_t lapic_id(void);
void lapic_eoi(void);
/* A fixed, edge-triggered interrupt of vector to APIC id dest (physical
 * destination mode) through the ICR: what the chipset makes of a device's
 * MSI write to 0xFEE<dest>000 with data = vector. 0, or -1 when the ICR
 * stays busy (a previous IPI never left). */
int lapic_send_fixed(uint32_t dest, uint8_t vector);
/* The MP start-up IPIs (SDM Vol. 3A 8.4.4.1) to the CPU with APIC id dest:
 * INIT (edge, assert: the CPU resets into wait-for-SIPI) and start-up with
 * vector (the CPU starts in real mode at vector:0000). 0, or -1 as above. */
int lapic_send_init(uint32_t dest);
/* The timer in TSC-deadline mode (CPUID.01H:ECX[24], SDM 3A 10.5.4.1):
 * lapic_deadline_ok says whether this CPU has it; lapic_deadline_arm
 * makes the timer raise vector once the TSC reaches tsc (0: disarmed). */
bool lapic_deadline_ok(void);
void lapic_deadline_arm(uint8_t vector, uint64_t tsc);
int lapic_send_sipi(uint32_t dest, uint8_t vector);

#endif
