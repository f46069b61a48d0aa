/* compose_cost SW SH DW DH: one frame of the owner's SW x SH plane
 * composed into a DW x DH framebuffer in memory by hv/gpu/screen_compose.c
 * (tools/compose-cost counts its instructions with callgrind). The plane's
 * pixels come from an array here: the read through the vGPU's GGTT
 * (vgpu_screen_read, gpu/vgpu/display/vgpu_display.c) is not in the count; the
 * shell's `screen dump VM` prints what that read costs ("read in ... TSC
 * ticks"). Prints the frames composed and the rounds they took. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/vgpu/vgpu.h"
#include "hv/console/console.h"
#include "hv/console/console_fb.h"
#include "hv/console/fbcon.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/screen_compose.h"
#include "hv/platform/tsc.h"
#include "hv/vm/vm.h"

struct vm vms[VM_MAX];
unsigned nr_vms = 1;
static struct vdisp_plane plane;
static uint32_t *pic;
static struct fbcon_fb fb;
static int gvt_dummy, vgpu_dummy;

struct gvt *gpu_host_gvt(void) { return (struct gvt *)&gvt_dummy; }
struct vgpu *gvt_vgpu_by_vm(struct gvt *g, uint32_t vm)
{
	(void)g;
	return vm == 0 ? (struct vgpu *)&vgpu_dummy : NULL;
}
int vgpu_screen_plane(struct vgpu *v, struct vdisp_plane *pl)
{
	(void)v;
	*pl = plane;
	return VDISP_PLANE_OK;
}
int vgpu_screen_read(struct vgpu *v, const struct vdisp_plane *pl, uint32_t y,
		     uint32_t x0, uint32_t n, uint32_t *rgb)
{
	(void)v;
	memcpy(rgb, pic + (size_t)y * pl->w + x0, n * 4);
	return 0;
}
uint32_t vgpu_screen_frames(const struct vgpu *v, bool *running)
{
	(void)v;
	*running = false;
	return 0;
}
const struct fbcon_fb *console_fb_screen(void) { return &fb; }
void console_fb_suspend(void) {}
void console_fb_resume(void) {}
unsigned console_fb_hotkey(void) { return 0; }
uint32_t fbcon_pixel(const struct fbcon_fb *f, uint32_t rgb)
{
	(void)f;
	return rgb;
}
uint64_t tsc_hz(void) { return 1000; }
void kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

int main(int argc, char **argv)
{
	unsigned rounds = 0;

	if (argc != 5)
		return 2;
	plane = (struct vdisp_plane){ .w = (uint32_t)atoi(argv[1]),
				      .h = (uint32_t)atoi(argv[2]), .cpp = 4,
				      .on = true };
	plane.stride = plane.w * 4;
	fb = (struct fbcon_fb){ .width = (uint32_t)atoi(argv[3]),
				.height = (uint32_t)atoi(argv[4]),
				.red_mask = 0xff0000, .green_mask = 0xff00,
				.blue_mask = 0xff };
	fb.pitch = fb.width * 4;
	fb.base = calloc((size_t)fb.width * fb.height, 4);
	pic = calloc((size_t)plane.w * plane.h, 4);
	for (size_t i = 0; i < (size_t)plane.w * plane.h; i++)
		pic[i] = (uint32_t)(i * 2654435761u) & 0xffffff;
	strcpy(vms[0].name, "bench");
	screen_compose_set_owner(0, "bench");
	while (screen_compose_pending()) {
		screen_compose_poll();
		rounds++;
	}
	printf("frames %llu rounds %u\n",
	       (unsigned long long)screen_compose_stats()->frames, rounds);
	return 0;
}
