/* A VM's traps into its vGPU, each under the mediator lock (gpu_lock.h):
 * the one place the VM-exit side enters gpu/ (vgpu_dev.c calls only
 * these). Each takes the lock, makes its one call into gpu/, and drops
 * it, so the lock is held across that exit's mediator work and no longer.
 * Pure over gpu/vgpu/vgpu.h: tests/stress/ links this file as it is. */
#ifndef HV_GPU_ENTRY_H
#define HV_GPU_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vgpu;

/* BAR0 (registers, GGTT): vgpu_mmio_read/write's result. */
int gpu_entry_mmio_read(struct vgpu *v, uint64_t off, uint64_t *val,
			unsigned size);
/* *submitted (may be NULL): the write was an ELSP write that queued
 * work (the vGPU's ELSP submission count moved). */
int gpu_entry_mmio_write(struct vgpu *v, uint64_t off, uint64_t val,
			 unsigned size, bool *submitted);
/* BAR2 pages the ladder did not map. */
int gpu_entry_aperture_rw(struct vgpu *v, uint64_t off, uint64_t *val,
			  unsigned size, bool write);
int gpu_entry_aperture_fault(struct vgpu *v, uint64_t off);
/* Config space. */
int gpu_entry_cfg_read(struct vgpu *v, unsigned reg, uint32_t *val);
void gpu_entry_cfg_write(struct vgpu *v, unsigned off, uint32_t val,
			 unsigned size);
/* A store into a write-protected page (PPGTT shadows). */
int gpu_entry_page_write(struct vgpu *v, uint64_t gpa, const void *data,
			 size_t len);
/* The VM restarts in place. */
int gpu_entry_reset(struct vgpu *v);

#endif
