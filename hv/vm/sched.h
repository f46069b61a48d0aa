/* Running the VMs: one physical CPU, deficit round robin (sched_slice.h).
 * Each VM runs for what is left of its slice per round (hv.cfg slice_ms),
 * bounded by the VMX-preemption timer, or until it halts, yields or stops;
 * the slice also ends early when another VM's virtual timer is due, so
 * timer interrupts arrive on time, but never before the slice floor. The
 * loop that calls the scheduler (and the shell and the GPU between slices)
 * is hv/orchestrate.c. */
#ifndef HV_VM_SCHED_H
#define HV_VM_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "boot/config.h"

/* The slice length (0: HVCFG_DEFAULT_SLICE_MS), and how long a VM alone
 * runnable on its CPU may run in one slice (hv.cfg slice_lone_ms; at most
 * one slice when not longer than that). */
void sched_init(unsigned slice_ms, unsigned lone_ms);

/* One scheduling decision: halted VMs whose timer fired become runnable,
 * and the next runnable VM in round-robin order runs one slice (its wait
 * is charged to the others as steal time). False when no VM could run. */
bool sched_run_next(void);

/* Work the hypervisor did for vm outside its slice (a gBalloon resize of
 * its vGPU in the main loop): charged to its budget like exit handling. */
struct vm;
void sched_charge_work(const struct vm *vm, uint64_t ticks);

/* Work a device posted during an exit (a vGPU's ELSP write queues and
 * posts; the GPU's scheduler runs here), run after the exit is accounted
 * and before the VM's next entry. The hook returns SCHED_POST_NONE when
 * nothing ran, SCHED_POST_OWN when what ran was the VM's own work (its
 * time stays in the VM's budget, as exit handling does), SCHED_POST_HV
 * when it was not (its time is taken out of the VM's budget: the
 * hypervisor's). The main loop sets it (hv/orchestrate.c); NULL: none. */
enum sched_post { SCHED_POST_NONE, SCHED_POST_OWN, SCHED_POST_HV };
typedef enum sched_post (*sched_post_exit_fn)(struct vm *vm);
void sched_set_post_exit(sched_post_exit_fn fn);
/* Whether the host has work that runs only between slices (the main
 * loop's rounds): while it says so, no VM gets a lone slice
 * (slice_lone_ms), so that work keeps its 10 ms pace. */
typedef bool (*sched_rounds_fn)(void);
void sched_set_needs_rounds(sched_rounds_fn fn);
/* hv.cfg slice_stretch_ms: a slice whose end nobody else on the CPU waits
 * for (the VM alone there, the GPU not busy, nothing posted) ends at the
 * VM's first exit at or past its end, its own timer's at the latest,
 * instead of on an exit of its own, but at most `ms` late
 * (sched_slice.h sched_timer_deadline). 0: off. `fn` is the devices'
 * next need (the GPU's: <= now when busy), asked once per slice; NULL:
 * none. */
typedef uint64_t (*sched_dev_next_fn)(uint64_t now);
void sched_set_stretch(unsigned ms, sched_dev_next_fn fn);
/* From inside an exit, on its CPU: the device posted work, so the hook
 * runs once after this exit. Exits without it cost one flag test. */
void sched_post_request(void);

/* Everything the VMs wrote to their UARTs goes to the console, and COM1
 * is waited for until it has sent it all (the machine is about to report
 * and stop: no VM runs any more). */
void sched_flush_output(void);

/* Every VM has stopped (also true without VMs). */
bool sched_all_stopped(void);
/* The earliest virtual-timer deadline (TSC) of this CPU's VMs that can
 * run, UINT64_MAX for none: until then only another CPU (a mailbox, a
 * request, both followed by a kick) gives this CPU's VMs work. */
uint64_t sched_next_event(void);
/* vm's saved CPU state was reset (a restart): the CPU no longer holds
 * state of it worth saving, and its fresh state is loaded when it runs. */
struct vm;
void sched_forget_vm(const struct vm *vm);

#endif
