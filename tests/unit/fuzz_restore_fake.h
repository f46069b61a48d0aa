/* The body of test_fuzz_restore_{mmio,ggtt,gscale,ghyvi}: each includes
 * its fuzz target (tests/fuzz/fuzz_vgpu_mmio.c, ...), names its seed corpus
 * (FZR_CORPUS) and includes this.
 *
 * The fake-GPU targets create the world and the attacker vGPU once and,
 * after each input, put back what the input changed (FZ_RESTORE in
 * fuzz_vgpu_common.c: page-tracked arena, registers and GGTT, copied
 * structs and tables). That is their speed (issue 13); this makes sure it
 * does not come from state leaking between inputs. Right after the world
 * is built, everything an input can reach is copied here independently of
 * the restore (the arena's pool and the attacker's RAM, the fake GPU's
 * registers and GGTT, the structs of hypervisor, GPU and guests, the
 * hypervisor's tables); after every input - seeds, seeds with bytes
 * changed, random bytes, and inputs that destroy the attacker - all of it
 * must be byte for byte that copy: the world the next input meets is the
 * freshly built one. And stores made behind every API's back (straight
 * into the vGPU struct, a register, a GGTT entry, guest RAM) must show in
 * the comparison and be undone by the restore. */
#include <stdio.h>

#include "tests/harness/seed_dir.h"

#define FZR_MAX_SEEDS 128
#define FZR_MAX_LEN 8192
#define FZR_INPUTS 200

struct fzr_ref {
	uint8_t *arena; /* pool + attacker RAM */
	uint64_t arena_bytes;
	uint8_t *regs, *ggtt;
	struct fz_env env;
	uint8_t *pool_used;
	struct fake_vm *vm;
	uint8_t *wp[3];
};

static struct fzr_ref ref;
static struct seed seeds[FZR_MAX_SEEDS];
static size_t nseeds;
static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint8_t *dup(const void *p, size_t n)
{
	uint8_t *d = malloc(n);

	assert_non_null(d);
	memcpy(d, p, n);
	return d;
}

static uint64_t regs_bytes(void)
{
	return GEN9_MMIO_SIZE;
}

static uint64_t ggtt_bytes(const struct fz_env *e)
{
	return e->gpu.ggtt_entries * 8ull;
}

static void ref_take(struct fz_env *e)
{
	const struct fake_vm *a = &e->hv.vm[1];

	ref.arena_bytes = (a->first_page * 4096) + a->ram_size;
	ref.arena = dup(e->hv.arena, ref.arena_bytes);
	ref.regs = dup(e->gpu.regs, regs_bytes());
	ref.ggtt = dup(e->gpu.ggtt, ggtt_bytes(e));
	ref.env = *e;
	ref.pool_used = dup(e->hv.pool_used, e->hv.pool_pages);
	ref.vm = (void *)dup(e->hv.vm, e->hv.nr_vms * sizeof(*e->hv.vm));
	for (int i = 1; i <= 2; i++)
		ref.wp[i] = dup(e->hv.vm[i].wp, e->hv.vm[i].ram_size / 4096);
}

/* The first part of the world that differs from the copy, or NULL. */
static const char *ref_differs(const struct fz_env *e)
{
	if (memcmp(e, &ref.env, sizeof(*e)))
		return "structs (hypervisor, GPU, guests)";
	if (memcmp(e->hv.arena, ref.arena, ref.arena_bytes)) {
		static char what[64];

		for (uint64_t p = 0; p < ref.arena_bytes / 4096; p++)
			if (memcmp(e->hv.arena + p * 4096, ref.arena + p * 4096, 4096))
				snprintf(what, sizeof(what), "arena page %llu",
					 (unsigned long long)p);
		return what;
	}
	if (memcmp(e->gpu.regs, ref.regs, regs_bytes()))
		return "GPU registers";
	if (memcmp(e->gpu.ggtt, ref.ggtt, ggtt_bytes(e)))
		return "physical GGTT";
	if (memcmp(e->hv.pool_used, ref.pool_used, e->hv.pool_pages))
		return "pool map";
	if (memcmp(e->hv.vm, ref.vm, e->hv.nr_vms * sizeof(*e->hv.vm)))
		return "VM table";
	for (int i = 1; i <= 2; i++)
		if (memcmp(e->hv.vm[i].wp, ref.wp[i], e->hv.vm[i].ram_size / 4096))
			return "write protection";
	return NULL;
}

static void ref_free(void)
{
	free(ref.arena);
	free(ref.regs);
	free(ref.ggtt);
	free(ref.pool_used);
	free(ref.vm);
	free(ref.wp[1]);
	free(ref.wp[2]);
}

static void load_seeds(void)
{
	nseeds = seed_dir_load(FZR_CORPUS, seeds, FZR_MAX_SEEDS, FZR_MAX_LEN);
	assert_true(nseeds >= 1);
}

/* Input i: a seed as is, a seed with bytes changed, or random bytes. */
static size_t arbitrary(int i, uint8_t *buf)
{
	size_t n, k;

	if (i < (int)nseeds) {
		memcpy(buf, seeds[i].b, seeds[i].n);
		return seeds[i].n;
	}
	if (next() % 3 == 0) {
		n = next() % 2048;
		for (k = 0; k < n; k++)
			buf[k] = (uint8_t)next();
		return n;
	}
	k = next() % nseeds;
	n = seeds[k].n;
	memcpy(buf, seeds[k].b, n);
	for (size_t f = next() % 8; f > 0 && n; f--)
		buf[next() % n] = (uint8_t)next();
	return n;
}

/* Change the input's last bytes until the target destroys the attacker
 * for it (fz_input_end: hash 0 mod FZ_DESTROY_EVERY). */
static size_t destroying(uint8_t *buf, size_t n)
{
	if (n < 4)
		n = 4;
	while (fz_hash(buf, n) % FZ_DESTROY_EVERY)
		memcpy(buf + n - 4, &(uint32_t){ (uint32_t)next() }, 4);
	return n;
}

static void world_as_built_after_inputs(struct fz_env *e)
{
	static uint8_t buf[FZR_MAX_LEN];
	uint64_t restores0 = fz_snap->restores, pages0 = fz_snap->pages_restored;
	int destroyed = 0;

	for (int i = 0; i < FZR_INPUTS; i++) {
		size_t n = arbitrary(i, buf);
		const char *what;

		if (i % 40 == 39) {
			n = destroying(buf, n);
			destroyed++;
		}
		LLVMFuzzerTestOneInput(buf, n);
		what = ref_differs(e);
		if (what)
			fail_msg("input %d (%zu bytes) left its mark: %s", i, n, what);
	}
	/* The inputs changed the world: the restores had pages to put back. */
	assert_true(fz_snap->pages_restored - pages0 > FZR_INPUTS);
	assert_int_equal(fz_snap->restores - restores0, FZR_INPUTS);
	assert_true(destroyed >= 4);
}

/* Stores through no API at all are seen and undone. */
static void stray_stores_undone(struct fz_env *e)
{
	uint8_t *ram = e->hv.arena + e->hv.vm[1].first_page * 4096;
	struct {
		uint8_t *at;
		const char *what;
	} spots[] = {
		{ (uint8_t *)&e->a->failed, "vGPU struct" },
		{ (uint8_t *)e->gvt + 4096, "gvt" },
		{ (uint8_t *)&e->gpu.regs[0x2030 / 4], "register" },
		{ (uint8_t *)&e->gpu.ggtt[e->a->high_base >> 12], "GGTT entry" },
		{ ram + FZ_RAM - 1, "attacker RAM" },
	};

	assert_null(ref_differs(e));
	for (size_t i = 0; i < sizeof(spots) / sizeof(spots[0]); i++) {
		*spots[i].at ^= 0x5a;
		if (!ref_differs(e))
			fail_msg("a store into the %s went unseen", spots[i].what);
		e->hv.now += 1; /* and a struct field */
		fz_restore(e);
		if (ref_differs(e))
			fail_msg("the store into the %s stayed: %s", spots[i].what,
				 ref_differs(e));
	}
}

/* One cmocka test: cmocka installs its SIGSEGV handler for each test,
 * and page_track's (installed with the world) must come after it. */
static void test_restore_is_fresh_world(void **state)
{
	struct fz_env *e = fz_env();

	(void)state;
	fz_input_begin(e); /* the attacker, and the target's snapshot */
	ref_take(e);
	stray_stores_undone(e);
	world_as_built_after_inputs(e);
	stray_stores_undone(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restore_is_fresh_world),
	};
	int rc;

	load_seeds();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	ref_free();
	for (size_t s = 0; s < nseeds; s++)
		free(seeds[s].b);
	return rc;
}
