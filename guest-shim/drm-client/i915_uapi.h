/* The few DRM / i915 uapi facts the client needs, written out from the
 * kernel's include/uapi/drm/drm.h and include/uapi/drm/i915_drm.h (ABI
 * layouts and numbers; no libdrm, no kernel headers needed). */
#ifndef GUEST_SHIM_DRM_CLIENT_I915_UAPI_H
#define GUEST_SHIM_DRM_CLIENT_I915_UAPI_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#define DRM_IOCTL_BASE 'd'
#define DRM_COMMAND_BASE 0x40
#define DRM_IOW_(nr, t) _IOW(DRM_IOCTL_BASE, nr, t)
#define DRM_IOWR_(nr, t) _IOWR(DRM_IOCTL_BASE, nr, t)

struct drm_version {
	int version_major, version_minor, version_patchlevel;
	size_t name_len;
	char *name;
	size_t date_len;
	char *date;
	size_t desc_len;
	char *desc;
};

struct drm_gem_close {
	uint32_t handle, pad;
};

struct drm_i915_getparam {
	int32_t param;
	int *value;
};

struct drm_i915_gem_create {
	uint64_t size;
	uint32_t handle, pad;
};

struct drm_i915_gem_mmap {
	uint32_t handle, pad;
	uint64_t offset, size, addr_ptr, flags;
};

struct drm_i915_gem_mmap_offset {
	uint32_t handle, pad;
	uint64_t offset, flags, extensions;
};

struct drm_i915_gem_set_domain {
	uint32_t handle, read_domains, write_domain;
};

struct drm_i915_gem_wait {
	uint32_t bo_handle, flags;
	int64_t timeout_ns;
};

struct drm_i915_gem_exec_object2 {
	uint32_t handle, relocation_count;
	uint64_t relocs_ptr, alignment, offset, flags, rsvd1, rsvd2;
};

struct drm_i915_gem_execbuffer2 {
	uint64_t buffers_ptr;
	uint32_t buffer_count, batch_start_offset, batch_len, DR1, DR4;
	uint32_t num_cliprects;
	uint64_t cliprects_ptr, flags, rsvd1, rsvd2;
};

/* GEM contexts: with full PPGTT each has its own address space. */
struct drm_i915_gem_context_create {
	uint32_t ctx_id, pad;
};

struct drm_i915_gem_context_destroy {
	uint32_t ctx_id, pad;
};

/* The kernel's layouts on x86-64 (the ioctl numbers encode the sizes). */
_Static_assert(sizeof(struct drm_version) == 64, "drm_version");
_Static_assert(sizeof(struct drm_i915_getparam) == 16, "getparam");
_Static_assert(sizeof(struct drm_i915_gem_create) == 16, "gem_create");
_Static_assert(sizeof(struct drm_i915_gem_mmap) == 40, "gem_mmap");
_Static_assert(sizeof(struct drm_i915_gem_mmap_offset) == 32, "gem_mmap_offset");
_Static_assert(sizeof(struct drm_i915_gem_set_domain) == 12, "set_domain");
_Static_assert(sizeof(struct drm_i915_gem_wait) == 16, "gem_wait");
_Static_assert(sizeof(struct drm_i915_gem_exec_object2) == 56, "exec_object2");
_Static_assert(sizeof(struct drm_i915_gem_execbuffer2) == 64, "execbuffer2");

#define DRM_IOCTL_VERSION DRM_IOWR_(0x00, struct drm_version)
#define DRM_IOCTL_GEM_CLOSE DRM_IOW_(0x09, struct drm_gem_close)
#define DRM_IOCTL_I915_GETPARAM DRM_IOWR_(DRM_COMMAND_BASE + 0x06, struct drm_i915_getparam)
#define DRM_IOCTL_I915_GEM_CREATE DRM_IOWR_(DRM_COMMAND_BASE + 0x1b, struct drm_i915_gem_create)
#define DRM_IOCTL_I915_GEM_MMAP DRM_IOWR_(DRM_COMMAND_BASE + 0x1e, struct drm_i915_gem_mmap)
#define DRM_IOCTL_I915_GEM_SET_DOMAIN DRM_IOW_(DRM_COMMAND_BASE + 0x1f, struct drm_i915_gem_set_domain)
#define DRM_IOCTL_I915_GEM_MMAP_OFFSET DRM_IOWR_(DRM_COMMAND_BASE + 0x24, struct drm_i915_gem_mmap_offset)
#define DRM_IOCTL_I915_GEM_EXECBUFFER2 DRM_IOW_(DRM_COMMAND_BASE + 0x29, struct drm_i915_gem_execbuffer2)
/* The read-write form: i915 copies rsvd2 (the out-fence) back only here. */
#define DRM_IOCTL_I915_GEM_EXECBUFFER2_WR DRM_IOWR_(DRM_COMMAND_BASE + 0x29, struct drm_i915_gem_execbuffer2)
#define DRM_IOCTL_I915_GEM_WAIT DRM_IOWR_(DRM_COMMAND_BASE + 0x2c, struct drm_i915_gem_wait)
#define DRM_IOCTL_I915_GEM_CONTEXT_CREATE DRM_IOWR_(DRM_COMMAND_BASE + 0x2d, struct drm_i915_gem_context_create)
#define DRM_IOCTL_I915_GEM_CONTEXT_DESTROY DRM_IOW_(DRM_COMMAND_BASE + 0x2e, struct drm_i915_gem_context_destroy)

/* getparam */
#define I915_PARAM_CHIPSET_ID 4
#define I915_PARAM_HAS_BSD 10
#define I915_PARAM_HAS_BLT 11
#define I915_PARAM_HAS_LLC 17
#define I915_PARAM_HAS_ALIASING_PPGTT 18 /* 2: full PPGTT */
#define I915_PARAM_HAS_VEBOX 22
#define I915_PARAM_REVISION 32
#define I915_PARAM_HAS_EXEC_SOFTPIN 37
#define I915_PARAM_HAS_SCHEDULER 41
#define   I915_SCHEDULER_CAP_ENABLED (1u << 0)
#define   I915_SCHEDULER_CAP_PREEMPTION (1u << 2)
#define   I915_SCHEDULER_CAP_SEMAPHORES (1u << 3)
#define I915_GEM_PPGTT_FULL 2

/* mmap_offset flags, domains */
#define I915_MMAP_OFFSET_WC 1
#define I915_MMAP_OFFSET_WB 2
#define I915_GEM_DOMAIN_CPU 0x1

/* execbuffer2 */
#define I915_EXEC_RENDER 1
#define I915_EXEC_BSD 2
#define I915_EXEC_BLT 3
#define I915_EXEC_VEBOX 4
#define I915_EXEC_NO_RELOC (1u << 11)
#define I915_EXEC_FENCE_OUT (1u << 17) /* sync_file fd in rsvd2 >> 32 */
#define EXEC_OBJECT_WRITE (1u << 2)
#define EXEC_OBJECT_SUPPORTS_48B_ADDRESS (1u << 3)
#define EXEC_OBJECT_PINNED (1u << 4)

/* linux/sync_file.h: the state of a sync_file (status 1 signalled, 0
 * active, < 0 the error the fence was signalled with). */
struct sync_file_info {
	char name[32];
	int32_t status;
	uint32_t flags;
	uint32_t num_fences;
	uint32_t pad;
	uint64_t sync_fence_info;
};
_Static_assert(sizeof(struct sync_file_info) == 56, "sync_file_info");
#define SYNC_IOC_FILE_INFO _IOWR('>', 4, struct sync_file_info)

#endif
