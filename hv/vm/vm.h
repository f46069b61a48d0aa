/* A VM: its memory (EPT), its vCPUs (hv.cfg vcpus=, each a VMCS,
 * registers and a local APIC), its virtual devices and its counters. Each
 * vCPU runs on one physical CPU, the VM's one or one of its cpus= list
 * (hv/vm/sched.c; docs/smp.md, "Several vCPUs", "A VM on several
 * CPUs"). */
#ifndef HV_VM_VM_H
#define HV_VM_VM_H

#include <stdbool.h>
#include <stdint.h>

#include "boot/config.h"
#include "hv/cpu/percpu.h"
#include "hv/cpu/rlock.h"
#include "hv/vm/mmio.h"
#include "hv/vm/vioapic.h"
#include "hv/vm/vipi.h"
#include "hv/vm/vlapic.h"
#include "hv/vm/vm_layout.h"
#include "hv/vm/vuart.h"
#include "hv/vmx/ept.h"
#include "hv/vmx/guest_regs.h"
#include "hv/vmx/vmx_defs.h"

#define VM_MAX 16
#define VM_VCPUS_MAX 8		/* HVCFG_VCPUS_MAX */

enum vm_state {
	VM_RUNNABLE,	/* wants the CPU */
	VM_HALTED,	/* guest HLT with interrupts on: waits for one */
	VM_PAUSED,	/* `vm N stop` from the shell: resumes with start */
	VM_STOPPED,	/* finished or killed; runs again only after
			 * `vm <id> restart` */
};

/* Guest misbehaviour we answer without stopping the VM, counted per VM. */
enum vm_event {
	VM_EV_BAD_HYPERCALL,	/* unknown number or bad arguments */
	VM_EV_UNKNOWN_MSR,	/* -> #GP injected */
	VM_EV_UNCLAIMED_IO,	/* reads all-ones, writes dropped */
	VM_EV_UNCLAIMED_MMIO,	/* likewise, for MMIO no device decodes */
	VM_EV_VMX_INSN,		/* -> #UD injected */
	VM_EV_VGPU_BAD_MMIO,	/* BAR0 access the vGPU refused */
	VM_EV_VGPU_APERTURE,	/* BAR2 page outside its low GM */
	VM_EV_VGPU_BAR,		/* a BAR placed over RAM or a device */
	VM_EV_VMRPC,		/* malformed or lost guest-channel records */
	VM_EV_BAD_CPU_STATE,	/* illegal CR/MSR value -> #GP injected */
	VM_EV_MMIO_FAULT,	/* an MMIO move the CPU faults on (misaligned
				 * MOVAPS, SSE off, AVX) -> #GP/#UD/#NM, or
				 * a #PF on a page it reaches besides the
				 * exit's (a split access, a string) */
	VM_EV_MMIO_UNEMULATED,	/* an MMIO access the emulator cannot carry
				 * out -> the VM is stopped */
	VM_EV_MSI_DROPPED,	/* a vGPU MSI the VM's MSI capability sends
				 * to no vCPU, with a mode or vector not
				 * delivered, or off 0xFEExxxxx (vipi.h) */
	VM_EV_COUNT,
};

struct vcpu {
	struct guest_regs regs;	/* first: the entry stub takes &regs */
	void *vmcs;
	uint64_t vmcs_pa;
	bool launched;		/* VMLAUNCH done: next entry is VMRESUME */
	bool taken;		/* VMCS host state is its CPU's (vcpu_take) */
	unsigned idx;		/* 0 = the boot vCPU; = its APIC ID */
	/* The physical CPU that runs it (hv/smp.h numbering) and its slot,
	 * the index of that CPU in the VM's list (vm->cpus): the scheduler's
	 * and the mailbox's per-(VM, CPU) state is by slot. Written before
	 * vm->cpu_mask is published (hv/orchestrate.c place); read after an
	 * acquire of it (vm_mailbox_remote_vcpu). */
	uint32_t cpu;
	uint8_t slot;
	/* It woke a sibling of its CPU with an IPI, or spun in PAUSE: its
	 * turn ends after this exit (hv/vm/sched.c). Its own CPU's. */
	bool kick;
	struct vlapic *lapic;	/* vm->lapics[idx] */
	/* vCPUs other than 0 (only for vcpus= > 1, hv/vm/vipi.c): */
	enum vcpu_run run;
	bool start_pending;	/* a SIPI came: start at start_rip */
	bool nmi_pending;	/* an NMI IPI to deliver */
	uint64_t start_rip;
	/* Its VMCS has "unrestricted guest": a Linux AP started in real
	 * mode (hv/vm/vcpu_sipi.h); its CR0.PE/PG writes are the guest's. */
	bool unrestricted;
	/* Device MSIs (the vGPU's) this vCPU took (hv/vm/vipi.c). */
	uint64_t msis;

	/* An event the next VM entry must deliver (re-injection after an
	 * exit during delivery, or an exception a handler raised). */
	uint32_t inject_info;	/* VMCS_ENTRY_INTR_INFO format, 0 = none */
	uint32_t inject_errcode;
	uint32_t inject_insn_len;
	/* Interrupt-window exiting as last written to its VMCS (the only
	 * processor-based control that changes after setup). */
	bool window_exiting;

	/* State VMX does not switch that the guest may use directly; swapped
	 * by hand when the CPU changes VM (cpu_state_switch.h has the list). */
	uint64_t msr_star, msr_lstar, msr_cstar, msr_fmask, msr_kgs_base;
	uint64_t msr_tsc_aux;
	uint64_t cr2, dr[4], dr6;
	/* x87/SSE state: FXSAVE area, swapped likewise. */
	uint8_t fxsave[512] __attribute__((aligned(16)));
};

struct vm_stats {
	uint64_t exits[EXIT_REASON_COUNT];
	uint64_t entries;
	uint64_t run_tsc;	/* TSC ticks spent in the guest */
	/* Steal time (gBalloon's w, equation 2): TSC ticks this VM was
	 * runnable while another VM had the CPU. */
	uint64_t steal_tsc;
	uint64_t start_tsc;	/* when the VM was created or last restarted */
	uint64_t stop_tsc;	/* when it last stopped (vm_stop) */
	uint64_t events[VM_EV_COUNT];
	uint64_t tests_passed, tests_failed;
	uint64_t irqs_injected;
	uint64_t vgpu_maps_refused;	/* mediator EPT maps hv_ops refused */
	/* IPIs between its vCPUs (hv/vm/vipi.c): sent, delivered to a
	 * vCPU, dropped (a mode we do not deliver, no vCPU at the
	 * destination, a SIPI to a vCPU not waiting for one). */
	uint64_t ipis_sent, ipis_delivered, ipis_dropped;
	/* The longest single exit: TSC ticks from VM exit to the end of its
	 * handling (hv/vm/sched.c), and its basic exit reason. */
	uint64_t exit_max_tsc;
	uint32_t exit_max_reason;
	/* Where the hypervisor's share of the VM's time goes: TSC ticks
	 * from each VM exit to the end of its handling, by basic reason,
	 * and the ticks of the VM's slices (guest time, exits and the
	 * entry preparation between them). */
	uint64_t exit_tsc[EXIT_REASON_COUNT];
	uint64_t slice_tsc;
	uint64_t slice_start_tsc;	/* of the slice running now, else 0 */
	uint64_t slices;		/* slices run (main-loop rounds) */
	/* Ticks all its vCPUs were halted (waiting for an interrupt, not
	 * for the CPU), and since when it is, else 0. */
	uint64_t halted_tsc, halt_start_tsc;
	/* Port I/O exits to COM1's eight ports (hv/vm/exit_io.c): the
	 * console's share of IO_INSTRUCTION, reported apart. */
	uint64_t com1_io_exits;
};

enum vm_request {
	VM_REQ_PAUSE = 1u << 0,
	VM_REQ_RESUME = 1u << 1,
	VM_REQ_STOP = 1u << 2,
	VM_REQ_RESTART = 1u << 3,
	VM_REQ_REGS = 1u << 4,
	/* A guest reset asked on another CPU of a VM on several CPUs: its
	 * home CPU carries it out (hv/vm/vm_restart.c). */
	VM_REQ_RESET = 1u << 5,
	/* The console attached or detached, typed bytes waiting
	 * (hv/shell/shell_console.c). */
	VM_REQ_CONSOLE = 1u << 6,
};

struct vm {
	unsigned id;
	char name[HVCFG_NAME_MAX + 1];
	const struct hvcfg_vm *cfg;
	enum vm_state state;
	char stop_reason[128];
	int exit_status;	/* from the exit hypercall */
	bool linux_guest;	/* booted through the bzImage loader */
	/* A guest reset (hv/vm/vpm.c) is carried out by the scheduler once
	 * the exit that asked for it is over (hv/vm/vm_restart.c). */
	bool reset_pending;
	char reset_reason[64];
	unsigned quick_resets;	/* guest resets in a row, each soon after
				 * its boot: a reset loop past a limit */
	uint64_t restarts;
	/* The physical CPU that runs it (hv/smp.h numbering): the one
	 * hv.cfg pins it to (cpus=, pinned set), else the least loaded
	 * shared CPU at its creation (hv/vm/sched_place.h); written by the
	 * BSP once the VM is created (docs/smp.md), read with acquire by the
	 * APs. */
	uint32_t cpu;
	bool pinned;
	/* Every CPU one of its vCPUs runs on (bit i: CPU i), and the same
	 * in slot order (vCPU i on cpus[i % nr_cpus], hv/vm/sched_place.h);
	 * the mask is published last (release), so a CPU that sees its bit
	 * sees the VM whole. A VM without a cpus= list has one slot. */
	uint64_t cpu_mask;
	uint8_t cpus[VM_VCPUS_MAX];
	unsigned nr_cpus;
	/* Per slot: none of that CPU's vCPUs of the VM can run (all halted,
	 * parked or waiting for a SIPI). Written by that CPU only (atomic:
	 * the others read it for vm->state). The VM's state is RUNNABLE
	 * while some slot is not halted, HALTED when all are. */
	uint8_t slot_halted[VM_VCPUS_MAX];
	/* A restart of a VM on several CPUs is under way on its home CPU
	 * (atomic): its other CPUs run none of its vCPUs, and each hands
	 * its vCPUs' VMCSs back (VMCLEAR) and clears its slot's bit in
	 * handback (hv/vm/sched.c sched_hand_back, hv/vm/vm_restart.c). */
	uint32_t restarting;
	uint32_t handback;
	/* What the shell asked of a VM on an AP (VM_REQ_* bits, atomic),
	 * carried out by that CPU between slices (hv/orchestrate.c). */
	uint32_t requests;

	uint64_t mem_bytes;	/* all its RAM, below and above the hole */
	struct vm_ram_layout ram_layout;	/* where that RAM lies */
	void *ram;		/* host run: RAM below the hole, then above */
	void *ram_alloc;	/* what page_alloc_contig returned */
	uint64_t ram_alloc_pages;
	struct ept ept;
	uint64_t eptp;

	/* The vCPU being run is the CPU's, not the VM's: vm_vcpu(). */
	struct vcpu vcpus[VM_VCPUS_MAX];
	unsigned nr_vcpus;	/* hv.cfg vcpus=, 1 by default */
	unsigned vcpu_cursor;	/* round robin among them (hv/vm/sched.c) */
	/* Loader's long-mode state: where a STARTUP IPI starts an AP of the
	 * test guest. A Linux VM's APs start as hardware starts them, in
	 * real mode at vector << 12 (ap_real_mode, hv/vm/vcpu_sipi.h). */
	uint64_t ap_cr3, ap_gdt_base;
	uint16_t ap_gdt_limit, ap_cs, ap_ds;
	bool ap_real_mode;
	/* The VM's device lock (docs/smp.md "The device lock"): held by the
	 * exit dispatcher around every exit that can reach a VM device
	 * (port I/O, EPT violations = MMIO, hypercalls = vmrpc), never
	 * around the vLAPIC (per vCPU). Order: this, then the mediator's.
	 * Its counters say how often two vCPUs met in it. */
	struct rlock dev_lock;
	/* Its EPT's lock (hv/vm/vm_mem.c vm_ept_*): an edit, its flush on
	 * every CPU of the VM and the freeing of detached tables together,
	 * so two CPUs of one VM (or the mediator's and the VM's) never edit
	 * the tables at once. Innermost: device lock, then the mediator's,
	 * then this; under it only the page allocator and kicks. */
	struct rlock ept_lock;
	struct vuart uart;
	/* One local APIC per vCPU; `lapic` is vCPU 0's, which the IOAPIC
	 * and a vGPU's MSI interrupt. */
	union {
		struct vlapic lapic;
		struct vlapic lapics[VM_VCPUS_MAX];
	};
	struct vioapic ioapic;
	/* Who answers which MMIO / ports, and the VM's whole devices
	 * (hv/vm/vdev.h: the vGPU, when hv.cfg gave it vgpu_* keys, is one,
	 * registered by hv/gpu/vgpu_dev.c), each an opaque slot. */
	struct vm_devices devices;
	/* MSRs refused so far (each is logged once, hv/vm/msr_platform.c). */
	struct vm_msr_log {
#define VM_MSR_LOG_MAX 32
		uint32_t msrs[VM_MSR_LOG_MAX];
		unsigned nr;
	} msr_log;
	uint32_t pci_addr;	/* last value written to 0xCF8 */
	uint8_t rtc_index;	/* CMOS register selected at port 0x70 */
	uint64_t rtc_writes;	/* dropped writes to the read-only RTC */
	uint64_t testdev_scratch, testdev_count;
	uint8_t testdev_mem[0x800];	/* G9HV_TESTDEV_MEM */

	/* The guest channel (hv/vm/vmrpc.c), once the guest set it up. */
	struct vmrpc_state {
		uint64_t gpa;		/* control page; 0 = none */
		uint32_t tail;		/* requests consumed (ours, not the
					 * guest's copy) */
		uint32_t rsp_head;	/* replies written */
		uint64_t kicks, records, bad, lost;
		uint32_t kick_taken;	/* a kick done in chunks: so far */
		uint64_t evictions, gm_used;	/* from VMRPC_STATS */
	} vmrpc;

	struct vm_stats stats;
};

/* The vCPU of vm this CPU runs now (or last set up: creation, reset):
 * every exit handler acts on it, its VMCS current here. The scheduler
 * sets it before each entry (vm_set_vcpu). It lives in the CPU's
 * struct percpu, so two CPUs can run two vCPUs of one VM at once
 * (docs/smp.md, "The running vCPU"); host tests say which through
 * test_this_cpu. */
static inline struct vcpu *vm_vcpu(const struct vm *vm)
{
	(void)vm;
	return this_cpu_vcpu();
}

static inline void vm_set_vcpu(struct vm *vm, struct vcpu *vc)
{
	(void)vm;
	this_cpu()->vcpu = vc;
}

/* One of the VM's vCPUs runs on CPU `cpu` (acquire: then the VM and its
 * vCPUs' placement are seen whole). */
static inline bool vm_on_cpu(const struct vm *vm, unsigned cpu)
{
	return cpu < 64 &&
	       (__atomic_load_n(&vm->cpu_mask, __ATOMIC_ACQUIRE) >> cpu & 1);
}

/* The VM's slot of CPU `cpu`, or -1 if none of its vCPUs runs there. */
static inline int vm_slot_of(const struct vm *vm, unsigned cpu)
{
	if (!vm_on_cpu(vm, cpu))
		return -1;
	for (unsigned s = 0; s < vm->nr_cpus && s < VM_VCPUS_MAX; s++)
		if (vm->cpus[s] == cpu)
			return (int)s;
	return -1;
}

/* CPU `cpu` is asked to hand its vCPUs of the VM back (a restart on
 * the VM's home CPU, hv/vm/vm_restart.c): work for it even when the VM
 * has stopped (a stopped VM may be restarted from the shell). */
static inline bool vm_handback_asked(const struct vm *vm, unsigned cpu)
{
	int s = vm_slot_of(vm, cpu);

	return s > 0 &&
	       (__atomic_load_n(&vm->handback, __ATOMIC_ACQUIRE) >> s & 1);
}

/* The VM's state as a plain load from any CPU (another CPU may store
 * STOPPED: vm_stop). */
static inline enum vm_state vm_state_now(const struct vm *vm)
{
	return __atomic_load_n(&vm->state, __ATOMIC_ACQUIRE);
}

/* The device lock taken and dropped by this CPU (recursive on it). */
static inline void vm_dev_lock(struct vm *vm)
{
	rlock_take(&vm->dev_lock, this_cpu()->index);
}

static inline void vm_dev_unlock(struct vm *vm)
{
	rlock_drop(&vm->dev_lock, this_cpu()->index);
}

extern struct vm vms[VM_MAX];
extern unsigned nr_vms;

/* Creates VM number `vms[nr_vms]` from its hv.cfg section and loaded
 * kernel image. 0 or a negative HV_E* code (the VM is then not listed). */
int vm_create(const struct hvcfg_vm *cfg, const void *image, uint64_t size);

/* Stops the VM for good (guest exit, fatal exit, unmapped access) and says
 * why on the console. Other VMs are not affected. */
void vm_stop(struct vm *vm, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Loads the VM's kernel (bzImage + initrd, or a raw image) into its RAM
 * and says where the vCPU starts (vm_create and vm_restart). */
struct vcpu_boot_state;
int vm_load(struct vm *vm, const void *image, uint64_t size,
	    struct vcpu_boot_state *bs);

/* Starts the VM's accounting over at now (hv/vm/vm_stats.c): exits,
 * their ticks, guest, slice and halted ticks count from the (re)start, as
 * the report's start_tsc does; a slice running now counts from now. */
void vm_stats_new_life(struct vm_stats *s, uint64_t now);

/* On an AP, before it schedules: the vCPUs of this CPU of each VM
 * restarting on its home CPU are handed back (hv/vm/sched.c). */
void sched_hand_back(void);

/* Restarts the VM in place (hv/vm/vm_restart.c): the same RAM pages and
 * VMCS, RAM zeroed, devices reset, kernel and initrd reloaded from the boot
 * files, the vCPU at its entry point; `why` is said on the console. Its
 * registered devices (hv/vm/vdev.h) are reset through their reset hooks;
 * when one cannot be, the VM is stopped instead. 0, or a negative HV_E*
 * code with the VM stopped. */
int vm_restart(struct vm *vm, const char *why);
/* The guest asked for a reset (port 0xCF9 / the FADT reset register):
 * noted now, carried out by vm_reset_if_pending when its exit is over. */
void vm_request_reset(struct vm *vm, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A pending guest reset: restart, or stop the VM if it is in a reset loop
 * (VM_RESET_LOOP_MAX resets in a row, each within VM_RESET_LOOP_MS of its
 * boot: a panic loop). */
void vm_reset_if_pending(struct vm *vm);
#define VM_RESET_LOOP_MAX 3
#define VM_RESET_LOOP_MS 60000

/* Counts a guest misbehaviour and logs the first few of each kind. */
void vm_event(struct vm *vm, enum vm_event ev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A Linux VM's exits by reason and interrupt counts (hv/vm/vm_report.c). */
void vm_report(const struct vm *vm);
/* One line: the VM's longest single exit, in microseconds and TSC ticks. */
void vm_report_exit_max(const struct vm *vm);

const char *vm_state_name(enum vm_state s);
const char *vm_event_name(enum vm_event ev);
struct vm *vm_by_id(unsigned id);

/* Prints the guest's registers (needs its VMCS current: the scheduler
 * makes it so for the VM being handled; the shell goes through
 * vm_dump_regs_any). */
void vm_dump_regs(struct vm *vm);
void vm_dump_regs_any(struct vm *vm);

#endif
