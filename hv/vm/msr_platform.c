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

/* Linux 6.1 on Skylake reads these unconditionally or with rdmsr_safe. */
static const struct platform_msr table[] = {
	{ 0x03a, "IA32_FEATURE_CONTROL", true, 1, WR_REFUSE },	/* locked */
	{ 0x03b, "IA32_TSC_ADJUST", true, 0, WR_ZERO_ONLY },
	{ 0x08b, "IA32_BIOS_SIGN_ID", true, 0, WR_IGNORE },	/* ucode 0 */
	{ 0x179, "IA32_MCG_CAP", true, 0, WR_REFUSE },	/* no banks */
	{ 0x17a, "IA32_MCG_STATUS", true, 0, WR_IGNORE },
	{ 0x048, "IA32_SPEC_CTRL", false, 0, WR_REFUSE },
	{ 0x049, "IA32_PRED_CMD", false, 0, WR_REFUSE },
	{ 0x10a, "IA32_ARCH_CAPABILITIES", false, 0, WR_REFUSE },
	{ 0x0ce, "MSR_PLATFORM_INFO", false, 0, WR_REFUSE },
	{ 0x140, "MSR_MISC_FEATURES_ENABLES", false, 0, WR_REFUSE },
	{ 0x0e7, "IA32_MPERF", false, 0, WR_REFUSE },
	{ 0x0e8, "IA32_APERF", false, 0, WR_REFUSE },
	{ 0x1a2, "MSR_TEMPERATURE_TARGET", false, 0, WR_REFUSE },
	{ 0x345, "IA32_PERF_CAPABILITIES", false, 0, WR_REFUSE },
	{ 0x38f, "IA32_PERF_GLOBAL_CTRL", false, 0, WR_REFUSE },
	{ 0x606, "MSR_RAPL_POWER_UNIT", false, 0, WR_REFUSE },
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
