/* ppgtt_rebuild [REBUILDS [REGIONS]]: the mediator's cost of rebuilding an
 * evicted shadow PPGTT (gpu/vgpu/ppgtt/vgpu_ppgtt.c, docs/shadow-ppgtt.md).
 *
 * The fixture of the PPGTT tests (tests/harness/ppgtt_env.c: VM 1, its
 * vGPU, the i915-like guest probed) gets two PPGTTs: the target (one
 * 2 MiB region at 4 GiB plus REGIONS more at 8 GiB, default 2: PML4, PDP,
 * two PDs, 1 + REGIONS page tables) and a filler with 80 page tables, more
 * than the smallest budget holds. Each round lowers the budget to its
 * minimum, which evicts the least recently used idle roots (the target
 * first, then the filler), raises it back, and submits the target (its
 * rebuild, counted), then the filler (not counted), so the target is the
 * LRU end again. The rebuild is vgpu_mm_get(..., false), what
 * vgpu_workload_create calls; bench_rebuild wraps it so that
 * tools/bench-host counts only it (callgrind --toggle-collect).
 *
 * Prints the rebuilds done, the shadow tables created and the guest
 * entries read (stats.spt_created, stats.spt_entries_filled) per rebuild. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/harness/ppgtt_env.h"

#define REGION_VA 0x100000000ull /* 4 GiB: every level of the PPGTT */
#define EXTRA_VA 0x200000000ull  /* another PDP entry: a second PD */
#define REGION (2ull << 20)
#define FILLER_REGIONS 80u

/* A new PPGTT announced with 1 + extra 2 MiB regions mapped (one page
 * each, so one page table each). Returns its root. */
static uint64_t ppgtt_new(struct ppgtt_env *e, uint32_t extra)
{
	uint64_t page = gi_alloc_pages(&e->g, 1);
	uint32_t r;

	if (!page || gi_ppgtt_create(&e->g))
		exit(1);
	gi_ppgtt_map(&e->g, REGION_VA, page, 1);
	for (r = 0; r < extra; r++)
		gi_ppgtt_map(&e->g, EXTRA_VA + r * REGION, page, 1);
	return e->g.pml4_gpa;
}

/* Not inlined: the only function callgrind counts. */
__attribute__((noinline)) int bench_rebuild(struct vgpu *v, uint64_t root)
{
	return vgpu_mm_get(v, root, false);
}

/* A submission's hold on root: taken and let go at once. */
static void use(struct vgpu *v, uint64_t root, bool counted)
{
	int mm = counted ? bench_rebuild(v, root) : vgpu_mm_get(v, root, false);

	if (mm < 0) {
		fprintf(stderr, "ppgtt_rebuild: vgpu_mm_get %d\n", mm);
		exit(1);
	}
	vgpu_mm_put(v, mm);
}

/* Idle roots out, least recently used first: the budget at its minimum. */
static void evict_idle(struct vgpu *v)
{
	if (vgpu_ppgtt_set_budget(v, VGPU_SHADOW_PT_KIB_MIN) ||
	    vgpu_ppgtt_set_budget(v, VGPU_SHADOW_PT_KIB_DEFAULT))
		exit(1);
}

/* What the target's rebuilds did, summed over the rounds. */
struct tally {
	unsigned long long rebuilt, tables, entries;
};

static void round_once(struct ppgtt_env *e, uint64_t target, uint64_t filler,
		       struct tally *t)
{
	const struct vgpu_stats *s = &e->v->stats;
	uint64_t r0, c0, f0;

	evict_idle(e->v);
	r0 = s->mm_rebuilt_evicted;
	c0 = s->spt_created;
	f0 = s->spt_entries_filled;
	use(e->v, target, true);
	t->rebuilt += s->mm_rebuilt_evicted - r0;
	t->tables += s->spt_created - c0;
	t->entries += s->spt_entries_filled - f0;
	use(e->v, filler, false);
}

int main(int argc, char **argv)
{
	int rebuilds = argc > 1 ? atoi(argv[1]) : 100;
	uint32_t extra = argc > 2 ? (uint32_t)atoi(argv[2]) : 2;
	struct tally t = { 0, 0, 0 };
	void *state;
	struct ppgtt_env *e;
	uint64_t target, filler;
	int i;

	ppgtt_env_setup(&state);
	e = state;
	target = ppgtt_new(e, extra);
	filler = ppgtt_new(e, FILLER_REGIONS);
	use(e->v, target, false);
	use(e->v, filler, false);
	for (i = 0; i < rebuilds; i++)
		round_once(e, target, filler, &t);
	if (t.rebuilt != (unsigned long long)rebuilds) {
		fprintf(stderr, "ppgtt_rebuild: %llu of %d rounds rebuilt an evicted root\n",
			t.rebuilt, rebuilds);
		return 1;
	}
	printf("rebuilds %d tables %llu entries %llu\n", rebuilds,
	       rebuilds ? t.tables / (unsigned)rebuilds : 0ull,
	       rebuilds ? t.entries / (unsigned)rebuilds : 0ull);
	ppgtt_env_teardown(&state);
	return 0;
}
