/* The GPU's interrupt in the hypervisor: its MSI aimed at HOST_VEC_GPU
 * (gpu/hw/pgpu_msi.c), the handler, and the mediator run from it
 * (docs/hardware.md, "Interrupts"). */
#ifndef HV_GPU_GPU_IRQ_H
#define HV_GPU_GPU_IRQ_H

#include <stdbool.h>
#include <stdint.h>

struct gvt;
struct pci_dev;
struct pgpu;

/* Program d's MSI to this CPU's LAPIC with HOST_VEC_GPU and register the
 * handler; said on the console. false: not programmed (then polled). */
bool gpu_irq_msi_up(const struct pci_dev *d);
/* After the mediator's engines are up: context-switch and CS-error
 * interrupts of every engine enabled, the master on; from now on
 * gpu_irq_run works by interrupt. */
void gpu_irq_enable(struct pgpu *p);
/* MSIs taken so far; and forgetting them (the smoke test's). */
uint64_t gpu_irq_msis(void);
void gpu_irq_forget(void);
/* Once per main-loop round: after enabling, take a pending MSI and run
 * the mediator for it (or for the 1 ms tick); before, or without MSI,
 * run the mediator every round (polling). */
void gpu_irq_run(struct gvt *gvt, struct pgpu *p);
/* After a VM's exit, before its next entry: when a submission posted
 * work (gvt_posted), the mediator runs for it now; false: nothing was
 * posted, nothing ran. */
bool gpu_irq_after_exit(struct gvt *gvt, struct pgpu *p);
/* One line: MSIs and what found the completions, or the polls. */
void gpu_irq_report(struct gvt *gvt, struct pgpu *p, bool plain_model);

#endif
