/* The hardware smoke test against the model, driven the way hv.cfg
 * gpu_smoke=yes drives it under gpu=model-mmio: the pGPU driver over the
 * real MMIO backend whose BARs trap (tests/harness/trapped_mmio.c). Every
 * step must pass on a model that behaves; a model whose forcewake never
 * acks must produce FAIL lines, skipped engine steps and the "send this
 * log" summary, and still leave the GPU clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/hw/pgpu_smoke.h"
#include "tests/harness/trapped_mmio.h"

#define MAX_LINES 64
#define SMOKE_FIRST 0x8000 /* GGTT index: 128 MiB, inside the aperture */

static struct harness H;
static struct trapped T;
static char lines[MAX_LINES][256];
static int nr_lines;

static void *env_alloc(void *ctx, unsigned int n, uint64_t *hpa)
{
	(void)ctx;
	*hpa = h_alloc_pages(&H, n);
	return h_ptr(&H, *hpa);
}

static void env_free(void *ctx, void *va, unsigned int n)
{
	(void)ctx;
	(void)va;
	(void)n; /* the harness's bump allocator frees at teardown */
}

static uint64_t env_now(void *ctx)
{
	(void)ctx;
	return H.m.now_us;
}

static void env_line(void *ctx, const char *text)
{
	(void)ctx;
	printf("%s\n", text);
	if (nr_lines < MAX_LINES)
		snprintf(lines[nr_lines++], sizeof(lines[0]), "%s", text);
}

/* The model's interrupt output rising is its MSI. */
static uint64_t env_irqs(void *ctx)
{
	(void)ctx;
	return (uint64_t)H.irq_edges;
}

static const struct pgpu_smoke_env ENV = {
	.alloc = env_alloc, .free = env_free, .now_us = env_now,
	.line = env_line, .irqs = env_irqs, .ggtt_first = SMOKE_FIRST,
};

static int setup_with(const struct gen9_model_config *c)
{
	nr_lines = 0;
	return h_init(&H, c) ? -1 : 0;
}

static int setup(void **state)
{
	struct gen9_model_config c = { .stolen_base = 0xc0000000ull,
				       .stolen_size = 32ull << 20 };

	(void)state;
	return setup_with(&c);
}

static int setup_no_ack(void **state)
{
	struct gen9_model_config c = { .stolen_base = 0xc0000000ull,
				       .stolen_size = 32ull << 20,
				       .fw_never_ack = true };

	(void)state;
	return setup_with(&c);
}

static int setup_gt3(void **state)
{
	struct gen9_model_config c = { .device_id = 0x1926, /* ULT GT3e */
				       .stolen_base = 0xc0000000ull,
				       .stolen_size = 32ull << 20 };

	(void)state;
	return setup_with(&c);
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&H);
	return 0;
}

static int count(const char *prefix)
{
	int n = 0;

	for (int i = 0; i < nr_lines; i++)
		n += !strncmp(lines[i], prefix, strlen(prefix));
	return n;
}

static bool has(const char *needle)
{
	for (int i = 0; i < nr_lines; i++)
		if (strstr(lines[i], needle))
			return true;
	return false;
}

/* Each step's line, PASS; what the test leaves behind is clean. */
static void test_every_step_passes(void **state)
{
	static const char *const steps[] = {
		"identity", "fuses", "stolen", "forcewake render",
		"forcewake gt", "forcewake media", "ggtt", "aperture",
		"fence X detile", "fence Y detile", "store rcs0", "store bcs0",
		"store vcs0", "store vecs0", "blit BCS", "msi", "reset rcs0",
		"reset bcs0", "reset vcs0", "reset vecs0",
	};
	struct pgpu_smoke_result r;
	struct pgpu p;
	char want[64];

	(void)state;
	trapped_init(&T, &H); /* here: cmocka sets its own SIGSEGV handler */
	assert_int_equal(pgpu_init(&p, &T.hw), 0);
	assert_int_equal(pgpu_smoke_run(&p, &ENV, &r), 0);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		snprintf(want, sizeof(want), "gpu-smoke: PASS  %s ", steps[i]);
		assert_int_equal(count(want), 1);
	}
	assert_int_equal(r.pass, 20);
	assert_int_equal(r.fail, 0);
	assert_int_equal(r.skip, 0);
	assert_true(has("8086:1912 rev 07 (stepping H0), GT2"));
	assert_true(has("slice mask 1, subslice mask 7 (3 in all), EUs 24"));
	assert_true(has("gpu-smoke: 20 PASS, 0 FAIL, 0 SKIP"));
	/* The model saw MMIO, not calls: everything went through the traps. */
	assert_true(T.td.reg_writes > 100 && T.td.ap_bytes >= 16);
	assert_int_equal(T.td.odd, 0);
	/* Left clean: forcewake dropped, our GGTT range empty, the fence
	 * cleared, GT interrupts off, the engines reset. */
	for (int d = 0; d < GEN9_FW_DOMAINS; d++)
		assert_int_equal(p.fw_count[d], 0);
	for (uint32_t i = 0; i < PGPU_SMOKE_GGTT_PAGES; i++)
		assert_int_equal(H.ggtt[SMOKE_FIRST + i], 0);
	assert_int_equal(pgpu_fence_read(&p, GEN9_NUM_FENCES - 1), 0);
	assert_int_equal(h_rd(&H, GEN8_MASTER_IRQ) & GEN8_MASTER_IRQ_CONTROL, 0);
	for (int b = 0; b < GEN8_GT_BANKS; b++)
		assert_int_equal(h_rd(&H, GEN8_GT_IER(b)), 0);
	assert_int_equal(p.stats.engine_resets, 4);
	trapped_fini(&T);
}

/* Forcewake never acks: the three domains FAIL, nothing that needs an
 * engine runs, the summary asks for the log; the GPU is still left as
 * found (no forcewake reference kept). On the model directly: 150 ms of
 * ack polling would be 150 000 trapped reads. */
static void test_failures_are_reported(void **state)
{
	struct pgpu_smoke_result r;
	struct pgpu p;

	(void)state;
	assert_int_equal(pgpu_init(&p, &H.hw), 0);
	assert_int_equal(pgpu_smoke_run(&p, &ENV, &r), -GPU_EIO);
	assert_int_equal(count("gpu-smoke: FAIL  forcewake"), 3);
	assert_true(has("(no ack in 50 ms, nor after i915's fallback kick)"));
	assert_int_equal(count("gpu-smoke: SKIP  store"), 4);
	assert_int_equal(count("gpu-smoke: SKIP  blit BCS"), 1);
	assert_int_equal(count("gpu-smoke: PASS  reset"), 0);
	assert_true(r.fail >= 3);
	assert_true(has("send this whole log"));
	for (int d = 0; d < GEN9_FW_DOMAINS; d++)
		assert_int_equal(p.fw_count[d], 0);
}

/* A GT3 has the second video engine: its store and reset run too. */
static void test_gt3_second_video_engine(void **state)
{
	struct pgpu_smoke_result r;
	struct pgpu p;

	(void)state;
	trapped_init(&T, &H);
	assert_int_equal(pgpu_init(&p, &T.hw), 0);
	assert_int_equal(pgpu_smoke_run(&p, &ENV, &r), 0);
	assert_int_equal(count("gpu-smoke: PASS  store vcs1 "), 1);
	assert_int_equal(count("gpu-smoke: PASS  reset vcs1 "), 1);
	assert_true(has("8086:1926 rev 07 (stepping H0), GT3"));
	assert_int_equal(r.pass, 22);
	assert_true(has("gpu-smoke: 22 PASS, 0 FAIL, 0 SKIP"));
	trapped_fini(&T);
}

static void test_stepping_names(void **state)
{
	(void)state;
	assert_string_equal(pgpu_skl_stepping(0x07), "H0");
	assert_string_equal(pgpu_skl_stepping(0x06), "G0");
	assert_string_equal(pgpu_skl_stepping(0x09), "J0");
	assert_string_equal(pgpu_skl_stepping(0x0a), "I1");
	assert_string_equal(pgpu_skl_stepping(0x08), "?");
	assert_string_equal(pgpu_skl_stepping(0x30), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_step_passes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failures_are_reported, setup_no_ack, teardown),
		cmocka_unit_test_setup_teardown(test_gt3_second_video_engine, setup_gt3, teardown),
		cmocka_unit_test(test_stepping_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
