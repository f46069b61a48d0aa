/* The mediator under concurrency (issue 30 step 4, docs/smp.md "Mediator
 * concurrency"), built with -fsanitize=thread (make stress, run by make
 * test): threads standing for vCPUs on different CPUs trap into vGPUs at
 * the same time through the hypervisor's own entry wrappers
 * (hv/gpu/gpu_entry.c) and mediator lock (hv/gpu/gpu_lock.c,
 * hv/cpu/rlock.c), linked here as they are; one thread is the BSP's main
 * loop (the model and gvt_poll under the lock, as hv/gpu/gpu_host.c's
 * gpu_host_poll). The mediator, the GPU model and the fake hypervisor are
 * the real gpu/ code and the tests' world (tests/world/).
 *
 * Per vCPU thread, mixed: BAR0 register reads, interrupt-register writes,
 * GGTT entry writes (its own RAM, and pages outside it that must never
 * reach the GPU), ELSP submissions of a real batch on its own engine, and
 * stores into its shadowed PPGTT pages (the write-protect trap). Two
 * threads share vGPU 0 (a VM with two vCPUs on two CPUs), the others have
 * a vGPU each. ThreadSanitizer reports any access to the mediator's state
 * made outside the lock; at the end the isolation invariants are checked:
 * every present GGTT entry of a vGPU's ranges maps its own VM's RAM, every
 * shadow page-table leaf too, the ELSP counters add up to what was
 * written, and the lock's counters to the entries made. Exit status 0 and
 * "stress: PASS" or 1 and the failure. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_regs.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "hv/gpu/gpu_entry.h"
#include "hv/gpu/gpu_lock.h"
#include "tests/harness/guest_i915.h"
#include "tests/stress/stress_guest.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define NR_VGPU 3
#define NR_VCPU 4		/* vGPU 0 has two */
#ifndef ITERS
#define ITERS 150
#endif
#define WAIT_POLLS 20000	/* per submission, then it counts as lost */
#define PPGTT_VA 0x100000000ull
#define GGTT_BAR0 0x800000ull	/* GGTT entries in BAR0 (vgpu.h) */
#define VM_RAM (8 * MiB)

static const struct vgpu_type type = { "stress", 16 * MiB, 64 * MiB, 2, 1 };
static const int vgpu_of_vcpu[NR_VCPU] = { 0, 0, 1, 2 };
static const int engine_of_vcpu[NR_VCPU] = { GEN9_RCS0, GEN9_BCS0,
					     GEN9_RCS0, GEN9_VCS0 };

static struct model_world w;
static struct vgpu *v[NR_VGPU];
static struct guest_i915 g[NR_VGPU];
static uint64_t pt_gpa[NR_VGPU];	/* a page-table page of its PPGTT */
static struct vcpu_state {
	int ctx;
	uint32_t seq_gm, bind_gm;	/* breadcrumbs; a page it rebinds */
	uint64_t seq_gpa, bind_gpa[2];
	uint64_t elsps, done, lost, foreign_tries, entries;
} vc[NR_VCPU];
static int stop_poll;
static uint64_t poll_rounds;
static __thread uint32_t my_cpu;

uint32_t gpu_lock_self(void)
{
	return my_cpu;
}

static uint64_t misses;

void gpu_lock_report_miss(const char *what)
{
	fprintf(stderr, "stress: %s without the mediator lock\n", what);
}

static void fail(const char *what, unsigned long long a, unsigned long long b)
{
	fprintf(stderr, "stress: FAIL: %s (0x%llx, 0x%llx)\n", what, a, b);
	exit(1);
}

/* guest_i915.c, built for this test with its calls into the mediator and
 * its guest-memory accesses renamed to these (mk/stress.mk): a VM's
 * accesses trap through the hypervisor's entries. Guest memory is read
 * and written under the lock too: the GPU model writes it (CSB, context
 * images, breadcrumbs) from the poll thread, as the real GPU does by DMA;
 * ThreadSanitizer cannot tell that from a data race. */
int st_mmio_read(struct vgpu *vg, uint64_t off, uint64_t *val, unsigned size)
{
	vc[my_cpu ? my_cpu - 1 : 0].entries += my_cpu != 0;
	return gpu_entry_mmio_read(vg, off, val, size);
}

int st_mmio_write(struct vgpu *vg, uint64_t off, uint64_t val, unsigned size)
{
	vc[my_cpu ? my_cpu - 1 : 0].entries += my_cpu != 0;
	return gpu_entry_mmio_write(vg, off, val, size, NULL);
}

int st_cfg_read(struct vgpu *vg, uint32_t off, uint32_t *val, unsigned size)
{
	int r;

	gpu_lock();
	r = vgpu_cfg_read(vg, off, val, size);
	gpu_unlock();
	return r;
}

int st_cfg_write(struct vgpu *vg, uint32_t off, uint32_t val, unsigned size)
{
	gpu_entry_cfg_write(vg, off, val, size);
	return 0;
}

/* As hv/gpu/gpu_host.c: the scheduler after an exit that posted work. */
void st_gvt_poll(struct gvt *gvt)
{
	gpu_lock();
	gvt_poll(gvt);
	gpu_unlock();
}

uint64_t st_gvt_posted(const struct gvt *gvt)
{
	uint64_t r;

	gpu_lock();
	r = gvt_posted(gvt);
	gpu_unlock();
	return r;
}

void st_guest_read(struct fake_hv *f, uint32_t vm, uint64_t gpa, void *d,
		   size_t len)
{
	gpu_lock();
	fake_hv_guest_read(f, vm, gpa, d, len);
	gpu_unlock();
}

void st_guest_write(struct fake_hv *f, uint32_t vm, uint64_t gpa,
		    const void *d, size_t len)
{
	gpu_lock();
	fake_hv_guest_write(f, vm, gpa, d, len);
	gpu_unlock();
}

/* A guest CPU store; a write-protected page traps into trap() below. */
void st_guest_store(struct fake_hv *f, uint32_t vm, uint64_t gpa,
		    const void *d, size_t len)
{
	gpu_lock();
	fake_hv_guest_store(f, vm, gpa, d, len);
	gpu_unlock();
}

static void trap(void *arg, uint32_t vm, uint64_t gpa, const void *data,
		 size_t len)
{
	(void)arg;
	(void)gpu_entry_page_write(v[vm - 1], gpa, data, len);
}

/* The BSP's main loop: the model runs and the mediator polls, under the
 * lock (hv/gpu/gpu_host.c gpu_host_poll). */
static void poll_once(void *arg)
{
	(void)arg;
	gpu_lock();
	gen9_model_poll(&w.m);
	gvt_poll(w.gvt);
	w.hv.now += 20000;
	gpu_unlock();
}

static void setup_vcpu(int c)
{
	struct guest_i915 *gg = &g[vgpu_of_vcpu[c]];
	struct vcpu_state *s = &vc[c];

	if (gi_engine_init(gg, engine_of_vcpu[c]))
		fail("engine init", (unsigned)c, 0);
	s->ctx = gi_ctx_create(gg, engine_of_vcpu[c]);
	if (s->ctx < 0)
		fail("context", (unsigned)c, 0);
	s->seq_gpa = gi_alloc_pages(gg, 1);
	s->seq_gm = gi_gm_alloc(gg, 4096, true);
	gi_ggtt_bind(gg, s->seq_gm, s->seq_gpa, 1);
	s->bind_gpa[0] = gi_alloc_pages(gg, 1);
	s->bind_gpa[1] = gi_alloc_pages(gg, 1);
	s->bind_gm = gi_gm_alloc(gg, 4096, true);
	gi_ggtt_bind(gg, s->bind_gm, s->bind_gpa[0], 1);
}

static void setup(void)
{
	static struct gvt_params p = { 0 }; /* gVirt alone */
	struct mw_config cfg = { .pool_mib = 96, .ram_mib = 8 * NR_VGPU + 8,
				 .nr_vms = NR_VGPU + 1, .params = &p };

	if (mw_init(&w, &cfg))
		fail("world", 0, 0);
	for (int i = 0; i < NR_VGPU; i++) {
		if (mw_add_vgpu(&w, &type, (uint32_t)i + 1, VM_RAM, &v[i]) ||
		    gi_probe(&g[i], &w.hv, v[i], (uint32_t)i + 1, w.gvt) ||
		    gi_ppgtt_create(&g[i]))
			fail("vGPU", (unsigned)i, 0);
		g[i].poll = poll_once;
		gi_ppgtt_map(&g[i], PPGTT_VA, gi_alloc_pages(&g[i], 4), 4);
		pt_gpa[i] = g[i].pml4_gpa;
	}
	for (int c = 0; c < NR_VCPU; c++)
		setup_vcpu(c);
	w.hv.trap = trap;
}

/* Waits (bounded) until the breadcrumb seq landed in its page. */
static bool wait_seq(struct vcpu_state *s, int i, uint32_t seq)
{
	for (int n = 0; n < WAIT_POLLS; n++) {
		uint32_t got;

		poll_once(NULL);
		st_guest_read(&w.hv, (uint32_t)i + 1, s->seq_gpa, &got, 4);
		if (got == seq)
			return true;
	}
	return false;
}

/* One vCPU's traps: registers, GGTT entries (its own pages, and a page
 * outside its RAM the mediator must keep off the GPU), a store into its
 * shadowed PML4 (a write-protect trap: the same entry back), then a
 * submission it waits for. */
static void vcpu_round(int c, uint32_t it)
{
	struct vcpu_state *s = &vc[c];
	int i = vgpu_of_vcpu[c];
	struct guest_i915 *gg = &g[i];
	uint64_t pte = 0, bad = VM_RAM + 4096ull * (it % 64);
	uint32_t seq = 0x5000000u | (uint32_t)c << 16 | it;

	(void)gi_mmio_read(gg, GEN8_MASTER_IRQ, 4);
	(void)gi_mmio_read(gg, RING_HEAD(gen9_engine_mmio_base(
				       (enum gen9_engine_id)engine_of_vcpu[c])), 4);
	gi_mmio_write(gg, GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL, 4);
	gi_ggtt_bind(gg, s->bind_gm, s->bind_gpa[it & 1], 1);
	gi_mmio_write(gg, GGTT_BAR0 + (s->bind_gm >> 12) * 8, bad | 1, 8);
	s->foreign_tries++;
	st_guest_read(&w.hv, (uint32_t)i + 1, pt_gpa[i], &pte, 8);
	st_guest_store(&w.hv, (uint32_t)i + 1, pt_gpa[i], &pte, 8);
	gi_emit_breadcrumb(gg, s->ctx, s->seq_gm, seq);
	gi_submit(gg, s->ctx, -1);
	s->elsps++;
	if (wait_seq(s, i, seq))
		s->done++;
	else
		s->lost++;
}

static void *vcpu_thread(void *arg)
{
	int c = (int)(intptr_t)arg;

	my_cpu = (uint32_t)c + 1;
	for (uint32_t it = 0; it < ITERS; it++)
		vcpu_round(c, it);
	return NULL;
}

static void *poll_thread(void *arg)
{
	(void)arg;
	my_cpu = 0;
	while (!__atomic_load_n(&stop_poll, __ATOMIC_ACQUIRE)) {
		poll_once(NULL);
		poll_rounds++;
	}
	return NULL;
}

static bool owned_by(uint64_t hpa, uint32_t vm)
{
	return fake_hv_hpa_owner(&w.hv, hpa) == (int)vm;
}

/* Every present entry of the vGPU's GM ranges maps its own VM's RAM. */
static void check_ggtt(struct vgpu *vg)
{
	uint64_t lb, ls, hb, hs, r[2][2];

	vgpu_gm_ranges(vg, &lb, &ls, &hb, &hs);
	r[0][0] = lb, r[0][1] = ls, r[1][0] = hb, r[1][1] = hs;
	for (int k = 0; k < 2; k++)
		for (uint64_t i = r[k][0] >> 12; i < (r[k][0] + r[k][1]) >> 12;
		     i++) {
			uint64_t e = w.ggtt[i];

			if ((e & 1) && !owned_by(gen8_pte_addr(e), vg->vm) &&
			    fake_hv_hpa_owner(&w.hv, gen8_pte_addr(e)) >= 0)
				fail("GGTT entry maps another VM's page", i, e);
		}
}

/* Every shadow page-table leaf maps its own VM's RAM. */
static void check_shadow(struct vgpu *vg)
{
	for (int32_t i = 0; i < vslab_end(&vg->spts); i++) {
		const struct spt *sp = vslab_get(&vg->spts, i);

		if (!sp || sp->level != SPT_PT)
			continue;
		for (unsigned k = 0; k < 512; k++)
			if ((sp->shadow[k] & 1) &&
			    !owned_by(gen8_pte_addr(sp->shadow[k]), vg->vm))
				fail("shadow PTE maps outside its VM", k,
				     sp->shadow[k]);
	}
}

static void check(void)
{
	const struct rlock *l = gpu_lock_stats();
	uint64_t elsps[NR_VGPU] = { 0 }, lost = 0, entries = 0;

	for (int c = 0; c < NR_VCPU; c++) {
		elsps[vgpu_of_vcpu[c]] += vc[c].elsps;
		lost += vc[c].lost;
		entries += vc[c].entries;
		printf("stress: vcpu %d (vGPU %d, engine %d): %llu submissions,"
		       " %llu done, %llu lost, %llu foreign GGTT writes\n", c,
		       vgpu_of_vcpu[c], engine_of_vcpu[c],
		       (unsigned long long)vc[c].elsps,
		       (unsigned long long)vc[c].done,
		       (unsigned long long)vc[c].lost,
		       (unsigned long long)vc[c].foreign_tries);
	}
	for (int i = 0; i < NR_VGPU; i++) {
		const struct vgpu_stats *st = vgpu_get_stats(v[i]);

		check_ggtt(v[i]);
		check_shadow(v[i]);
		if (st->elsp_submits + st->elsp_dropped < elsps[i])
			fail("ELSP submissions unaccounted", i,
			     st->elsp_submits + st->elsp_dropped);
		if (vgpu_failed(v[i]))
			fail("a vGPU failed", i, 0);
	}
	if (lost)
		fail("submissions never completed", lost, 0);
	if (gpu_lock_misses())
		fail("hv ops without the lock", gpu_lock_misses(), 0);
	if (w.hv.foreign_maps)
		fail("EPT map of another VM's RAM", w.hv.foreign_maps, 0);
	printf("stress: lock: %llu takes, %llu contended, %llu spins; %llu "
	       "poll rounds; %llu BAR0 entries from the vCPUs\n",
	       (unsigned long long)l->takes, (unsigned long long)l->contended,
	       (unsigned long long)l->spins, (unsigned long long)poll_rounds,
	       (unsigned long long)entries);
	if (!l->contended)
		fail("the lock was never contended: no concurrency tested", 0,
		     0);
}

int main(void)
{
	pthread_t t[NR_VCPU], p;

	setup();
	(void)misses;
	if (pthread_create(&p, NULL, poll_thread, NULL))
		fail("pthread", 0, 0);
	for (int c = 0; c < NR_VCPU; c++)
		if (pthread_create(&t[c], NULL, vcpu_thread, (void *)(intptr_t)c))
			fail("pthread", (unsigned)c, 0);
	for (int c = 0; c < NR_VCPU; c++)
		pthread_join(t[c], NULL);
	__atomic_store_n(&stop_poll, 1, __ATOMIC_RELEASE);
	pthread_join(p, NULL);
	check();
	printf("stress: PASS\n");
	return 0;
}
