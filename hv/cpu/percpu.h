/* The per-CPU data area: each logical CPU's own GDT, TSS, IDT, stacks and
 * bring-up state, found from the CPU itself through IA32_GS_BASE (gs:0
 * holds the area's address). The BSP's is static (hv/cpu/cpu.c); an AP's is
 * PERCPU_PAGES contiguous pages carved by percpu_carve, all allocated by the
 * BSP before the AP is started, so an AP never calls the page allocator
 * (docs/smp.md). */
#ifndef HV_PERCPU_H
#define HV_PERCPU_H

#include <stddef.h>
#include <stdint.h>

/* Read by hv/cpu/ap_trampoline.asm: keep in step with struct percpu. */
#define PERCPU_OFF_SELF		0
#define PERCPU_OFF_STACK_TOP	8

/* An AP's area: the struct (page 0), its IDT (page 1), the stack for NMI,
 * #DF and #MC (2 pages), its stack (8 pages). */
#define PERCPU_PAGES		12
#define PERCPU_IDT_PAGE		1
#define PERCPU_IST_PAGE		2
#define PERCPU_IST_BYTES	(2 * 4096)
#define PERCPU_STACK_PAGE	4
#define PERCPU_STACK_BYTES	(8 * 4096)
#define PERCPU_IDT_BYTES	(256 * 16)

struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

/* Written by the AP itself (the BSP only reads them, hv/cpu/smp_boot.c). */
enum percpu_state {
	PERCPU_OFF,	/* not started, or started and never checked in */
	PERCPU_UP,	/* running on its own tables and stack */
	PERCPU_PARKED,	/* its work done (VMXON or not): halted for good */
};

struct percpu {
	struct percpu *self;	/* gs:0 */
	uint64_t stack_top;	/* loaded into RSP by the trampoline */
	uint32_t index;		/* 0 the BSP, then the APs in start order */
	uint32_t apic_id;	/* the id INIT-SIPI-SIPI was sent to */
	uint32_t seen_apic_id;	/* what the CPU's own LAPIC says */
	uint32_t state;		/* enum percpu_state, atomic */
	/* What the AP does once up, before it parks (the VMXON of hv/smp.c),
	 * and its result (0: done). */
	void (*ap_work)(struct percpu *p);
	int32_t work_status;
	void *vmxon_region;
	void *idt;		/* 256 gates */
	uint64_t ist_top;
	/* Running VMs (docs/smp.md). The VMCS this CPU has loaded (VMPTRLD:
	 * hv/vmx/vmx.c), whose MSRs and FPU state it holds (hv/vm/sched.c),
	 * where its round robin goes on. */
	uint64_t current_vmcs;
	void *sched_owner;	/* a struct vcpu */
	/* The vCPU (a struct vcpu) this CPU runs now or last set up: every
	 * exit handler acts on it (hv/vm/vm.h vm_vcpu). Per CPU, not per
	 * VM, so two CPUs may run two vCPUs of one VM. */
	void *vcpu;
	uint32_t sched_cursor;
	uint32_t post_pending;	/* a device posted work in this exit
				 * (hv/vm/sched.h sched_post_request) */
	/* An AP that hv.cfg places VMs on (cpus=) does not halt once its
	 * VMX is on: it waits for run (set once by the BSP, atomic) and runs
	 * it: its scheduler loop (hv/orchestrate.c). busy (atomic): inside
	 * a scheduling step, which may still print. */
	uint32_t vm_placed;
	uint32_t busy;
	/* Readied for VMs without cpus= (hv.cfg spread=yes: as many APs
	 * nobody pinned as there are such VMs beyond the first), which the
	 * BSP places on the least loaded shared CPU (hv/vm/sched_place.h). */
	uint32_t vm_shared;
	/* Between the mailbox drain before a VM entry and the exit after it
	 * (hv/cpu/xcpu.h, atomic): another CPU that posts to one of its VMs
	 * kicks it out with an IPI, or waits for it to leave the guest. */
	uint32_t in_guest;
	uint64_t kicks_got;	/* kick IPIs taken (only this CPU writes) */
	/* Asleep in xcpu_idle or about to be (atomic): a kick wakes it. */
	uint32_t idle;
	uint64_t sleeps;	/* xcpu_idle's HLTs (only this CPU writes) */
	/* IA32_APIC_BASE as first read by host_lapic.c (0: not yet): the
	 * hypervisor never changes it, and each read would be an RDMSR on
	 * every LAPIC access (Bochs logs each one). */
	uint64_t apic_base;
	void (*run)(struct percpu *p);
	uint64_t gdt[5] __attribute__((aligned(16)));
	struct tss64 tss __attribute__((aligned(16)));
};

_Static_assert(offsetof(struct percpu, self) == PERCPU_OFF_SELF,
	       "ap_trampoline.asm reads self at this offset");
_Static_assert(offsetof(struct percpu, stack_top) == PERCPU_OFF_STACK_TOP,
	       "ap_trampoline.asm reads stack_top at this offset");
_Static_assert(sizeof(struct percpu) <= PERCPU_IDT_PAGE * 4096,
	       "the struct fits its page");
_Static_assert(PERCPU_IDT_BYTES <= (PERCPU_IST_PAGE - PERCPU_IDT_PAGE) * 4096 &&
	       PERCPU_IST_PAGE * 4096 + PERCPU_IST_BYTES <=
		       PERCPU_STACK_PAGE * 4096 &&
	       PERCPU_STACK_PAGE * 4096 + PERCPU_STACK_BYTES ==
		       PERCPU_PAGES * 4096,
	       "IDT, IST stack and stack follow each other in the area");

/* Lays an AP's area out over PERCPU_PAGES pages at base (4 KiB aligned):
 * the struct zeroed and filled with self, index, apic_id, idt, ist_top and
 * stack_top. Pure: no tables are built (cpu_tables_build does that). */
struct percpu *percpu_carve(void *base, uint32_t index, uint32_t apic_id);

/* An AP's area from the page allocator, carved; NULL on ENOMEM. */
struct percpu *percpu_alloc(uint32_t index, uint32_t apic_id);

/* This CPU's area. Valid once cpu_init (BSP) or the AP's entry has loaded
 * GS base. */
#ifdef HOST_BUILD
/* Host tests of code that asks which CPU it runs on say it themselves. */
struct percpu *test_this_cpu(void);
static inline struct percpu *this_cpu(void)
{
	return test_this_cpu();
}
static inline void *this_cpu_vcpu(void)
{
	return test_this_cpu()->vcpu;
}
#else
static inline struct percpu *this_cpu(void)
{
	struct percpu *p;

	__asm__ volatile("mov %%gs:0, %0" : "=r"(p));
	return p;
}

/* One GS-relative load, as cheap as the VM field it replaced (every
 * exit handler reads it). */
static inline void *this_cpu_vcpu(void)
{
	void *v;

	__asm__ volatile("mov %%gs:%c1, %0"
			 : "=r"(v) : "i"(offsetof(struct percpu, vcpu)));
	return v;
}
#endif

#endif
