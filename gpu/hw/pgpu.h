/* pgpu: the physical Gen9 GPU driver, built only on gpu_hw.
 *
 * It owns the device-global state the mediator must not race on:
 * forcewake reference counts, the interrupt master, the GGTT flush, fences,
 * and per engine the execlist ports and the CSB read pointer.
 * Facts: docs/gen9-facts.md (cited as gen9-facts §N).
 *
 * Counters are plain fields in struct pgpu_stats; the shell prints them. */
#ifndef GPU_HW_PGPU_H
#define GPU_HW_PGPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/hw/gen9_regs.h"
#include "gpu/hw/gpu_hw.h"

/* Bounded waits (i915's budgets, gen9-facts §8, §10). */
#define PGPU_FORCEWAKE_TIMEOUT_US 50000
#define PGPU_GDRST_TIMEOUT_US 2000
#define PGPU_RESET_READY_TIMEOUT_US 700
#define PGPU_RESET_MAX_TRIES 3 /* i915 RESET_MAX_RETRIES, whole-GT resets */
/* The watchdog's default: an engine with work that shows no progress
 * (ACTHD, RING_HEAD, new CSB events) for this long is hung. i915's
 * hangcheck sampled every 1.5 s; a single command that legitimately runs
 * longer than this (a huge blit) would be mistaken for a hang. */
#define PGPU_HANG_NO_PROGRESS_US 1000000

/* One decoded Context Status Buffer entry (gen9-facts §4.5). */
struct pgpu_csb_event {
	uint32_t status; /* GEN8_CTX_STATUS_* bits */
	uint32_t ctx_id; /* upper dword of the descriptor concerned */
};

struct pgpu_engine {
	bool present;
	bool enabled; /* execlists on, HWSP programmed */
	uint32_t base; /* MMIO base */
	uint32_t hwsp_ggtt; /* GGTT address of the status page */
	uint32_t *hwsp; /* CPU view of it; NULL: CSB read from MMIO */
	uint8_t csb_head; /* last entry consumed (0..5) */
	uint64_t port[GEN8_EXECLIST_PORTS]; /* last submitted pair */
	uint64_t pending[GEN8_EXECLIST_PORTS]; /* written, not yet active */
	bool active; /* between IDLE_TO_ACTIVE and ACTIVE_TO_IDLE */
	uint64_t submits, csb_events, completes, preempts, resets;
	/* Watchdog (pgpu_engine_hung): the last progress sample and when it
	 * last changed; armed while the engine has work. */
	struct {
		bool armed;
		uint64_t acthd, csb_events, since_us;
		uint32_t head;
	} watch;
	uint64_t hangs; /* no-progress verdicts */
};

struct pgpu_irq_status {
	uint32_t master; /* GEN8_MASTER_IRQ sample */
	uint32_t gt_iir[GEN8_GT_BANKS]; /* what was acked, per bank */
	/* Per engine 16-bit field extracted from its bank. */
	uint16_t engine_iir[GEN9_NUM_ENGINES];
};

struct pgpu_stats {
	uint64_t fw_gets, fw_timeouts;
	uint64_t ggtt_writes, ggtt_flushes;
	uint64_t fence_writes;
	uint64_t irqs, irq_spurious;
	uint64_t engine_resets, reset_timeouts;
	uint64_t resets_not_ready; /* full reset without READY_TO_RESET */
	uint64_t full_resets, full_reset_failures; /* GDRST FULL, done/not */
	uint64_t hangs;
};

struct pgpu {
	struct gpu_hw *hw;
	struct pgpu_engine engine[GEN9_NUM_ENGINES];
	uint32_t fw_count[GEN9_FW_DOMAINS];
	uint32_t irq_mask[GEN8_GT_BANKS]; /* enabled sources per bank */
	struct pgpu_stats stats;
};

/* Decode PCI config space of 00:02.0 (at least 256 bytes) into info:
 * ids, GT level, engines, GGC -> GGTT and stolen sizes, BDSM, BAR0 and
 * BAR2 bases. BAR sizes are not in config space: the PCI layer sizes
 * BAR2 (0: use MSAC). -GPU_ENODEV for a device that is not a supported
 * Gen9, -GPU_EINVAL for malformed input. */
int pgpu_decode_config(const uint8_t *cfg, size_t len, uint64_t bar2_size,
		       struct gpu_hw_info *info);

/* Take hw (info already filled): check the device, drop stale forcewake
 * requests, mask and clear all GT interrupts. */
int pgpu_init(struct pgpu *p, struct gpu_hw *hw);

/* ---- forcewake (gen9-facts §8) ---- */
/* domains: GEN9_FW_*_BIT mask. Reference counted per domain. */
int pgpu_forcewake_get(struct pgpu *p, uint32_t domains);
void pgpu_forcewake_put(struct pgpu *p, uint32_t domains);
/* Domains the register at off needs (__gen9_fw_ranges); 0 for none. */
uint32_t pgpu_fw_domains_for_reg(uint32_t off);

/* ---- GGTT and fences (gen9-facts §2, §3) ---- */
int pgpu_ggtt_write(struct pgpu *p, uint32_t index, uint64_t pte);
uint64_t pgpu_ggtt_read(struct pgpu *p, uint32_t index);
/* Write n entries then flush once. */
int pgpu_ggtt_write_range(struct pgpu *p, uint32_t first,
			  const uint64_t *ptes, uint32_t n);
void pgpu_ggtt_flush(struct pgpu *p);
int pgpu_fence_write(struct pgpu *p, unsigned int i, uint64_t val);
uint64_t pgpu_fence_read(struct pgpu *p, unsigned int i);
/* Build a fence value: [start, start + size) in GGTT, stride in bytes
 * (multiple of 128), Y or X tiling. 0 on bad arguments. */
uint64_t pgpu_fence_encode(uint32_t start, uint32_t size, uint32_t stride,
			   bool tiling_y);

/* ---- engines and execlists (gen9-facts §4) ---- */
/* Bring an engine up in execlist mode with its status page at hwsp_ggtt
 * (already mapped in the GGTT) whose CPU view is hwsp (may be NULL: the
 * CSB is then read from MMIO). Caller holds forcewake for the engine. */
int pgpu_engine_init(struct pgpu *p, enum gen9_engine_id id,
		     uint32_t hwsp_ggtt, uint32_t *hwsp);
/* Build a descriptor: LRCA (4 KiB aligned GGTT address), ctx id,
 * addressing mode INTEL_*_CONTEXT; valid + privilege set like i915. */
uint64_t pgpu_lrc_descriptor(uint32_t lrca, uint32_t ctx_id,
			     unsigned int addressing_mode);
/* Submit elements 0 and 1 (desc1 may be 0). Writes element 1 first; the
 * 4th write (desc0 low) triggers the hardware (gen9-facts §4.3). */
int pgpu_execlist_submit(struct pgpu *p, enum gen9_engine_id id,
			 uint64_t desc0, uint64_t desc1);
/* Consume CSB entries between our read pointer and the hardware write
 * pointer (HWSP mirror, or MMIO), oldest first, into ev[0..max). Returns
 * the count (0..6) and acknowledges them in RING_CONTEXT_STATUS_PTR. */
int pgpu_csb_process(struct pgpu *p, enum gen9_engine_id id,
		     struct pgpu_csb_event *ev, int max);
/* True when the engine reports idle (no active element). */
bool pgpu_engine_idle(struct pgpu *p, enum gen9_engine_id id);
/* The engine's error identity (RING_EIR; gen9-facts §10): non-zero after a
 * page-table or instruction error, until the engine is reset. */
uint32_t pgpu_engine_error(struct pgpu *p, enum gen9_engine_id id);
/* The watchdog, called periodically with the caller's clock: true when
 * the engine has work (active or a pair pending) and neither its ACTHD
 * (the address of the command being executed, 64-bit), its RING_HEAD nor
 * its CSB has moved for limit_us. Idle engines disarm it. Progress is
 * sampled only when this is called: call it more often than limit_us. */
bool pgpu_engine_hung(struct pgpu *p, enum gen9_engine_id id,
		      uint64_t now_us, uint64_t limit_us);

/* ---- interrupts (gen9-facts §7) ---- */
/* Enable (IER) and unmask (IMR) the given per-engine bits, e.g.
 * GEN8_ENGINE_DEFAULT_IRQS, for every present engine; banks otherwise
 * masked. Does not touch the master. */
void pgpu_irq_setup(struct pgpu *p, uint16_t engine_bits);
void pgpu_irq_master_enable(struct pgpu *p);
void pgpu_irq_master_disable(struct pgpu *p);
/* Handler protocol: master off, sample, read and ack each flagged bank,
 * master back on. Returns true when anything was pending. */
bool pgpu_irq_handle(struct pgpu *p, struct pgpu_irq_status *st);

/* ---- reset (gen9-facts §10) ---- */
/* Per-engine reset as i915's gen8_reset_engines: STOP_RING, then the
 * RING_RESET_CTL handshake (REQUEST_RESET and wait for READY_TO_RESET; a
 * pending CAT_ERROR is cleared and waited for instead), GDRST domain bit
 * until the hardware clears it (twice, as i915 does before MTL), request
 * withdrawn. One attempt, as i915 makes for one engine: an engine that
 * never gets ready is not reset (-GPU_ETIMEDOUT; escalate to the full
 * reset). The engine's execlist state is forgotten; call
 * pgpu_engine_init() again. */
int pgpu_engine_reset(struct pgpu *p, enum gen9_engine_id id);
/* The whole GT (GDRST FULL), every engine prepared first; up to
 * PGPU_RESET_MAX_TRIES attempts, the first refusing to reset an engine
 * that is not ready, the later ones going ahead anyway (i915's
 * reset_non_ready: a possibly corrupted context rather than a wedged
 * GPU; counted in resets_not_ready). Counted in full_resets, or in
 * full_reset_failures when no attempt completed. */
int pgpu_full_reset(struct pgpu *p);

#endif
