/* Host test harness for the Gen9 model and the pGPU driver: owns the
 * model's memory (register file, GGTT), a block of fake host-physical RAM
 * behind struct gpu_dma, and helpers to build what a driver would build:
 * GGTT mappings, PPGTT page tables, logical ring contexts, rings. */
#ifndef TESTS_UNIT_MODEL_HARNESS_H
#define TESTS_UNIT_MODEL_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/hw/gen9_cmds.h"
#include "gpu/hw/gpu_hw.h"
#include "gpu/model/gen9_model.h"

#define H_PHYS_BASE 0x180000000ull /* above 4 GiB on purpose */
#define H_PHYS_SIZE (32u << 20)
#define H_GGTT_ENTRIES (64u * 1024) /* 256 MiB of GGTT */
#define H_RING_SIZE (4 * 4096)

struct h_ctx {
	enum gen9_engine_id engine;
	uint32_t lrca; /* GGTT address of the context image */
	uint32_t ring; /* GGTT address of the ring */
	uint32_t tail; /* our tail (bytes) */
	uint64_t pml4; /* hpa of the PPGTT root, 0 when none */
	uint32_t ctx_id;
	unsigned int addr_mode;
};

struct harness {
	struct gen9_model m;
	struct gpu_hw hw;
	struct gpu_dma dma;
	uint32_t *regs;
	uint64_t *ggtt;
	uint8_t *phys;
	uint64_t next_phys; /* bump allocator */
	uint32_t next_ggtt; /* GGTT space allocator (bytes) */
	uint32_t hwsp[GEN9_NUM_ENGINES]; /* GGTT address per engine */
	int irq_edges;
};

/* cfg may be NULL for defaults. Returns 0. */
int h_init(struct harness *h, const struct gen9_model_config *cfg);
void h_fini(struct harness *h);

void *h_ptr(struct harness *h, uint64_t hpa); /* fake RAM -> CPU */
uint64_t h_alloc_page(struct harness *h); /* zeroed 4 KiB page, hpa */
uint64_t h_alloc_pages(struct harness *h, unsigned int n); /* contiguous */
/* Reserve GGTT space and back it with fresh pages; returns the address. */
uint32_t h_ggtt_alloc(struct harness *h, unsigned int pages);
void h_ggtt_map(struct harness *h, uint32_t gaddr, uint64_t hpa);
/* CPU pointer to a GGTT address, through the GGTT (NULL if unmapped). */
void *h_gptr(struct harness *h, uint32_t gaddr);

/* PPGTT (4-level): create a root, map one 4 KiB page (rw or read-only). */
uint64_t h_ppgtt_create(struct harness *h);
void h_ppgtt_map(struct harness *h, uint64_t pml4, uint64_t gva, uint64_t hpa,
		 bool writable);
/* Map n fresh pages at gva; returns the hpa of the first (contiguous). */
uint64_t h_ppgtt_alloc(struct harness *h, uint64_t pml4, uint64_t gva,
		       unsigned int n);

/* Logical ring context with a ring, i915 register-state layout. */
void h_ctx_create(struct harness *h, struct h_ctx *c, enum gen9_engine_id id,
		  uint64_t pml4, uint32_t ctx_id);
void h_emit(struct harness *h, struct h_ctx *c, uint32_t dw);
void h_emitn(struct harness *h, struct h_ctx *c, const uint32_t *dw,
	     unsigned int n);
/* Store our tail into the context image (as i915 does before ELSP). */
void h_ctx_commit(struct harness *h, struct h_ctx *c);
uint32_t h_ctx_reg(struct harness *h, const struct h_ctx *c, unsigned int dw);
uint64_t h_desc(const struct h_ctx *c);

/* Engine bring-up straight through MMIO (model tests without pgpu). */
void h_engine_start(struct harness *h, enum gen9_engine_id id);
uint32_t *h_hwsp(struct harness *h, enum gen9_engine_id id);
void h_elsp(struct harness *h, enum gen9_engine_id id, uint64_t d0,
	    uint64_t d1);
void h_run(struct harness *h, int polls);

static inline uint32_t h_rd(struct harness *h, uint32_t off)
{
	return gen9_model_read32(&h->m, off);
}

static inline void h_wr(struct harness *h, uint32_t off, uint32_t v)
{
	gen9_model_write32(&h->m, off, v);
}

#endif
