/* pGPU engines: execlist bring-up, ELSP submission, CSB processing and
 * engine reset (gen9-facts §4, §10). */
#include "gpu/hw/pgpu.h"
#include "mini/string.h"

static struct pgpu_engine *get_engine(struct pgpu *p, enum gen9_engine_id id)
{
	if ((unsigned int)id >= GEN9_NUM_ENGINES || !p->engine[id].present)
		return NULL;
	return &p->engine[id];
}

static void csb_reset(struct pgpu *p, struct pgpu_engine *e)
{
	int i;

	/* Read and write pointers to the last slot, as i915 does: the next
	 * entry the hardware writes is slot 0, which is the first we read. */
	gpu_hw_write32(p->hw, RING_CONTEXT_STATUS_PTR(e->base),
		       GEN8_CSB_PTR_RESET_VALUE);
	e->csb_head = GEN8_CSB_ENTRIES - 1;
	if (!e->hwsp)
		return;
	for (i = 0; i < 2 * GEN8_CSB_ENTRIES; i++) /* stale-entry marker */
		((volatile uint32_t *)e->hwsp)[I915_HWS_CSB_BUF0_INDEX + i] = ~0u;
	((volatile uint32_t *)e->hwsp)[I915_HWS_CSB_WRITE_INDEX] =
		GEN8_CSB_ENTRIES - 1;
}

/* An engine reset clears the engine's RING_IMR: put back what
 * pgpu_irq_setup enabled for it (nothing when interrupts are not used). */
static void restore_irq_mask(struct pgpu *p, enum gen9_engine_id id,
			     struct pgpu_engine *e)
{
	uint32_t bits = p->irq_mask[gen9_engine_irq_bank(id)] &
			(0xffffu << gen9_engine_irq_shift(id));

	if (bits)
		gpu_hw_write32(p->hw, RING_IMR(e->base), ~bits);
}

/* enable_execlists() order (gen9-facts §4.2). */
int pgpu_engine_init(struct pgpu *p, enum gen9_engine_id id,
		     uint32_t hwsp_ggtt, uint32_t *hwsp)
{
	struct pgpu_engine *e = get_engine(p, id);
	struct gpu_hw *hw = p->hw;

	if (!e || (hwsp_ggtt & (GEN9_PAGE_SIZE - 1)))
		return -GPU_EINVAL;
	e->hwsp_ggtt = hwsp_ggtt;
	e->hwsp = hwsp;
	gpu_hw_write32(hw, RING_HWSTAM(e->base), ~0u);
	gpu_hw_write32(hw, RING_MODE_GEN7(e->base),
		       _MASKED_BIT_ENABLE(GFX_RUN_LIST_ENABLE));
	gpu_hw_write32(hw, RING_MI_MODE(e->base), _MASKED_BIT_DISABLE(STOP_RING));
	gpu_hw_write32(hw, RING_HWS_PGA(e->base), hwsp_ggtt);
	gpu_hw_posting_read(hw, RING_HWS_PGA(e->base));
	/* Page-table and instruction errors raise the CS error interrupt. */
	gpu_hw_write32(hw, RING_EMR(e->base),
		       ~(I915_ERROR_PAGE_TABLE | I915_ERROR_INSTRUCTION));
	gpu_hw_write32(hw, RING_EIR(e->base), ~0u);
	csb_reset(p, e);
	memset(e->port, 0, sizeof(e->port));
	memset(e->pending, 0, sizeof(e->pending));
	e->active = false;
	e->watch.armed = false;
	restore_irq_mask(p, id, e);
	e->enabled = true;
	return 0;
}

uint64_t pgpu_lrc_descriptor(uint32_t lrca, uint32_t ctx_id,
			     unsigned int addressing_mode)
{
	return GEN8_CTX_VALID | GEN8_CTX_PRIVILEGE |
	       ((uint64_t)(addressing_mode & 3) << GEN8_CTX_ADDRESSING_MODE_SHIFT) |
	       (lrca & GEN8_CTX_LRCA_MASK) |
	       ((uint64_t)ctx_id << GEN8_CTX_ID_SHIFT);
}

/* Element 1 first, element 0 low dword last: that write triggers the
 * hardware (gen9-facts §4.3). A pair still waiting for its IDLE_TO_ACTIVE /
 * PREEMPTED acknowledgement blocks the port, as in i915. */
int pgpu_execlist_submit(struct pgpu *p, enum gen9_engine_id id,
			 uint64_t desc0, uint64_t desc1)
{
	struct pgpu_engine *e = get_engine(p, id);
	uint32_t elsp;

	if (!e || !e->enabled || !(desc0 & GEN8_CTX_VALID))
		return -GPU_EINVAL;
	if (e->pending[0])
		return -GPU_EBUSY;
	elsp = RING_ELSP(e->base);
	gpu_hw_write32(p->hw, elsp, (uint32_t)(desc1 >> 32));
	gpu_hw_write32(p->hw, elsp, (uint32_t)desc1);
	gpu_hw_write32(p->hw, elsp, (uint32_t)(desc0 >> 32));
	gpu_hw_write32(p->hw, elsp, (uint32_t)desc0);
	e->pending[0] = desc0;
	e->pending[1] = desc1;
	e->submits++;
	return 0;
}

static uint32_t csb_write_ptr(struct pgpu *p, struct pgpu_engine *e)
{
	if (e->hwsp)
		return ((volatile uint32_t *)e->hwsp)[I915_HWS_CSB_WRITE_INDEX];
	return gpu_hw_read32(p->hw, RING_CONTEXT_STATUS_PTR(e->base)) &
	       GEN8_CSB_PTR_MASK;
}

static void csb_read(struct pgpu *p, struct pgpu_engine *e, unsigned int i,
		     struct pgpu_csb_event *ev)
{
	if (e->hwsp) {
		volatile uint32_t *h = e->hwsp;

		ev->status = h[I915_HWS_CSB_BUF0_INDEX + 2 * i];
		ev->ctx_id = h[I915_HWS_CSB_BUF0_INDEX + 2 * i + 1];
		return;
	}
	ev->status = gpu_hw_read32(p->hw, RING_CONTEXT_STATUS_BUF_LO(e->base, i));
	ev->ctx_id = gpu_hw_read32(p->hw, RING_CONTEXT_STATUS_BUF_HI(e->base, i));
}

/* i915's reading of an entry (gen8-11 path, gen9-facts §4.5):
 * IDLE_TO_ACTIVE or PREEMPTED promotes the pending pair; anything else
 * means element 0 finished and element 1, if any, moves up. */
static void csb_track(struct pgpu_engine *e, const struct pgpu_csb_event *ev)
{
	if (ev->status & (GEN8_CTX_STATUS_IDLE_ACTIVE | GEN8_CTX_STATUS_PREEMPTED)) {
		if (ev->status & GEN8_CTX_STATUS_PREEMPTED)
			e->preempts++;
		e->port[0] = e->pending[0];
		e->port[1] = e->pending[1];
		e->pending[0] = e->pending[1] = 0;
		e->active = true;
		return;
	}
	if (ev->status & GEN8_CTX_STATUS_COMPLETE)
		e->completes++;
	e->port[0] = e->port[1];
	e->port[1] = 0;
	if (ev->status & GEN8_CTX_STATUS_ACTIVE_IDLE)
		e->active = false;
}

int pgpu_csb_process(struct pgpu *p, enum gen9_engine_id id,
		     struct pgpu_csb_event *ev, int max)
{
	struct pgpu_engine *e = get_engine(p, id);
	uint32_t tail, head;
	int n = 0;

	if (!e || !e->enabled || max < 0 || (max && !ev))
		return -GPU_EINVAL;
	tail = csb_write_ptr(p, e);
	if (tail >= GEN8_CSB_ENTRIES) /* 7: nothing written since reset */
		return 0;
	head = e->csb_head;
	while (head != tail && n < max) {
		head = (head + 1) % GEN8_CSB_ENTRIES;
		csb_read(p, e, head, &ev[n]);
		csb_track(e, &ev[n]);
		n++;
	}
	if (n) {
		e->csb_head = (uint8_t)head;
		e->csb_events += (uint64_t)n;
		gpu_hw_write32(p->hw, RING_CONTEXT_STATUS_PTR(e->base),
			       _MASKED_FIELD(GEN8_CSB_READ_PTR_MASK,
					     head << GEN8_CSB_READ_PTR_SHIFT));
	}
	return n;
}

bool pgpu_engine_idle(struct pgpu *p, enum gen9_engine_id id)
{
	struct pgpu_engine *e = get_engine(p, id);

	return !e || (!e->active && !e->pending[0]);
}

uint32_t pgpu_engine_error(struct pgpu *p, enum gen9_engine_id id)
{
	struct pgpu_engine *e = get_engine(p, id);

	return e ? gpu_hw_read32(p->hw, RING_EIR(e->base)) : 0;
}

/* ---- watchdog ----------------------------------------------------------- */

static uint64_t acthd(struct pgpu *p, const struct pgpu_engine *e)
{
	return (uint64_t)gpu_hw_read32(p->hw, RING_ACTHD_UDW(e->base)) << 32 |
	       gpu_hw_read32(p->hw, RING_ACTHD(e->base));
}

bool pgpu_engine_hung(struct pgpu *p, enum gen9_engine_id id,
		      uint64_t now_us, uint64_t limit_us)
{
	struct pgpu_engine *e = get_engine(p, id);
	uint64_t a;
	uint32_t head;

	if (!e || !e->enabled || (!e->active && !e->pending[0])) {
		if (e)
			e->watch.armed = false;
		return false;
	}
	a = acthd(p, e);
	head = gpu_hw_read32(p->hw, RING_HEAD(e->base)) & HEAD_ADDR;
	if (!e->watch.armed || a != e->watch.acthd || head != e->watch.head ||
	    e->csb_events != e->watch.csb_events) {
		e->watch.armed = true;
		e->watch.acthd = a;
		e->watch.head = head;
		e->watch.csb_events = e->csb_events;
		e->watch.since_us = now_us;
		return false;
	}
	if (now_us - e->watch.since_us < limit_us)
		return false;
	e->hangs++;
	p->stats.hangs++;
	e->watch.since_us = now_us; /* one verdict per limit_us */
	return true;
}

/* ---- reset: gen9-facts §10 ---------------------------------------------- */

static void forget(struct pgpu_engine *e)
{
	e->enabled = false;
	e->active = false;
	memset(e->port, 0, sizeof(e->port));
	memset(e->pending, 0, sizeof(e->pending));
	e->csb_head = GEN8_CSB_ENTRIES - 1;
	e->watch.armed = false;
	e->resets++;
}

/* Write the domain mask and wait for the hardware to clear it; twice, as
 * i915 does before MTL. */
static int gdrst(struct pgpu *p, uint32_t mask)
{
	int i, ret;

	for (i = 0; i < 2; i++) {
		gpu_hw_write32(p->hw, GEN6_GDRST, mask);
		ret = gpu_hw_wait_for(p->hw, GEN6_GDRST, mask, 0,
				      PGPU_GDRST_TIMEOUT_US);
		if (ret) {
			p->stats.reset_timeouts++;
			return ret;
		}
	}
	return 0;
}

/* gen8_engine_reset_prepare: a pending catastrophic error is cleared (and
 * its bit waited for) instead of the usual request. */
static int reset_prepare(struct pgpu *p, struct pgpu_engine *e)
{
	uint32_t reg = RING_RESET_CTL(e->base), request, mask, ack;

	if (gpu_hw_read32(p->hw, reg) & RESET_CTL_CAT_ERROR) {
		request = RESET_CTL_CAT_ERROR;
		mask = RESET_CTL_CAT_ERROR;
		ack = 0;
	} else {
		request = RESET_CTL_REQUEST_RESET;
		mask = ack = RESET_CTL_READY_TO_RESET;
	}
	gpu_hw_write32(p->hw, reg, _MASKED_BIT_ENABLE(request));
	return gpu_hw_wait_for(p->hw, reg, mask, ack,
			       PGPU_RESET_READY_TIMEOUT_US);
}

static void reset_cancel(struct pgpu *p, struct pgpu_engine *e)
{
	gpu_hw_write32(p->hw, RING_RESET_CTL(e->base),
		       _MASKED_BIT_DISABLE(RESET_CTL_REQUEST_RESET));
}

/* Stop the command streamer; a hung one may never report idle, and the
 * reset goes ahead regardless (as in i915). */
static void stop_ring(struct pgpu *p, struct pgpu_engine *e)
{
	gpu_hw_write32(p->hw, RING_MI_MODE(e->base),
		       _MASKED_BIT_ENABLE(STOP_RING));
	(void)gpu_hw_wait_for(p->hw, RING_MI_MODE(e->base), MODE_IDLE,
			      MODE_IDLE, 1000);
}

/* One engine: i915 tries once (retries = 1 for an engine mask that is not
 * all engines), and an engine that never gets ready is not reset: the
 * caller escalates (pgpu_full_reset). */
int pgpu_engine_reset(struct pgpu *p, enum gen9_engine_id id)
{
	struct pgpu_engine *e = get_engine(p, id);
	int ret;

	if (!e)
		return -GPU_EINVAL;
	stop_ring(p, e);
	ret = reset_prepare(p, e);
	if (ret)
		p->stats.reset_timeouts++;
	else
		ret = gdrst(p, gen9_engine_reset_domain(id));
	reset_cancel(p, e);
	if (ret)
		return ret;
	forget(e);
	p->stats.engine_resets++;
	return 0;
}

/* One attempt at the whole GT: every present engine prepared (the first
 * attempt gives up if one is not ready; later ones go ahead: i915's
 * reset_non_ready), GDRST FULL, every request withdrawn. */
static int full_attempt(struct pgpu *p, unsigned int attempt)
{
	bool skip = false;
	int id, ret = 0;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pgpu_engine *e = &p->engine[id];

		if (!e->present || !reset_prepare(p, e))
			continue;
		p->stats.reset_timeouts++;
		if (attempt == 0)
			skip = true;
		else
			p->stats.resets_not_ready++;
	}
	ret = skip ? -GPU_ETIMEDOUT : gdrst(p, GEN6_GRDOM_FULL);
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (p->engine[id].present)
			reset_cancel(p, &p->engine[id]);
	return ret;
}

int pgpu_full_reset(struct pgpu *p)
{
	int id, ret = -GPU_ETIMEDOUT;

	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (p->engine[id].present)
			stop_ring(p, &p->engine[id]);
	for (unsigned int a = 0; ret == -GPU_ETIMEDOUT &&
				 a < PGPU_RESET_MAX_TRIES; a++)
		ret = full_attempt(p, a);
	if (ret) {
		p->stats.full_reset_failures++;
		return ret;
	}
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (p->engine[id].present)
			forget(&p->engine[id]);
	p->stats.engine_resets++;
	p->stats.full_resets++;
	return 0;
}
