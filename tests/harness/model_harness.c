/* See model_harness.h. Host-only code: it may use the C library. */
#include "tests/harness/model_harness.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static void *phys_ptr(void *ctx, uint64_t hpa, size_t len)
{
	struct harness *h = ctx;

	if (hpa < H_PHYS_BASE || len > H_PHYS_SIZE ||
	    hpa - H_PHYS_BASE > H_PHYS_SIZE - len)
		return NULL;
	return h->phys + (hpa - H_PHYS_BASE);
}

static void irq_notify(void *ctx, bool asserted)
{
	struct harness *h = ctx;

	if (asserted)
		h->irq_edges++;
}

int h_init(struct harness *h, const struct gen9_model_config *cfg)
{
	struct gen9_model_config c = { 0 };
	struct gen9_model_mem mem;
	int ret;

	memset(h, 0, sizeof(*h));
	if (cfg)
		c = *cfg;
	if (!c.irq_notify) {
		c.irq_notify = irq_notify;
		c.irq_ctx = h;
	}
	h->regs = calloc(1, GEN9_MODEL_REGS_BYTES);
	h->ggtt = calloc(H_GGTT_ENTRIES, sizeof(uint64_t));
	h->phys = calloc(1, H_PHYS_SIZE);
	assert(h->regs && h->ggtt && h->phys);
	h->next_phys = H_PHYS_BASE + 4096; /* keep page 0 unused */
	h->next_ggtt = 64 * 4096; /* low GGTT left for tests' own use */
	h->dma.ctx = h;
	h->dma.phys_ptr = phys_ptr;
	mem.regs = h->regs;
	mem.ggtt = h->ggtt;
	mem.ggtt_entries = H_GGTT_ENTRIES;
	ret = gen9_model_init(&h->m, &c, &mem, &h->dma);
	if (ret)
		return ret;
	gen9_model_attach(&h->m, &h->hw);
	return 0;
}

void h_fini(struct harness *h)
{
	free(h->regs);
	free(h->ggtt);
	free(h->phys);
}

void *h_ptr(struct harness *h, uint64_t hpa)
{
	return phys_ptr(h, hpa, 1);
}

uint64_t h_alloc_pages(struct harness *h, unsigned int n)
{
	uint64_t hpa = h->next_phys;

	h->next_phys += (uint64_t)n * 4096;
	assert(h->next_phys <= H_PHYS_BASE + H_PHYS_SIZE);
	memset(h_ptr(h, hpa), 0, (size_t)n * 4096);
	return hpa;
}

uint64_t h_alloc_page(struct harness *h)
{
	return h_alloc_pages(h, 1);
}

void h_ggtt_map(struct harness *h, uint32_t gaddr, uint64_t hpa)
{
	gen9_model_ggtt_write(&h->m, gaddr >> 12, gen8_ggtt_pte_encode(hpa));
}

uint32_t h_ggtt_alloc(struct harness *h, unsigned int pages)
{
	uint32_t g = h->next_ggtt;
	uint64_t hpa = h_alloc_pages(h, pages);
	unsigned int i;

	for (i = 0; i < pages; i++)
		h_ggtt_map(h, g + i * 4096, hpa + i * 4096ull);
	h->next_ggtt += pages * 4096;
	return g;
}

void *h_gptr(struct harness *h, uint32_t gaddr)
{
	uint64_t pte = gen9_model_ggtt_read(&h->m, gaddr >> 12);

	if (!(pte & GEN8_PAGE_PRESENT))
		return NULL;
	return h_ptr(h, gen8_pte_addr(pte) + (gaddr & 4095));
}

uint64_t h_ppgtt_create(struct harness *h)
{
	return h_alloc_page(h);
}

static uint64_t *table_entry(struct harness *h, uint64_t table, unsigned int i)
{
	return (uint64_t *)h_ptr(h, table) + i;
}

/* Next-level table behind *e, created on first use. */
static uint64_t next_table(struct harness *h, uint64_t *e)
{
	if (!(*e & GEN8_PAGE_PRESENT))
		*e = h_alloc_page(h) | GEN8_PAGE_PRESENT | GEN8_PAGE_RW;
	return *e & GEN8_PTE_ADDR_MASK;
}

void h_ppgtt_map(struct harness *h, uint64_t pml4, uint64_t gva, uint64_t hpa,
		 bool writable)
{
	uint64_t pdp = next_table(h, table_entry(h, pml4, (gva >> 39) & 511));
	uint64_t pd = next_table(h, table_entry(h, pdp, (gva >> 30) & 511));
	uint64_t pt = next_table(h, table_entry(h, pd, (gva >> 21) & 511));

	*table_entry(h, pt, (gva >> 12) & 511) =
		hpa | GEN8_PAGE_PRESENT | (writable ? GEN8_PAGE_RW : 0);
}

uint64_t h_ppgtt_alloc(struct harness *h, uint64_t pml4, uint64_t gva,
		       unsigned int n)
{
	uint64_t hpa = h_alloc_pages(h, n);
	unsigned int i;

	for (i = 0; i < n; i++)
		h_ppgtt_map(h, pml4, gva + i * 4096ull, hpa + i * 4096ull, true);
	return hpa;
}

static void put_reg(uint32_t *st, unsigned int dw, uint32_t reg, uint32_t v)
{
	st[dw - 1] = reg;
	st[dw] = v;
}

/* The gen9 state page layout of gen9-facts §5 (first 0x34 dwords). */
void h_ctx_create(struct harness *h, struct h_ctx *c, enum gen9_engine_id id,
		  uint64_t pml4, uint32_t ctx_id)
{
	uint32_t base = gen9_engine_mmio_base(id);
	uint32_t *st;
	int n;

	memset(c, 0, sizeof(*c));
	c->engine = id;
	c->pml4 = pml4;
	c->ctx_id = ctx_id;
	c->addr_mode = INTEL_LEGACY_64B_CONTEXT;
	c->lrca = h_ggtt_alloc(h, id == GEN9_RCS0 ? 22 : 2);
	c->ring = h_ggtt_alloc(h, H_RING_SIZE / 4096);
	st = h_gptr(h, c->lrca + LRC_STATE_OFFSET);
	st[0] = MI_NOOP;
	st[CTX_LRI_HEADER_0] = GEN9_CTX_LRI_HEADER_0_VAL;
	put_reg(st, CTX_CONTEXT_CONTROL, RING_CONTEXT_CONTROL(base),
		_MASKED_BIT_ENABLE(CTX_CTRL_INHIBIT_SYN_CTX_SWITCH) |
			_MASKED_BIT_DISABLE(CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT |
					    CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT));
	put_reg(st, CTX_RING_HEAD, RING_HEAD(base), 0);
	put_reg(st, CTX_RING_TAIL, RING_TAIL(base), 0);
	put_reg(st, CTX_RING_START, RING_START(base), c->ring);
	put_reg(st, CTX_RING_CTL, RING_CTL(base),
		RING_CTL_SIZE(H_RING_SIZE) | RING_VALID);
	st[CTX_LRI_HEADER_1] = GEN9_CTX_LRI_HEADER_1_VAL;
	for (n = 0; n < 4; n++) {
		put_reg(st, CTX_PDP_UDW(n), GEN8_RING_PDP_UDW(base, n), 0);
		put_reg(st, CTX_PDP_LDW(n), GEN8_RING_PDP_LDW(base, n), 0);
	}
	st[CTX_PDP0_UDW] = (uint32_t)(pml4 >> 32);
	st[CTX_PDP0_LDW] = (uint32_t)pml4;
}

void h_emit(struct harness *h, struct h_ctx *c, uint32_t dw)
{
	uint32_t *p = h_gptr(h, c->ring + c->tail);

	*p = dw;
	c->tail = (c->tail + 4) % H_RING_SIZE;
}

void h_emitn(struct harness *h, struct h_ctx *c, const uint32_t *dw,
	     unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		h_emit(h, c, dw[i]);
}

uint32_t h_ctx_reg(struct harness *h, const struct h_ctx *c, unsigned int dw)
{
	return ((uint32_t *)h_gptr(h, c->lrca + LRC_STATE_OFFSET))[dw];
}

void h_ctx_commit(struct harness *h, struct h_ctx *c)
{
	uint32_t *st = h_gptr(h, c->lrca + LRC_STATE_OFFSET);

	/* Pad to a qword like i915 (tail is qword aligned). */
	if (c->tail & 7)
		h_emit(h, c, MI_NOOP);
	st[CTX_RING_TAIL] = c->tail;
}

uint64_t h_desc(const struct h_ctx *c)
{
	return GEN8_CTX_VALID | GEN8_CTX_PRIVILEGE |
	       ((uint64_t)c->addr_mode << GEN8_CTX_ADDRESSING_MODE_SHIFT) |
	       c->lrca | ((uint64_t)c->ctx_id << 32);
}

void h_engine_start(struct harness *h, enum gen9_engine_id id)
{
	uint32_t base = gen9_engine_mmio_base(id);

	if (!h->hwsp[id])
		h->hwsp[id] = h_ggtt_alloc(h, 1);
	h_wr(h, RING_HWSTAM(base), ~0u);
	h_wr(h, RING_MODE_GEN7(base), _MASKED_BIT_ENABLE(GFX_RUN_LIST_ENABLE));
	h_wr(h, RING_MI_MODE(base), _MASKED_BIT_DISABLE(STOP_RING));
	h_wr(h, RING_HWS_PGA(base), h->hwsp[id]);
	h_wr(h, RING_IMR(base), 0);
}

uint32_t *h_hwsp(struct harness *h, enum gen9_engine_id id)
{
	return h_gptr(h, h->hwsp[id]);
}

void h_elsp(struct harness *h, enum gen9_engine_id id, uint64_t d0,
	    uint64_t d1)
{
	uint32_t elsp = RING_ELSP(gen9_engine_mmio_base(id));

	h_wr(h, elsp, (uint32_t)(d1 >> 32));
	h_wr(h, elsp, (uint32_t)d1);
	h_wr(h, elsp, (uint32_t)(d0 >> 32));
	h_wr(h, elsp, (uint32_t)d0);
}

void h_run(struct harness *h, int polls)
{
	while (polls-- > 0)
		gen9_model_poll(&h->m);
}
