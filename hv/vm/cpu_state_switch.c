/* Switching the CPU state VMX leaves alone; see cpu_state_switch.h. */
#include "hv/vm/cpu_state_switch.h"
#include "hv/cpu/x86.h"
#include "mini/string.h"

#define DR6_INIT	0xffff0ff0ull
#define FCW_INIT	0x037f	/* x87 control word after FNINIT */
#define MXCSR_INIT	0x1f80	/* all SSE exceptions masked */

#define MOV_DR_FNS(n)							\
	static uint64_t get_dr##n(void)					\
	{								\
		uint64_t v;						\
		__asm__ volatile("mov %%db" #n ", %0" : "=r"(v));	\
		return v;						\
	}								\
	static void set_dr##n(uint64_t v)				\
	{								\
		__asm__ volatile("mov %0, %%db" #n : : "r"(v));		\
	}
MOV_DR_FNS(0)
MOV_DR_FNS(1)
MOV_DR_FNS(2)
MOV_DR_FNS(3)
MOV_DR_FNS(6)

static uint64_t get_cr2(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static void set_cr2(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr2" : : "r"(v));
}

/* TSC_AUX (what RDTSCP and RDPID return; Linux keeps its CPU number
 * there) exists only on CPUs with RDTSCP; without it there is nothing to
 * switch, and the guest's WRMSR faults as the CPU's own would. */
static bool host_has_rdtscp(void)
{
	static int known = -1;

	if (known < 0)
		known = (int)(cpuid(0x80000001u, 0).edx >> 27 & 1);
	return known;
}

static uint64_t get_tsc_aux(void)
{
	return host_has_rdtscp() ? rdmsr(MSR_IA32_TSC_AUX) : 0;
}

static void set_tsc_aux(uint64_t v)
{
	if (host_has_rdtscp())
		wrmsr(MSR_IA32_TSC_AUX, v);
}

/* One 64-bit register: where it lives in struct vcpu and how to move it. */
struct reg_item {
	const char *name;
	size_t off;
	uint64_t (*get)(void);
	void (*set)(uint64_t);
	uint32_t msr;	/* when get/set are NULL: RDMSR/WRMSR of this */
};

#define REG(name, field, g, s) { name, offsetof(struct vcpu, field), g, s, 0 }
#define MSR(name, field, m) { name, offsetof(struct vcpu, field), NULL, NULL, m }

static const struct reg_item regs[] = {
	REG("CR2", cr2, get_cr2, set_cr2),
	REG("DR0", dr[0], get_dr0, set_dr0),
	REG("DR1", dr[1], get_dr1, set_dr1),
	REG("DR2", dr[2], get_dr2, set_dr2),
	REG("DR3", dr[3], get_dr3, set_dr3),
	REG("DR6", dr6, get_dr6, set_dr6),
	MSR("IA32_STAR", msr_star, MSR_IA32_STAR),
	MSR("IA32_LSTAR", msr_lstar, MSR_IA32_LSTAR),
	MSR("IA32_CSTAR", msr_cstar, MSR_IA32_CSTAR),
	MSR("IA32_FMASK", msr_fmask, MSR_IA32_FMASK),
	MSR("IA32_KERNEL_GS_BASE", msr_kgs_base, MSR_IA32_KERNEL_GS_BASE),
	REG("IA32_TSC_AUX", msr_tsc_aux, get_tsc_aux, set_tsc_aux),
};
#define NR_REGS (sizeof(regs) / sizeof(regs[0]))

static uint64_t *slot(struct vcpu *vc, const struct reg_item *r)
{
	return (uint64_t *)((uint8_t *)vc + r->off);
}

void cpu_state_reset(struct vcpu *vc)
{
	for (unsigned i = 0; i < NR_REGS; i++)
		*slot(vc, &regs[i]) = 0;
	vc->dr6 = DR6_INIT;
	memset(vc->fxsave, 0, sizeof(vc->fxsave));
	*(uint16_t *)&vc->fxsave[0] = FCW_INIT;
	*(uint32_t *)&vc->fxsave[24] = MXCSR_INIT;
}

void cpu_state_save(struct vcpu *vc)
{
	for (unsigned i = 0; i < NR_REGS; i++) {
		const struct reg_item *r = &regs[i];

		*slot(vc, r) = r->get ? r->get() : rdmsr(r->msr);
	}
	__asm__ volatile("fxsave64 %0" : "=m"(vc->fxsave));
}

void cpu_state_load(const struct vcpu *vc)
{
	for (unsigned i = 0; i < NR_REGS; i++) {
		const struct reg_item *r = &regs[i];
		uint64_t v = *slot((struct vcpu *)vc, r);

		if (r->set)
			r->set(v);
		else
			wrmsr(r->msr, v);
	}
	__asm__ volatile("fxrstor64 %0" : : "m"(vc->fxsave));
}

/* FXSAVE's 64-bit layout: XMM0-15 at byte 160, 16 bytes each (SDM Vol. 1
 * Table 10-2). On the stack: each CPU emulating a vector access has its
 * own (docs/smp.md). */
#define FXSAVE_XMM0 160

void cpu_state_xmm_read(struct vec_regs *vr)
{
	uint8_t live_fx[512] __attribute__((aligned(16)));

	memset(vr, 0, sizeof(*vr));
	__asm__ volatile("fxsave64 %0" : "=m"(live_fx));
	for (unsigned i = 0; i < INSN_VEC_REGS; i++)
		memcpy(vr->b[i], &live_fx[FXSAVE_XMM0 + 16 * i], 16);
}

void cpu_state_xmm_write(const struct vec_regs *vr)
{
	uint8_t live_fx[512] __attribute__((aligned(16)));

	__asm__ volatile("fxsave64 %0" : "=m"(live_fx));
	for (unsigned i = 0; i < INSN_VEC_REGS; i++)
		memcpy(&live_fx[FXSAVE_XMM0 + 16 * i], vr->b[i], 16);
	__asm__ volatile("fxrstor64 %0" : : "m"(live_fx));
}
