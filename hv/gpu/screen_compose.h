/* Who owns the box's screen, and the owner VM's picture composed onto it
 * (issue 29 step 2; docs/display.md, "The owner's screen on the box's
 * screen"). The hypervisor console owns it at boot (or hv.cfg's
 * display_owner=); `screen VM` / `screen hv` in the shell and the F12 /
 * F11 keys on the box's keyboard change it. While a VM owns it and the
 * box's screen is the GOP framebuffer, each main-loop round composes a
 * bounded number of rows of the owner's pipe A primary plane into it
 * (never in a VM exit), a frame at most per vblank of the owner. */
#ifndef HV_GPU_SCREEN_COMPOSE_H
#define HV_GPU_SCREEN_COMPOSE_H

#include <stdbool.h>
#include <stdint.h>

#define SCREEN_OWNER_HV (-1)	/* the hypervisor console */

struct screen_compose_stats {
	uint64_t frames;	/* frames composed since boot */
	uint64_t black_frames;	/* ... of them black (no plane shown) */
	uint64_t switches;	/* owner changes */
	uint64_t last_tsc;	/* TSC ticks the last frame cost */
	uint64_t max_tsc;
	uint64_t total_tsc;
	uint64_t rows_read;	/* source rows read through the owner's GGTT */
	uint64_t cursor_rows;	/* ... the owner's cursor was laid over */
	/* The per-round budget (screen_compose.c COMPOSE_ROUND_PX): main-
	 * loop rounds that composed, screen rows they wrote, pixels moved
	 * (written + read) by the last and the largest round, and the most
	 * TSC ticks one round took. */
	uint64_t rounds, rows;
	uint32_t round_budget_px;	/* pixels a round may move */
	uint32_t last_round_px, max_round_px;
	uint64_t max_round_tsc;
};

/* Makes vms[vm] (or SCREEN_OWNER_HV) the owner; prints who owns the
 * screen now, and why not when it cannot (no such VM, no vGPU, no
 * framebuffer to compose into). 0 or -1. */
int screen_compose_set_owner(int vm, const char *by);
int screen_compose_owner(void);
/* hv.cfg's display_owner= at boot ("" = the console, nothing to do). */
void screen_compose_boot(const char *vm_name);
/* One main-loop round: hotkeys, then up to COMPOSE_ROWS_PER_ROUND rows
 * and COMPOSE_ROUND_PX pixels moved (at least one row), resuming at the
 * next row the round after. */
void screen_compose_poll(void);
/* The pixels a round may move (0: the default, COMPOSE_ROUND_PX). */
void screen_compose_set_round_px(uint32_t px);
/* True until the first frame after the last owner change is complete. */
bool screen_compose_pending(void);
const struct screen_compose_stats *screen_compose_stats(void);

#endif
