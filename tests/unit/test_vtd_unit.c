/* Programming a VT-d unit (hv/vtd/vtd_unit.c, hv/vtd/vtd_inval.c) and reading
 * its faults (hv/vtd/vtd_fault.c), against a fake unit that behaves as the
 * spec says a unit does: GSTS follows GCMD, SRTP latches RTADDR and sets
 * RTPS, CCMD/IOTLB_REG clear ICC/IVT and report the granularity done,
 * the invalidation queue executes descriptors up to IQT and writes a wait
 * descriptor's status, fault records sit in a ring of FRCD registers.
 * Every register write is logged, so the tests compare the order of what
 * the code did with the documented order. A unit can be told to never
 * complete a command: the code must give up with -HV_ETIMEDOUT. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/vtd/vtd_fault.h"
#include "hv/vtd/vtd_regs.h"
#include "hv/vtd/vtd_unit.h"
#include "tests/harness/fake_pages.h"

/* -- the fake unit -- */

#define REGS 0x4000
#define LOG_MAX 256

enum ev {
	EV_NONE, EV_TE_ON, EV_TE_OFF, EV_SRTP, EV_WBF, EV_QIE_ON, EV_QIE_OFF,
	EV_PMEN_OFF, EV_RTADDR, EV_IQA, EV_CC_GLOBAL, EV_IOTLB_GLOBAL,
	EV_IOTLB_DOMAIN, EV_QI_CC_GLOBAL, EV_QI_IOTLB_GLOBAL,
	EV_QI_IOTLB_DOMAIN, EV_QI_WAIT, EV_FECTL_MASK, EV_FRCD_CLEAR,
	EV_FSTS_CLEAR,
};

struct fake {
	uint8_t r[REGS];
	uint64_t now;			/* µs, +1 per clock read */
	uint32_t stuck;			/* GCMD bits that never complete */
	bool ccmd_stuck, ccmd_refuse, iotlb_stuck;
	bool qi_on;
	uint64_t iq_head;		/* descriptor index */
	uint32_t fro, nfr, iro;
	unsigned nlog;
	enum ev log[LOG_MAX];
	uint64_t arg[LOG_MAX];		/* value or DID of the event */
	unsigned flushes;
};

static struct fake fk;

static uint32_t g32(uint32_t off)
{
	uint32_t v;

	memcpy(&v, fk.r + off, 4);
	return v;
}

static void s32(uint32_t off, uint32_t v)
{
	memcpy(fk.r + off, &v, 4);
}

static uint64_t g64(uint32_t off)
{
	return g32(off) | (uint64_t)g32(off + 4) << 32;
}

static void s64(uint32_t off, uint64_t v)
{
	s32(off, (uint32_t)v);
	s32(off + 4, (uint32_t)(v >> 32));
}

static void ev(enum ev e, uint64_t arg)
{
	assert_true(fk.nlog < LOG_MAX);
	fk.arg[fk.nlog] = arg;
	fk.log[fk.nlog++] = e;
}

/* GSTS follows GCMD: persistent commands become state, SRTP latches the
 * root pointer and sets RTPS, WBF completes (WBFS clear). */
static void gcmd(uint32_t v)
{
	uint32_t old = g32(VTD_GSTS_REG), sts = old;

	if ((v ^ old) & VTD_GCMD_TE && !(fk.stuck & VTD_GCMD_TE)) {
		sts ^= VTD_GSTS_TES;
		ev(v & VTD_GCMD_TE ? EV_TE_ON : EV_TE_OFF, 0);
	}
	if ((v ^ old) & VTD_GCMD_QIE && !(fk.stuck & VTD_GCMD_QIE)) {
		sts ^= VTD_GSTS_QIES;
		fk.qi_on = v & VTD_GCMD_QIE;
		if (fk.qi_on) {		/* the head restarts at 0 */
			fk.iq_head = 0;
			s64(VTD_IQH_REG, 0);
		}
		ev(fk.qi_on ? EV_QIE_ON : EV_QIE_OFF, 0);
	}
	if (v & VTD_GCMD_SRTP) {
		ev(EV_SRTP, g64(VTD_RTADDR_REG));
		sts &= ~VTD_GSTS_RTPS;
		if (!(fk.stuck & VTD_GCMD_SRTP))
			sts |= VTD_GSTS_RTPS;
	}
	if (v & VTD_GCMD_WBF) {
		ev(EV_WBF, 0);
		sts = fk.stuck & VTD_GCMD_WBF ? sts | VTD_GSTS_WBFS
					      : sts & ~VTD_GSTS_WBFS;
	}
	s32(VTD_GSTS_REG, sts);
}

/* Executes descriptors from the head up to IQT. A bad type stops the
 * queue there with FSTS.IQE. */
static void run_queue(void)
{
	uint64_t *q = hv_va(g64(VTD_IQA_REG) & PAGE_MASK);
	uint64_t tail = (g64(VTD_IQT_REG) >> VTD_IQT_SHIFT) % VTD_IQ_ENTRIES;

	/* a unit with a queue error fetches nothing until it is cleared */
	while (fk.qi_on && fk.iq_head != tail &&
	       !(g32(VTD_FSTS_REG) & VTD_FSTS_IQE)) {
		uint64_t lo = q[2 * fk.iq_head], hi = q[2 * fk.iq_head + 1];
		unsigned g = (lo >> 4) & 3;

		switch (lo & 0xf) {
		case VTD_QI_CC:
			ev(EV_QI_CC_GLOBAL, g);
			break;
		case VTD_QI_IOTLB:
			ev(g == 1 ? EV_QI_IOTLB_GLOBAL : EV_QI_IOTLB_DOMAIN,
			   (lo >> 16) & 0xffff);
			break;
		case VTD_QI_WAIT:
			ev(EV_QI_WAIT, lo >> 32);
			if (lo & VTD_QI_WAIT_SW)
				*(uint32_t *)hv_va(hi) = (uint32_t)(lo >> 32);
			break;
		default:
			s32(VTD_FSTS_REG, g32(VTD_FSTS_REG) | VTD_FSTS_IQE);
			return;
		}
		fk.iq_head = (fk.iq_head + 1) % VTD_IQ_ENTRIES;
		s64(VTD_IQH_REG, fk.iq_head << VTD_IQT_SHIFT);
	}
}

static void update_ppf(void)
{
	uint32_t fsts = g32(VTD_FSTS_REG) & ~VTD_FSTS_PPF;

	for (uint32_t i = 0; i < fk.nfr; i++)
		if (g64(VTD_FRCD_HI(fk.fro, i)) >> 63)
			fsts |= VTD_FSTS_PPF;
	s32(VTD_FSTS_REG, fsts);
}

static void write_reg(uint32_t off, uint64_t v, bool wide)
{
	if (off == VTD_GCMD_REG) {
		gcmd((uint32_t)v);
	} else if (off == VTD_RTADDR_REG) {
		s64(off, v);
		ev(EV_RTADDR, v);
	} else if (off == VTD_CCMD_REG) {
		if (fk.ccmd_stuck) {
			s64(off, v);
			return;
		}
		ev(EV_CC_GLOBAL, (v >> 61) & 3);
		/* done: ICC clear, CAIG = the granularity asked (or 0) */
		s64(off, (v & ~VTD_CCMD_ICC & ~(3ull << 59)) |
			 (fk.ccmd_refuse ? 0 : ((v >> 61) & 3) << 59));
	} else if (off == fk.iro + 8) {
		if (fk.iotlb_stuck) {
			s64(off, v);
			return;
		}
		ev(((v >> 60) & 3) == 1 ? EV_IOTLB_GLOBAL : EV_IOTLB_DOMAIN,
		   (v >> 32) & 0xffff);
		s64(off, (v & ~VTD_IOTLB_IVT & ~(3ull << 57)) |
			 ((v >> 60) & 3) << 57);
	} else if (off == VTD_IQA_REG) {
		s64(off, v);
		ev(EV_IQA, v);
	} else if (off == VTD_IQT_REG) {
		s64(off, v);
		run_queue();
	} else if (off == VTD_FSTS_REG) {
		s32(off, g32(off) & ~(uint32_t)(v & VTD_FSTS_W1C));
		ev(EV_FSTS_CLEAR, v);
	} else if (off == VTD_FECTL_REG) {
		s32(off, (uint32_t)v);
		ev(EV_FECTL_MASK, v);
	} else if (off == VTD_PMEN_REG) {
		s32(off, (uint32_t)v & VTD_PMEN_EPM ? VTD_PMEN_EPM | VTD_PMEN_PRS
						    : 0);
		ev(EV_PMEN_OFF, v);
	} else if (off >= fk.fro && off < fk.fro + 16 * fk.nfr &&
		   (off - fk.fro) % 16 == 12 && !wide) {
		if (v & VTD_FRCD_F_BIT)
			s32(off, g32(off) & ~VTD_FRCD_F_BIT);
		update_ppf();
		ev(EV_FRCD_CLEAR, (off - fk.fro) / 16);
	} else if (wide) {
		s64(off, v);
	} else {
		s32(off, (uint32_t)v);
	}
}

static uint32_t f_rd32(void *ctx, uint32_t off)
{
	(void)ctx;
	assert_true(off + 4 <= REGS);
	return g32(off);
}

static uint64_t f_rd64(void *ctx, uint32_t off)
{
	(void)ctx;
	assert_true(off + 8 <= REGS);
	return g64(off);
}

static void f_wr32(void *ctx, uint32_t off, uint32_t v)
{
	(void)ctx;
	assert_true(off + 4 <= REGS);
	write_reg(off, v, false);
}

static void f_wr64(void *ctx, uint32_t off, uint64_t v)
{
	(void)ctx;
	assert_true(off + 8 <= REGS);
	write_reg(off, v, true);
}

static uint64_t f_now(void *ctx)
{
	(void)ctx;
	return fk.now++;
}

static void f_flush(const void *p, unsigned long n)
{
	(void)p;
	(void)n;
	fk.flushes++;
}

static const struct vtd_io fake_io = { NULL, f_rd32, f_rd64, f_wr32, f_wr64,
				       f_now, f_flush };

/* A unit of version maj.0 with these CAP fields. */
static uint64_t cap_of(unsigned sagaw, unsigned fro, unsigned nfr,
		       uint64_t extra)
{
	return (uint64_t)sagaw << 8 | 38ull << 16 | (uint64_t)(fro / 16) << 24 |
	       (uint64_t)(nfr - 1) << 40 | extra;
}

static void fake_init(unsigned maj, uint64_t cap, uint64_t ecap)
{
	memset(&fk, 0, sizeof(fk));
	s32(VTD_VER_REG, maj << 4);
	s64(VTD_CAP_REG, cap);
	s64(VTD_ECAP_REG, ecap);
	fk.fro = VTD_CAP_FRO(cap) * 16;
	fk.nfr = VTD_CAP_NFR(cap) + 1;
	fk.iro = VTD_ECAP_IRO(ecap) * 16;
}

/* The events in the log, without the fault-clearing preamble. */
static unsigned events(enum ev *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < fk.nlog && n < max; i++)
		if (fk.log[i] != EV_FRCD_CLEAR && fk.log[i] != EV_FSTS_CLEAR &&
		    fk.log[i] != EV_FECTL_MASK)
			out[n++] = fk.log[i];
	return n;
}

static void assert_events(const enum ev *want, unsigned n)
{
	enum ev got[LOG_MAX];
	unsigned m = events(got, LOG_MAX);

	for (unsigned i = 0; i < m && i < n; i++)
		if (got[i] != want[i])
			fail_msg("event %u: got %d, want %d", i, got[i], want[i]);
	assert_int_equal(m, n);
}

static int setup(void **state)
{
	(void)state;
	fake_pages_reset();
	return 0;
}

/* QEMU 7.2's unit, as our boot printed it in tests/emu/cases/vtd-qemu. */
#define QEMU_CAP 0x00d2008c22260206ull
#define QEMU_ECAP 0x0000000000f00f4aull
#define ROOT 0x12345000ull

static void test_probe_decodes_qemu_unit(void **state)
{
	struct vtd_unit u;

	(void)state;
	fake_init(1, QEMU_CAP, QEMU_ECAP);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0xfed90000), 0);
	assert_int_equal(u.levels, 3);		/* SAGAW 39-bit only */
	assert_int_equal(u.fro, 0x220);
	assert_int_equal(u.nfr, 1);
	assert_int_equal(u.iro, 0xf0);
	assert_int_equal(u.inval, VTD_INVAL_REGISTER);
	assert_false(vtd_unit_caches_not_present(&u));
	assert_int_equal(fk.nlog, 0);		/* probing writes nothing */
}

/* The graphics unit of Intel client desktops with the two-unit layout
 * (fed90000 graphics, fed91000 INCLUDE_PCI_ALL), as public Linux boot
 * logs print it ("dmar0: reg_base_addr fed90000 ver 1:0 cap
 * 1c0000c40660462 ecap 19e2ff0505e"): 4-level tables only, page walks
 * not snooped, one fault record at 0x400, IOTLB_REG at 0x508, read and
 * write draining, no page-selective invalidation, PMRs possible. */
#define GFX_CAP 0x01c0000c40660462ull
#define GFX_ECAP 0x0000019e2ff0505eull

static void test_graphics_unit_as_linux_prints_it(void **state)
{
	struct vtd_unit u;
	uint64_t iotlb = 0;

	(void)state;
	fake_init(1, GFX_CAP, GFX_ECAP);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0xfed90000), 0);
	assert_int_equal(u.levels, 4);
	assert_int_equal(u.fro, 0x400);
	assert_int_equal(u.nfr, 1);
	assert_int_equal(u.iro, 0x500);
	assert_int_equal(u.inval, VTD_INVAL_REGISTER);	/* VER 1.0 */
	assert_false(u.ecap & VTD_ECAP_C);		/* clflush needed */
	assert_int_equal(vtd_unit_enable(&u, ROOT), 0);
	assert_int_equal(u.st.wb_flushes, 0);		/* no RWBF */
	/* the IOTLB invalidation asks for read and write draining */
	s64(0x508, 0);
	assert_int_equal(vtd_unit_flush_domain(&u, 1), 0);
	iotlb = g64(0x508);
	assert_true(iotlb & VTD_IOTLB_DR);
	assert_true(iotlb & VTD_IOTLB_DW);
	assert_int_equal((iotlb >> 32) & 0xffff, 1);
}

static void test_probe_levels_and_refusals(void **state)
{
	struct vtd_unit u;

	(void)state;
	/* 48-bit offered: 4 levels (a Skylake graphics unit offers only
	 * that one) */
	fake_init(1, cap_of(VTD_SAGAW_48 | VTD_SAGAW_39, 0x400, 4, 0), 0x50ull << 8);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	assert_int_equal(u.levels, 4);
	fake_init(1, cap_of(VTD_SAGAW_48, 0x400, 4, 0), 0x50ull << 8);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	assert_int_equal(u.levels, 4);
	/* only 5-level: nothing we build */
	fake_init(1, cap_of(1u << 3, 0x400, 4, 0), 0x50ull << 8);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), -HV_ENOTSUP);
	/* fault records outside the mapped window */
	fake_init(1, cap_of(VTD_SAGAW_39, 0x3ff0, 8, 0), 0x50ull << 8);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), -HV_ENOTSUP);
	/* nothing there */
	memset(fk.r, 0xff, sizeof(fk.r));
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), -HV_EIO);
	/* version 6 without a queue: no way to invalidate */
	fake_init(6, QEMU_CAP, QEMU_ECAP & ~VTD_ECAP_QI);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), -HV_ENOTSUP);
}

static void test_enable_in_documented_order(void **state)
{
	static const enum ev want[] = { EV_RTADDR, EV_SRTP, EV_CC_GLOBAL,
					EV_IOTLB_GLOBAL, EV_TE_ON };
	struct vtd_unit u;

	(void)state;
	fake_init(1, QEMU_CAP, QEMU_ECAP);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	assert_int_equal(vtd_unit_enable(&u, ROOT), 0);
	assert_events(want, sizeof(want) / sizeof(want[0]));
	assert_int_equal(g64(VTD_RTADDR_REG), ROOT);	/* TTM 00: legacy */
	assert_true(g32(VTD_GSTS_REG) & VTD_GSTS_TES);
	assert_true(g32(VTD_FECTL_REG) & VTD_FECTL_IM);	/* polled, masked */
	assert_true(u.enabled);
	assert_int_equal(u.st.timeouts, 0);
	/* SRTP's event carries RTADDR as the unit latched it */
	for (unsigned i = 0; i < fk.nlog; i++)
		if (fk.log[i] == EV_SRTP)
			assert_int_equal(fk.arg[i], ROOT);
	/* taking pages back: a domain-selective IOTLB invalidation */
	fk.nlog = 0;
	assert_int_equal(vtd_unit_flush_domain(&u, 7), 0);
	assert_int_equal(fk.nlog, 1);
	assert_int_equal(fk.log[0], EV_IOTLB_DOMAIN);
	assert_int_equal(fk.arg[0], 7);
	assert_int_equal(vtd_unit_disable(&u), 0);
	assert_false(g32(VTD_GSTS_REG) & VTD_GSTS_TES);
}

/* The firmware left translation, protected memory and its own queue on:
 * all three go off first, the queue only once it is drained. */
static void test_enable_takes_unit_from_firmware(void **state)
{
	static const enum ev want[] = { EV_TE_OFF, EV_PMEN_OFF, EV_QIE_OFF,
					EV_RTADDR, EV_SRTP, EV_WBF,
					EV_CC_GLOBAL, EV_IOTLB_GLOBAL,
					EV_TE_ON };
	struct vtd_unit u;

	(void)state;
	fake_init(1, QEMU_CAP | VTD_CAP_PLMR | VTD_CAP_RWBF, QEMU_ECAP);
	s32(VTD_GSTS_REG, VTD_GSTS_TES | VTD_GSTS_QIES | VTD_GSTS_RTPS);
	fk.qi_on = true;
	s32(VTD_PMEN_REG, VTD_PMEN_EPM | VTD_PMEN_PRS);
	/* stale fault record from before us */
	s64(VTD_FRCD_HI(fk.fro, 0), 1ull << 63);
	update_ppf();
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	assert_int_equal(vtd_unit_enable(&u, ROOT), 0);
	assert_events(want, sizeof(want) / sizeof(want[0]));
	assert_false(g32(VTD_FSTS_REG) & VTD_FSTS_PPF);
	assert_int_equal(u.st.wb_flushes, 1);
}

/* A unit that never finishes: every wait ends, named and counted. */
static void test_timeouts(void **state)
{
	struct vtd_unit u;
	uint64_t t0;

	(void)state;
	fake_init(1, QEMU_CAP, QEMU_ECAP);
	fk.stuck = VTD_GCMD_SRTP;
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	t0 = fk.now;
	assert_int_equal(vtd_unit_enable(&u, ROOT), -HV_ETIMEDOUT);
	assert_string_equal(u.failed_step, "SRTP");
	assert_int_equal(u.st.timeouts, 1);
	assert_true(fk.now - t0 > VTD_TIMEOUT_US);
	assert_false(u.enabled);
	assert_false(g32(VTD_GSTS_REG) & VTD_GSTS_TES);

	fake_init(1, QEMU_CAP, QEMU_ECAP);
	fk.ccmd_stuck = true;
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	assert_int_equal(vtd_unit_enable(&u, ROOT), -HV_ETIMEDOUT);
	assert_string_equal(u.failed_step, "context-cache invalidation");
	assert_false(g32(VTD_GSTS_REG) & VTD_GSTS_TES);	/* TE never set */

	fake_init(1, QEMU_CAP, QEMU_ECAP);
	fk.stuck = VTD_GCMD_TE;
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	assert_int_equal(vtd_unit_enable(&u, ROOT), -HV_ETIMEDOUT);
	assert_string_equal(u.failed_step, "TE on");

	fake_init(1, QEMU_CAP, QEMU_ECAP);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	assert_int_equal(vtd_unit_enable(&u, ROOT), 0);
	fk.iotlb_stuck = true;
	assert_int_equal(vtd_unit_flush_domain(&u, 1), -HV_ETIMEDOUT);
	assert_string_equal(u.failed_step, "IOTLB invalidation");

	/* a unit that answers but did not do it (CAIG 0) */
	fake_init(1, QEMU_CAP, QEMU_ECAP);
	fk.ccmd_refuse = true;
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	assert_int_equal(vtd_unit_enable(&u, ROOT), -HV_EIO);
	assert_int_equal(u.st.inval_errors, 1);
}

/* Version 6 has no register-based invalidation: the queue, with a wait
 * descriptor whose status write ends each batch. */
static void test_queued_invalidation(void **state)
{
	static const enum ev want[] = { EV_IQA, EV_QIE_ON, EV_RTADDR, EV_SRTP,
					EV_QI_CC_GLOBAL, EV_QI_IOTLB_GLOBAL,
					EV_QI_WAIT, EV_TE_ON };
	struct vtd_unit u;

	(void)state;
	fake_init(6, QEMU_CAP, QEMU_ECAP);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	assert_int_equal(u.inval, VTD_INVAL_QUEUED);
	assert_int_equal(vtd_unit_set_inval(&u, VTD_INVAL_REGISTER),
			 -HV_ENOTSUP);
	assert_int_equal(vtd_unit_enable(&u, ROOT), 0);
	assert_events(want, sizeof(want) / sizeof(want[0]));
	assert_int_equal(g64(VTD_IQA_REG), hv_pa(u.iq));	/* QS 0, DW 0 */
	assert_int_equal(*u.iq_status, u.iq_seq);
	fk.nlog = 0;
	assert_int_equal(vtd_unit_flush_domain(&u, 3), 0);
	assert_int_equal(fk.nlog, 2);
	assert_int_equal(fk.log[0], EV_QI_IOTLB_DOMAIN);
	assert_int_equal(fk.arg[0], 3);
	assert_int_equal(fk.log[1], EV_QI_WAIT);
	/* the ring wraps: many batches later still in step */
	for (unsigned i = 0; i < 300; i++) {
		fk.nlog = 0;
		assert_int_equal(vtd_unit_flush_domain(&u, 3), 0);
		assert_int_equal(fk.log[0], EV_QI_IOTLB_DOMAIN);
	}
	assert_int_equal(u.st.timeouts, 0);
	vtd_unit_release(&u);
	assert_int_equal(fake_pages_live(), 0);
}

/* Switching interfaces under translation (the self-test does), and a
 * descriptor the unit refuses. */
static void test_switch_and_queue_error(void **state)
{
	struct vtd_unit u;

	(void)state;
	fake_init(1, QEMU_CAP, QEMU_ECAP);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	assert_int_equal(vtd_unit_enable(&u, ROOT), 0);
	assert_int_equal(vtd_unit_set_inval(&u, VTD_INVAL_QUEUED), 0);
	assert_true(fk.qi_on);
	assert_int_equal(vtd_unit_flush_all(&u), 0);
	/* the next descriptor slot gets garbage the fake refuses */
	u.iq[2 * u.iq_tail] = 0xf;
	fk.qi_on = true;
	write_reg(VTD_IQT_REG, (uint64_t)(u.iq_tail + 1) << VTD_IQT_SHIFT,
		  true);
	assert_true(g32(VTD_FSTS_REG) & VTD_FSTS_IQE);
	assert_int_equal(vtd_unit_flush_domain(&u, 1), -HV_EIO);
	assert_int_equal(u.st.inval_errors, 1);
	assert_false(g32(VTD_FSTS_REG) & VTD_FSTS_IQE);
	/* back to registers: the queue is drained and stopped first */
	assert_int_equal(vtd_unit_set_inval(&u, VTD_INVAL_REGISTER), 0);
	assert_false(fk.qi_on);
	assert_int_equal(vtd_unit_flush_domain(&u, 1), 0);
	vtd_unit_release(&u);
}

/* -- faults -- */

static unsigned reported;
static struct vtd_fault last_report;

static void on_report(const struct vtd_fault *f)
{
	reported++;
	last_report = *f;
}

static void put_fault(unsigned i, uint64_t page, uint16_t sid, bool read,
		      uint8_t reason)
{
	s64(VTD_FRCD_LO(fk.fro, i), page);
	s64(VTD_FRCD_HI(fk.fro, i), 1ull << 63 | (read ? 1ull << 62 : 0) |
				    (uint64_t)reason << 32 | sid);
	update_ppf();
}

static void test_fault_ring_read_and_cleared(void **state)
{
	struct vtd_fault_log log = { 0 };
	struct vtd_unit u;

	(void)state;
	fake_init(1, cap_of(VTD_SAGAW_39, 0x400, 4, 0), 0x50ull << 8);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	reported = 0;
	/* two records from index 3 on: 3, then 0 (the ring wraps) */
	put_fault(3, 0x7f00b000, 0x0010, true, 6);
	put_fault(0, 0x12345000, 0x0018, false, 5);
	s32(VTD_FSTS_REG, g32(VTD_FSTS_REG) | 3u << 8);
	assert_int_equal(vtd_fault_poll(&u, &log, on_report), 2);
	assert_int_equal(log.total, 2);
	assert_int_equal(reported, 2);
	assert_int_equal(last_report.source, 0x0018);
	assert_int_equal(last_report.addr, 0x12345000);
	assert_false(last_report.read);
	assert_false(g32(VTD_FSTS_REG) & VTD_FSTS_PPF);	/* all F cleared */
	/* the same page again: counted, not reported */
	put_fault(1, 0x12345000, 0x0018, false, 5);
	s32(VTD_FSTS_REG, (g32(VTD_FSTS_REG) & ~0xff00u) | 1u << 8);
	assert_int_equal(vtd_fault_poll(&u, &log, on_report), 1);
	assert_int_equal(reported, 2);
	assert_int_equal(log.repeats, 1);
	/* nothing pending: nothing read */
	assert_int_equal(vtd_fault_poll(&u, &log, on_report), 0);
	/* an overflow is counted and cleared */
	s32(VTD_FSTS_REG, g32(VTD_FSTS_REG) | VTD_FSTS_PFO);
	vtd_fault_poll(&u, &log, on_report);
	assert_int_equal(log.overflows, 1);
	assert_false(g32(VTD_FSTS_REG) & VTD_FSTS_PFO);
}

static void test_fault_pages_bounded(void **state)
{
	struct vtd_fault_log log = { 0 };
	struct vtd_unit u;

	(void)state;
	fake_init(1, QEMU_CAP, QEMU_ECAP);
	assert_int_equal(vtd_unit_probe(&u, &fake_io, 0), 0);
	reported = 0;
	for (unsigned i = 0; i < VTD_FAULT_PAGES + 10; i++) {
		put_fault(0, 0x100000ull + i * 0x1000ull, 0x0010, false, 5);
		assert_int_equal(vtd_fault_poll(&u, &log, on_report), 1);
	}
	assert_int_equal(reported, VTD_FAULT_PAGES);
	assert_int_equal(log.nr_pages, VTD_FAULT_PAGES);
	assert_int_equal(log.unlisted, 10);
	assert_int_equal(log.total, VTD_FAULT_PAGES + 10);
}

static void test_fault_decode_and_reasons(void **state)
{
	struct vtd_fault f;

	(void)state;
	vtd_fault_decode(0x7f00bfffull, 1ull << 63 | 0x0cull << 32 | 0x0123,
			 &f);
	assert_true(f.valid);
	assert_false(f.read);
	assert_int_equal(f.addr, 0x7f00b000);	/* FI: the page */
	assert_int_equal(f.reason, 0xc);
	assert_int_equal(f.source, 0x0123);
	assert_string_equal(vtd_fault_reason_name(5),
			    "write to a page without write permission");
	assert_string_equal(vtd_fault_reason_name(2),
			    "context entry not present (device not translated)");
	assert_string_equal(vtd_fault_reason_name(0),
			    "other (VT-d spec appendix A)");
	assert_string_equal(vtd_fault_reason_name(0xff),
			    "other (VT-d spec appendix A)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_probe_decodes_qemu_unit, setup),
		cmocka_unit_test_setup(test_graphics_unit_as_linux_prints_it,
				       setup),
		cmocka_unit_test_setup(test_probe_levels_and_refusals, setup),
		cmocka_unit_test_setup(test_enable_in_documented_order, setup),
		cmocka_unit_test_setup(test_enable_takes_unit_from_firmware,
				       setup),
		cmocka_unit_test_setup(test_timeouts, setup),
		cmocka_unit_test_setup(test_queued_invalidation, setup),
		cmocka_unit_test_setup(test_switch_and_queue_error, setup),
		cmocka_unit_test_setup(test_fault_ring_read_and_cleared, setup),
		cmocka_unit_test_setup(test_fault_pages_bounded, setup),
		cmocka_unit_test_setup(test_fault_decode_and_reasons, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
