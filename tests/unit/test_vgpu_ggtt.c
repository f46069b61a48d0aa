/* GGTT entry writes through BAR0 + 8 MiB, and fences: validation,
 * translation, 4-byte halves, drops, isolation between vGPUs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define GGTT 0x800000u

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };

struct env {
	struct model_world mw;
	struct vgpu *v[2];
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct mw_config c = { .pool_mib = 64, .ram_mib = 32, .fake_gpu = true };

	assert_int_equal(mw_init(&e->mw, &c), 0);
	assert_int_equal(mw_add_vgpu(&e->mw, &small, 1, 8 * MiB, &e->v[0]), 0);
	assert_int_equal(mw_add_vgpu(&e->mw, &small, 2, 8 * MiB, &e->v[1]), 0);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	mw_stop(&e->mw);
	assert_int_equal(e->mw.hv.pages_in_use, 0);
	mw_fini(&e->mw);
	free(e);
	return 0;
}

static uint32_t pte_off(uint64_t gm)
{
	return GGTT + (uint32_t)(gm >> 12) * 8;
}

static uint64_t rd(struct vgpu *v, uint64_t off, unsigned int size)
{
	uint64_t val;

	assert_int_equal(vgpu_mmio_read(v, off, &val, size), 0);
	return val;
}

static void test_full_write_translated(void **state)
{
	struct env *e = *state;
	struct vgpu *v = e->v[0];
	uint64_t gm = v->low_base + 5 * 4096, hpa;

	assert_int_equal(vgpu_mmio_write(v, pte_off(gm), 0x3000 | 1, 8), 0);
	hpa = fake_hv_gpa_to_hpa(&e->mw.hv, 1, 0x3000);
	/* Physical entry: the host page behind guest page 0x3000. */
	assert_true(e->mw.gpu.ggtt[gm >> 12] == (hpa | 1));
	assert_int_equal(fake_hv_hpa_owner(&e->mw.hv, hpa), 1);
	/* The guest reads back what it wrote, not the host address. */
	assert_true(rd(v, pte_off(gm), 8) == (0x3000 | 1));
	assert_int_equal(rd(v, pte_off(gm) + 4, 4), 0);
	assert_int_equal(v->stats.ggtt_writes, 1);
	/* Not present: cleared. */
	vgpu_mmio_write(v, pte_off(gm), 0, 8);
	assert_true(e->mw.gpu.ggtt[gm >> 12] == 0);
	/* The guest's view of GM maps through its own entries. */
	vgpu_mmio_write(v, pte_off(gm), 0x4000 | 1, 8);
	uint64_t gpa;
	assert_int_equal(vgpu_gm_to_gpa(v, gm + 0x123, &gpa), 0);
	assert_true(gpa == 0x4123);
}

static void test_half_writes(void **state)
{
	struct env *e = *state;
	struct vgpu *v = e->v[0];
	uint64_t gm = v->high_base + 7 * 4096, idx = gm >> 12;
	uint64_t old;

	vgpu_mmio_write(v, pte_off(gm), 0x5000 | 1, 8);
	old = e->mw.gpu.ggtt[idx];
	/* Low half alone: nothing reaches the hardware. */
	vgpu_mmio_write(v, pte_off(gm), 0x6000 | 1, 4);
	assert_true(e->mw.gpu.ggtt[idx] == old);
	assert_int_equal(v->stats.ggtt_half_writes, 1);
	/* ... but the guest reads its half back. */
	assert_int_equal(rd(v, pte_off(gm), 4), 0x6001);
	/* High half completes the entry. */
	vgpu_mmio_write(v, pte_off(gm) + 4, 0, 4);
	assert_true(e->mw.gpu.ggtt[idx] == (fake_hv_gpa_to_hpa(&e->mw.hv, 1, 0x6000) | 1));
	/* Other order: high then low. */
	vgpu_mmio_write(v, pte_off(gm) + 4, 0, 4);
	assert_true(e->mw.gpu.ggtt[idx] == (fake_hv_gpa_to_hpa(&e->mw.hv, 1, 0x6000) | 1));
	vgpu_mmio_write(v, pte_off(gm), 0x7000 | 1, 4);
	assert_true(e->mw.gpu.ggtt[idx] == (fake_hv_gpa_to_hpa(&e->mw.hv, 1, 0x7000) | 1));
	/* A high half pointing past RAM never commits a mixed entry. */
	vgpu_mmio_write(v, pte_off(gm) + 4, 0x10, 4); /* 64 GiB up */
	vgpu_mmio_write(v, pte_off(gm), 0x8000 | 1, 4);
	assert_true(e->mw.gpu.ggtt[idx] == (fake_hv_gpa_to_hpa(&e->mw.hv, 1, 0x7000) | 1));
	assert_true(v->stats.ggtt_invalid >= 1);
	/* Many entries half-written at once (up to the buffer). */
	for (int i = 0; i < VGPU_PARTIAL_PTES; i++)
		vgpu_mmio_write(v, pte_off(gm + 4096ull * (i + 1)), 0x9000 | 1, 4);
	for (int i = 0; i < VGPU_PARTIAL_PTES; i++)
		vgpu_mmio_write(v, pte_off(gm + 4096ull * (i + 1)) + 4, 0, 4);
	for (int i = 0; i < VGPU_PARTIAL_PTES; i++)
		assert_true(e->mw.gpu.ggtt[idx + 1 + i] ==
			    (fake_hv_gpa_to_hpa(&e->mw.hv, 1, 0x9000) | 1));
	assert_int_equal(v->stats.ggtt_half_evicted, 0);
}

static void test_invalid_and_out_of_range(void **state)
{
	struct env *e = *state;
	struct vgpu *v = e->v[0], *w = e->v[1];
	uint64_t gm = v->low_base, idx = gm >> 12, good;

	vgpu_mmio_write(v, pte_off(gm), 0x2000 | 1, 8);
	good = e->mw.gpu.ggtt[idx];
	/* A page beyond the VM's RAM: dropped, physical entry unchanged. */
	vgpu_mmio_write(v, pte_off(gm), (8 * MiB) | 1, 8);
	assert_true(e->mw.gpu.ggtt[idx] == good);
	assert_true(rd(v, pte_off(gm), 8) == (0x2000 | 1));
	assert_int_equal(v->stats.ggtt_invalid, 1);
	/* Another VM's GM: dropped and counted, that entry untouched. */
	vgpu_mmio_write(w, pte_off(w->low_base), 0x1000 | 1, 8);
	uint64_t theirs = e->mw.gpu.ggtt[w->low_base >> 12];
	vgpu_mmio_write(v, pte_off(w->low_base), 0x2000 | 1, 8);
	assert_true(e->mw.gpu.ggtt[w->low_base >> 12] == theirs);
	assert_int_equal(v->stats.ggtt_out_of_range, 1);
	assert_int_equal(rd(v, pte_off(w->low_base), 8), 0);
	/* The host's part and the mediator's own GM are out of range too. */
	vgpu_mmio_write(v, pte_off(0), 0x2000 | 1, 8);
	vgpu_mmio_write(v, pte_off(e->mw.gvt->own_gm_base), 0x2000 | 1, 8);
	assert_true(e->mw.gpu.ggtt[0] == 0);
	assert_int_equal(fake_hv_hpa_owner(&e->mw.hv, e->mw.gpu.ggtt[e->mw.gvt->own_gm_base >> 12] & ~0xfffull), -1);
	assert_int_equal(v->stats.ggtt_out_of_range, 3);
	/* Bad sizes. */
	assert_int_equal(vgpu_mmio_write(v, pte_off(gm), 0, 2), -GPU_EINVAL);
	assert_int_equal(vgpu_mmio_write(v, pte_off(gm) + 2, 0, 2), -GPU_EINVAL);
	/* Past the GGTT inside BAR0: reads 0, writes ignored. */
	assert_int_equal(rd(v, 0xfffff8, 8), 0);
}

static void test_fences(void **state)
{
	struct env *e = *state;
	struct vgpu *v = e->v[0];
	uint32_t p = v->fence_base;
	uint64_t start = v->low_base, end = start + 16 * 4096 - 4096;
	uint64_t f = start | ((end >> 12) << 44) | (7ull << 32) | 1;

	/* i915 order: lo = 0, hi, lo. */
	vgpu_mmio_write(v, FENCE_REG_GEN6_LO(0), 0, 4);
	vgpu_mmio_write(v, FENCE_REG_GEN6_HI(0), f >> 32, 4);
	vgpu_mmio_write(v, FENCE_REG_GEN6_LO(0), (uint32_t)f, 4);
	assert_int_equal(e->mw.gpu.regs[FENCE_REG_GEN6_LO(p) / 4], (uint32_t)f);
	assert_int_equal(e->mw.gpu.regs[FENCE_REG_GEN6_HI(p) / 4], (uint32_t)(f >> 32));
	assert_true(rd(v, FENCE_REG_GEN6_LO(0), 8) == f);
	/* A fence over GM that is not its own is not valid on hardware. */
	f = (e->v[1]->low_base) | (((e->v[1]->low_base) >> 12) << 44) | 1;
	vgpu_mmio_write(v, FENCE_REG_GEN6_LO(1), (uint32_t)f, 4);
	vgpu_mmio_write(v, FENCE_REG_GEN6_HI(1), f >> 32, 4);
	assert_int_equal(e->mw.gpu.regs[FENCE_REG_GEN6_LO(p + 1) / 4] & 1, 0);
	assert_true(v->stats.fence_rejected >= 1);
	/* Fence index beyond its quota: ignored, reads 0. */
	vgpu_mmio_write(v, FENCE_REG_GEN6_LO(2), 0x1001, 4);
	assert_int_equal(rd(v, FENCE_REG_GEN6_LO(2), 4), 0);
	assert_int_equal(e->mw.gpu.regs[FENCE_REG_GEN6_LO(p + 2) / 4], 0);
}

static void test_destroy_clears_physical(void **state)
{
	struct env *e = *state;
	struct vgpu *v = e->v[1];
	uint64_t gm = v->high_base;
	uint32_t i;

	for (i = 0; i < 64; i++)
		vgpu_mmio_write(v, pte_off(gm + 4096ull * i), (0x10000 + 4096ull * i) | 1, 8);
	vgpu_destroy(v);
	e->v[1] = NULL;
	for (i = 0; i < 64; i++)
		assert_true(e->mw.gpu.ggtt[(gm >> 12) + i] == 0);
}

/* gBalloon's utilization count, kept on every write, equals a walk over
 * the whole high GM after random writes: 8-byte and 4-byte halves,
 * present and not, valid and invalid addresses, low and high GM, and
 * writes outside the vGPU's slices. */
static void test_high_used_incremental(void **state)
{
	struct env *e = *state;
	struct vgpu *v = e->v[0];
	uint64_t span = v->low_size + v->high_total;
	unsigned seed = 26;

	for (unsigned i = 0; i < 20000; i++) {
		uint64_t gm, gpa, pte;
		unsigned r;

		seed = seed * 1103515245u + 12345u;
		r = seed >> 8;
		gm = vgpu_gm_of_local(v, (uint32_t)(r % (span >> 12) % 64 +
			(r & 1 ? (v->low_size >> 12) : 0)));
		if (r % 17 == 0)	/* someone else's slice */
			gm = e->v[1]->high_base;
		gpa = (uint64_t)(r % (r % 5 == 0 ? 4096 : 2048)) << 12;
		pte = gpa | ((r >> 3) & 1);	/* present or not */
		if (r % 7 == 0) {
			vgpu_mmio_write(v, pte_off(gm) + 4 * ((r >> 4) & 1),
					(uint32_t)(pte >> (32 * ((r >> 4) & 1))), 4);
		} else {
			vgpu_mmio_write(v, pte_off(gm), pte, 8);
		}
		if (i % 97 == 0)
			assert_int_equal(vgpu_high_used(v),
					 vgpu_high_used_walk(v));
	}
	assert_int_equal(vgpu_high_used(v), vgpu_high_used_walk(v));
	assert_true(vgpu_high_used(v) > 0);
	vgpu_ggtt_reset(v);
	assert_int_equal(vgpu_high_used(v), 0);
	assert_int_equal(vgpu_high_used_walk(v), 0);
}

/* ---- guest GM reads in runs (vgpu_gm_rw) ---------------------------------- */

static const struct hv_ops *real_ops;
static struct hv_ops counting_ops;
static unsigned int hv_reads;

static int count_read(void *ctx, uint32_t vm, uint64_t gpa, void *buf,
		      size_t len)
{
	hv_reads++;
	return real_ops->read_gpa(ctx, vm, gpa, buf, len);
}

static void map_gm(struct vgpu *v, uint64_t gm, uint64_t gpa)
{
	assert_int_equal(vgpu_mmio_write(v, pte_off(gm), gpa | 1, 8), 0);
}

/* Pages whose frames follow each other are one hv read; a page elsewhere
 * starts a new one; every byte lands where the guest's entries say; a
 * page not present and the end of the range stop the copy with the
 * error the page-by-page loop gave. */
static void test_gm_rw_runs(void **state)
{
	struct env *e = *state;
	struct vgpu *v = e->v[0];
	uint64_t gm = v->low_base + 16 * 4096, end = v->low_base + v->low_size;
	static uint8_t ram[5][4096], buf[4 * 4096];
	const uint64_t gpa[4] = { 0x10000, 0x11000, 0x20000, 0x21000 };
	int i;

	for (i = 0; i < 4; i++) {
		memset(ram[i], 0x11 * (i + 1), sizeof(ram[i]));
		ram[i][0] = (uint8_t)i;
		fake_hv_guest_write(&e->mw.hv, 1, gpa[i], ram[i], 4096);
		map_gm(v, gm + i * 4096ull, gpa[i]);
	}
	real_ops = v->gvt->hv.ops;
	counting_ops = *real_ops;
	counting_ops.read_gpa = count_read;
	v->gvt->hv.ops = &counting_ops;
	hv_reads = 0;
	assert_int_equal(vgpu_gm_rw(v, gm + 0x800, buf, 4 * 4096 - 0x800, false), 0);
	assert_int_equal(hv_reads, 2); /* pages 0-1, then 2-3 */
	assert_memory_equal(buf, &ram[0][0x800], 4096 - 0x800);
	for (i = 1; i < 4; i++)
		assert_memory_equal(buf + i * 4096 - 0x800, ram[i], 4096);
	/* Page 4 not present: the first four are read, then -EFAULT. */
	assert_int_equal(vgpu_gm_rw(v, gm, buf, 4096 * 4 + 4, false), -GPU_EFAULT);
	/* The last page of the low slice and past it: -ERANGE. */
	map_gm(v, end - 4096, 0x10000);
	assert_int_equal(vgpu_gm_rw(v, end - 4096, buf, 8192, false), -GPU_ERANGE);
	hv_reads = 0;
	assert_int_equal(vgpu_gm_rw(v, end - 4096, buf, 4096, false), 0);
	assert_int_equal(hv_reads, 1);
	v->gvt->hv.ops = real_ops;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_full_write_translated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_half_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invalid_and_out_of_range, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fences, setup, teardown),
		cmocka_unit_test_setup_teardown(test_destroy_clears_physical, setup, teardown),
		cmocka_unit_test_setup_teardown(test_high_used_incremental, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gm_rw_runs, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
