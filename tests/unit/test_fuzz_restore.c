/* The differential fuzz target (tests/fuzz/fuzz_vgpu_diff.c) builds its
 * world once and, per input, puts back only what an input dirtied: the
 * pages of the attacker's RAM anyone was handed a pointer to
 * (fake_hv_track_dirty), its engines by a guest reset. That is what makes
 * it fast enough for make fuzz's 10 M inputs (issue 13); this test makes
 * sure the speed does not come from state leaking between inputs, which
 * would make findings unreproducible and hide what the next input does:
 *
 *  - after any input and the target's reset, the attacker's RAM is
 *    byte for byte the snapshot taken when the world was built;
 *  - a seed input run on a world that has already run hundreds of
 *    arbitrary inputs (random, and the seeds mutated) leaves exactly what
 *    it leaves on a freshly built world: the attacker's RAM, the physical
 *    GGTT, the privileged registers and the mediator's verdicts.
 *
 * The target's own source is included, so this is its real world and its
 * real reset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/fuzz/fuzz_vgpu_diff.c"
#include "tests/harness/seed_dir.h"

#define CORPUS "tests/fuzz/corpus/fuzz_vgpu_diff"
#define MAX_SEEDS 64
#define MAX_LEN 16384

/* What an input leaves behind. */
struct obs {
	uint64_t ram, ggtt, regs;
	uint64_t scanned, rejected, failed; /* scanned, rejected: this input's */
};

static uint64_t hash(const void *p, size_t n, uint64_t h)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* A GGTT entry as an input can have changed it. In a vGPU's shadow batch
 * pool only whether the page is backed counts: which host page backs it
 * is the allocator's choice (pages go back to the host between inputs,
 * vgpu_sbb_trim), and the copies in it are rewritten by every batch. */
static uint64_t ggtt_seen(uint64_t k)
{
	const struct vgpu *vs[2] = { D.e->a, D.e->b };

	for (int j = 0; j < 2; j++) {
		uint64_t first = vs[j]->sbb.gm >> 12;

		if (k >= first && k < first + vs[j]->sbb.budget)
			return D.e->ggtt[k] & 1;
	}
	return D.e->ggtt[k];
}

static void observe(struct obs *o)
{
	uint32_t i;

	memset(o, 0, sizeof(*o));
	o->ram = hash(a_ram(), FZ_RAM, 0xcbf29ce484222325ull);
	o->ggtt = 0xcbf29ce484222325ull;
	for (uint64_t k = 0; k < GEN9_MODEL_GGTT_MAX_ENTRIES; k++)
		o->ggtt = (o->ggtt ^ ggtt_seen(k)) * 0x100000001b3ull;
	for (i = 0; i < D.nsens; i++)
		o->regs = (o->regs ^ D.e->m.regs[D.sens[i] / 4]) * 0x100000001b3ull;
	o->scanned = D.e->a->stats.cmds_scanned;
	o->rejected = D.e->a->stats.workloads_rejected;
	o->failed = D.e->a->failed;
}

/* Throw the world away, so the next input builds a fresh one. */
static void world_free(void)
{
	struct fz_env *e = D.e;

	if (!e)
		return;
	fake_hv_protect_ram(&e->hv, 2, false);
	free(e->m.regs);
	free(e->ggtt);
	fake_hv_fini(&e->hv);
	free(D.a_snap);
	free(e);
	fz = NULL;
	memset(&D, 0, sizeof(D));
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static struct seed seeds[MAX_SEEDS];
static size_t nseeds;

static void load_seeds(void)
{
	nseeds = seed_dir_load(CORPUS, seeds, MAX_SEEDS, MAX_LEN);
	assert_true(nseeds >= 4);
}

/* An arbitrary input: random bytes, or a seed with bytes changed (so the
 * scanner accepts some and the model runs them). */
static size_t arbitrary(uint8_t *buf)
{
	size_t n, k;

	if (next() % 3 == 0) {
		n = next() % 2048;
		for (k = 0; k < n; k++)
			buf[k] = (uint8_t)next();
		return n;
	}
	k = next() % nseeds;
	n = seeds[k].n;
	memcpy(buf, seeds[k].b, n);
	for (size_t f = next() % 8; f > 0 && n > 4; f--)
		buf[4 + next() % (n - 4)] = (uint8_t)next();
	return n;
}

static void run(const uint8_t *b, size_t n)
{
	LLVMFuzzerTestOneInput(b, n);
}

static void test_ram_back_to_snapshot(void **state)
{
	static uint8_t buf[MAX_LEN];
	int i;

	(void)state;
	world_free();
	run(NULL, 0); /* builds */
	for (i = 0; i < 400; i++) {
		size_t n = arbitrary(buf);

		run(buf, n);
		fzd_reset();
		assert_memory_equal(a_ram(), D.a_snap, FZ_RAM);
	}
}

static void test_seed_replays_as_on_fresh_world(void **state)
{
	static uint8_t buf[MAX_LEN];
	size_t s;

	(void)state;
	for (s = 0; s < nseeds; s++) {
		struct obs fresh, later;
		int i;

		world_free();
		run(seeds[s].b, seeds[s].n);
		observe(&fresh);
		for (i = 0; i < 150; i++) {
			size_t n = arbitrary(buf);

			run(buf, n);
		}
		/* Counters count up; what this input adds is compared. */
		uint64_t scanned0 = D.e->a->stats.cmds_scanned;
		uint64_t rejected0 = D.e->a->stats.workloads_rejected;

		run(seeds[s].b, seeds[s].n);
		observe(&later);
		later.scanned -= scanned0;
		later.rejected -= rejected0;
		if (memcmp(&fresh, &later, sizeof(fresh)))
			fprintf(stderr, "seed %zu: ram %d ggtt %d regs %d scanned %llu/%llu rejected %llu/%llu failed %d\n",
				s, fresh.ram == later.ram, fresh.ggtt == later.ggtt,
				fresh.regs == later.regs,
				(unsigned long long)fresh.scanned,
				(unsigned long long)later.scanned,
				(unsigned long long)fresh.rejected,
				(unsigned long long)later.rejected,
				fresh.failed == later.failed);
		assert_memory_equal(&fresh, &later, sizeof(fresh));
		/* It reached the scanner (and the model), not just the
		 * input reader. */
		assert_true(fresh.scanned > 0);
	}
	world_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ram_back_to_snapshot),
		cmocka_unit_test(test_seed_replays_as_on_fresh_world),
	};
	int rc;

	load_seeds();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	for (size_t s = 0; s < nseeds; s++)
		free(seeds[s].b);
	return rc;
}
