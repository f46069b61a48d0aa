/* The takeover sequence, recorded: every register access the driver makes
 * goes through a recording gpu_hw in front of the model, and the test
 * checks the order and values against i915's Skylake bring-up as
 * docs/hardware.md lists it (values computed by hand from the i915
 * definitions, not from the code under test). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/hw/pgpu_takeover.h"
#include "tests/harness/model_harness.h"

#define MAX_REC 4096

struct rec { bool write; uint32_t off, val; };

static struct harness H;
static struct gpu_hw R; /* recording front of H.hw */
static struct rec log_[MAX_REC];
static unsigned nlog;
static struct pgpu P;

static void note(bool w, uint32_t off, uint32_t val)
{
	if (nlog < MAX_REC)
		log_[nlog++] = (struct rec){ w, off, val };
}

static uint32_t r_read32(void *ctx, uint32_t off)
{
	uint32_t v = gpu_hw_read32(ctx, off);

	note(false, off, v);
	return v;
}

static void r_write32(void *ctx, uint32_t off, uint32_t v)
{
	note(true, off, v);
	gpu_hw_write32(ctx, off, v);
}

static uint64_t r_ggtt_read(void *ctx, uint32_t i)
{
	return gpu_hw_ggtt_read(ctx, i);
}

static void r_ggtt_write(void *ctx, uint32_t i, uint64_t pte)
{
	note(true, 0xffffffffu, i); /* a GGTT entry: off = all ones */
	(void)gpu_hw_ggtt_write(ctx, i, pte);
}

static void r_poll(void *ctx) { gpu_hw_poll(ctx); }
static void r_udelay(void *ctx, uint32_t us) { gpu_hw_udelay(ctx, us); }

/* No ggtt_write_range: the wrapper then writes entry by entry, so every
 * GGTT write is recorded. */
static const struct gpu_hw_ops rec_ops = {
	.read32 = r_read32,
	.write32 = r_write32,
	.ggtt_read = r_ggtt_read,
	.ggtt_write = r_ggtt_write,
	.poll = r_poll,
	.udelay = r_udelay,
};

static int setup(void **state)
{
	struct gen9_model_config c = { .stolen_base = 0x7b000000ull,
				       .stolen_size = 64ull << 20 };

	(void)state;
	if (h_init(&H, &c))
		return -1;
	R = H.hw;
	R.ops = &rec_ops;
	R.ctx = &H.hw;
	if (pgpu_init(&P, &R))
		return -1;
	nlog = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&H);
	return 0;
}

/* Index of the first write to off (with value val when want_val) at or
 * after from; nlog when none. */
static unsigned first_write(unsigned from, uint32_t off, bool want_val,
			    uint32_t val)
{
	for (unsigned i = from; i < nlog; i++)
		if (log_[i].write && log_[i].off == off &&
		    (!want_val || log_[i].val == val))
			return i;
	return nlog;
}

static unsigned count_writes(uint32_t off)
{
	unsigned n = 0;

	for (unsigned i = 0; i < nlog; i++)
		n += log_[i].write && log_[i].off == off;
	return n;
}

/* The firmware's GOP: pipe A running, plane 1 scanning out of stolen. */
static void firmware_scanout(void)
{
	h_wr(&H, SKL_TRANSCONF(0), TRANSCONF_ENABLE | TRANSCONF_STATE);
	h_wr(&H, SKL_PLANE_CTL(0, 0), PLANE_CTL_ENABLE | (4u << 24));
	h_wr(&H, SKL_PLANE_SURF(0, 0), 0x00100000);
	/* 4 MiB reserved at the top of stolen, enabled, size code 2 */
	h_wr(&H, GEN6_STOLEN_RESERVED,
	     (0x7b000000u + (60u << 20)) | (2u << 7) | 1u);
}

static void test_order_follows_i915(void **state)
{
	struct pgpu_takeover_report r;
	unsigned plane_off, surf, fw_req, rst_req, gdrst1, gdrst2, rst_rel,
		 wa, pat_lo, pat_hi, mocs0, l3_last, fw_rel, pte;

	(void)state;
	firmware_scanout();
	assert_int_equal(pgpu_takeover(&P, &r), 0);
	assert_int_equal(pgpu_ggtt_write(&P, 5, 0x1003), 0);

	plane_off = first_write(0, SKL_PLANE_CTL(0, 0), true, 4u << 24);
	surf = first_write(plane_off, SKL_PLANE_SURF(0, 0), true, 0);
	fw_req = first_write(0, FORCEWAKE_RENDER_GEN9, true,
			     _MASKED_BIT_ENABLE(FORCEWAKE_KERNEL));
	rst_req = first_write(0, RING_RESET_CTL(RENDER_RING_BASE), true,
			      _MASKED_BIT_ENABLE(RESET_CTL_REQUEST_RESET));
	gdrst1 = first_write(0, GEN6_GDRST, true, GEN6_GRDOM_FULL);
	gdrst2 = first_write(gdrst1 + 1, GEN6_GDRST, true, GEN6_GRDOM_FULL);
	rst_rel = first_write(gdrst2, RING_RESET_CTL(RENDER_RING_BASE), true,
			      _MASKED_BIT_DISABLE(RESET_CTL_REQUEST_RESET));
	wa = first_write(0, GAM_ECOCHK, false, 0);
	pat_lo = first_write(0, GEN8_PRIVATE_PAT_LO, false, 0);
	pat_hi = first_write(0, GEN8_PRIVATE_PAT_HI, false, 0);
	mocs0 = first_write(0, GEN9_GFX_MOCS(0), false, 0);
	l3_last = first_write(0, GEN9_LNCFCMOCS(30), false, 0);
	fw_rel = first_write(fw_req, FORCEWAKE_RENDER_GEN9, true,
			     _MASKED_BIT_DISABLE(FORCEWAKE_KERNEL));
	pte = first_write(0, 0xffffffffu, true, 5);

	/* scanout quiesced -> forcewake -> reset (prepare, GDRST twice,
	 * release) -> workarounds -> PPAT -> MOCS -> forcewake released;
	 * all before the first GGTT entry changes. */
	assert_true(plane_off < surf && surf < fw_req);
	assert_true(fw_req < rst_req && rst_req < gdrst1);
	assert_true(gdrst1 < gdrst2 && gdrst2 < rst_rel);
	assert_true(rst_rel < wa && wa < pat_lo && pat_lo < pat_hi);
	assert_true(pat_hi < mocs0 && mocs0 < l3_last && l3_last < fw_rel);
	assert_true(fw_rel < pte && pte < nlog);

	assert_int_equal(r.planes_disabled, 1);
	assert_int_equal(r.pipes_active, 1);
	assert_true(r.vblank_timeout); /* the model's frame counter is still */
	assert_int_equal(r.fw_acks, 7);
}

static void test_values_are_i915s(void **state)
{
	struct pgpu_takeover_report r;

	(void)state;
	firmware_scanout();
	assert_int_equal(pgpu_takeover(&P, &r), 0);
	/* bdw_setup_private_ppat on gen9: 07 09 03 00 0b 1b 2b 3b */
	assert_int_equal(h_rd(&H, GEN8_PRIVATE_PAT_LO), 0x00030907);
	assert_int_equal(h_rd(&H, GEN8_PRIVATE_PAT_HI), 0x3b2b1b0b);
	/* skl_mocs_table: UC 0x09/L3 0x10, PTE 0x38/0x30, cached 0x3b/0x30,
	 * unused = PTE; 62 entries per engine, 31 L3 dwords */
	assert_int_equal(h_rd(&H, GEN9_GFX_MOCS(0)), 0x09);
	assert_int_equal(h_rd(&H, GEN9_BLT_MOCS(1)), 0x38);
	assert_int_equal(h_rd(&H, GEN9_MFX0_MOCS(2)), 0x3b);
	assert_int_equal(h_rd(&H, GEN9_VEBOX_MOCS(61)), 0x38);
	assert_int_equal(count_writes(GEN9_GFX_MOCS(62)), 0);
	assert_int_equal(h_rd(&H, GEN9_LNCFCMOCS(0)), 0x00300010);
	assert_int_equal(h_rd(&H, GEN9_LNCFCMOCS(30)), 0x00300030);
	assert_int_equal(count_writes(GEN9_LNCFCMOCS(31)), 0);
	/* the workarounds (the model is SKL H0, revision 7) */
	assert_true(h_rd(&H, GAM_ECOCHK) & (1u << 8));
	assert_true(h_rd(&H, GAM_ECOCHK) & (1u << 25));
	assert_int_equal(h_rd(&H, MMCD_MISC_CTRL), 0x88000000u);
	assert_true(h_rd(&H, GEN7_UCGCTL4) & (1u << 14));
	assert_true(h_rd(&H, GEN9_GAMT_ECO_REG_RW_IA) & (1u << 18));
	assert_int_equal(r.workarounds, 4);
	/* the firmware's plane is off and no longer latched on stolen */
	assert_false(h_rd(&H, SKL_PLANE_CTL(0, 0)) & PLANE_CTL_ENABLE);
	assert_int_equal(h_rd(&H, SKL_PLANE_SURF(0, 0)), 0);
	/* stolen: 64 MiB at BDSM, the top 4 MiB reserved */
	assert_int_equal(r.stolen_base, 0x7b000000ull);
	assert_int_equal(r.stolen_size, 64ull << 20);
	assert_int_equal(r.stolen_usable, 60ull << 20);
	assert_false(r.dsmbase_mismatch);
}

static void test_dead_forcewake_stops_the_takeover(void **state)
{
	struct gen9_model_config c = { .fw_never_ack = true };
	struct pgpu_takeover_report r;

	(void)state;
	h_fini(&H);
	assert_int_equal(h_init(&H, &c), 0);
	R = H.hw;
	R.ops = &rec_ops;
	R.ctx = &H.hw;
	assert_int_equal(pgpu_init(&P, &R), 0);
	nlog = 0;
	assert_int_equal(pgpu_takeover(&P, &r), -GPU_ETIMEDOUT);
	assert_int_equal(r.fw_err, -GPU_ETIMEDOUT);
	/* nothing after forcewake ran: no reset, no PPAT */
	assert_int_equal(count_writes(GEN6_GDRST), 0);
	assert_int_equal(count_writes(GEN8_PRIVATE_PAT_LO), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_order_follows_i915, setup, teardown),
		cmocka_unit_test_setup_teardown(test_values_are_i915s, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dead_forcewake_stops_the_takeover, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
