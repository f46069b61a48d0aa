/* See ppgtt_env.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "tests/harness/ppgtt_env.h"
#include "gpu/ghyvi/ghyvi.h"

#define MiB (1ull << 20)

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };

int ppgtt_env_setup(void **state)
{
	struct ppgtt_env *e = calloc(1, sizeof(*e));
	/* gHyvi attached (strict until a test sets a policy), as in the
	 * hypervisor. */
	static const struct gvt_params p = { .ext = { &ghyvi_ext_ops } };
	struct mw_config c = { .pool_mib = 64, .ram_mib = 16, .fake_gpu = true,
			       .params = &p };

	assert_non_null(e);
	assert_int_equal(mw_init(&e->mw, &c), 0);
	assert_int_equal(mw_add_vgpu(&e->mw, &small, 1, 8 * MiB, &e->v), 0);
	assert_int_equal(gi_probe(&e->g, &e->mw.hv, e->v, 1, e->mw.gvt), 0);
	*state = e;
	return 0;
}

int ppgtt_env_teardown(void **state)
{
	struct ppgtt_env *e = *state;

	mw_stop(&e->mw);
	assert_int_equal(e->mw.hv.pages_in_use, 0);
	assert_int_equal(fake_hv_nr_wp(&e->mw.hv, 1), 0);
	mw_fini(&e->mw);
	free(e);
	return 0;
}

int ppgtt_env_mm(struct ppgtt_env *e)
{
	return vgpu_mm_get(e->v, e->g.pml4_gpa, true);
}
