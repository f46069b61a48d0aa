/* See msr_platform.h. Each MSR says what a read returns and which writes
 * it accepts; the values describe the VM we give (no microcode loaded,
 * machine-check banks absent, feature control locked with VMX off), not
 * the host. */
#include "hv/vm/msr_platform.h"
#include "hv/vm/vm.h"

enum msr_write_rule {
	WR_REFUSE,	/* #GP: read-only or locked */
	WR_IGNORE,	/* accepted, no effect (as on a CPU without it) */
	WR_ZERO_ONLY,	/* only 0 accepted (TSC_ADJUST: we never offset) */
};

struct platform_msr {
	uint32_t msr;
	const char *name;
	bool readable;
	uint64_t value;
	enum msr_write_rule write;
};

/* Linux 6.1 on Skylake reads these unconditionally or with rdmsr_safe.
 * Each row is what KVM answers a guest (docs/linux-guests.md, "MSRs"):
 * a constant where KVM has one (never a host value: RAPL energy counters
 * read 0, so no VM learns another's activity from the package's energy),
 * #GP where KVM has none, and in every #GP case CPUID (cpuid_edit.c) does
 * not name the feature, so Linux only probes it with rdmsr_safe. */
static const struct platform_msr table[] = {
	{ 0x017, "IA32_PLATFORM_ID", true, 0, WR_REFUSE },
	{ 0x02a, "MSR_EBL_CR_POWERON", true, 0, WR_REFUSE },
	{ 0x034, "MSR_SMI_COUNT", true, 0, WR_REFUSE },	/* no SMIs */
	{ 0x03a, "IA32_FEATURE_CONTROL", true, 1, WR_REFUSE },	/* locked */
	{ 0x03b, "IA32_TSC_ADJUST", true, 0, WR_ZERO_ONLY },
	{ 0x08b, "IA32_BIOS_SIGN_ID", true, 0, WR_IGNORE },	/* ucode 0 */
	/* No turbo ratios, no CPUID faulting (bit 31: KVM offers it, we
	 * do not fault CPUID), so MISC_FEATURES_ENABLES holds only 0. */
	{ 0x0ce, "MSR_PLATFORM_INFO", true, 0, WR_REFUSE },
	{ 0x140, "MSR_MISC_FEATURES_ENABLES", true, 0, WR_ZERO_ONLY },
	{ 0x179, "IA32_MCG_CAP", true, 0, WR_REFUSE },	/* no banks */
	{ 0x17a, "IA32_MCG_STATUS", true, 0, WR_IGNORE },
	{ 0x199, "IA32_PERF_CTL", true, 0, WR_REFUSE },
	/* RAPL: units and energy counters read 0, as KVM; limits #GP. */
	{ 0x606, "MSR_RAPL_POWER_UNIT", true, 0, WR_REFUSE },
	{ 0x611, "MSR_PKG_ENERGY_STATUS", true, 0, WR_REFUSE },
	{ 0x619, "MSR_DRAM_ENERGY_STATUS", true, 0, WR_REFUSE },
	{ 0x639, "MSR_PP0_ENERGY_STATUS", true, 0, WR_REFUSE },
	{ 0x641, "MSR_PP1_ENERGY_STATUS", true, 0, WR_REFUSE },
	{ 0x610, "MSR_PKG_POWER_LIMIT", false, 0, WR_REFUSE },
	/* Not virtualised, and hidden from CPUID: leaf 7 EDX (SPEC_CTRL,
	 * IBPB, ARCH_CAPABILITIES, CORE_CAPABILITIES), leaf 6 (APERF/MPERF,
	 * thermal sensors), leaf 1 (PDCM, TSC-deadline), leaf 0xa (PMU). */
	{ 0x048, "IA32_SPEC_CTRL", false, 0, WR_REFUSE },
	{ 0x049, "IA32_PRED_CMD", false, 0, WR_REFUSE },
	{ 0x10a, "IA32_ARCH_CAPABILITIES", false, 0, WR_REFUSE },
	{ 0x0cf, "IA32_CORE_CAPABILITIES", false, 0, WR_REFUSE },
	{ 0x10b, "IA32_FLUSH_CMD", false, 0, WR_REFUSE },
	{ 0x0e7, "IA32_MPERF", false, 0, WR_REFUSE },
	{ 0x0e8, "IA32_APERF", false, 0, WR_REFUSE },
	{ 0x19b, "IA32_THERM_INTERRUPT", false, 0, WR_REFUSE },
	{ 0x19c, "IA32_THERM_STATUS", false, 0, WR_REFUSE },
	{ 0x1a2, "MSR_TEMPERATURE_TARGET", false, 0, WR_REFUSE },
	{ 0x1b0, "IA32_ENERGY_PERF_BIAS", false, 0, WR_REFUSE },
	{ 0x1b1, "IA32_PACKAGE_THERM_STATUS", false, 0, WR_REFUSE },
	{ 0x345, "IA32_PERF_CAPABILITIES", false, 0, WR_REFUSE },
	{ 0x38f, "IA32_PERF_GLOBAL_CTRL", false, 0, WR_REFUSE },
	{ 0x6e0, "IA32_TSC_DEADLINE", false, 0, WR_REFUSE },	/* hidden */
};

static const struct platform_msr *find(uint32_t msr)
{
	for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].msr == msr)
			return &table[i];
	return NULL;
}

int msr_platform_read(struct vm *vm, uint32_t msr, uint64_t *val)
{
	const struct platform_msr *m = find(msr);

	(void)vm;
	if (!m || !m->readable)
		return -1;
	*val = m->value;
	return 0;
}

int msr_platform_write(struct vm *vm, uint32_t msr, uint64_t val)
{
	const struct platform_msr *m = find(msr);

	(void)vm;
	if (!m || !m->readable)
		return -1;
	switch (m->write) {
	case WR_IGNORE: return 0;
	case WR_ZERO_ONLY: return val ? -1 : 0;
	default: return -1;
	}
}

const char *msr_name(uint32_t msr)
{
	const struct platform_msr *m = find(msr);

	return m ? m->name : NULL;
}

bool msr_first_refusal(struct vm *vm, uint32_t msr)
{
	struct vm_msr_log *log = &vm->msr_log;

	for (unsigned i = 0; i < log->nr; i++)
		if (log->msrs[i] == msr)
			return false;
	if (log->nr < VM_MSR_LOG_MAX)
		log->msrs[log->nr++] = msr;
	return true;	/* once the list is full, every new one is logged */
}
