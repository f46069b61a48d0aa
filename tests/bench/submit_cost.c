/* submit_cost [SUBMITS] [TABLES] [HALF]: what the mediator costs one
 * empty i915 request (IGT gem_exec_nop's shape: a batch that is only
 * MI_BATCH_BUFFER_END, in i915 6.1's request around it), submitted
 * through ELSP on RCS and followed to its seqno.
 *
 * The world is tests/harness/i915_world.c's: the real mediator over the
 * Gen9 model, one guest whose i915-like driver has probed its vGPU and
 * built a PPGTT. TABLES more leaf tables are mapped into that PPGTT
 * first (one page every 2 MiB, all the same data page), so the shadow
 * holds TABLES + a few tables. With HALF 1, before each request the
 * guest stores the low half of one PTE of the batch's leaf table (a
 * trapped 4-byte store: the entry waits for the post-shadow pass of the
 * next submission, gpu/vgpu/ppgtt/vgpu_ppgtt.c).
 *
 * tools/bench-host runs it under callgrind counting only bench_submit
 * (the guest's store, its ring writes and ELSP, and the polls until the
 * seqno lands), or only vgpu_mm_prepare (the shadow's preparation,
 * post-shadow pass included), or only vgpu_mmio_write (what runs inside
 * the guest's BAR0 write traps: the ELSP trap queues, the scheduler
 * runs after it), from a run with 0 and one with SUBMITS
 * requests. The program prints the shadow's table count and the
 * post-shadow pass's table visits, whose count the mediator keeps in
 * vgpu_stats (printed as -1 when the build has no such counter). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu/hw/gen9_cmds.h"
#include "tests/harness/i915_world.h"

#define BATCH_VA 0x7e0000000000ull
#define TABLES_VA 0x100000000000ull
#define TWO_MIB (2ull << 20)

static struct model_world W;
static struct iw_guest Q;

/* The guest's leaf table mapping va. */
static uint64_t guest_pt(uint64_t va)
{
	uint64_t t = Q.g.pml4_gpa, ent;
	int l;

	for (l = 4; l > 1; l--) {
		ent = (uint64_t)gi_read32(&Q.g, t + 8 * ((va >> (12 + 9 * (l - 1))) & 511)) |
		      (uint64_t)gi_read32(&Q.g, t + 8 * ((va >> (12 + 9 * (l - 1))) & 511) + 4) << 32;
		t = ent & GEN8_PTE_ADDR_MASK;
	}
	return t;
}

/* One request, from the guest's optional half store to its seqno. Not
 * inlined: callgrind counts this function. */
__attribute__((noinline)) static int bench_submit(uint64_t half_at, uint32_t half)
{
	if (half_at)
		fake_hv_guest_store(&W.hv, Q.vm, half_at, &half, 4);
	iw_submit(&Q, GEN9_RCS0, BATCH_VA);
	if (gi_wait_idle(&Q.g, GEN9_RCS0, 100))
		return -1;
	return iw_seqno_now(&Q, GEN9_RCS0) == Q.seqno[GEN9_RCS0] ? 0 : -1;
}

static long long post_visits(void)
{
#ifdef SUBMIT_COST_NO_POST_COUNTER
	return -1;
#else
	return (long long)Q.v->stats.post_tables_visited;
#endif
}

int main(int argc, char **argv)
{
	int submits = argc > 1 ? atoi(argv[1]) : 100;
	int tables = argc > 2 ? atoi(argv[2]) : 0;
	int half = argc > 3 ? atoi(argv[3]) : 0;
	uint32_t end[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	uint64_t data, batch_gpa, half_at = 0;
	long long v0;
	uint64_t r0, w0, m0;
	int i;

	iw_world_init(&W, 64, 64);
	iw_guest_up(&W, &Q, 1);
	batch_gpa = iw_map(&Q, BATCH_VA, 2);
	fake_hv_guest_write(&W.hv, Q.vm, batch_gpa, end, sizeof(end));
	data = gi_alloc_pages(&Q.g, 1);
	for (i = 0; i < tables; i++)
		gi_ppgtt_map(&Q.g, TABLES_VA + (uint64_t)i * TWO_MIB, data, 1);
	if (half)
		half_at = guest_pt(BATCH_VA) + 8; /* entry 1's low half */
	/* Warm up: the workload path's first use allocates. */
	for (i = 0; i < 2; i++)
		if (bench_submit(half_at, (uint32_t)(batch_gpa + 4096) | 3)) {
			fprintf(stderr, "submit_cost: warm-up request failed\n");
			return 1;
		}
	v0 = post_visits();
	r0 = Q.v->stats.mmio_reads;
	w0 = Q.v->stats.mmio_writes;
	m0 = W.hv.vm[Q.vm].msi_count;
	for (i = 0; i < submits; i++)
		if (bench_submit(half_at, (uint32_t)(batch_gpa + 4096) | 3)) {
			fprintf(stderr, "submit_cost: request %d failed\n", i);
			return 1;
		}
	/* BAR0 accesses are the guest's MMIO exits; MSIs the interrupts
	 * the guest handles (each a few more exits in a real guest). */
	printf("submits %d tables %u half %d post_visits %lld bar0_reads %llu "
	       "bar0_writes %llu msis %llu\n", submits, Q.v->spt_count, half,
	       v0 < 0 ? -1 : post_visits() - v0,
	       (unsigned long long)(Q.v->stats.mmio_reads - r0),
	       (unsigned long long)(Q.v->stats.mmio_writes - w0),
	       (unsigned long long)(W.hv.vm[Q.vm].msi_count - m0));
	iw_world_fini(&W);
	return 0;
}
