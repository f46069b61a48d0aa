/* What guest_i915.c calls instead of the mediator and the fake's guest
 * memory when built for the stress test (mk/stress.mk renames them): the
 * locked entries of tests/stress/stress_mediator.c. */
#ifndef TESTS_STRESS_GUEST_H
#define TESTS_STRESS_GUEST_H

#include <stddef.h>
#include <stdint.h>

struct vgpu;
struct gvt;
struct fake_hv;

int st_mmio_read(struct vgpu *vg, uint64_t off, uint64_t *val, unsigned size);
int st_mmio_write(struct vgpu *vg, uint64_t off, uint64_t val, unsigned size);
int st_cfg_read(struct vgpu *vg, uint32_t off, uint32_t *val, unsigned size);
int st_cfg_write(struct vgpu *vg, uint32_t off, uint32_t val, unsigned size);
void st_gvt_poll(struct gvt *gvt);
uint64_t st_gvt_posted(const struct gvt *gvt);
void st_guest_read(struct fake_hv *f, uint32_t vm, uint64_t gpa, void *d,
		   size_t len);
void st_guest_write(struct fake_hv *f, uint32_t vm, uint64_t gpa,
		    const void *d, size_t len);
void st_guest_store(struct fake_hv *f, uint32_t vm, uint64_t gpa,
		    const void *d, size_t len);

#endif
