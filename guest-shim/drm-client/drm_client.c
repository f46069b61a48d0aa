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
 *
 * Usage: g9hv-drm-client [-n loops] [-d /dev/dri/cardN] */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "guest-shim/drm-client/batches.h"
#include "guest-shim/drm-client/i915_uapi.h"

#define BO_SIZE 16384u
#define VA_BATCH 0x100000ull
#define VA_TARGET 0x200000ull
#define VA_SRC 0x300000ull
#define VA_DST 0x400000ull

struct bo {
	uint32_t handle;
	uint64_t va;
	uint32_t *map;
};

struct engine {
	const char *name;
	unsigned int exec_flag;
	int has_param; /* getparam that says it exists; 0: always */
	int blit;      /* also run the blit */
};

static const struct engine engines[] = {
	{ "rcs", I915_EXEC_RENDER, 0, 0 },
	{ "bcs", I915_EXEC_BLT, I915_PARAM_HAS_BLT, 1 },
	{ "vcs", I915_EXEC_BSD, I915_PARAM_HAS_BSD, 0 },
	{ "vecs", I915_EXEC_VEBOX, I915_PARAM_HAS_VEBOX, 0 },
};

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && (errno == EINTR || errno == EAGAIN));
	return r;
}

static int getparam(int fd, int param, int *val)
{
	struct drm_i915_getparam gp = { .param = param, .value = val };

	*val = 0;
	return xioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* ---- buffers ------------------------------------------------------------ */

static void *map_bo(int fd, uint32_t handle)
{
	struct drm_i915_gem_mmap_offset mo = { .handle = handle,
					       .flags = I915_MMAP_OFFSET_WB };
	struct drm_i915_gem_mmap mm = { .handle = handle, .size = BO_SIZE };
	void *p;

	if (!xioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo)) {
		p = mmap(NULL, BO_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (off_t)mo.offset);
		return p == MAP_FAILED ? NULL : p;
	}
	/* kernels before mmap_offset: the legacy CPU mmap ioctl */
	if (xioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &mm))
		return NULL;
	return (void *)(uintptr_t)mm.addr_ptr;
}

static int bo_create(int fd, struct bo *b, uint64_t va)
{
	struct drm_i915_gem_create c = { .size = BO_SIZE };

	if (xioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c)) {
		perror("GEM_CREATE");
		return -1;
	}
	b->handle = c.handle;
	b->va = va;
	b->map = map_bo(fd, c.handle);
	if (!b->map) {
		perror("GEM mmap");
		return -1;
	}
	return 0;
}

static void bo_destroy(int fd, struct bo *b)
{
	struct drm_gem_close cl = { .handle = b->handle };

	if (b->map)
		munmap(b->map, BO_SIZE);
	if (b->handle)
		xioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
	memset(b, 0, sizeof(*b));
}

/* CPU access after the GPU wrote (and before the CPU writes). */
static int cpu_domain(int fd, struct bo *b, int write)
{
	struct drm_i915_gem_set_domain sd = {
		.handle = b->handle, .read_domains = I915_GEM_DOMAIN_CPU,
		.write_domain = write ? I915_GEM_DOMAIN_CPU : 0,
	};

	return xioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd);
}

static int wait_bo(int fd, struct bo *b)
{
	struct drm_i915_gem_wait w = { .bo_handle = b->handle,
				       .timeout_ns = 5000000000ll };

	return xioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w);
}

/* ---- submission ------------------------------------------------------------ */

/* Execute batch (last object) with the others softpinned; objs[0..n-2]
 * are written by the GPU except those listed read-only by ro. */
static int exec(int fd, unsigned int flag, struct bo **objs, unsigned int n,
		unsigned int ro_mask, uint32_t batch_bytes)
{
	struct drm_i915_gem_exec_object2 o[4];
	struct drm_i915_gem_execbuffer2 eb;
	unsigned int i;

	memset(o, 0, sizeof(o));
	memset(&eb, 0, sizeof(eb));
	for (i = 0; i < n; i++) {
		o[i].handle = objs[i]->handle;
		o[i].offset = objs[i]->va;
		o[i].flags = EXEC_OBJECT_PINNED |
			     (i + 1 < n && !(ro_mask & (1u << i)) ? EXEC_OBJECT_WRITE : 0);
	}
	eb.buffers_ptr = (uint64_t)(uintptr_t)o;
	eb.buffer_count = n;
	eb.batch_len = batch_bytes;
	eb.flags = flag | I915_EXEC_NO_RELOC;
	return xioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
}

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
	if (exec(fd, e->exec_flag, objs, 2, 0, (uint32_t)(4 * n)))
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
	if (exec(fd, I915_EXEC_BLT, objs, 3, 1u << 1, (uint32_t)(4 * n)))
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

int main(int argc, char **argv)
{
	const char *dev = "/dev/dri/card0";
	unsigned int loops = 200, k;
	int fd, opt, failed = 0;

	while ((opt = getopt(argc, argv, "n:d:")) != -1) {
		if (opt == 'n')
			loops = (unsigned int)strtoul(optarg, NULL, 0);
		else if (opt == 'd')
			dev = optarg;
		else {
			fprintf(stderr, "usage: %s [-n loops] [-d device]\n", argv[0]);
			return 2;
		}
	}
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("FAIL: open %s: %s\n", dev, strerror(errno));
		return 1;
	}
	if (check_driver(fd) || check_params(fd))
		return 1;
	for (k = 0; k < sizeof(engines) / sizeof(engines[0]); k++) {
		const struct engine *e = &engines[k];
		struct result r;
		int has = 1;

		if (e->has_param)
			getparam(fd, e->has_param, &has);
		if (!has) {
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
	close(fd);
	return failed;
}
