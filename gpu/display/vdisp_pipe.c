/* One display pipe's vblank clock, counters and latched surfaces
 * (vdisp_pipe.h). */
#include "gpu/display/vdisp_pipe.h"

#include "mini/string.h"

#define PRIMARY 0u	/* plane 1: the surface PIPE_FLIPCOUNT counts */

uint64_t vdisp_mode_frame_ns(const struct vdisp_mode *m)
{
	uint64_t pixels = (uint64_t)vdisp_mode_htotal(m) * vdisp_mode_vtotal(m);

	/* clock_khz pixels per ms: pixels * 1e6 / clock_khz ns. */
	return m->clock_khz ? pixels * 1000000u / m->clock_khz : 0;
}

void vdisp_pipe_reset(struct vdisp_pipe *p)
{
	memset(p, 0, sizeof(*p));
}

static void latch(struct vdisp_pipe *p, unsigned s)
{
	p->live[s] = p->armed_surf[s];
	p->armed &= (uint8_t)~(1u << s);
}

static uint8_t latch_all(struct vdisp_pipe *p)
{
	uint8_t done = p->armed;
	unsigned s;

	for (s = 0; s < VDISP_SURFACES; s++)
		if (done & (1u << s))
			latch(p, s);
	return done;
}

void vdisp_pipe_on(struct vdisp_pipe *p, uint64_t now, uint64_t period_ns)
{
	if (p->on || !period_ns)
		return;
	p->on = true;
	p->period_ns = period_ns;
	p->next_ns = now + period_ns;
}

void vdisp_pipe_off(struct vdisp_pipe *p)
{
	p->on = false;
	latch_all(p);
}

void vdisp_pipe_arm(struct vdisp_pipe *p, unsigned s, uint32_t surf)
{
	if (s >= VDISP_SURFACES)
		return;
	p->armed_surf[s] = surf;
	p->armed |= (uint8_t)(1u << s);
	if (!p->on)
		latch(p, s);
}

struct vdisp_tick vdisp_pipe_tick(struct vdisp_pipe *p, uint64_t now)
{
	struct vdisp_tick t = { 0, 0 };
	uint64_t due;

	if (!p->on || now < p->next_ns)
		return t;
	/* Vblanks at next_ns, next_ns + period, ... up to now; the schedule
	 * keeps its phase, so PIPEDSL and the counter stay in step. */
	due = (now - p->next_ns) / p->period_ns + 1;
	p->next_ns += due * p->period_ns;
	t.vblanks = due > VDISP_CATCHUP_MAX ? VDISP_CATCHUP_MAX : (uint32_t)due;
	p->frames += t.vblanks;
	t.flipped = latch_all(p);
	if (t.flipped & (1u << PRIMARY))
		p->flips++;
	return t;
}

uint32_t vdisp_pipe_line(const struct vdisp_pipe *p, uint64_t now,
			 uint32_t vtotal, uint32_t vbl_start)
{
	uint64_t last, into;

	if (!p->on || !vtotal)
		return 0;
	if (vbl_start >= vtotal)
		vbl_start = 0;
	/* The most recent scheduled vblank start at or before now. */
	last = p->next_ns - p->period_ns;
	into = now > last ? (now - last) % p->period_ns : 0;
	return (uint32_t)((vbl_start + into * vtotal / p->period_ns) % vtotal);
}
