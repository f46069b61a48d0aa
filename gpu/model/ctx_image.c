/* Context save and restore: every register a context owns goes into its
 * image when the context is switched out and comes back from the image
 * when it is loaded again, for every engine, at the offsets of the Gen9
 * layout (gpu/hw/gen9_ctx_image.h). Nothing one context leaves in the
 * engine is visible to the next: a context's registers are its image's,
 * or the defaults when the image is not restored (restore inhibit: a new
 * context), never what the previous context left.
 *
 * The ring context and the PDPs are loaded always (the engine needs them
 * to run at all); restore inhibit skips the engine and render state and
 * sets those registers to their defaults (0). Lite restore (execlist.c)
 * keeps what is loaded. */
#include "gpu/hw/gen9_ctx_image.h"
#include "gpu/model/model_internal.h"

/* State-page registers the model does not take from an image: MI_MODE
 * carries the host's STOP_RING handshake and the idle status, and
 * RING_TIMESTAMP is the free-running clock (regs.c computes both on read).
 * CTX_TIMESTAMP (0x3a8) is the context's own clock: taken from the image
 * at load, counting at the command-streamer rate while the context is on
 * the engine, frozen and written back at switch-out (model_ctx_ts_*). */
static bool host_owned(uint16_t rel)
{
	return rel == 0x09c || rel == 0x358;
}

static uint32_t render_state_dwords(void)
{
	return gen9_rcs_render_state_dwords();
}

/* Copy the render state between the register file and buf (to_regs:
 * buf -> registers; buf NULL: defaults). */
static void render_state_move(struct gen9_model *m, uint32_t *buf, bool to_regs)
{
	uint32_t k, reg, i = 0;

	for (k = 0; k < GEN9_RCS_RENDER_SPANS; k++)
		for (reg = gen9_rcs_render_state[k].first;
		     reg <= gen9_rcs_render_state[k].last; reg += 4, i++) {
			if (!to_regs)
				buf[i] = mreg(m, reg);
			else
				mreg_set(m, reg, buf ? buf[i] : 0);
		}
}

/* Registers of the state page's blocks from st (NULL: defaults), blocks
 * first .. GEN9_CTX_BLOCKS - 1. */
static void blocks_load(struct gen9_model *m, struct gen9_model_engine *e,
			const uint32_t *st, unsigned int first)
{
	struct gen9_ctx_block b[GEN9_CTX_BLOCKS];
	unsigned int k, i;

	gen9_ctx_blocks(e->id, b);
	for (k = first; k < GEN9_CTX_BLOCKS; k++)
		for (i = 0; i < b[k].n; i++) {
			uint32_t v = st ? st[b[k].at + 2 + 2 * i] : 0;

			if (b[k].regs[i] == 0x3a8)
				model_ctx_ts_write(m, e, v);
			else if (!host_owned(b[k].regs[i]))
				mreg_set(m, e->base + b[k].regs[i], v);
		}
}

static void blocks_save(struct gen9_model *m, struct gen9_model_engine *e,
			uint32_t *st)
{
	struct gen9_ctx_block b[GEN9_CTX_BLOCKS];
	unsigned int k, i;

	gen9_ctx_blocks(e->id, b);
	for (k = 0; k < GEN9_CTX_BLOCKS; k++)
		for (i = 0; i < b[k].n; i++) {
			uint16_t rel = b[k].regs[i];
			uint32_t v = mreg(m, e->base + rel);

			if (rel == 0x244 || rel == 0x09c)
				continue; /* the driver's, as loaded */
			if (rel == 0x358)
				v = (uint32_t)model_timestamp(m);
			else if (rel == 0x3a8)
				v = model_ctx_ts_read(m, e);
			st[b[k].at + 2 + 2 * i] = v;
		}
}

uint32_t model_ctx_ts_read(const struct gen9_model *m,
			   const struct gen9_model_engine *e)
{
	if (!e->ctx_ts_live)
		return e->ctx_ts;
	return e->ctx_ts + (uint32_t)(model_timestamp(m) - e->ctx_ts_at);
}

/* From an image load, a command or the CPU: the clock counts from here
 * while the engine runs a context, and holds the value when it is idle. */
void model_ctx_ts_write(struct gen9_model *m, struct gen9_model_engine *e,
			uint32_t val)
{
	e->ctx_ts = val;
	e->ctx_ts_at = model_timestamp(m);
	e->ctx_ts_live = e->active;
	mreg_set(m, e->base + 0x3a8, val);
}

void model_ctx_ts_stop(struct gen9_model *m, struct gen9_model_engine *e)
{
	e->ctx_ts = model_ctx_ts_read(m, e);
	e->ctx_ts_live = false;
	mreg_set(m, e->base + 0x3a8, e->ctx_ts);
}

int model_ctx_image_load(struct gen9_model *m, struct gen9_model_engine *e,
			 uint32_t lrca, uint32_t *st, uint64_t *fault_at)
{
	uint32_t rs[GEN9_CTX_RENDER_STATE_MAX];
	uint64_t at = (uint64_t)lrca + LRC_STATE_OFFSET;
	bool restore;

	if (model_ggtt_rw(m, at, st, GEN9_CTX_REG_STATE_DWORDS * 4, false)) {
		*fault_at = at;
		return -GPU_EFAULT;
	}
	restore = !(st[CTX_CONTEXT_CONTROL] & CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT);
	blocks_load(m, e, st, 0);
	if (!restore)
		blocks_load(m, e, NULL, GEN9_CTX_ENGINE_STATE_BLOCK);
	e->stats.ctx_image_dwords += GEN9_CTX_REG_STATE_DWORDS;
	if (e->id != GEN9_RCS0)
		return 0;
	if (!restore) {
		render_state_move(m, NULL, true);
		return 0;
	}
	at = (uint64_t)lrca + GEN9_CTX_RENDER_STATE_OFFSET;
	if (model_ggtt_rw(m, at, rs, render_state_dwords() * 4, false)) {
		*fault_at = at;
		return -GPU_EFAULT;
	}
	render_state_move(m, rs, true);
	e->stats.ctx_image_dwords += render_state_dwords();
	return 0;
}

void model_ctx_image_save(struct gen9_model *m, struct gen9_model_engine *e)
{
	uint32_t st[GEN9_CTX_REG_STATE_DWORDS], rs[GEN9_CTX_RENDER_STATE_MAX];
	uint64_t at = (uint64_t)e->ctx.lrca + LRC_STATE_OFFSET;

	/* Read-modify-write: only the value dwords change. */
	if (model_ggtt_rw(m, at, st, sizeof(st), false)) {
		m->stats.dma_errors++;
		return;
	}
	blocks_save(m, e, st);
	if (model_ggtt_rw(m, at, st, sizeof(st), true))
		m->stats.dma_errors++;
	e->stats.ctx_image_dwords += GEN9_CTX_REG_STATE_DWORDS;
	if (e->id != GEN9_RCS0)
		return;
	render_state_move(m, rs, false);
	if (model_ggtt_rw(m, (uint64_t)e->ctx.lrca + GEN9_CTX_RENDER_STATE_OFFSET,
			  rs, render_state_dwords() * 4, true))
		m->stats.dma_errors++;
	e->stats.ctx_image_dwords += render_state_dwords();
}
