/* Empty-batch throughput (the guest's view of IGT's gem_exec_nop): per
 * engine, loops EXECBUFFER2s of a batch that is only MI_BATCH_BUFFER_END,
 * submitted back to back, then one wait for the last. The time is the
 * guest's CLOCK_MONOTONIC from the first submission to the wait's return. */
#include <stdio.h>

#include "guest-shim/drm-client/gem.h"
#include "guest-shim/drm-client/i915_uapi.h"
#include "guest-shim/drm-client/modes.h"

#define MI_BATCH_BUFFER_END (0x0au << 23)

static int nop_engine(int fd, const struct engine *e, unsigned int loops)
{
	struct bo batch = { 0 };
	struct bo *objs[1] = { &batch };
	unsigned int i, done = 0;
	double t0, us;
	int ret = 0;

	if (bo_create(fd, &batch, VA_BATCH) || cpu_domain(fd, &batch, 1)) {
		bo_destroy(fd, &batch);
		printf("nop %-4s: FAIL buffer setup\n", e->name);
		return 1;
	}
	batch.map[0] = MI_BATCH_BUFFER_END;
	batch.map[1] = 0; /* MI_NOOP: an even length */
	t0 = now_us();
	for (i = 0; i < loops; i++) {
		if (gem_exec(fd, e->exec_flag, objs, 1, 0, 8, NULL))
			break;
		done++;
	}
	if (wait_bo(fd, &batch))
		ret = 1;
	us = now_us() - t0;
	if (done != loops || ret) {
		printf("nop %-4s: FAIL after %u/%u submissions\n", e->name, done, loops);
		ret = 1;
	} else
		printf("nop %-4s: %u submissions in %.0f us (%.1f us each, %.0f/s)\n",
		       e->name, done, us, us / done, done * 1e6 / us);
	bo_destroy(fd, &batch);
	return ret;
}

int dc_nop(int fd, unsigned int loops)
{
	unsigned int k;
	int failed = 0;

	for (k = 0; k < sizeof(dc_engines) / sizeof(dc_engines[0]); k++)
		if (engine_present(fd, &dc_engines[k]))
			failed |= nop_engine(fd, &dc_engines[k], loops ? loops : 1);
	return failed;
}
