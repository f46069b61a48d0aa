/* The test guest's little runtime: port I/O, MSRs, hypercalls, console,
 * checks, traps. Everything here runs inside a VM. */
#ifndef TESTGUEST_TG_H
#define TESTGUEST_TG_H

#include <stdbool.h>
#include <stdint.h>

/* Port I/O, MSRs, CPUID, RDTSC: the same wrappers the hypervisor uses. */
#include "mini/x86.h"
#include "guest-shim/include/g9hv/hypercall.h"
#include "guest-shim/include/g9hv/raw64_boot.h"

/* VMCALL with the g9hv ABI (RAX = number, RDI/RSI/RDX, result in RAX). */
static inline int64_t hypercall(uint64_t nr, uint64_t a1, uint64_t a2,
				uint64_t a3)
{
	int64_t ret;
	__asm__ volatile("vmcall" : "=a"(ret)
			 : "a"(nr), "D"(a1), "S"(a2), "d"(a3) : "memory");
	return ret;
}

/* Traps: vectors 0-31, 0x40 and 0x41 go to tg_trap. An expected fault is turned
 * into a return value by the tg_try_* helpers (entry.asm). */
#define TG_TIMER_VECTOR 0x40
#define TG_MSI_VECTOR 0x41	/* the vGPU's MSI (gpu_test.c) */
#define TG_PING_VECTOR 0x42	/* mode=smp: vCPU 0 -> an AP (smp_test.c) */
#define TG_PONG_VECTOR 0x43	/* mode=smp: the AP's answer */
struct tg_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rdi, rsi, rbp, rbx, rdx, rcx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;
};
void tg_idt_init(void);
void tg_idt_load(void);	/* the same IDT on another vCPU */
int64_t tg_try_rdmsr(uint32_t msr, uint64_t *val);
int64_t tg_try_wrmsr(uint32_t msr, uint64_t val);
int64_t tg_try_vmxon(void);
int64_t tg_try_vmread(void);
extern volatile uint64_t tg_ticks, tg_msis;
/* Periodic x2APIC timer on TG_TIMER_VECTOR (APIC enabled too). */
void tg_timer_start(uint32_t hz);

/* Console: the virtual 16550 at 0x3F8. */
void tg_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A check: printed on the UART and reported by hypercall. */
void tg_check(const char *name, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
extern unsigned tg_failed;

void tg_exit(int status) __attribute__((noreturn));

/* mode=smp (smp_test.c): n vCPUs; never returns. */
void smp_test_run(unsigned n, uint64_t tsc_hz) __attribute__((noreturn));
void tg_smp_irq(uint64_t vector);
extern volatile uint64_t tg_smp_nmis;	/* NMIs taken, any vCPU */
extern bool tg_smp_active;		/* an NMI is then expected */

/* mode=hostile (hostile.c): never returns. */
void hostile_main(const struct raw64_boot_info *bi, uint64_t tsc_hz)
	__attribute__((noreturn));

/* mode=hostile mmio-emul (mmio_emul_test.c). */
void mmio_emul_run(void);

/* mode=hostile exithog / exitvictim (exithog.c). */
void exithog_run(uint64_t tsc_hz);
void exitvictim_run(uint64_t tsc_hz, uint64_t minshare);

#endif
