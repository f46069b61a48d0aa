/* The console on the screen (see console_fb.h). */
#include "hv/console/console_fb.h"
#include "hv/console/console.h"
#include "hv/console/fbcon.h"
#include "hv/console/kbd_i8042.h"
#include "hv/mm/mem.h"
#include "hv/mm/paging_mmio.h"

#define FG_RGB 0xaaaaaa		/* VGA's light grey on black */
#define BG_RGB 0x000000
#define MIB2 (2ull << 20)
/* How much of the log ring's end is drawn at attach: more than any screen
 * holds (a 1080p screen shows 67 rows of 240 columns). */
#define TAIL_BYTES (16 * 1024)

/* ~64 KiB of text grids: from the page allocator, not the image's .data
 * (linker/efi_x86_64.lds), and only on machines that draw a screen. */
static struct fbcon *con;
static bool attached, kbd, drawing, suspended;
static uint64_t fb_base;

/* Write-combining for the framebuffer's 2 MiB pages (a GOP framebuffer
 * starts a BAR of at least that size): the firmware's MTRRs usually make
 * the PCI hole UC, where this changes nothing, but a BAR above 4 GiB is
 * often in the WB default and would then be cached. */
static void map_wc(uint64_t base, uint64_t size)
{
	uint64_t from = base & ~(MIB2 - 1);
	uint64_t to = (base + size + MIB2 - 1) & ~(MIB2 - 1);

	if (paging_map_mmio(from, to - from, PAGING_WC))
		kprintf("console: framebuffer memory type left as the "
			"firmware set it\n");
}

/* The last TAIL_BYTES of the ring, from the first line that starts in them. */
static void draw_ring_tail(void)
{
	const struct log_ring *r = console_ring();
	size_t used = log_ring_used(r);
	size_t from = used > TAIL_BYTES ? used - TAIL_BYTES : 0, n;
	bool line_start = from == 0;
	char chunk[256];

	while ((n = log_ring_read(r, from, chunk, sizeof(chunk))) > 0) {
		size_t skip = 0;

		while (!line_start && skip < n)
			line_start = chunk[skip++] == '\n';
		fbcon_write(con, chunk + skip, n - skip);
		from += n;
	}
}

static const char *no_fb_reason(const struct boot_info *bi, uint64_t map_top)
{
	if (!bi->has_fb)
		return "the firmware set up no framebuffer (no GOP)";
	if (!bi->fb.red_mask)
		return "the GOP mode has no linear framebuffer (blt only)";
	if (bi->fb.base + bi->fb.size > map_top)
		return "the framebuffer lies beyond the hypervisor's map";
	return NULL;
}

void console_fb_attach(const struct boot_info *bi, uint64_t map_top)
{
	const struct boot_fb *f = &bi->fb;
	const char *why = no_fb_reason(bi, map_top);
	struct fbcon_fb fb;

	if (!(console_sinks() & CONSOLE_FB))
		return;
	if (why) {
		kprintf("console: no screen console: %s\n", why);
		return;
	}
	con = page_alloc_contig((sizeof(*con) + PAGE_SIZE - 1) / PAGE_SIZE);
	if (!con) {
		kprintf("console: no screen console: no memory for its text\n");
		return;
	}
	map_wc(f->base, f->size);
	fb = (struct fbcon_fb){
		.base = hv_va(f->base), .width = f->width, .height = f->height,
		.pitch = f->stride * 4, .red_mask = f->red_mask,
		.green_mask = f->green_mask, .blue_mask = f->blue_mask,
	};
	if (fbcon_init(con, &fb, FG_RGB, BG_RGB)) {
		kprintf("console: no screen console: a %ux%u framebuffer "
			"(stride %u) cannot hold text\n", f->width, f->height,
			f->stride);
		return;
	}
	draw_ring_tail();
	attached = true;
	fb_base = f->base;
	kbd = kbd_i8042_init();
	kprintf("console: on the screen: framebuffer %ux%u at %llx, %ux%u "
		"characters; keyboard %s\n", f->width, f->height,
		(unsigned long long)f->base, con->cols, con->rows,
		kbd ? "on the i8042 controller"
		    : "absent (no i8042 controller answers)");
}

const struct fbcon_fb *console_fb_screen(void)
{
	return attached ? &con->fb : NULL;
}

void console_fb_write(const char *s, size_t n)
{
	if (!attached || suspended)
		return;
	/* Entered again while drawing: only an exception raised by the
	 * drawing itself prints then. The screen is not usable: stop, so the
	 * exception's report reaches the other sinks instead of faulting
	 * again. */
	if (drawing) {
		attached = false;
		return;
	}
	drawing = true;
	fbcon_write(con, s, n);
	drawing = false;
}

void console_fb_suspend(void)
{
	suspended = true;
}

void console_fb_resume(void)
{
	struct fbcon_fb fb;

	if (!suspended)
		return;
	suspended = false;
	if (!attached || drawing)
		return;
	drawing = true;
	/* The same framebuffer again (a copy: fbcon_init clears *con). */
	fb = con->fb;
	if (!fbcon_init(con, &fb, FG_RGB, BG_RGB))
		draw_ring_tail();
	drawing = false;
}

unsigned console_fb_hotkey(void)
{
	return kbd ? kbd_i8042_hotkey() : 0;
}

bool console_fb_getc(uint8_t *out)
{
	return kbd && kbd_i8042_getc(out);
}

void console_fb_release(const char *why)
{
	if (!attached)
		return;
	kprintf("console: %s: the screen is no longer drawn from here on "
		"(%llu characters drawn); the console log stays in memory: "
		"shell command 'log'\n", why,
		(unsigned long long)con->st.glyphs);
	attached = false;
}

void console_fb_gpu_takeover(uint64_t aperture_base, uint64_t aperture_size)
{
	if (attached && fb_base >= aperture_base &&
	    fb_base - aperture_base < aperture_size)
		console_fb_release("the GPU that shows this screen is taken "
				   "over for the VMs' vGPUs");
}
