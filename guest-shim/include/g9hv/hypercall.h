/* The g9hv hypercall ABI: what a guest gets from VMCALL.
 *
 * Shared by the hypervisor (hv/vm/hypercall.c) and guests (guest-shim/); it
 * is the contract, so it only grows: numbers are never reused. Documented
 * for people in docs/hypercalls.md.
 *
 * Calling convention (64-bit mode, CPL 0):
 *   RAX = hypercall number, RDI, RSI, RDX = arguments 1..3,
 *   VMCALL,
 *   RAX = result: >= 0 success, < 0 a negated error code (G9HV_E*).
 * Every other register is preserved. A VMCALL from CPL > 0 returns
 * -G9HV_EPERM; an unknown number returns -G9HV_ENOSYS. Neither stops the
 * VM: a bad hypercall is the guest's problem, counted and logged.
 *
 * Guest pointers are guest-virtual addresses, translated through the
 * guest's own page tables at the time of the call; strings are (pointer,
 * length) pairs, at most G9HV_STR_MAX bytes, not NUL-terminated. */
#ifndef G9HV_HYPERCALL_H
#define G9HV_HYPERCALL_H

/* CPUID leaf 0x40000000 (hypervisor range): EAX = highest leaf,
 * EBX:ECX:EDX = "g9hvg9hvg9hv"; leaf 0x40000001 EAX = G9HV_ABI_VERSION. */
#define G9HV_CPUID_LEAF		0x40000000u
#define G9HV_CPUID_SIG_EBX	0x76683967u	/* "g9hv" little-endian */
#define G9HV_CPUID_SIG_ECX	0x76683967u
#define G9HV_CPUID_SIG_EDX	0x76683967u

#define G9HV_ABI_VERSION	0x00010000	/* major 1, minor 0 */

/* Hypercall numbers (RAX). */
#define G9HV_HC_VERSION		0	/* -> G9HV_ABI_VERSION */
#define G9HV_HC_PUTC		1	/* RDI = byte -> 0 */
#define G9HV_HC_PUTS		2	/* RDI = str, RSI = len -> len */
#define G9HV_HC_TEST_REPORT	3	/* RDI = name, RSI = len,
					 * RDX = G9HV_TEST_PASS/FAIL -> 0 */
#define G9HV_HC_EXIT		4	/* RDI = status; does not return */
#define G9HV_HC_TSC_HZ		5	/* -> TSC frequency in Hz */
#define G9HV_HC_VM_ID		6	/* -> this VM's id (0, 1, ...) */
#define G9HV_HC_YIELD		7	/* give up the rest of the slice -> 0 */
#define G9HV_HC_VMRPC_SETUP	8	/* RDI = gpa of the channel, RSI = pages
					 * (g9hv/vmrpc.h) -> 0 */
#define G9HV_HC_VMRPC_KICK	9	/* -> requests taken from the ring */
#define G9HV_HC_COUNT		10

#define G9HV_TEST_PASS		0
#define G9HV_TEST_FAIL		1

#define G9HV_STR_MAX		256

/* Errors (negated in RAX); the numbers are Linux's. */
#define G9HV_EPERM		1	/* not allowed (CPL > 0) */
#define G9HV_E2BIG		7	/* string longer than G9HV_STR_MAX */
#define G9HV_EFAULT		14	/* pointer not mapped in the guest */
#define G9HV_EINVAL		22	/* bad argument value */
#define G9HV_ENOSYS		38	/* no such hypercall */

/* The guest platform (what the VM sees besides RAM):
 *   COM1 16550 UART at I/O 0x3F8 (output appears on the console prefixed
 *   with the VM's name); PCI configuration ports 0xCF8/0xCFC with a host
 *   bridge at 00:00.0; an x2APIC (MSRs 0x800-0x8FF) whose timer counts at
 *   the TSC frequency divided by DIV_CONF; and the test device below. */
#define G9HV_TESTDEV_GPA	0xfe000000ull	/* one 4 KiB MMIO page */
#define G9HV_TESTDEV_SCRATCH	0x00	/* 64-bit read/write */
#define G9HV_TESTDEV_ID		0x08	/* read-only: G9HV_TESTDEV_MAGIC */
#define G9HV_TESTDEV_COUNT	0x10	/* read-only: accesses so far */
#define G9HV_TESTDEV_MAGIC	0x4739485654455354ull	/* "TSETVH9G" */
/* Plain memory behind traps, for exercising the MMIO emulator (string
 * moves, SSE moves, page-crossing accesses): any width, any alignment. */
#define G9HV_TESTDEV_MEM	0x800
#define G9HV_TESTDEV_MEM_SIZE	0x800

#endif
