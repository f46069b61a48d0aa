/* The Gen9 model as the studies' platform; see evcommon.h. Apart from
 * evcommon.c so a study that does not link the model need not. */
#include "tools/eval/common/evcommon.h"

#include <stdlib.h>
#include <string.h>

static void *no_dma(void *ctx, uint64_t hpa, size_t len)
{
	(void)ctx;
	(void)hpa;
	(void)len;
	return NULL;
}

int ev_model_init(struct ev_model *em, uint32_t ggtt_entries,
		  uint64_t aperture_bytes)
{
	static const struct gpu_dma dma = { NULL, no_dma };
	struct gen9_model_config cfg = { .aperture_size = aperture_bytes };
	struct gen9_model_mem mem;

	memset(em, 0, sizeof(*em));
	em->regs = calloc(1, GEN9_MODEL_REGS_BYTES);
	em->ggtt = calloc(ggtt_entries, sizeof(uint64_t));
	if (!em->regs || !em->ggtt)
		return -1;
	mem.regs = em->regs;
	mem.ggtt = em->ggtt;
	mem.ggtt_entries = ggtt_entries;
	if (gen9_model_init(&em->model, &cfg, &mem, &dma))
		return -1;
	gen9_model_attach(&em->model, &em->hw);
	return 0;
}

void ev_model_fini(struct ev_model *em)
{
	free(em->regs);
	free(em->ggtt);
}
