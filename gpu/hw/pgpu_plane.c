/* The physical pipe's plane 1 (pgpu_plane.h). */
#include "gpu/hw/pgpu_plane.h"

void pgpu_plane_init(struct pgpu_plane *p, struct gpu_hw *hw, unsigned pipe)
{
	*p = (struct pgpu_plane){ .hw = hw, .pipe = pipe };
	/* What is there now is unknown (the takeover turned it off): the
	 * first show writes every register. */
	p->cur.ctl = p->cur.stride = p->cur.pos = ~0u;
	p->cur.size = p->cur.offset = ~0u;
	p->cursor.ctl = p->cursor.pos = ~0u;
}

int pgpu_plane_pipe_size(struct pgpu_plane *p, uint32_t *w, uint32_t *h)
{
	uint32_t src;

	if (!(gpu_hw_read32(p->hw, SKL_TRANSCONF_A + 0x1000 * p->pipe) &
	      SKL_TRANSCONF_ENABLE))
		return -GPU_ENODEV;
	src = gpu_hw_read32(p->hw, SKL_PIPESRC(p->pipe));
	*w = (src >> 16 & 0xffff) + 1;
	*h = (src & 0xffff) + 1;
	return 0;
}

static unsigned put_reg(struct pgpu_plane *p, uint32_t reg, uint32_t *cur,
			uint32_t val)
{
	if (*cur == val)
		return 0;
	*cur = val;
	gpu_hw_write32(p->hw, reg, val);
	return 1;
}

static unsigned put(struct pgpu_plane *p, uint32_t reg, uint32_t *cur,
		    uint32_t val)
{
	return put_reg(p, SKL_PLANE1(p->pipe, reg), cur, val);
}

unsigned pgpu_plane_show(struct pgpu_plane *p, const struct pgpu_plane_regs *r)
{
	unsigned n = 0;

	/* skl_program_plane_noarm's order, then the arming writes. */
	n += put(p, SKL_PLANE_STRIDE_1, &p->cur.stride, r->stride);
	n += put(p, SKL_PLANE_POS_1, &p->cur.pos, r->pos);
	n += put(p, SKL_PLANE_SIZE_1, &p->cur.size, r->size);
	n += put(p, SKL_PLANE_OFFSET_1, &p->cur.offset, r->offset);
	n += put(p, SKL_PLANE_CTL_1, &p->cur.ctl, r->ctl);
	p->cur.surf = r->surf;
	gpu_hw_write32(p->hw, SKL_PLANE1(p->pipe, SKL_PLANE_SURF_1), r->surf);
	n++;
	p->on = true;
	p->writes += n;
	return n;
}

unsigned pgpu_plane_off(struct pgpu_plane *p)
{
	if (!p->on)
		return 0;
	p->on = false;
	p->cur.ctl = 0;
	p->cur.surf = 0;
	gpu_hw_write32(p->hw, SKL_PLANE1(p->pipe, SKL_PLANE_CTL_1), 0);
	gpu_hw_write32(p->hw, SKL_PLANE1(p->pipe, SKL_PLANE_SURF_1), 0);
	p->writes += 2;
	return 2;
}

unsigned pgpu_cursor_show(struct pgpu_plane *p, const struct pgpu_cursor_regs *r)
{
	unsigned n = 0;

	n += put_reg(p, SKL_CURCNTR(p->pipe), &p->cursor.ctl, r->ctl);
	n += put_reg(p, SKL_CURPOS(p->pipe), &p->cursor.pos, r->pos);
	p->cursor.base = r->base;
	gpu_hw_write32(p->hw, SKL_CURBASE(p->pipe), r->base);
	n++;
	p->cursor_on = true;
	p->writes += n;
	return n;
}

unsigned pgpu_cursor_off(struct pgpu_plane *p)
{
	if (!p->cursor_on)
		return 0;
	p->cursor_on = false;
	p->cursor.ctl = 0;
	p->cursor.base = 0;
	gpu_hw_write32(p->hw, SKL_CURCNTR(p->pipe), 0);
	gpu_hw_write32(p->hw, SKL_CURBASE(p->pipe), 0);
	p->writes += 2;
	return 2;
}
