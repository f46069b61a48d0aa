/* Shell commands about screens (docs/display.md, "Looking at a screen"):
 * `screen` lists what each vGPU's virtual monitor shows and who owns the
 * box's screen, `screen VM` / `screen hv` give it to a VM or back to the
 * console (hv/gpu/screen_compose.c), `screen sum [VM]` prints one line of
 * pixel statistics of a picture, `screen dump VM`
 * prints that VM's picture, `screen dump` the box's own (the GOP
 * framebuffer the console draws on, or, when the GPU is the software
 * model the hypervisor drives, what the model's display engine scans out
 * of pipe A: gen9_model_scanout), as a run-length coded block (hv/shell/
 * screen_ppm.h) that tools/console2png turns into a PNG. When the 0xE9
 * debug port is a console sink (emulators), the block goes there alone:
 * an emulator writes it to its log at once, where COM1 (115200 baud of
 * emulated time) took ~30 min of Bochs's wall time for 1024x768.
 *
 * A 1024x768 picture is up to 3 MiB of text: the dump runs a few rows per
 * main-loop round (shell_set_busy), never in a VM exit, and only while
 * COM1's backlog is short, so the log ring never laps what COM1 has not
 * sent. A VM's picture is read through its vGPU's own GGTT entries from
 * its own pages (vgpu_screen_read), and only while its plane stays the
 * one checked at the start: if the guest flips to another size, turns
 * the plane off or the VM stops, the rest is black and a line says so. */
#include "gpu/model/gen9_model.h"
#include "gpu/vgpu/vgpu.h"
#include "hv/console/console.h"
#include "hv/console/console_fb.h"
#include "hv/console/fbcon.h"
#include "hv/cpu/x86.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/screen_compose.h"
#include "hv/gpu/screen_plane.h"
#include "hv/shell/screen_ppm.h"
#include "hv/shell/shell.h"
#include "hv/vm/vm.h"
#include "mini/stdio.h"
#include "mini/string.h"

#define DUMP_ROWS_PER_ROUND 4u	/* 1024 pixels: 16 KiB of text */
#define DUMP_BACKLOG_MAX (16u * 1024u)	/* COM1 bytes still to send */
#define DUMP_MAX_SIDE 8192u
#define SUM_ROWS_PER_ROUND 32u	/* nothing printed: only the reads bound it */
#define FNV_BASIS 2166136261u
#define FNV_PRIME 16777619u

static struct dump {
	bool vm_dump;		/* else the GOP framebuffer */
	bool model_dump;	/* ... or the model's pipe A */
	unsigned vm;		/* vms[] index */
	uint32_t w, h, y;
	uint32_t cut_at;	/* first black row, h when whole */
	uint64_t read_tsc;	/* TSC ticks spent reading and converting */
	bool sum;		/* `screen sum`: statistics, no block */
	bool e9;		/* the block goes to the 0xE9 port alone */
	uint64_t lit;		/* pixels not black */
	uint32_t hash;		/* FNV-1a of the 0xRRGGBB pixels */
	const char *name;
	struct vdisp_plane pl;
	struct ppm_out ppm;
} job;

static void emit(void *arg, const char *s, size_t n)
{
	(void)arg;
	if (!job.e9 || !console_write_e9(s, n))
		console_write(s, n);
}

static struct vgpu *vgpu_of_vm(unsigned vm)
{
	struct gvt *gvt = gpu_host_gvt();

	return gvt && vm < nr_vms ? gvt_vgpu_by_vm(gvt, vm) : NULL;
}

static bool same_plane(const struct vdisp_plane *a, const struct vdisp_plane *b)
{
	return a->surf == b->surf && a->w == b->w && a->h == b->h &&
	       a->stride == b->stride && a->fmt == b->fmt &&
	       a->tiling == b->tiling && a->ox == b->ox && a->oy == b->oy;
}

/* A channel of a GOP pixel, to 8 bits. */
static uint32_t channel(uint32_t px, uint32_t mask)
{
	uint32_t v;

	if (!mask)
		return 0;
	v = (px & mask) / (mask & -mask);
	mask /= mask & -mask;
	return mask >= 255 ? v >> (32 - __builtin_clz(mask) - 8) : v * 255 / mask;
}

static void gop_row(uint32_t y, uint32_t *rgb, uint32_t x0, uint32_t n)
{
	const struct fbcon_fb *fb = console_fb_screen();
	const volatile uint32_t *row;
	uint32_t i;

	if (!fb) { /* released since the start */
		memset(rgb, 0, n * sizeof(*rgb));
		return;
	}
	row = (const volatile uint32_t *)((const uint8_t *)fb->base +
					  (size_t)y * fb->pitch);
	for (i = 0; i < n; i++) {
		uint32_t px = row[x0 + i];

		rgb[i] = channel(px, fb->red_mask) << 16 |
			 channel(px, fb->green_mask) << 8 |
			 channel(px, fb->blue_mask);
	}
}

/* The model's pipe A as a monitor sees it; black if it went dark. */
static void model_row(uint32_t y, uint32_t *rgb, uint32_t x0, uint32_t n)
{
	struct gen9_model *m = gpu_host_model();

	if (!m || gen9_model_scanout(m, y, x0, n, rgb))
		memset(rgb, 0, n * sizeof(*rgb));
}

/* Pixels of one run of the VM's row, or black once the plane changed. */
static void vm_run(uint32_t y, uint32_t *rgb, uint32_t x0, uint32_t n)
{
	struct vgpu *v = job.cut_at == job.h ? vgpu_of_vm(job.vm) : NULL;
	struct vdisp_plane now;

	if (v && vgpu_screen_plane(v, &now) == VDISP_PLANE_OK &&
	    same_plane(&now, &job.pl) &&
	    vgpu_screen_read(v, &job.pl, y, x0, n, rgb) == 0)
		return;
	if (job.cut_at == job.h)
		job.cut_at = y;
	memset(rgb, 0, n * sizeof(*rgb));
}

static void sum_pixels(const uint32_t *rgb, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		job.lit += rgb[i] != 0;
		job.hash = (job.hash ^ rgb[i]) * FNV_PRIME;
	}
}

static void dump_row(uint32_t y)
{
	uint32_t rgb[VGPU_SCREEN_RUN], x, n;

	for (x = 0; x < job.w; x += n) {
		n = job.w - x < VGPU_SCREEN_RUN ? job.w - x : VGPU_SCREEN_RUN;
		uint64_t t0 = rdtsc();

		if (job.vm_dump)
			vm_run(y, rgb, x, n);
		else if (job.model_dump)
			model_row(y, rgb, x, n);
		else
			gop_row(y, rgb, x, n);
		job.read_tsc += rdtsc() - t0;
		if (job.sum)
			sum_pixels(rgb, n);
		else
			ppm_pixels(&job.ppm, rgb, n);
	}
}

/* One main-loop round of the dump (shell_set_busy): false when done. */
static bool dump_poll(void)
{
	unsigned r, rows = job.sum || job.e9 ? SUM_ROWS_PER_ROUND :
		   DUMP_ROWS_PER_ROUND;

	if (!job.sum && !job.e9 && console_backlog() > DUMP_BACKLOG_MAX)
		return true;
	for (r = 0; r < rows && job.y < job.h; r++)
		dump_row(job.y++);
	if (job.y < job.h)
		return true;
	if (job.sum)
		kprintf("screen sum %s %ux%u: %llu not black, hash %08x\n",
			job.name, job.w, job.h, (unsigned long long)job.lit,
			job.hash);
	else
		ppm_end(&job.ppm);
	if (!job.sum)
		kprintf("screen: dump of %s %ux%u: %llu bytes coded (raw %llu)"
			"%s\n", job.name, job.w, job.h,
			(unsigned long long)job.ppm.bytes,
			(unsigned long long)job.ppm.pixels * 3, job.e9 ?
			", on the 0xE9 port alone" : "");
	/* What one frame costs to read (the composition's lower bound). */
	kprintf("screen: %ux%u read in %llu TSC ticks (%llu per 1000 "
		"pixels)\n", job.w, job.h, (unsigned long long)job.read_tsc,
		(unsigned long long)(job.read_tsc * 1000 /
				     ((uint64_t)job.w * job.h)));
	if (job.cut_at < job.h)
		kprintf("screen: vm '%s' changed or stopped its plane at row "
			"%u: the rows below it are black\n", vms[job.vm].name,
			job.cut_at);
	return false;
}

static int dump_vm(const char *name)
{
	struct vgpu *v = NULL;
	unsigned i;
	int err;

	for (i = 0; i < nr_vms && strcmp(vms[i].name, name); i++)
		;
	if (i == nr_vms) {
		kprintf("screen: no vm '%s'\n", name);
		return -1;
	}
	v = vgpu_of_vm(i);
	if (!v) {
		kprintf("screen: vm '%s' has no vGPU\n", name);
		return -1;
	}
	err = vgpu_screen_plane(v, &job.pl);
	if (err) {
		kprintf("screen: vm '%s' shows nothing: pipe A plane 1 %s\n",
			name, vdisp_plane_why(err));
		return -1;
	}
	job.vm_dump = true;
	job.model_dump = false;
	job.vm = i;
	job.w = job.pl.w;
	job.h = job.pl.h;
	return 0;
}

/* The box's screen when the hypervisor drives the model: its pipe A. */
static int dump_model(void)
{
	struct gen9_model *m = gpu_host_model();
	uint32_t w, h;

	if (!m || gen9_model_screen(m, &w, &h) || w > DUMP_MAX_SIDE ||
	    h > DUMP_MAX_SIDE) {
		kprintf("screen: the console is not on a framebuffer (hv.cfg "
			"console=fb, or the GPU was taken over)%s\n", m ?
			" and the model's pipe A is off" : "");
		return -1;
	}
	job.vm_dump = false;
	job.model_dump = true;
	job.w = w;
	job.h = h;
	return 0;
}

static int dump_gop(void)
{
	const struct fbcon_fb *fb = console_fb_screen();

	if (!fb || fb->width > DUMP_MAX_SIDE || fb->height > DUMP_MAX_SIDE)
		return dump_model();
	job.vm_dump = false;
	job.model_dump = false;
	job.w = fb->width;
	job.h = fb->height;
	return 0;
}

static int cmd_dump(const char *vm, bool sum)
{
	if (vm ? dump_vm(vm) : dump_gop())
		return -1;
	job.y = 0;
	job.read_tsc = 0;
	job.cut_at = job.h;
	job.sum = sum;
	job.lit = 0;
	job.hash = FNV_BASIS;
	/* An emulator's 0xE9 port takes the block at once (Bochs and QEMU
	 * write it to a file); COM1 would take minutes. */
	job.e9 = !sum && (console_sinks() & CONSOLE_E9);
	job.name = job.vm_dump ? vms[job.vm].name : job.model_dump ? "box" :
		   "hv";
	if (!sum)
		ppm_begin(&job.ppm, emit, NULL, job.name, job.w, job.h);
	shell_set_busy(dump_poll);
	return 0;
}

static const char *const fmt_names[] = {
	[VDISP_FMT_XRGB8888] = "XRGB8888", [VDISP_FMT_XBGR8888] = "XBGR8888",
	[VDISP_FMT_RGB565] = "RGB565", [VDISP_FMT_XRGB2101010] = "XRGB2101010",
	[VDISP_FMT_XBGR2101010] = "XBGR2101010",
	[VDISP_FMT_ARGB8888] = "ARGB8888",
};
static const char *const tiling_names[] = { "linear", "X-tiled", "Y-tiled" };

/* The physical-plane path's counters, once it has done anything. */
static void list_plane(void)
{
	const struct screen_plane_stats *p = screen_plane_stats();

	if (!p->shows && !p->offs && !p->refused)
		return;
	kprintf("box's plane: %llu shows, %llu offs, %llu refusals; last "
		"show %u registers, %u GGTT entries, %llu TSC ticks (max "
		"%llu); %llu registers, %llu GGTT entries in all\n",
		(unsigned long long)p->shows, (unsigned long long)p->offs,
		(unsigned long long)p->refused, p->last_mmio, p->last_ptes,
		(unsigned long long)p->last_tsc, (unsigned long long)p->max_tsc,
		(unsigned long long)p->mmio_writes,
		(unsigned long long)p->ptes);
}

static void list_owner(void)
{
	const struct screen_compose_stats *st = screen_compose_stats();
	int o = screen_compose_owner();

	kprintf("box's screen: %s%s%s; %llu frames composed (%llu black), "
		"last %llu TSC ticks, max %llu, %llu switches\n",
		o == SCREEN_OWNER_HV ? "the hypervisor console" : "vm '",
		o == SCREEN_OWNER_HV ? "" : vms[o].name,
		o == SCREEN_OWNER_HV ? "" : "'",
		(unsigned long long)st->frames,
		(unsigned long long)st->black_frames,
		(unsigned long long)st->last_tsc,
		(unsigned long long)st->max_tsc,
		(unsigned long long)st->switches);
	if (st->rounds)
		kprintf("box's screen rounds: %llu composed %llu rows; pixels "
			"moved last %u, max %u (budget %u); max %llu TSC ticks "
			"a round; %llu source rows under the cursor\n",
			(unsigned long long)st->rounds,
			(unsigned long long)st->rows, st->last_round_px,
			st->max_round_px, st->round_budget_px,
			(unsigned long long)st->max_round_tsc,
			(unsigned long long)st->cursor_rows);
	list_plane();
}

static void list_screens(void)
{
	unsigned n = 0, i;

	for (i = 0; i < nr_vms; i++) {
		struct vgpu *v = vgpu_of_vm(i);
		struct vdisp_plane pl;
		int err;

		if (!v)
			continue;
		n++;
		err = vgpu_screen_plane(v, &pl);
		if (err)
			kprintf("%s: nothing shown (plane 1 %s)", vms[i].name,
				vdisp_plane_why(err));
		else
			kprintf("%s: %ux%u %s %s, stride %u, at GM 0x%llx",
				vms[i].name, pl.w, pl.h, fmt_names[pl.fmt],
				tiling_names[pl.tiling], pl.stride,
				(unsigned long long)pl.surf);
		kprintf("; flips %llu, planes refused %llu, vblanks %llu\n",
			(unsigned long long)vgpu_get_stats(v)->flips,
			(unsigned long long)vgpu_get_stats(v)->planes_refused,
			(unsigned long long)vgpu_get_stats(v)->vblanks);
	}
	if (!n)
		kprintf("no vGPUs\n");
	list_owner();
}

static int vm_index(const char *name)
{
	unsigned i;

	for (i = 0; i < nr_vms && strcmp(vms[i].name, name); i++)
		;
	if (i == nr_vms)
		kprintf("screen: no vm '%s'\n", name);
	return i == nr_vms ? -1 : (int)i;
}

/* `screen VM` returns once the first frame is on the box's screen. */
static bool switch_poll(void)
{
	return screen_compose_pending();
}

static int cmd_owner(const char *name)
{
	int vm = strcmp(name, "hv") ? vm_index(name) : SCREEN_OWNER_HV;

	if (vm == -1 && strcmp(name, "hv"))
		return -1;
	if (screen_compose_set_owner(vm, "shell"))
		return -1;
	if (screen_compose_pending())
		shell_set_busy(switch_poll);
	return 0;
}

static int cmd_screen(int argc, char **argv)
{
	if (argc == 1) {
		list_screens();
		return 0;
	}
	if (!strcmp(argv[1], "dump") && argc <= 3)
		return cmd_dump(argc == 3 ? argv[2] : NULL, false);
	if (!strcmp(argv[1], "sum") && argc <= 3)
		return cmd_dump(argc == 3 ? argv[2] : NULL, true);
	if (argc == 2 && strcmp(argv[1], "dump") && strcmp(argv[1], "sum"))
		return cmd_owner(argv[1]);
	kprintf("usage: screen [VM | hv | dump [VM] | sum [VM]]\n");
	return -1;
}

/* `monitor VM off|on`: pull the virtual monitor's cable or plug it back
 * (vgpu_monitor_plug: port D's hotplug event, docs/display.md "Hotplug"). */
static int cmd_monitor(int argc, char **argv)
{
	static const char *const said[] = {
		[VGPU_HOTPLUG_RAISED] = ": hotplug event raised",
		[VGPU_HOTPLUG_ALREADY] = " already: no event",
		[VGPU_HOTPLUG_UNDETECTED] = ": no event (the guest has not "
					    "enabled port D's hotplug detection)",
	};
	struct vgpu *v;
	bool on;
	int vm, r;

	if (argc != 3 || (strcmp(argv[2], "on") && strcmp(argv[2], "off"))) {
		kprintf("usage: monitor VM off|on\n");
		return -1;
	}
	vm = vm_index(argv[1]);
	if (vm < 0)
		return -1;
	v = vgpu_of_vm((unsigned)vm);
	on = !strcmp(argv[2], "on");
	r = v ? vgpu_monitor_plug(v, on) : -1;
	if (r < 0 || r > VGPU_HOTPLUG_UNDETECTED) {
		kprintf("monitor: vm '%s' has no virtual monitor%s\n", argv[1],
			v ? " (vgpu_display=none)" : " (no vGPU)");
		return -1;
	}
	kprintf("monitor: vm '%s' %s%s\n", argv[1],
		on ? "plugged in" : "unplugged", said[r]);
	return 0;
}

static const struct shell_cmd screen_cmds[] = {
	{ "screen", "[VM | hv | dump [VM] | sum [VM]]", "what each VM's "
	  "monitor shows; VM / hv: who owns the box's screen (keys F12, F11); "
	  "dump: a VM's screen (or the box's) as a run-length block "
	  "(tools/console2png); sum: one line of pixel statistics",
	  cmd_screen },
	{ "monitor", "VM off|on", "pull the VM's virtual monitor's cable or "
	  "plug it back: port D's hotplug event, its driver re-detects",
	  cmd_monitor },
};

void shell_screen_cmds_register(void)
{
	SHELL_REGISTER(screen_cmds);
}
