/* GEM plumbing of the guest DRM client (gem.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "guest-shim/drm-client/gem.h"
#include "guest-shim/drm-client/i915_uapi.h"

const struct engine dc_engines[4] = {
	{ "rcs", I915_EXEC_RENDER, 0, 0 },
	{ "bcs", I915_EXEC_BLT, I915_PARAM_HAS_BLT, 1 },
	{ "vcs", I915_EXEC_BSD, I915_PARAM_HAS_BSD, 0 },
	{ "vecs", I915_EXEC_VEBOX, I915_PARAM_HAS_VEBOX, 0 },
};

int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && (errno == EINTR || errno == EAGAIN));
	return r;
}

int getparam(int fd, int param, int *val)
{
	struct drm_i915_getparam gp = { .param = param, .value = val };

	*val = 0;
	return xioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
}

int engine_present(int fd, const struct engine *e)
{
	int has = 1;

	if (e->has_param)
		getparam(fd, e->has_param, &has);
	return has;
}

double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

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

int bo_create(int fd, struct bo *b, uint64_t va)
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

void bo_destroy(int fd, struct bo *b)
{
	struct drm_gem_close cl = { .handle = b->handle };

	if (b->map)
		munmap(b->map, BO_SIZE);
	if (b->handle)
		xioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
	memset(b, 0, sizeof(*b));
}

int cpu_domain(int fd, struct bo *b, int write)
{
	struct drm_i915_gem_set_domain sd = {
		.handle = b->handle, .read_domains = I915_GEM_DOMAIN_CPU,
		.write_domain = write ? I915_GEM_DOMAIN_CPU : 0,
	};

	return xioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd);
}

int wait_bo(int fd, struct bo *b)
{
	struct drm_i915_gem_wait w = { .bo_handle = b->handle,
				       .timeout_ns = 5000000000ll };

	return xioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w);
}

int gem_exec(int fd, unsigned int flag, struct bo **objs, unsigned int n,
	     unsigned int ro_mask, uint32_t batch_bytes, int *out_fence)
{
	struct drm_i915_gem_exec_object2 o[4];
	struct drm_i915_gem_execbuffer2 eb;
	unsigned int i;
	int r;

	memset(o, 0, sizeof(o));
	memset(&eb, 0, sizeof(eb));
	for (i = 0; i < n && i < 4; i++) {
		o[i].handle = objs[i]->handle;
		o[i].offset = objs[i]->va;
		o[i].flags = EXEC_OBJECT_PINNED |
			     (i + 1 < n && !(ro_mask & (1u << i)) ? EXEC_OBJECT_WRITE : 0);
	}
	eb.buffers_ptr = (uint64_t)(uintptr_t)o;
	eb.buffer_count = i;
	eb.batch_len = batch_bytes;
	eb.flags = flag | I915_EXEC_NO_RELOC | (out_fence ? I915_EXEC_FENCE_OUT : 0);
	if (!out_fence)
		return xioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	r = xioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
	*out_fence = r ? -1 : (int)(eb.rsvd2 >> 32);
	return r;
}

int fence_status(int fence)
{
	struct pollfd p = { .fd = fence, .events = POLLIN };
	struct sync_file_info info;

	poll(&p, 1, 5000);
	memset(&info, 0, sizeof(info));
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		return -errno;
	return info.status;
}
