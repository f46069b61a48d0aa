/* Interrupts and EPT flushes for a VM that runs on another CPU (docs/smp.md
 * "Mediator concurrency"). The mediator runs wherever a VM trapped into
 * it or on the BSP's main loop, and may raise an MSI for, or change the
 * EPT of, a VM pinned to another CPU; that VM's vLAPICs and TLBs are its
 * own CPU's to touch. So the vector goes into the vCPU's mailbox (an
 * atomic 256-bit vector bitmap) and an EPT change into the VM's flush
 * request, and its CPU is kicked out of the guest (hv/cpu/xcpu.h); the
 * VM's CPU drains both before every entry and at every scheduling step. */
#ifndef HV_VM_MAILBOX_H
#define HV_VM_MAILBOX_H

#include <stdbool.h>
#include <stdint.h>

struct vm;

/* The VM runs on another CPU than the caller's. */
bool vm_mailbox_remote(const struct vm *vm);
/* vCPU i of the VM runs on another CPU than the caller's (vcpu->cpu):
 * what a sibling's IPI or a device's MSI to it asks. */
bool vm_mailbox_remote_vcpu(const struct vm *vm, unsigned i);
/* Vector vec (16..255) for vCPU vcpu of a remote VM; 0, or -1 for a bad
 * vCPU or vector. */
int vm_mailbox_post(struct vm *vm, unsigned vcpu, uint8_t vec);
/* The VM's EPT lost translations (hv/vm/vm_mem.c, caller on another
 * CPU): true once the VM's CPU is out of the guest and will INVEPT
 * before its next entry, or has done so; false after 10 ms with the CPU
 * still in the guest (xcpu's wait_timeouts; said on the console with
 * the VM's name): tables detached from the EPT must not be freed
 * yet. */
bool vm_mailbox_ept_flush(struct vm *vm);
/* An NMI, INIT or STARTUP IPI (ipi->mode; a SIPI's ipi->vector) for vCPU
 * vcpu of a VM on another CPU: a sibling vCPU's IPI that crosses CPUs
 * (docs/smp.md "A VM's vCPUs on several CPUs"). Kept in the vCPU's event
 * word, which its own CPU applies with vipi_deliver at the drain, in
 * the order INIT, SIPI, NMI: an INIT drops a SIPI posted before it
 * (which it would have undone), a second SIPI before the drain is
 * dropped (the first started the vCPU; a started vCPU ignores SIPIs), an
 * NMI is kept once. 0, or -1 for a bad vCPU, any other mode or an INIT
 * de-assert (those do nothing anywhere). Fixed vectors take
 * vm_mailbox_post. */
struct ipi;
int vm_mailbox_post_ipi(struct vm *vm, unsigned vcpu, const struct ipi *ipi);
/* On the VM's own CPU: posted vectors into the vLAPICs, a requested
 * INVEPT done. */
void vm_mailbox_drain(struct vm *vm);
/* Something posted to the VM and not drained yet (an idle CPU's last
 * look before it sleeps). */
bool vm_mailbox_waiting(const struct vm *vm);
/* On the VM's own CPU, right before an entry: xcpu_guest_enter, then
 * the drain. The caller calls xcpu_guest_exit after the exit. */
void vm_mailbox_enter(struct vm *vm);

/* Every CPU of the VM but this one kicked out of its guest or its
 * sleep: a state change (stop, pause, resume, restart) they must see
 * before their next entry. */
void vm_mailbox_kick_others(struct vm *vm);

struct vm_mailbox_stats {
	uint64_t posted, drained, flushes_asked, flushes_done;
	uint64_t ipis_posted, ipis_drained, sipis_merged;
};
const struct vm_mailbox_stats *vm_mailbox_stats(void);

#endif
