/* Where a STARTUP IPI leaves an application processor (SDM Vol. 3A 8.4.4
 * and Table 9-1, the state after INIT; 10.6.1 for the vector): real mode,
 * CS selector vector << 8 with base vector << 12, IP 0, every other
 * segment at 0 with a 64 KiB limit, CR0 as after INIT, no paging, EFER 0.
 * Pure: the numbers only (hv/vm/vcpu.c writes them into the VMCS under
 * "unrestricted guest"; tests/unit/test_vcpu_sipi.c checks them against
 * the VM-entry rules for such a guest, SDM Vol. 3C 27.3.1.2). */
#ifndef HV_VM_VCPU_SIPI_H
#define HV_VM_VCPU_SIPI_H

#include <stdint.h>

struct vcpu_seg_state {
	uint16_t sel;
	uint32_t base, limit, ar;	/* ar: VMCS access-rights layout */
};

struct vcpu_sipi_state {
	struct vcpu_seg_state cs, data, tr, ldtr;	/* data: SS DS ES FS GS */
	uint32_t gdtr_limit, idtr_limit;		/* bases 0 */
	uint64_t rip, rflags, cr0, cr3, cr4, efer, dr7;
};

/* Access rights (SDM Table 25-2). */
#define SIPI_AR_CODE	0x9bu	/* execute/read, accessed, S, P, 16-bit */
#define SIPI_AR_DATA	0x93u	/* read/write, accessed, S, P, 16-bit */
#define SIPI_AR_TSS	0x8bu	/* busy 32-bit TSS, P (16-bit busy = 3) */
#define SIPI_AR_LDT	0x82u	/* LDT, P */
#define SIPI_CR0	0x60000010ull	/* CD, NW, ET: after INIT */

void vcpu_sipi_state(uint8_t vector, struct vcpu_sipi_state *s);

#endif
