/* ppgtt_storm [CONTEXTS [ROUNDS]]: a VM's shadow page-table memory at
 * rest and under a context storm (gpu/vgpu/ppgtt/vgpu_ppgtt.c, the budget of
 * docs/shadow-ppgtt.md), over the mediator and the Gen9 model.
 *
 * The i915-like guest (tests/harness/guest_i915.c) on a vGPU with the
 * default budget creates CONTEXTS (default 4,096) PPGTTs the way i915
 * does (announced through PVINFO g2v_notify, then a batch page and a data
 * page bound by CPU stores to its tables: PML4, PDP, PD, one page table),
 * uses them round-robin on RCS, BCS, VCS and VECS ROUNDS times (default
 * 2: the second round finds most shadows evicted), one request each - a
 * batch storing a mark in its own data page, then a breadcrumb - and
 * destroys them. Prints the memory (vgpu_ppgtt_usage) at rest, at its
 * peak and at the end, and the eviction counters. A request whose mark
 * is missing, or any failure, fault or refusal, ends it with status 1. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu/ghyvi/ghyvi.h"
#include "gpu/hw/gen9_cmds.h"
#include "tests/harness/ppgtt_env.h"

#define MiB (1ull << 20)
#define VM 1
#define BATCH_VA 0x100000000ull /* batch and data share one page table */
#define DATA_VA (BATCH_VA + 0x1000ull)
#define NDATA 64u
#define MARK 0x600dcafeu

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };
static const int engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0, GEN9_VECS0 };
#define NR_ENG 4u

/* The PPGTT tests' world (mw, v, g), here over the model. */
struct storm {
	struct ppgtt_env w;
	int ctx[NR_ENG];
	uint32_t seqno, hwsp_gm;
	uint64_t hwsp_gpa, batch_gpa, data_gpa[NDATA];
	uint64_t *pml4;
};

static void die(const char *what)
{
	fprintf(stderr, "ppgtt_storm: %s\n", what);
	exit(1);
}

/* Guest pages: a breadcrumb page in the GGTT, the shared batch (store the
 * mark at DATA_VA) and the data pages. */
static void guest_pages(struct storm *s)
{
	uint32_t bb[] = { MI_STORE_DWORD_IMM_GEN4, (uint32_t)DATA_VA,
			  (uint32_t)(DATA_VA >> 32), MARK, MI_BATCH_BUFFER_END };
	uint32_t k;

	s->hwsp_gpa = gi_alloc_pages(&s->w.g, 1);
	s->hwsp_gm = gi_gm_alloc(&s->w.g, 4096, false);
	gi_ggtt_bind(&s->w.g, s->hwsp_gm, s->hwsp_gpa, 1);
	s->batch_gpa = gi_alloc_pages(&s->w.g, 1);
	fake_hv_guest_write(&s->w.mw.hv, VM, s->batch_gpa, bb, sizeof(bb));
	for (k = 0; k < NDATA; k++)
		s->data_gpa[k] = gi_alloc_pages(&s->w.g, 1);
}

static void storm_init(struct storm *s, uint32_t n)
{
	/* gHyvi attached, as the hypervisor attaches it to every vGPU. */
	static const struct gvt_params p = { .ext = { &ghyvi_ext_ops } };
	struct mw_config c = { .pool_mib = 96, .ram_mib = 100, .params = &p };
	uint32_t k;

	s->pml4 = calloc(n, sizeof(*s->pml4));
	if (!s->pml4 || mw_init(&s->w.mw, &c) ||
	    mw_add_vgpu(&s->w.mw, &small, VM, 96 * MiB, &s->w.v) ||
	    gi_probe(&s->w.g, &s->w.mw.hv, s->w.v, VM, s->w.mw.gvt))
		die("world");
	s->w.g.poll = mw_poll;
	s->w.g.poll_arg = &s->w.mw;
	for (k = 0; k < NR_ENG; k++) {
		if (gi_engine_init(&s->w.g, engines[k]))
			die("engine");
		s->ctx[k] = gi_ctx_create(&s->w.g, engines[k]);
		if (s->ctx[k] < 0)
			die("context");
	}
	guest_pages(s);
}

/* gen8_ppgtt_create and the binds of context k's objects. */
static void ppgtt_new(struct storm *s, uint32_t k)
{
	if (gi_ppgtt_create(&s->w.g))
		die("out of guest RAM");
	s->pml4[k] = s->w.g.pml4_gpa;
	gi_ppgtt_map(&s->w.g, BATCH_VA, s->batch_gpa, 1);
	gi_ppgtt_map(&s->w.g, DATA_VA, s->data_gpa[k % NDATA], 1);
}

static void ppgtt_destroy(struct storm *s, uint32_t k)
{
	s->w.g.pml4_gpa = s->pml4[k];
	gi_ppgtt_destroy(&s->w.g);
}

/* One request of context k on engine slot e: the engine's context is
 * pointed at k's PPGTT (the harness has one context per engine). */
static void run_one(struct storm *s, unsigned int e, uint32_t k)
{
	int c = s->ctx[e];
	uint64_t st = s->w.g.ctx[c].lrca_gpa + LRC_STATE_OFFSET;

	gi_write32(&s->w.g, s->data_gpa[k % NDATA], 0);
	gi_write32(&s->w.g, st + CTX_PDP0_UDW * 4, (uint32_t)(s->pml4[k] >> 32));
	gi_write32(&s->w.g, st + CTX_PDP0_LDW * 4, (uint32_t)s->pml4[k]);
	gi_emit_bb_start(&s->w.g, c, BATCH_VA, true);
	gi_emit_breadcrumb(&s->w.g, c, s->hwsp_gm + e * 64, ++s->seqno);
	gi_submit(&s->w.g, c, -1);
	if (gi_wait_idle(&s->w.g, engines[e], 50) ||
	    gi_read32(&s->w.g, s->data_gpa[k % NDATA]) != MARK ||
	    gi_read32(&s->w.g, s->hwsp_gpa + e * 64) != s->seqno)
		die("a request did not complete");
}

static void no_failure(const struct vgpu *v)
{
	const struct vgpu_stats *st = &v->stats;

	if (vgpu_failed(v) || st->workloads_rejected || st->workloads_failed ||
	    st->faults || st->user_faults || st->ppgtt_errors)
		die("the vGPU failed, refused or faulted");
}

int main(int argc, char **argv)
{
	uint32_t n = argc > 1 ? (uint32_t)atoi(argv[1]) : 4096;
	uint32_t rounds = argc > 2 ? (uint32_t)atoi(argv[2]) : 2;
	static struct storm s;
	struct vgpu_ppgtt_usage rest, busy, end;
	uint32_t k, r;

	storm_init(&s, n);
	vgpu_ppgtt_usage(s.w.v, &rest);
	for (k = 0; k < n; k++)
		ppgtt_new(&s, k);
	for (r = 0; r < rounds; r++)
		for (k = 0; k < n; k++)
			run_one(&s, k % NR_ENG, k);
	vgpu_ppgtt_usage(s.w.v, &busy);
	for (k = 0; k < n; k++)
		ppgtt_destroy(&s, k);
	no_failure(s.w.v);
	vgpu_ppgtt_usage(s.w.v, &end);
	printf("contexts %u requests %u budget_kib %u rest_kib %u rest_meta_kib %u "
	       "peak_kib %u end_kib %u end_tables %u evictions %llu rebuilds %llu waits %llu\n",
	       n, n * rounds, rest.budget_kib, rest.used_kib, rest.meta_kib,
	       busy.peak_kib, end.used_kib, end.tables,
	       (unsigned long long)s.w.v->stats.mm_evicted,
	       (unsigned long long)s.w.v->stats.mm_rebuilt_evicted,
	       (unsigned long long)s.w.v->stats.mm_waits);
	mw_stop(&s.w.mw);
	mw_fini(&s.w.mw);
	free(s.pml4);
	return 0;
}
