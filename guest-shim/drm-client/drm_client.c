/* g9hv-drm-client: a Linux guest program that proves the stock i915 runs
 * work on its vGPU, through the DRM/i915 ioctls directly (no libdrm).
 *
 * It opens /dev/dri/card0, checks the driver is i915 and its parameters
 * (execlists scheduler, full PPGTT, softpin), then on each engine i915
 * reports (RCS, BCS, VCS, VECS) submits batches with EXECBUFFER2 - 16
 * MI_STORE_DWORD_IMMs of known values, and on BCS an XY_SRC_COPY_BLT of a
 * pattern - waits with GEM_WAIT, reads the buffers back through a CPU
 * mapping and checks every dword, N times. It prints one PASS/FAIL line
 * per engine with the submission rate and exits non-zero on any failure.
 * Buffers are softpinned at fixed PPGTT addresses (no relocations).
 * Other modes (-m): nop timing (nop.c), attacks on the mediator
 * (hostile.c), a counter mark for the mediator's log (bar0.c).
 *
 * Usage: g9hv-drm-client [-m check|nop|hostile|mark] [-n N] [-d dev] */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "guest-shim/drm-client/batches.h"
#include "guest-shim/drm-client/gem.h"
#include "guest-shim/drm-client/modes.h"
#include "guest-shim/drm-client/i915_uapi.h"

struct result {
	unsigned int ok, runs;
	double us;
	char why[160];
};

static int check_stores(const struct bo *t, uint32_t seed, struct result *r)
{
	unsigned int i;

	for (i = 0; i < DC_STORES; i++)
		if (t->map[i] != dc_store_value(seed, i)) {
			snprintf(r->why, sizeof(r->why),
				 "dword %u = 0x%08x, expected 0x%08x (seed %u)", i,
				 t->map[i], dc_store_value(seed, i), seed);
			return -1;
		}
	return 0;
}

/* One store submission: fill the batch, clear the target, run, check. */
static int store_once(int fd, const struct engine *e, struct bo *batch,
		      struct bo *target, uint32_t seed, struct result *r)
{
	struct bo *objs[2] = { target, batch };
	size_t n;

	if (cpu_domain(fd, batch, 1) || cpu_domain(fd, target, 1))
		return snprintf(r->why, sizeof(r->why), "set_domain: %s", strerror(errno)), -1;
	n = dc_store_batch(batch->map, BO_SIZE / 4, target->va, seed);
	memset(target->map, 0, 4 * DC_STORES);
	if (gem_exec(fd, e->exec_flag, objs, 2, 0, (uint32_t)(4 * n), NULL))
		return snprintf(r->why, sizeof(r->why), "execbuffer2: %s", strerror(errno)), -1;
	if (wait_bo(fd, target) || cpu_domain(fd, target, 0))
		return snprintf(r->why, sizeof(r->why), "gem_wait: %s", strerror(errno)), -1;
	return check_stores(target, seed, r);
}

static int check_blit(const struct bo *dst, uint32_t seed, struct result *r)
{
	uint32_t x, y;

	for (y = 0; y < DC_BLIT_H; y++)
		for (x = 0; x < DC_BLIT_W; x++)
			if (dst->map[y * DC_BLIT_W + x] != dc_pattern(x, y, seed)) {
				snprintf(r->why, sizeof(r->why),
					 "blit pixel (%u,%u) = 0x%08x, expected 0x%08x", x, y,
					 dst->map[y * DC_BLIT_W + x], dc_pattern(x, y, seed));
				return -1;
			}
	return 0;
}

static int blit_once(int fd, struct bo *batch, struct bo *src, struct bo *dst,
		     uint32_t seed, struct result *r)
{
	struct bo *objs[3] = { dst, src, batch };
	uint32_t x, y;
	size_t n;

	if (cpu_domain(fd, batch, 1) || cpu_domain(fd, src, 1) || cpu_domain(fd, dst, 1))
		return snprintf(r->why, sizeof(r->why), "set_domain: %s", strerror(errno)), -1;
	for (y = 0; y < DC_BLIT_H; y++)
		for (x = 0; x < DC_BLIT_W; x++)
			src->map[y * DC_BLIT_W + x] = dc_pattern(x, y, seed);
	memset(dst->map, 0, DC_BLIT_PITCH * DC_BLIT_H);
	n = dc_blit_batch(batch->map, BO_SIZE / 4, dst->va, src->va);
	if (gem_exec(fd, I915_EXEC_BLT, objs, 3, 1u << 1, (uint32_t)(4 * n), NULL))
		return snprintf(r->why, sizeof(r->why), "execbuffer2 (blit): %s", strerror(errno)), -1;
	if (wait_bo(fd, dst) || cpu_domain(fd, dst, 0))
		return snprintf(r->why, sizeof(r->why), "gem_wait: %s", strerror(errno)), -1;
	return check_blit(dst, seed, r);
}

/* ---- per engine ------------------------------------------------------------ */

static void run_engine(int fd, const struct engine *e, unsigned int loops,
		       struct result *r)
{
	struct bo batch = { 0 }, target = { 0 }, src = { 0 }, dst = { 0 };
	double t0;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	if (bo_create(fd, &batch, VA_BATCH) || bo_create(fd, &target, VA_TARGET) ||
	    (e->blit && (bo_create(fd, &src, VA_SRC) || bo_create(fd, &dst, VA_DST)))) {
		snprintf(r->why, sizeof(r->why), "buffer setup failed");
		goto out;
	}
	t0 = now_us();
	for (i = 0; i < loops; i++) {
		r->runs++;
		if (store_once(fd, e, &batch, &target, i + 1, r))
			break;
		if (e->blit) {
			r->runs++;
			if (blit_once(fd, &batch, &src, &dst, i + 1, r))
				break;
		}
		r->ok = r->runs;
	}
	r->us = now_us() - t0;
out:
	bo_destroy(fd, &batch);
	bo_destroy(fd, &target);
	bo_destroy(fd, &src);
	bo_destroy(fd, &dst);
}

/* ---- driver checks -------------------------------------------------------------- */

static int check_driver(int fd)
{
	char name[32] = { 0 };
	struct drm_version v = { .name_len = sizeof(name) - 1, .name = name };

	if (xioctl(fd, DRM_IOCTL_VERSION, &v)) {
		perror("DRM_IOCTL_VERSION");
		return -1;
	}
	printf("driver: %s %d.%d.%d\n", name, v.version_major, v.version_minor,
	       v.version_patchlevel);
	if (strcmp(name, "i915")) {
		printf("FAIL: driver is \"%s\", not i915\n", name);
		return -1;
	}
	return 0;
}

static int check_params(int fd)
{
	int chip = 0, rev = 0, ppgtt = 0, softpin = 0, sched = 0, llc = 0;

	getparam(fd, I915_PARAM_CHIPSET_ID, &chip);
	getparam(fd, I915_PARAM_REVISION, &rev);
	getparam(fd, I915_PARAM_HAS_ALIASING_PPGTT, &ppgtt);
	getparam(fd, I915_PARAM_HAS_EXEC_SOFTPIN, &softpin);
	getparam(fd, I915_PARAM_HAS_SCHEDULER, &sched);
	getparam(fd, I915_PARAM_HAS_LLC, &llc);
	printf("device 0x%04x rev %d: ppgtt %d%s, softpin %d, llc %d, scheduler 0x%x%s%s\n",
	       chip, rev, ppgtt, ppgtt == I915_GEM_PPGTT_FULL ? " (full)" : "",
	       softpin, llc, sched,
	       sched & I915_SCHEDULER_CAP_ENABLED ? " (execlists)" : "",
	       sched & I915_SCHEDULER_CAP_PREEMPTION ? " preemption" : "");
	if (ppgtt != I915_GEM_PPGTT_FULL || !softpin ||
	    !(sched & I915_SCHEDULER_CAP_ENABLED)) {
		printf("FAIL: need full PPGTT, softpin and the execlists scheduler\n");
		return -1;
	}
	return 0;
}

/* The normal mode: every engine, loops rounds of stores (and blits on
 * BCS), checked. 0 when all pass. */
static int run_checks(int fd, unsigned int loops)
{
	unsigned int k;
	int failed = 0;

	for (k = 0; k < sizeof(dc_engines) / sizeof(dc_engines[0]); k++) {
		const struct engine *e = &dc_engines[k];
		struct result r;

		if (!engine_present(fd, e)) {
			printf("engine %-4s: not present\n", e->name);
			continue;
		}
		run_engine(fd, e, loops, &r);
		if (r.ok == r.runs && r.runs)
			printf("engine %-4s: PASS %u submissions in %.0f us (%.1f us each, %.0f/s)\n",
			       e->name, r.runs, r.us, r.us / r.runs, r.runs * 1e6 / r.us);
		else {
			printf("engine %-4s: FAIL after %u/%u submissions: %s\n", e->name,
			       r.ok, r.runs, r.why);
			failed = 1;
		}
	}
	printf("g9hv-drm-client: %s\n", failed ? "FAIL" : "ALL PASS");
	return failed;
}

static void usage(const char *me)
{
	fprintf(stderr, "usage: %s [-m check|nop|hostile|mark] [-n loops] [-d device]\n"
			"  check    stores (and a blit on BCS) on every engine, read back\n"
			"  nop      -n empty batches per engine, timed (gem_exec_nop's view)\n"
			"  hostile  attacks on the mediator, each REFUSED/CONTAINED or BREACH\n"
			"  mark     ask the mediator to log its counters for this vGPU (-n: the mark)\n",
		me);
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/dri/card0", *mode = "check";
	unsigned int loops = 200;
	int fd, opt, ret;

	/* Line by line into /init's pipe: a VM may stop mid-attack. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "n:d:m:")) != -1) {
		if (opt == 'n')
			loops = (unsigned int)strtoul(optarg, NULL, 0);
		else if (opt == 'd')
			dev = optarg;
		else if (opt == 'm')
			mode = optarg;
		else {
			usage(argv[0]);
			return 2;
		}
	}
	if (!strcmp(mode, "mark"))
		return dc_stats_mark(loops);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("FAIL: open %s: %s\n", dev, strerror(errno));
		return 1;
	}
	if (check_driver(fd) || check_params(fd))
		return 1;
	if (!strcmp(mode, "check"))
		ret = run_checks(fd, loops);
	else if (!strcmp(mode, "nop"))
		ret = dc_nop(fd, loops);
	else if (!strcmp(mode, "hostile"))
		ret = dc_hostile(dev);
	else {
		usage(argv[0]);
		ret = 2;
	}
	close(fd);
	return ret;
}
