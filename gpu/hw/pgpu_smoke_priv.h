/* Shared by the smoke test's two files; not an API. */
#ifndef GPU_HW_PGPU_SMOKE_PRIV_H
#define GPU_HW_PGPU_SMOKE_PRIV_H

#include "gpu/hw/pgpu_smoke.h"

#define SMOKE_MAX_ALLOCS 32

/* Pages of ours: CPU view, host-physical address, GGTT address (0 when
 * not mapped in the GGTT). */
struct smoke_buf {
	uint8_t *va;
	uint64_t hpa;
	uint32_t gm;
	unsigned int pages;
};

struct smoke {
	struct pgpu *p;
	const struct pgpu_smoke_env *env;
	struct pgpu_smoke_result *r;
	uint32_t gm_next, gm_end; /* GGTT bytes the test may still map */
	struct smoke_buf allocs[SMOKE_MAX_ALLOCS];
	unsigned int nr_allocs;
	uint32_t fw_acked; /* GEN9_FW_*_BIT that acked */
	bool engine_up[GEN9_NUM_ENGINES];
	struct smoke_buf target; /* MI_STORE_DWORD_IMM lands here */
	uint32_t next_ctx_id;
};

/* One result line: "gpu-smoke: PASS  name  N us  detail". */
void smoke_say(struct smoke *s, int verdict, const char *name, uint64_t us,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define SMOKE_PASS 0
#define SMOKE_FAIL 1
#define SMOKE_SKIP 2
/* n pages from the environment, mapped in our GGTT range when gtt. */
int smoke_buf(struct smoke *s, unsigned int n, bool gtt, struct smoke_buf *b);
uint64_t smoke_now(const struct smoke *s);

/* pgpu_smoke_engines.c */
void smoke_engines(struct smoke *s);
void smoke_blit(struct smoke *s);
void smoke_msi(struct smoke *s);
void smoke_reset(struct smoke *s);

#endif
