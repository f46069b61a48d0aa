/* The command scanner (gpu/vgpu/cmd/): what it reports and the register
 * allow-lists. Command semantics come from
 * gpu/hw/gen9_cmd_table.h. Private to the mediator. */
#ifndef GPU_VGPU_CMD_CMD_H
#define GPU_VGPU_CMD_CMD_H

#include "gpu/vgpu/vgpu_priv.h"

/* Command scanner (vgpu_cmd_scan.c). */
struct scan_result {
	uint32_t cmds, batches;
	uint32_t bb_bytes_copied; /* batch bytes copied into the shadow area */
	uint32_t events; /* per-engine IIR bits */
	int reason; /* 0 or -GPU_E* */
	uint32_t bad_header;
	uint64_t bad_addr; /* what the command named (bad_kind), 0 if none */
	enum scan_bad_kind {
		SCAN_BAD_ADDR,	/* a graphics address (printed when nonzero) */
		SCAN_BAD_REG,	/* an MMIO register offset */
		SCAN_BAD_INDEX,	/* a byte offset in the status page */
	} bad_kind;
	/* Where the refused command lies: its graphics address in a batch
	 * (cmd_level 1 or 2), its byte offset in the guest's ring
	 * (cmd_level 0), which is what the guest's owner can look up. */
	uint64_t cmd_at;
	int cmd_level;
	const char *why;
	/* The refusal is inside a user (PPGTT) batch the ring started: the
	 * ring's bytes before that MI_BATCH_BUFFER_START (cut_len, > 0) can
	 * run, and the events its commands raise (cut_events). See
	 * exec/vgpu_user_fault.c. */
	bool user_fault;
	uint32_t cut_len, cut_events;
	/* The refusal is in this workaround batch of the context (its
	 * name), not in the ring or a batch it started. */
	const char *wa;
};
/* Where the scanner's copies go: a page of the caller's shadow batch pool
 * for w (exec/vgpu_own_gm.c vgpu_sbb_alloc), its index or < 0 (-GPU_E*). */
typedef int (*scan_page_fn)(struct vgpu *v, struct workload *w, bool user);
int vgpu_scan_workload(struct vgpu *v, struct vgpu_engine *e,
		       struct workload *w, scan_page_fn page,
		       struct scan_result *res);
/* The render context's indirect-context and per-context workaround
 * batches named in w's image: copied into the pool, scanned as the
 * kernel's own (privileged) batches, w->wa_*_gm set. */
int vgpu_scan_wa_ctx(struct vgpu *v, struct vgpu_engine *e,
		     struct workload *w, scan_page_fn page,
		     struct scan_result *res);
/* "header 0x..., at <where>[, address 0x...]" for a refusal's log line. */
const char *vgpu_scan_where(const struct scan_result *r, char *buf,
			    size_t n);
/* Register allow-lists for commands (vgpu_cmd_tables.c). */
#define CMD_REG_R 0x1u /* may be read (SRM, LRR source) */
#define CMD_REG_W 0x2u /* may be written (LRI, LRM, LRR destination) */
uint32_t cmd_reg_access(int engine, uint32_t reg);
/* Whether a FORCE_TO_NONPRIV slot of engine may hold val (GVT's list). */
bool nonpriv_slot_allowed(int engine, uint32_t val);
#define SCAN_MAX_CMDS 65536u
#define SCAN_MAX_BATCHES 256u
#define SCAN_MAX_BATCH_BYTES (1u << 20)
#define SCAN_BB_LEVELS 2 /* first- and second-level batches */

#endif
