/* The console on the screen: text drawn on the GOP framebuffer
 * (hv/console/fbcon.c) and typed on the PC keyboard (hv/console/kbd_i8042.c), for PCs
 * without a COM1 header. It is on when hv.cfg's console= names `fb`, and
 * on its own when console= names com1 but no UART answers at 0x3F8
 * (hv/console/console.c). It draws until the GPU behind the framebuffer is taken
 * over for the VMs (console_fb_release); the log ring keeps everything for
 * the shell's `log` command either way. */
#ifndef HV_CONSOLE_FB_H
#define HV_CONSOLE_FB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "boot/boot_info.h"

/* After the hypervisor's page tables are up (map_top: the end of its
 * identity map): maps the framebuffer write-combining, clears it, draws
 * the end of the log ring, and starts polling the keyboard. Does nothing
 * unless the console's sinks include CONSOLE_FB; says why when it cannot. */
void console_fb_attach(const struct boot_info *bi, uint64_t map_top);
/* The console's sink (hv/console/console.c): draws s when attached. */
void console_fb_write(const char *s, size_t n);
/* The console's input: a byte typed on the keyboard, when attached. */
bool console_fb_getc(uint8_t *out);
/* The display is about to belong to someone else: says so, on the screen
 * too, and stops drawing. */
void console_fb_release(const char *why);
/* The GPU whose aperture is [base, base + size) is being taken over for
 * the VMs' vGPUs (its GOP scanout is switched off and its GGTT handed out):
 * release the screen if the framebuffer lies in that aperture. */
void console_fb_gpu_takeover(uint64_t aperture_base, uint64_t aperture_size);

/* A VM's picture is composed onto the screen (hv/gpu/screen_compose.c):
 * console_fb_suspend stops the drawing (the text still reaches the log
 * ring and the other sinks; the keyboard still types), console_fb_resume
 * clears the screen and draws the log's end again, as at attach. */
void console_fb_suspend(void);
void console_fb_resume(void);
/* A hotkey pressed on the keyboard since the last call (enum kbd_hotkey
 * of hv/console/kbd_scancode.h), 0 when none or no keyboard. */
unsigned console_fb_hotkey(void);

/* The framebuffer the console draws on (`screen dump` reads it, the
 * composition writes it while suspended), or NULL when the console is not
 * on the screen (not attached, or released). */
struct fbcon_fb;
const struct fbcon_fb *console_fb_screen(void);

#endif
