/* gpu/display/vdisp_pipe.c alone: frame length of the table's modes, the
 * vblank schedule (phase kept, catch-up bounded), surfaces latched at a
 * vblank or at once on a stopped pipe, the scan line. Time is a number
 * the test picks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "gpu/display/vdisp_pipe.h"

#define T0 5000000000ull

static const struct vdisp_mode *mode(const char *name)
{
	const char *err;
	const struct vdisp_mode *m = vdisp_mode_parse(name, &err);

	assert_non_null(m);
	return m;
}

/* DMT: every mode about 60 Hz; 1024x768 is 1344 x 806 at 65 MHz. */
static void test_frame_ns(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(vdisp_mode_frame_ns(mode("1024x768")), 16665600);
	for (i = 0; i < vdisp_mode_count; i++) {
		uint64_t ns = vdisp_mode_frame_ns(&vdisp_modes[i]);

		assert_true(ns > 16550000 && ns < 16790000); /* 59.6-60.4 Hz */
	}
}

static void test_schedule(void **state)
{
	struct vdisp_pipe p;
	struct vdisp_tick t;
	const uint64_t f = 1000;

	(void)state;
	vdisp_pipe_reset(&p);
	t = vdisp_pipe_tick(&p, T0); /* off: nothing */
	assert_int_equal(t.vblanks, 0);
	vdisp_pipe_on(&p, T0, f);
	vdisp_pipe_on(&p, T0 + 500, f); /* already on: no new phase */
	assert_int_equal(vdisp_pipe_tick(&p, T0 + f - 1).vblanks, 0);
	assert_int_equal(vdisp_pipe_tick(&p, T0 + f).vblanks, 1);
	assert_int_equal(vdisp_pipe_tick(&p, T0 + f).vblanks, 0);
	/* 2.5 frames late: two due, the next at T0 + 4f. */
	assert_int_equal(vdisp_pipe_tick(&p, T0 + 3 * f + f / 2).vblanks, 2);
	assert_int_equal(p.next_ns, T0 + 4 * f);
	assert_int_equal(p.frames, 3);
	/* Very late: VDISP_CATCHUP_MAX counted, phase kept. */
	t = vdisp_pipe_tick(&p, T0 + 1000000 * f + 7);
	assert_int_equal(t.vblanks, VDISP_CATCHUP_MAX);
	assert_int_equal(p.next_ns, T0 + 1000001 * f);
	vdisp_pipe_off(&p);
	assert_int_equal(vdisp_pipe_tick(&p, T0 + 2000000 * f).vblanks, 0);
	assert_int_equal(p.frames, 3 + VDISP_CATCHUP_MAX);
	/* A zero period cannot start a clock (no division by it later). */
	vdisp_pipe_on(&p, T0, 0);
	assert_false(p.on);
}

static void test_latch(void **state)
{
	struct vdisp_pipe p;
	struct vdisp_tick t;

	(void)state;
	vdisp_pipe_reset(&p);
	vdisp_pipe_arm(&p, 1, 0x1000); /* stopped pipe: at once */
	assert_int_equal(p.live[1], 0x1000);
	assert_int_equal(p.armed, 0);
	vdisp_pipe_on(&p, T0, 1000);
	vdisp_pipe_arm(&p, 0, 0x2000);
	vdisp_pipe_arm(&p, 0, 0x3000); /* the second write wins */
	vdisp_pipe_arm(&p, VDISP_CURSOR, 0x4000);
	vdisp_pipe_arm(&p, VDISP_SURFACES, 0x5000); /* ignored */
	assert_int_equal(p.live[0], 0);
	t = vdisp_pipe_tick(&p, T0 + 1000);
	assert_int_equal(t.flipped, 1u | 1u << VDISP_CURSOR);
	assert_int_equal(p.live[0], 0x3000);
	assert_int_equal(p.live[VDISP_CURSOR], 0x4000);
	assert_int_equal(p.flips, 1);
	t = vdisp_pipe_tick(&p, T0 + 2000);
	assert_int_equal(t.flipped, 0);
	assert_int_equal(p.flips, 1);
	/* Armed when the pipe stops: latched then, counted as no flip. */
	vdisp_pipe_arm(&p, 2, 0x6000);
	vdisp_pipe_off(&p);
	assert_int_equal(p.live[2], 0x6000);
	assert_int_equal(p.flips, 1);
}

static void test_line(void **state)
{
	struct vdisp_pipe p;

	(void)state;
	vdisp_pipe_reset(&p);
	assert_int_equal(vdisp_pipe_line(&p, T0, 806, 767), 0); /* off */
	vdisp_pipe_on(&p, T0, 806000);
	assert_int_equal(vdisp_pipe_line(&p, T0, 806, 767), 767);
	assert_int_equal(vdisp_pipe_line(&p, T0 + 1000, 806, 767), 768);
	assert_int_equal(vdisp_pipe_line(&p, T0 + 39000, 806, 767), 0);
	assert_int_equal(vdisp_pipe_line(&p, T0 + 805999, 806, 767), 766);
	/* Not yet ticked: the line follows time. */
	assert_int_equal(vdisp_pipe_line(&p, T0 + 3 * 806000 + 2000, 806, 767), 769);
	/* Nonsense timings: no division by zero, a line inside the frame. */
	assert_int_equal(vdisp_pipe_line(&p, T0, 0, 767), 0);
	assert_int_equal(vdisp_pipe_line(&p, T0, 10, 767), 0);
	assert_true(vdisp_pipe_line(&p, T0 + 5, 1, 0) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_ns), cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_latch), cmocka_unit_test(test_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
