/* Shared between the files of the Gen9 model; not an API. */
#ifndef GPU_MODEL_MODEL_INTERNAL_H
#define GPU_MODEL_MODEL_INTERNAL_H

#include "gpu/hw/gen9_cmds.h"
#include "gpu/model/gen9_model.h"
#include "mini/string.h"

/* Raw register file access, no side effects. */
static inline uint32_t mreg(const struct gen9_model *m, uint32_t off)
{
	return m->regs[(off & (GEN9_MMIO_SIZE - 1)) >> 2];
}

static inline void mreg_set(struct gen9_model *m, uint32_t off, uint32_t v)
{
	off &= GEN9_MMIO_SIZE - 1;
	m->regs[off >> 2] = v;
	if (m->reg_dirty)
		m->reg_dirty[off >> 12] = 1;
}

/* Zero [off, off + bytes), bytes a multiple of 4, inside the file. */
static inline void mreg_zero(struct gen9_model *m, uint32_t off, uint32_t bytes)
{
	uint32_t p;

	off &= GEN9_MMIO_SIZE - 1;
	memset(&m->regs[off >> 2], 0, bytes);
	for (p = off >> 12; m->reg_dirty && p <= (off + bytes - 1) >> 12; p++)
		m->reg_dirty[p] = 1;
}

/* regs.c: the lookup tables for m's engines (at init; -GPU_EINVAL if
 * the list outgrows GEN9_MODEL_KNOWN_PAGES); whether dword offset off is
 * a register the model implements or deliberately stores. */
int model_regmap_build(struct gen9_model *m);
bool model_reg_is_known(const struct gen9_model *m, uint32_t off);

/* ggtt.c */
int model_ggtt_translate(struct gen9_model *m, uint64_t gaddr, uint64_t *hpa);
/* ppgtt_walk.c */
int model_ppgtt_translate(struct gen9_model *m, const struct gen9_model_ctx *c,
			  uint64_t gaddr, bool write, uint64_t *hpa,
			  enum gen9_model_fault_kind *why);

/* The one copy loop between a buffer and GPU addresses (gpu_mem.c): each
 * piece of at most a page goes through xlate, then the DMA window. 0;
 * MODEL_COPY_UNMAPPED when xlate refused the page at *at;
 * MODEL_COPY_NO_DMA when the DMA window refused it (counted in
 * stats.dma_errors). What came before *at was copied. */
typedef int (*model_xlate_fn)(struct gen9_model *m, void *ctx, uint64_t gaddr,
			      uint64_t *hpa);
#define MODEL_COPY_UNMAPPED 1
#define MODEL_COPY_NO_DMA 2
int model_dma_copy(struct gen9_model *m, uint64_t gaddr, void *buf,
		   size_t len, bool write, model_xlate_fn xlate, void *ctx,
		   uint64_t *at);

/* memory access on behalf of an engine (gpu_mem.c). On a fault the engine
 * records it in e->fault (not yet reported) and -GPU_EFAULT comes back. */
int model_gpu_rw(struct gen9_model *m, struct gen9_model_engine *e,
		 uint64_t gaddr, bool ggtt, void *buf, size_t len, bool write);
/* GGTT access with no engine (context images, HWSP); no fault record. */
int model_ggtt_rw(struct gen9_model *m, uint64_t gaddr, void *buf, size_t len,
		  bool write);
static inline int model_ggtt_read32(struct gen9_model *m, uint64_t gaddr,
				    uint32_t *v)
{
	return model_ggtt_rw(m, gaddr, v, 4, false);
}
static inline int model_ggtt_write32(struct gen9_model *m, uint64_t gaddr,
				     uint32_t v)
{
	return model_ggtt_rw(m, gaddr, &v, 4, true);
}

/* irq.c */
void model_irq_engine(struct gen9_model *m, struct gen9_model_engine *e,
		      uint16_t bits);
void model_irq_update(struct gen9_model *m);
uint32_t model_irq_master_read(struct gen9_model *m);
void model_irq_write(struct gen9_model *m, uint32_t off, uint32_t val);
bool model_irq_is_reg(uint32_t off);
void model_irq_reset(struct gen9_model *m);

/* execlist.c */
void model_elsp_write(struct gen9_model *m, struct gen9_model_engine *e,
		      uint32_t val);
void model_ctx_complete(struct gen9_model *m, struct gen9_model_engine *e);
uint32_t model_execlist_status_lo(const struct gen9_model_engine *e);
uint32_t model_execlist_status_hi(const struct gen9_model_engine *e);
void model_csb_reset(struct gen9_model *m, struct gen9_model_engine *e);
/* An arbitration point was reached: true when a pending pair preempted
 * the running context (the engine now runs the pending pair). */
bool model_arbitrate(struct gen9_model *m, struct gen9_model_engine *e);

/* ctx_image.c: the registers a context owns, from and to its image.
 * Load reads the state page into st (GEN9_CTX_REG_STATE_DWORDS);
 * -GPU_EFAULT with *fault_at when the GGTT does not map the image. */
int model_ctx_image_load(struct gen9_model *m, struct gen9_model_engine *e,
			 uint32_t lrca, uint32_t *st, uint64_t *fault_at);
void model_ctx_image_save(struct gen9_model *m, struct gen9_model_engine *e);
/* CTX_TIMESTAMP: its value now; a write (LRI/LRR/MMIO) sets it and it
 * counts on from there if the context runs; stop freezes it (switch-out,
 * reset). */
uint32_t model_ctx_ts_read(const struct gen9_model *m,
			   const struct gen9_model_engine *e);
void model_ctx_ts_write(struct gen9_model *m, struct gen9_model_engine *e,
			uint32_t val);
void model_ctx_ts_stop(struct gen9_model *m, struct gen9_model_engine *e);

/* engine.c */
void model_engine_run(struct gen9_model *m, struct gen9_model_engine *e);
/* A full context restore of RCS: its workaround batches run first. */
void model_wa_start(struct gen9_model_engine *e);
void model_engine_reset(struct gen9_model *m, struct gen9_model_engine *e);
void model_engine_hang(struct gen9_model *m, struct gen9_model_engine *e,
		       uint32_t eir_bit);
uint32_t model_ring_size(const struct gen9_model_ctx *c);

/* cmd_exec.c: execute one command at the current position. */
enum cs_result {
	CS_NEXT = 0, /* advance by the command length */
	CS_JUMPED, /* position already changed (batch start/end) */
	CS_STALL, /* retry later (semaphore, incomplete command) */
	CS_FAULT, /* engine hung */
	CS_ARB, /* advance, then an arbitration point (MI_ARB_CHECK) */
};

struct cs_cmd {
	struct gen9_model *m;
	struct gen9_model_engine *e;
	uint32_t dw0;
	uint32_t len; /* dwords */
};

int cs_fetch(struct cs_cmd *c, uint32_t i, uint32_t *v);
enum cs_result cs_execute(struct cs_cmd *c);
/* blit.c */
enum cs_result cs_blit(struct cs_cmd *c);
/* engine.c: graphics address of the command being executed (ACTHD) */
uint64_t model_cs_addr(const struct gen9_model_engine *e);

/* The command-streamer clock: 12 MHz, Skylake's. i915 does not assume
 * it: on Gen9 (not LP) it reads CTC_MODE and takes 24 MHz >> (3 - the
 * shift field, bits 2:1) unless the source bit (0) selects the divide
 * logic (Linux gt/intel_gt_clock_utils.c read_clock_frequency), and
 * reports that as I915_PARAM_CS_TIMESTAMP_FREQUENCY, which IGT uses to
 * turn nanoseconds into RING_TIMESTAMP / CTX_TIMESTAMP ticks (gem_wsim
 * ns_to_ctx_ticks). model.c therefore resets CTC_MODE to crystal source,
 * shift 2: 24 MHz >> 1 = MODEL_CS_TS_MHZ. */
#define MODEL_CS_TS_MHZ 12u
#define MODEL_CTC_MODE_RESET (2u << 1)
static inline uint64_t model_timestamp(const struct gen9_model *m)
{
	return m->now_us * MODEL_CS_TS_MHZ;
}

#endif
