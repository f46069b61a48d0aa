/* One VT-d remapping unit, programmed through its registers (Intel VT-d
 * spec chapter 10; hv/vtd/vtd_regs.h): capabilities read, translation turned
 * on over a root table, caches invalidated.
 *
 * Registers are reached through struct vtd_io so the same code runs on
 * the machine (MMIO, hv/vtd/vtd.c) and against the host tests' fake unit
 * (tests/unit/test_vtd_unit.c). Every wait for the unit is bounded by
 * io.now_us: a unit that never answers gives -HV_ETIMEDOUT and a counted,
 * named step, never a hang.
 *
 * Enabling (vtd_unit_enable), in the order the spec and Linux's
 * drivers/iommu/intel use: translation off if the firmware left it on,
 * protected memory regions off, fault events masked and stale fault
 * records cleared, RTADDR_REG then GCMD.SRTP (wait GSTS.RTPS), the write
 * buffer flushed where CAP.RWBF asks, a global context-cache and a global
 * IOTLB invalidation, then GCMD.TE (wait GSTS.TES).
 *
 * Invalidation is register-based (CCMD_REG, IOTLB_REG at ECAP.IRO) where
 * the unit has it, else queued (IQA/IQT, descriptors ending with a wait
 * descriptor whose status write we poll): units of major version 6 and
 * later have no register-based invalidation (spec 6.5). */
#ifndef HV_VTD_UNIT_H
#define HV_VTD_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#define VTD_TIMEOUT_US 100000	/* a command the unit has not done by then */

struct vtd_io {
	void *ctx;
	uint32_t (*rd32)(void *ctx, uint32_t off);
	uint64_t (*rd64)(void *ctx, uint32_t off);
	void (*wr32)(void *ctx, uint32_t off, uint32_t v);
	void (*wr64)(void *ctx, uint32_t off, uint64_t v);
	uint64_t (*now_us)(void *ctx);
	/* the unit reads [p, p + n) from memory from now on (see
	 * vtd_tables.h); NULL on a coherent unit */
	void (*flush)(const void *p, unsigned long n);
};

enum vtd_inval_mode { VTD_INVAL_REGISTER, VTD_INVAL_QUEUED };

struct vtd_unit_stats {
	uint64_t ctx_invals, iotlb_invals, wb_flushes;
	uint64_t timeouts, inval_errors;
};

struct vtd_unit {
	struct vtd_io io;
	uint64_t base;			/* register page (for messages) */
	uint32_t ver;
	uint64_t cap, ecap;
	uint32_t fro, nfr, iro;		/* FRCD offset, count; IOTLB_REG - 8 */
	unsigned levels;		/* table levels we use: 3 or 4 */
	enum vtd_inval_mode inval;
	bool enabled;			/* GSTS.TES as we left it */
	/* invalidation queue (queued mode): one page of descriptors and a
	 * status dword the wait descriptor writes */
	uint64_t *iq;
	volatile uint32_t *iq_status;
	uint32_t iq_tail, iq_seq;
	const char *failed_step;	/* the last command that failed */
	struct vtd_unit_stats st;
};

/* Reads VER/CAP/ECAP and derives the rest. -HV_ENOTSUP when the unit
 * offers neither 3- nor 4-level tables or has no way to invalidate;
 * -HV_EIO when it reads all ones (nothing there). */
int vtd_unit_probe(struct vtd_unit *u, const struct vtd_io *io,
		   uint64_t base);
/* Choose the invalidation interface (probe picks the default). Queued
 * needs ECAP.QI and allocates the queue page; switching while translation
 * is on is allowed (the spec's rules on draining are followed). */
int vtd_unit_set_inval(struct vtd_unit *u, enum vtd_inval_mode m);
/* The enable sequence above over the root table at root_pa. */
int vtd_unit_enable(struct vtd_unit *u, uint64_t root_pa);
/* GCMD.TE off. */
int vtd_unit_disable(struct vtd_unit *u);
/* After pages were taken back from domain did (or, on a caching-mode
 * unit, given): the IOTLB entries of did. */
int vtd_unit_flush_domain(struct vtd_unit *u, uint16_t did);
/* After a context entry changed: global context cache, then IOTLB. */
int vtd_unit_flush_all(struct vtd_unit *u);
/* CAP.CM: the unit may cache not-present entries, so allowing pages needs
 * an invalidation too. */
bool vtd_unit_caches_not_present(const struct vtd_unit *u);
/* Frees the queue page (the unit must be off or in register mode). */
void vtd_unit_release(struct vtd_unit *u);

#endif
