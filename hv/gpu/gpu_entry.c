/* A VM's traps into its vGPU under the mediator lock; see gpu_entry.h. */
#include "gpu/vgpu/vgpu.h"
#include "hv/gpu/gpu_entry.h"
#include "hv/gpu/gpu_lock.h"

int gpu_entry_mmio_read(struct vgpu *v, uint64_t off, uint64_t *val,
			unsigned size)
{
	int err;

	gpu_lock();
	err = vgpu_mmio_read(v, off, val, size);
	gpu_unlock();
	return err;
}

int gpu_entry_mmio_write(struct vgpu *v, uint64_t off, uint64_t val,
			 unsigned size, bool *submitted)
{
	uint64_t subs;
	int err;

	gpu_lock();
	subs = vgpu_get_stats(v)->elsp_submits;
	err = vgpu_mmio_write(v, off, val, size);
	if (submitted)
		*submitted = vgpu_get_stats(v)->elsp_submits != subs;
	gpu_unlock();
	return err;
}

int gpu_entry_aperture_rw(struct vgpu *v, uint64_t off, uint64_t *val,
			  unsigned size, bool write)
{
	int err;

	gpu_lock();
	err = vgpu_aperture_rw(v, off, val, size, write);
	gpu_unlock();
	return err;
}

int gpu_entry_aperture_fault(struct vgpu *v, uint64_t off)
{
	int err;

	gpu_lock();
	err = vgpu_aperture_fault(v, off);
	gpu_unlock();
	return err;
}

int gpu_entry_cfg_read(struct vgpu *v, unsigned reg, uint32_t *val)
{
	int err;

	gpu_lock();
	err = vgpu_cfg_read(v, reg, val, 4);
	gpu_unlock();
	return err;
}

void gpu_entry_cfg_write(struct vgpu *v, unsigned off, uint32_t val,
			 unsigned size)
{
	gpu_lock();
	(void)vgpu_cfg_write(v, off, val, size);
	gpu_unlock();
}

int gpu_entry_page_write(struct vgpu *v, uint64_t gpa, const void *data,
			 size_t len)
{
	int err;

	gpu_lock();
	err = vgpu_page_write(v, gpa, data, len);
	gpu_unlock();
	return err;
}

int gpu_entry_reset(struct vgpu *v)
{
	int err;

	gpu_lock();
	err = vgpu_reset_device(v);
	gpu_unlock();
	return err;
}
