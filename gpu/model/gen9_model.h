/* The software Gen9 GPU.
 *
 * A register-level model of the parts of a Skylake GPU that virtualization
 * touches, driven only the way the real device is: 32-bit MMIO to BAR0, PTE
 * writes to the GGTT at BAR0 + 8 MiB, and DMA to host-physical memory
 * through struct gpu_dma. gen9_model_attach() turns it into a gpu_hw backend
 * ("gen9-model"); nothing above gpu_hw needs to know it is not silicon.
 *
 * Facts it follows are in docs/gen9-facts.md (cited "gen9-facts §N").
 *
 * Memory: the model allocates nothing. The caller provides
 *   - the register file: GEN9_MODEL_REGS_BYTES (2 MiB, one uint32_t per
 *     dword of the MMIO range), 4-byte aligned;
 *   - the GGTT: ggtt_entries uint64_t (8 bytes per 4 KiB of GGTT address
 *     space: 8 MiB for the 4 GiB a real SKL has, 2 MiB for 1 GiB);
 *   - struct gen9_model itself (a few KiB; static or embedded).
 * Work executes only inside gen9_model_poll() (also called from udelay), a
 * bounded number of commands per engine per call, so a looping batch cannot
 * hang the caller. */
#ifndef GPU_MODEL_GEN9_MODEL_H
#define GPU_MODEL_GEN9_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/hw/gen9_regs.h"
#include "gpu/hw/gpu_hw.h"

#define GEN9_MODEL_REGS_BYTES GEN9_MMIO_SIZE
#define GEN9_MODEL_REG_PAGES (GEN9_MODEL_REGS_BYTES / 4096)
#define GEN9_MODEL_REGS_DWORDS (GEN9_MMIO_SIZE / 4)
#define GEN9_MODEL_GGTT_MAX_ENTRIES (GEN9_GGTT_MAX_SIZE / 8) /* 1 Mi */
#define GEN9_MODEL_DEFAULT_BUDGET 1024 /* commands per engine per poll */
#define GEN9_MODEL_BLT_BYTES_PER_POLL (1u << 20) /* blitter bytes per poll */
#define GEN9_MODEL_BB_LEVELS 2 /* first- and second-level batches */
/* Pages of the register file holding registers the model knows outside
 * the engine blocks (regs.c's list touches 12). */
#define GEN9_MODEL_KNOWN_PAGES 16

struct gen9_model_config {
	uint16_t device_id; /* 0: 0x1912 (SKL DT GT2) */
	uint8_t revision; /* 0: 0x07 (H0) */
	uint64_t aperture_size; /* 0: min(256 MiB, GGTT size) */
	uint64_t gttmmadr; /* fake BAR0 base for the config space */
	uint64_t gmadr; /* fake BAR2 base; not CPU-accessible */
	uint64_t stolen_base; /* 0: no stolen memory (GMS = 0) */
	uint64_t stolen_size;
	uint32_t cmd_budget; /* 0: GEN9_MODEL_DEFAULT_BUDGET */
	/* Blitter bytes per engine per poll; 0: GEN9_MODEL_BLT_BYTES_PER_POLL.
	 * Fuzz targets lower it: a fuzzer's pitch-0 blit redraws the same
	 * bytes, and a small budget cuts it (and reaches the resume path)
	 * sooner. It may be changed between polls. */
	uint32_t blt_bytes_per_poll;
	uint32_t fw_ack_delay_polls; /* forcewake ack follows after n polls */
	bool fw_never_ack; /* test knob: acks never come */
	uint32_t reset_delay_polls; /* GDRST bits clear after n polls */
	bool reset_never_done; /* test knob: GDRST bits stay set */
	bool reset_never_ready; /* test knob: READY_TO_RESET never comes */
	uint32_t stall_engines; /* test knob: BIT(id) engines execute nothing
				 * (a hardware hang: no ACTHD progress) */
	/* Called when the interrupt output changes (MSI on rising edge). */
	void (*irq_notify)(void *ctx, bool asserted);
	void *irq_ctx;
};

struct gen9_model_mem {
	uint32_t *regs; /* GEN9_MODEL_REGS_DWORDS */
	uint64_t *ggtt;
	uint32_t ggtt_entries; /* multiple of 512, <= 1 Mi */
};

/* Why the engine stopped (the model's own record; the registers carry the
 * architectural view: EIR, IPEHR, ACTHD, GEN8_RING_FAULT_REG). */
enum gen9_model_fault_kind {
	GEN9_MODEL_FAULT_NONE = 0,
	GEN9_MODEL_FAULT_GGTT, /* GGTT PTE not present / out of range */
	GEN9_MODEL_FAULT_PPGTT, /* a PPGTT level not present */
	GEN9_MODEL_FAULT_WRITE_RO, /* write to a read-only PPGTT page */
	GEN9_MODEL_FAULT_DMA, /* translated to memory that is not RAM */
	GEN9_MODEL_FAULT_INSTRUCTION, /* undecodable or misplaced command */
};

struct gen9_model_fault {
	enum gen9_model_fault_kind kind;
	uint64_t addr; /* graphics address that faulted */
	bool ggtt;
	uint32_t header; /* command being executed */
};

/* Context registers loaded from the LRC image (gen9-facts §5). */
struct gen9_model_ctx {
	uint64_t desc;
	uint32_t lrca;
	uint32_t ring_start, ring_head, ring_tail, ring_ctl;
	uint32_t ctx_ctrl;
	uint64_t pdp[4];
	unsigned int addr_mode; /* INTEL_*_CONTEXT */
	/* RCS workaround batches (CTX_INDIRECT_*, CTX_PER_CTX_*) */
	uint32_t ictx, per_ctx;
};

struct gen9_model_engine_stats {
	uint64_t cmds, skipped, unsupported, batches;
	uint64_t elsp_submits, elsp_ignored, lite_restores, ctx_switches;
	uint64_t csb_entries, faults, budget_exhausted, resets;
	uint64_t blit_pixels;
	uint64_t blit_yields; /* blits cut at a poll's byte budget */
	uint64_t cond_ends; /* batches ended by MI_CONDITIONAL_BATCH_BUFFER_END */
	/* MI_MATH instructions Gen9 does not define (alu.c), no effect */
	uint64_t math_undefined;
	/* contexts switched out at an arbitration point for a pending pair
	 * (execlist.c: model_arbitrate) */
	uint64_t preemptions;
	/* non-privileged batches: privileged commands and register writes
	 * outside the whitelist dropped, GGTT selectors ignored */
	uint64_t priv_dropped, ggtt_ignored;
	/* context image dwords read and written at switches (ctx_image.c) */
	uint64_t ctx_image_dwords;
	/* workaround batches run at context restores (engine.c) */
	uint64_t wa_batches;
};

struct gen9_model_engine {
	enum gen9_engine_id id;
	bool present;
	uint32_t base;
	/* ELSP collection: dwords in write order (desc1 hi, lo, desc0 hi, lo) */
	uint32_t elsp[4];
	unsigned int elsp_n;
	/* execlist state */
	bool active;
	uint64_t port[GEN8_EXECLIST_PORTS];
	unsigned int cur; /* element running */
	bool has_pending;
	uint64_t pending[GEN8_EXECLIST_PORTS];
	struct gen9_model_ctx ctx;
	/* command streamer position: level 0 = ring, 1/2 = batch levels */
	unsigned int level;
	uint64_t bb_addr[GEN9_MODEL_BB_LEVELS + 1];
	bool bb_ppgtt[GEN9_MODEL_BB_LEVELS + 1];
	bool waiting; /* semaphore wait not yet satisfied */
	/* A context restore's workaround batch running at level 1
	 * (engine.c): which, where the indirect one ends, and the batch
	 * levels the restore resumes afterwards. */
	enum { WA_NONE, WA_INDIRECT, WA_PER_CTX } wa;
	uint64_t wa_end;
	unsigned int wa_level;
	uint64_t wa_addr[GEN9_MODEL_BB_LEVELS + 1];
	bool wa_ppgtt[GEN9_MODEL_BB_LEVELS + 1];
	/* MI_ARB_ON_OFF turned arbitration off: no preemption at
	 * MI_ARB_CHECK or batch ends until it is on again (on at every
	 * context load) */
	bool arb_off;
	bool hung;
	/* CTX_TIMESTAMP (base + 0x3a8): ctx_ts at command-streamer tick
	 * ctx_ts_at, counting while ctx_ts_live (a context is loaded);
	 * ctx_image.c */
	uint32_t ctx_ts;
	uint64_t ctx_ts_at;
	bool ctx_ts_live;
	struct gen9_model_fault fault;
	uint32_t epoch; /* bumped by reset / context switch */
	/* A blit moves at most cfg.blt_bytes_per_poll per poll; one cut
	 * short resumes at `row` when the same command (epoch and address)
	 * runs again, so a huge rectangle cannot stall the host (blit.c). */
	uint64_t blt_budget;
	struct {
		bool valid;
		uint32_t epoch;
		uint64_t at;
		int32_t row;
	} blt_resume;
	struct gen9_model_engine_stats stats;
};

struct gen9_model_stats {
	uint64_t polls;
	uint64_t reg_reads, reg_writes;
	uint64_t unknown_reads, unknown_writes;
	uint32_t last_unknown; /* offset of the latest unknown access */
	uint64_t ggtt_writes, ggtt_flushes, tlb_invalidates;
	uint64_t irq_events, irq_asserts;
	uint64_t dma_errors, hwsp_errors;
	uint64_t gdrst_requests, fw_requests;
	uint64_t scanout_pixels; /* read by gen9_model_scanout */
};

struct gen9_model {
	struct gen9_model_config cfg;
	struct gpu_dma dma;
	uint32_t *regs;
	uint8_t *reg_dirty; /* gen9_model_track_dirty(), or NULL */
	uint64_t *ggtt;
	uint32_t ggtt_entries;
	struct gen9_model_engine engine[GEN9_NUM_ENGINES];
	uint32_t engine_mask;
	uint32_t iir_queued[GEN8_GT_BANKS]; /* second occurrence per bit */
	uint32_t fw_delay[GEN9_FW_DOMAINS];
	uint32_t gdrst_delay;
	uint64_t now_us;
	bool irq_out;
	bool in_poll;
	struct gen9_model_stats stats;
	struct gpu_hw_ops ops; /* for gen9_model_attach */
	/* Register lookup built at init (regs.c), one entry per 4 KiB of the
	 * register file: 1 + id for a present engine's block, 0x80 | k for a
	 * page with registers the model knows (bit per dword in
	 * reg_known[k]), 0 for plain storage. */
	uint8_t reg_page[GEN9_MODEL_REG_PAGES];
	uint64_t reg_known[GEN9_MODEL_KNOWN_PAGES][4096 / 4 / 64];
};

/* -GPU_EINVAL for bad memory or configuration. */
int gen9_model_init(struct gen9_model *m, const struct gen9_model_config *cfg,
		    const struct gen9_model_mem *mem, const struct gpu_dma *dma);
/* Fill hw so it drives this model (ops, ctx, dma, info). */
void gen9_model_attach(struct gen9_model *m, struct gpu_hw *hw);
/* From now on set dirty[p] = 1 (GEN9_MODEL_REG_PAGES bytes) whenever
 * anyone writes the p-th 4 KiB of the register file, so a fuzzer that
 * reuses the model restores only those pages; NULL stops it. */
void gen9_model_track_dirty(struct gen9_model *m, uint8_t *dirty);
/* What gpu_hw_info says about this model. */
void gen9_model_info(const struct gen9_model *m, struct gpu_hw_info *info);
/* 256 bytes of PCI config space of 00:02.0 matching the model. */
void gen9_model_pci_config(const struct gen9_model *m, uint8_t *cfg);

/* The register interface (also reachable through gpu_hw). */
uint32_t gen9_model_read32(struct gen9_model *m, uint32_t off);
void gen9_model_write32(struct gen9_model *m, uint32_t off, uint32_t val);
uint64_t gen9_model_ggtt_read(struct gen9_model *m, uint32_t index);
void gen9_model_ggtt_write(struct gen9_model *m, uint32_t index, uint64_t pte);
/* count PTEs into [first, first + count); nothing if outside the GGTT. */
void gen9_model_ggtt_write_range(struct gen9_model *m, uint32_t first,
				 const uint64_t *ptes, uint32_t count);
/* CPU access through the aperture: off is a GGTT address; a valid fence
 * covering it detiles (X/Y, aperture.c). -GPU_EFAULT when a page is not
 * mapped or a fenced byte falls outside its fence. */
int gen9_model_aperture_rw(struct gen9_model *m, uint64_t off, void *buf,
			   size_t len, bool write);

/* Run submitted work: at most cfg.cmd_budget commands per engine; also
 * completes pending forcewake acks and resets. */
void gen9_model_poll(struct gen9_model *m);
void gen9_model_udelay(struct gen9_model *m, uint32_t us);
/* Interrupt output: master enable and some enabled source pending. */
bool gen9_model_irq_asserted(const struct gen9_model *m);

/* Translate a graphics address the way engine id would for the running
 * context (ggtt selects the GGTT; else the context's PPGTT). 0 or
 * -GPU_EFAULT. For tests and debugging; no fault is recorded. */
int gen9_model_translate(struct gen9_model *m, enum gen9_engine_id id,
			 uint64_t gaddr, bool ggtt, bool write, uint64_t *hpa);

/* The display engine (display.c): pipe A's source size (PIPESRC) while
 * its transcoder is enabled, else -GPU_ENODEV; and pixels x0 .. x0 + n - 1
 * of screen row y as a monitor behind pipe A sees them (plane 1 through
 * the GGTT, detiled; black outside it), 0x00RRGGBB. -GPU_EINVAL outside
 * the screen. */
int gen9_model_screen(struct gen9_model *m, uint32_t *w, uint32_t *h);
int gen9_model_scanout(struct gen9_model *m, uint32_t y, uint32_t x0,
		       uint32_t n, uint32_t *rgb);

#endif
