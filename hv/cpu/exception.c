/* An exception in the hypervisor itself is always our bug (guests run in VMX
 * non-root mode and their faults arrive as VM exits), so the handler prints
 * everything needed to find it and halts the machine. The one exception to
 * that: a page fault inside a range hv/mm/paging_mmio.c traps on purpose goes
 * to the hook registered for it (the model-behind-MMIO device), which
 * emulates the access and resumes. Vectors 32-255 are interrupts, taken
 * only inside host_irq_window (hv/cpu/host_irq.c). */
#include "hv/console/console.h"
#include "hv/cpu/regs_dump.h"
#include "hv/cpu/cpu.h"
#include "hv/cpu/host_irq.h"
#include "hv/platform/platform.h"
#include "hv/cpu/x86.h"

static const char *const names[32] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint",
	"#OF overflow", "#BR bound range", "#UD invalid opcode",
	"#NM device not available", "#DF double fault",
	"coprocessor segment overrun", "#TS invalid TSS",
	"#NP segment not present", "#SS stack fault",
	"#GP general protection", "#PF page fault", "reserved 15",
	"#MF x87 error", "#AC alignment check", "#MC machine check",
	"#XM SIMD error", "#VE virtualization", "#CP control protection",
};

const char *exception_name(uint64_t vector)
{
	if (vector < 32 && names[vector])
		return names[vector];
	return "reserved";
}

static void dump_frame(const struct exception_frame *f)
{
	const uint64_t gpr[16] = {
		f->rax, f->rcx, f->rdx, f->rbx, f->rsp, f->rbp, f->rsi, f->rdi,
		f->r8, f->r9, f->r10, f->r11, f->r12, f->r13, f->r14, f->r15,
	};

	kprintf("  rip=%016llx cs=%04llx rflags=%016llx error=%llx\n",
		(unsigned long long)f->rip, (unsigned long long)f->cs,
		(unsigned long long)f->rflags,
		(unsigned long long)f->error_code);
	print_gprs(gpr);
	kprintf("  cr0=%016llx cr2=%016llx cr3=%016llx cr4=%016llx\n",
		(unsigned long long)read_cr0(), (unsigned long long)read_cr2(),
		(unsigned long long)read_cr3(), (unsigned long long)read_cr4());
}

static bool (*pf_hook)(struct exception_frame *f);

void exception_set_pf_hook(bool (*hook)(struct exception_frame *f))
{
	pf_hook = hook;
}

void exception_handler(struct exception_frame *f)
{
	if (f->vector >= 32) { /* an interrupt, not an exception */
		(void)host_irq_dispatch((uint8_t)f->vector, false);
		return;
	}
	if (f->vector == 14 && pf_hook && pf_hook(f))
		return;
	kprintf("\nHYPERVISOR EXCEPTION %llu (%s) at rip %016llx\n",
		(unsigned long long)f->vector, exception_name(f->vector),
		(unsigned long long)f->rip);
	if (f->vector == 14)
		kprintf("  faulting address (cr2) %016llx\n",
			(unsigned long long)read_cr2());
	dump_frame(f);
	platform_halt("hypervisor exception");
}
