/* Forcewake, GDRST and the PCODE mailbox: the "uncore" handshakes a
 * driver polls on (gen9-facts §8, §10). Acks and reset completion can be
 * delayed by a number of polls so drivers' wait loops are exercised. */
#include "gpu/model/model_internal.h"
#include "gpu/model/uncore.h"

static const uint32_t fw_req[GEN9_FW_DOMAINS] = {
	[GEN9_FW_RENDER] = FORCEWAKE_RENDER_GEN9,
	[GEN9_FW_GT] = FORCEWAKE_GT_GEN9,
	[GEN9_FW_MEDIA] = FORCEWAKE_MEDIA_GEN9,
};
static const uint32_t fw_ack[GEN9_FW_DOMAINS] = {
	[GEN9_FW_RENDER] = FORCEWAKE_ACK_RENDER_GEN9,
	[GEN9_FW_GT] = FORCEWAKE_ACK_GT_GEN9,
	[GEN9_FW_MEDIA] = FORCEWAKE_ACK_MEDIA_GEN9,
};

int model_fw_domain(uint32_t off, bool *is_ack)
{
	int d;

	for (d = 0; d < GEN9_FW_DOMAINS; d++) {
		if (off == fw_req[d] || off == fw_ack[d]) {
			*is_ack = off == fw_ack[d];
			return d;
		}
	}
	return -1;
}

static void fw_ack_now(struct gen9_model *m, int d)
{
	mreg_set(m, fw_ack[d], mreg(m, fw_req[d]) & 0xffff);
}

/* Request registers are masked; the ack mirrors the request's low half,
 * as GVT models it. */
void model_fw_write(struct gen9_model *m, int d, uint32_t val)
{
	mreg_set(m, fw_req[d], gen9_masked_update(mreg(m, fw_req[d]), val));
	m->stats.fw_requests++;
	if (m->cfg.fw_never_ack)
		return;
	if (m->cfg.fw_ack_delay_polls)
		m->fw_delay[d] = m->cfg.fw_ack_delay_polls;
	else
		fw_ack_now(m, d);
}

static void do_gdrst(struct gen9_model *m, uint32_t bits)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct gen9_model_engine *e = &m->engine[id];

		if (e->present && (bits & (GEN6_GRDOM_FULL |
					   gen9_engine_reset_domain(e->id))))
			model_engine_reset(m, e);
	}
	mreg_set(m, GEN6_GDRST, 0);
}

void model_gdrst_write(struct gen9_model *m, uint32_t val)
{
	uint32_t valid = GEN6_GRDOM_FULL | GEN6_GRDOM_RENDER | GEN6_GRDOM_MEDIA |
			 GEN6_GRDOM_BLT | GEN6_GRDOM_VECS | GEN9_GRDOM_GUC |
			 GEN8_GRDOM_MEDIA2;

	val &= valid;
	if (!val)
		return;
	m->stats.gdrst_requests++;
	mreg_set(m, GEN6_GDRST, mreg(m, GEN6_GDRST) | val);
	if (m->cfg.reset_never_done)
		return;
	if (m->cfg.reset_delay_polls)
		m->gdrst_delay = m->cfg.reset_delay_polls;
	else
		do_gdrst(m, mreg(m, GEN6_GDRST));
}

/* Per-engine reset handshake: READY_TO_RESET follows REQUEST_RESET. */
void model_reset_ctl_write(struct gen9_model *m, struct gen9_model_engine *e,
			   uint32_t val)
{
	uint32_t v = gen9_masked_update(mreg(m, RING_RESET_CTL(e->base)), val);

	v &= ~RESET_CTL_READY_TO_RESET;
	if ((v & RESET_CTL_REQUEST_RESET) && !m->cfg.reset_never_ready)
		v |= RESET_CTL_READY_TO_RESET;
	mreg_set(m, RING_RESET_CTL(e->base), v);
}

/* Answers what GVT answers (gen9-facts §8); every command succeeds. */
void model_pcode_write(struct gen9_model *m, uint32_t val)
{
	if (val & GEN6_PCODE_READY) {
		switch (val & 0xff) {
		case 0x6: /* GEN9_PCODE_READ_MEM_LATENCY */
			mreg_set(m, GEN6_PCODE_DATA, 0x1e1a1100);
			mreg_set(m, GEN6_PCODE_DATA1, 0x61514b3d);
			break;
		case 0x7: /* SKL_PCODE_CDCLK_CONTROL */
			mreg_set(m, GEN6_PCODE_DATA, 1);
			break;
		default:
			break;
		}
	}
	mreg_set(m, GEN6_PCODE_MAILBOX, val & ~(GEN6_PCODE_READY | 0xffu));
}

/* Called once per poll: delayed acks and resets come due. */
void model_uncore_tick(struct gen9_model *m)
{
	int d;

	for (d = 0; d < GEN9_FW_DOMAINS; d++) {
		if (m->fw_delay[d] && --m->fw_delay[d] == 0)
			fw_ack_now(m, d);
	}
	if (m->gdrst_delay && --m->gdrst_delay == 0)
		do_gdrst(m, mreg(m, GEN6_GDRST));
}
