/* Memory access on behalf of an engine: translate through the GGTT or the
 * running context's PPGTT, then DMA. A failure is remembered in the engine
 * so the command streamer can report it as the hardware would. */
#include "gpu/model/model_internal.h"
#include "mini/string.h"

static int translate(struct gen9_model *m, struct gen9_model_engine *e,
		     uint64_t gaddr, bool ggtt, bool write, uint64_t *hpa,
		     enum gen9_model_fault_kind *why)
{
	if (ggtt) {
		*why = GEN9_MODEL_FAULT_GGTT;
		return model_ggtt_translate(m, gaddr & GEN9_GENMASK_ULL(47, 0),
					    hpa);
	}
	return model_ppgtt_translate(m, &e->ctx, gaddr, write, hpa, why);
}

static int record(struct gen9_model_engine *e, enum gen9_model_fault_kind why,
		  uint64_t gaddr, bool ggtt)
{
	e->fault.kind = why;
	e->fault.addr = gaddr;
	e->fault.ggtt = ggtt;
	return -GPU_EFAULT;
}

int model_dma_copy(struct gen9_model *m, uint64_t gaddr, void *buf,
		   size_t len, bool write, model_xlate_fn xlate, void *ctx,
		   uint64_t *at)
{
	uint8_t *p = buf;

	while (len) {
		size_t in_page = GEN9_PAGE_SIZE - (gaddr & (GEN9_PAGE_SIZE - 1));
		size_t n = len < in_page ? len : in_page;
		uint64_t hpa;
		void *mem;

		*at = gaddr;
		if (xlate(m, ctx, gaddr, &hpa))
			return MODEL_COPY_UNMAPPED;
		mem = gpu_dma_ptr(&m->dma, hpa, n);
		if (!mem) {
			m->stats.dma_errors++;
			return MODEL_COPY_NO_DMA;
		}
		if (write)
			memcpy(mem, p, n);
		else
			memcpy(p, mem, n);
		gaddr += n;
		p += n;
		len -= n;
	}
	return 0;
}

/* An engine's view: GGTT or its context's PPGTT; why a page failed. */
struct engine_view {
	struct gen9_model_engine *e;
	bool ggtt, write;
	enum gen9_model_fault_kind why;
};

static int engine_xlate(struct gen9_model *m, void *ctx, uint64_t gaddr,
			uint64_t *hpa)
{
	struct engine_view *v = ctx;

	return translate(m, v->e, gaddr, v->ggtt, v->write, hpa, &v->why);
}

int model_gpu_rw(struct gen9_model *m, struct gen9_model_engine *e,
		 uint64_t gaddr, bool ggtt, void *buf, size_t len, bool write)
{
	struct engine_view v = { e, ggtt, write, GEN9_MODEL_FAULT_NONE };
	uint64_t at;
	int ret = model_dma_copy(m, gaddr, buf, len, write, engine_xlate, &v,
				 &at);

	if (ret == MODEL_COPY_NO_DMA)
		return record(e, GEN9_MODEL_FAULT_DMA, at, ggtt);
	if (ret)
		return record(e, v.why, at, ggtt);
	return 0;
}

int gen9_model_translate(struct gen9_model *m, enum gen9_engine_id id,
			 uint64_t gaddr, bool ggtt, bool write, uint64_t *hpa)
{
	enum gen9_model_fault_kind why;

	if ((unsigned int)id >= GEN9_NUM_ENGINES)
		return -GPU_EINVAL;
	return translate(m, &m->engine[id], gaddr, ggtt, write, hpa, &why);
}
