/* mmio_switch_cost [SWITCHES]: the mediator's cost of a vGPU switch's MMIO
 * list (gpu/vgpu/mmio/vgpu_mmio_switch.c, gvt_mmio_switch: each register saved
 * from the GPU into the outgoing vGPU, then loaded from the incoming one).
 *
 * Two vGPUs over the Gen9 model (tests/world/evguest.c's world, default
 * mediator parameters) own the GPU in turn, SWITCHES times (default
 * 1000), the way vgpu_sched.c's switch_to calls gvt_mmio_switch.
 * tools/bench-host runs it under callgrind counting only gvt_mmio_switch.
 * Before that, one switch runs with the GPU's register access counted
 * (the gpu_hw ops wrapped; the counted switches use the model's own ops),
 * and the program prints how many registers were read and written. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "tests/world/evguest.h"

static struct model_world W;
static struct vgpu *V[2];
static struct evguest G[2];

static const struct gpu_hw_ops *model_ops;
static unsigned long long reads, writes;

static uint32_t counted_read32(void *ctx, uint32_t off)
{
	reads++;
	return model_ops->read32(ctx, off);
}

static void counted_write32(void *ctx, uint32_t off, uint32_t val)
{
	writes++;
	model_ops->write32(ctx, off, val);
}

/* What switch_to does for the registers. */
static void switch_to(struct vgpu *next)
{
	gvt_mmio_switch(W.gvt, W.gvt->owner, next);
	W.gvt->owner = next;
}

/* One switch with every register access of the GPU counted. */
static void census(struct vgpu *next)
{
	struct gpu_hw_ops counting;

	model_ops = W.gvt->hw->ops;
	counting = *model_ops;
	counting.read32 = counted_read32;
	counting.write32 = counted_write32;
	W.gvt->hw->ops = &counting;
	switch_to(next);
	W.gvt->hw->ops = model_ops;
}

int main(int argc, char **argv)
{
	int switches = argc > 1 ? atoi(argv[1]) : 1000;
	int i;

	if (evg_world(&W, (struct mw_config){ 0 }, 2, V, G) != 2) {
		fprintf(stderr, "mmio_switch_cost: world\n");
		return 1;
	}
	switch_to(V[0]);
	census(V[1]);
	for (i = 0; i < switches; i++)
		switch_to(V[i & 1]);
	printf("switches %d mmio_reads %llu mmio_writes %llu\n", switches, reads, writes);
	mw_stop(&W);
	mw_fini(&W);
	return 0;
}
