/* The real-mode state a STARTUP IPI starts an AP in; see vcpu_sipi.h. */
#include "hv/vm/vcpu_sipi.h"

#define REAL_LIMIT	0xffffu
#define DR7_INIT	0x400ull
#define RFLAGS_INIT	0x2ull

void vcpu_sipi_state(uint8_t vector, struct vcpu_sipi_state *s)
{
	*s = (struct vcpu_sipi_state){
		.cs = { (uint16_t)(vector << 8), (uint32_t)vector << 12,
			REAL_LIMIT, SIPI_AR_CODE },
		.data = { 0, 0, REAL_LIMIT, SIPI_AR_DATA },
		.tr = { 0, 0, REAL_LIMIT, SIPI_AR_TSS },
		.ldtr = { 0, 0, REAL_LIMIT, SIPI_AR_LDT },
		.gdtr_limit = REAL_LIMIT,
		.idtr_limit = REAL_LIMIT,
		.rip = 0,
		.rflags = RFLAGS_INIT,
		.cr0 = SIPI_CR0,
		.dr7 = DR7_INIT,
	};
}
