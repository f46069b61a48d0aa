/* See regs_dump.h. */
#include "hv/console/console.h"
#include "hv/cpu/regs_dump.h"

/* Printed in the familiar order, not the encoding order. */
static const struct {
	const char *name;
	unsigned idx;
} order[16] = {
	{ "rax", 0 }, { "rbx", 3 }, { "rcx", 1 }, { "rdx", 2 },
	{ "rsi", 6 }, { "rdi", 7 }, { "rbp", 5 }, { "rsp", 4 },
	{ "r8 ", 8 }, { "r9 ", 9 }, { "r10", 10 }, { "r11", 11 },
	{ "r12", 12 }, { "r13", 13 }, { "r14", 14 }, { "r15", 15 },
};

void print_gprs(const uint64_t gpr[16])
{
	for (unsigned i = 0; i < 16; i += 4)
		kprintf("  %s=%016llx %s=%016llx %s=%016llx %s=%016llx\n",
			order[i].name, (unsigned long long)gpr[order[i].idx],
			order[i + 1].name,
			(unsigned long long)gpr[order[i + 1].idx],
			order[i + 2].name,
			(unsigned long long)gpr[order[i + 2].idx],
			order[i + 3].name,
			(unsigned long long)gpr[order[i + 3].idx]);
}
