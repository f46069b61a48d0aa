/* The GEM plumbing every mode of the guest DRM client shares: ioctls with
 * retry, softpinned buffers with a CPU mapping, domains, waits and one
 * EXECBUFFER2 (no libdrm). */
#ifndef GUEST_SHIM_DRM_CLIENT_GEM_H
#define GUEST_SHIM_DRM_CLIENT_GEM_H

#include <stdint.h>

#define BO_SIZE 16384u
#define VA_BATCH 0x100000ull
#define VA_TARGET 0x200000ull
#define VA_SRC 0x300000ull
#define VA_DST 0x400000ull

struct bo {
	uint32_t handle;
	uint64_t va;	/* softpinned PPGTT address */
	uint32_t *map;	/* CPU mapping, BO_SIZE bytes */
};

struct engine {
	const char *name;
	unsigned int exec_flag;
	int has_param; /* getparam that says it exists; 0: always */
	int blit;      /* also run the blit */
};

extern const struct engine dc_engines[4];

int xioctl(int fd, unsigned long req, void *arg);
int getparam(int fd, int param, int *val);
/* Whether i915 reports engine e (RCS always). */
int engine_present(int fd, const struct engine *e);
double now_us(void);
int bo_create(int fd, struct bo *b, uint64_t va);
void bo_destroy(int fd, struct bo *b);
/* CPU access after the GPU wrote (and before the CPU writes). */
int cpu_domain(int fd, struct bo *b, int write);
int wait_bo(int fd, struct bo *b);
/* Execute the batch (last of objs) with the others softpinned; objs[0..n-2]
 * are written by the GPU except those in ro_mask. With out_fence, the
 * request's sync_file fd is returned there (I915_EXEC_FENCE_OUT). */
int gem_exec(int fd, unsigned int flag, struct bo **objs, unsigned int n,
	     unsigned int ro_mask, uint32_t batch_bytes, int *out_fence);
/* Wait for a sync_file; its status: 1 signalled, < 0 the request's error
 * (-EIO: i915 reset the engine under it), 0 still busy after 5 s. */
int fence_status(int fence);

#endif
