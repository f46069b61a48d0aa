/* The GPU's MSI and the mediator run by it (gpu_irq.h). */
#include "gpu/hw/pgpu.h"
#include "gpu/hw/pgpu_msi.h"
#include "gpu/vgpu/vgpu.h"
#include "hv/console/console.h"
#include "hv/gpu/gpu_irq.h"
#include "hv/gpu/hv_ops_impl.h"
#include "hv/cpu/host_irq.h"
#include "hv/cpu/host_lapic.h"
#include "hv/platform/pci.h"

#define GPU_TICK_NS 1000000ull

/* The handler sets pending; gpu_irq_run runs the completion path for it,
 * or for the tick. Completions are counted by which run found them (the
 * pGPU driver's per-engine CSB completions). */
static struct {
	bool on, pending;
	struct pgpu_msi msi;
	uint64_t msi_host, msi_guest;	/* handler runs, by where */
	uint64_t runs_irq, runs_tick, empty;
	uint64_t done_irq, done_tick;
	uint64_t runs_exit, done_exit;	/* after a submission's exit */
	uint64_t runs_posted;		/* posted work found by the loop */
	uint64_t done_before;		/* completions before enabling */
	uint64_t last_tick_ns;
	uint64_t polls;			/* rounds without interrupts */
} irq;

static uint32_t cfg_rd(void *ctx, uint16_t off)
{
	const struct pci_dev *d = ctx;

	return pci_read32(d->bus, d->dev, d->fn, off);
}

static void cfg_wr(void *ctx, uint16_t off, uint32_t v)
{
	const struct pci_dev *d = ctx;

	pci_write32(d->bus, d->dev, d->fn, off, v);
}

/* The vector's handler: nothing but a note; the work runs from the main
 * loop (host_irq.h). */
static void gpu_msi(void *ctx, bool in_guest)
{
	(void)ctx;
	irq.pending = true;
	if (in_guest)
		irq.msi_guest++;
	else
		irq.msi_host++;
}

bool gpu_irq_msi_up(const struct pci_dev *d)
{
	struct pgpu_cfg_io io = { (void *)d, cfg_rd, cfg_wr };
	int err;

	host_irq_init();
	err = host_irq_register(HOST_VEC_GPU, gpu_msi, NULL);
	if (!err)
		err = pgpu_msi_program(&io, lapic_id(), HOST_VEC_GPU, &irq.msi);
	if (err) {
		kprintf("gpu: MSI not programmed (%d): completions will be "
			"polled\n", err);
		return false;
	}
	kprintf("gpu: MSI capability at %02x: address %08x data %04x "
		"(vector %#x to LAPIC %u)\n", irq.msi.cap, irq.msi.addr,
		irq.msi.data, HOST_VEC_GPU, lapic_id());
	return true;
}

static uint64_t completions(const struct pgpu *p);

void gpu_irq_enable(struct pgpu *p)
{
	irq.done_before = completions(p); /* the smoke test's, if it ran */
	pgpu_irq_setup(p, GT_CONTEXT_SWITCH_INTERRUPT |
			       GT_CS_MASTER_ERROR_INTERRUPT);
	pgpu_irq_master_enable(p);
	irq.on = true;
	irq.last_tick_ns = hv_ops_impl.now_ns(NULL);
	kprintf("gpu: completions by interrupt (context switch, CS error); "
		"a %llu ms tick for slice ends and hang checks\n",
		(unsigned long long)(GPU_TICK_NS / 1000000));
}

uint64_t gpu_irq_msis(void)
{
	return irq.msi_host + irq.msi_guest;
}

void gpu_irq_forget(void)
{
	irq.pending = false;
	irq.msi_host = irq.msi_guest = 0;
}

/* Completions the pGPU driver has seen, all engines. */
static uint64_t completions(const struct pgpu *p)
{
	uint64_t n = 0;

	for (int id = 0; id < GEN9_NUM_ENGINES; id++)
		n += p->engine[id].completes;
	return n;
}

static void mediator_run(struct gvt *gvt, struct pgpu *p, uint64_t *found)
{
	uint64_t before = completions(p);

	gvt_poll(gvt);
	*found += completions(p) - before;
}

bool gpu_irq_after_exit(struct gvt *gvt, struct pgpu *p)
{
	if (!gvt_posted(gvt))
		return false;
	irq.runs_exit++;
	mediator_run(gvt, p, &irq.done_exit);
	return true;
}

/* Take a pending MSI (the window), then run the mediator for it - the
 * handler protocol first (master off, IIR acked, master on: an event that
 * came meanwhile raises a new MSI) - or for the tick. */
void gpu_irq_run(struct gvt *gvt, struct pgpu *p)
{
	uint64_t now = hv_ops_impl.now_ns(NULL);
	struct pgpu_irq_status st;

	if (!irq.on) {
		irq.polls++;
		if (gvt_posted(gvt))
			irq.runs_posted++; /* no exit hook ran it */
		gvt_poll(gvt);
		return;
	}
	host_irq_window();
	if (irq.pending) {
		irq.pending = false;
		if (!pgpu_irq_handle(p, &st))
			irq.empty++;
		irq.runs_irq++;
		mediator_run(gvt, p, &irq.done_irq);
	} else if (now - irq.last_tick_ns >= GPU_TICK_NS) {
		irq.last_tick_ns = now;
		irq.runs_tick++;
		mediator_run(gvt, p, &irq.done_tick);
	} else if (gvt_posted(gvt)) {
		irq.runs_posted++;	/* posted where no exit hook ran it */
		mediator_run(gvt, p, &irq.done_exit);
	}
}

/* Completions by which run found them: the interrupt's, the tick's, or
 * ("at submission") the one after a submission's exit
 * (gpu_irq_after_exit) or for posted work. */
void gpu_irq_report(struct gvt *gvt, struct pgpu *p, bool plain_model)
{
	if (!gvt)
		return;
	kprintf("gpu: mediator runs for submissions: %llu after the exit "
		"that posted them, %llu by the main loop; completions they "
		"found %llu\n", (unsigned long long)irq.runs_exit,
		(unsigned long long)irq.runs_posted,
		(unsigned long long)irq.done_exit);
	if (!irq.on) {
		kprintf("gpu: interrupts: none (%s): the mediator polled %llu "
			"times\n", plain_model ? "the software model has no "
			"interrupt line" : "no MSI",
			(unsigned long long)irq.polls);
		return;
	}
	kprintf("gpu: interrupts: %llu MSIs (%llu in the host, %llu during a "
		"guest), %llu empty; mediator runs %llu by interrupt, %llu by "
		"the tick; completions %llu by interrupt, %llu by the tick, "
		"%llu at submission\n",
		(unsigned long long)(irq.msi_host + irq.msi_guest),
		(unsigned long long)irq.msi_host,
		(unsigned long long)irq.msi_guest,
		(unsigned long long)irq.empty,
		(unsigned long long)irq.runs_irq,
		(unsigned long long)irq.runs_tick,
		(unsigned long long)irq.done_irq,
		(unsigned long long)irq.done_tick,
		(unsigned long long)(completions(p) - irq.done_before -
				     irq.done_irq - irq.done_tick));
}
