/* A VT-d unit's capabilities and its enable sequence (vtd_unit.h). */
#include "hv/vtd/vtd_unit.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/vtd/vtd_regs.h"
#include "hv/vtd/vtd_unit_internal.h"

/* Register offsets derived from CAP/ECAP must stay inside the window the
 * caller mapped (a few pages at most on any unit we know of). */
#define VTD_REG_WINDOW (4 * VTD_REG_PAGE)

static uint32_t rd32(struct vtd_unit *u, uint32_t off)
{
	return u->io.rd32(u->io.ctx, off);
}

static void wr32(struct vtd_unit *u, uint32_t off, uint32_t v)
{
	u->io.wr32(u->io.ctx, off, v);
}

static int timed_out(struct vtd_unit *u, const char *step)
{
	u->st.timeouts++;
	u->failed_step = step;
	return -HV_ETIMEDOUT;
}

int vtd_wait32(struct vtd_unit *u, uint32_t off, uint32_t mask,
	       uint32_t want, const char *step)
{
	uint64_t t0 = u->io.now_us(u->io.ctx);

	while ((rd32(u, off) & mask) != want)
		if (u->io.now_us(u->io.ctx) - t0 > VTD_TIMEOUT_US)
			return timed_out(u, step);
	return 0;
}

int vtd_wait64(struct vtd_unit *u, uint32_t off, uint64_t mask,
	       uint64_t want, const char *step)
{
	uint64_t t0 = u->io.now_us(u->io.ctx);

	while ((u->io.rd64(u->io.ctx, off) & mask) != want)
		if (u->io.now_us(u->io.ctx) - t0 > VTD_TIMEOUT_US)
			return timed_out(u, step);
	return 0;
}

/* GSTS shows which commands are on; the one-shot ones are not states
 * and must not be written back (spec 10.4.4). SRTP completes when RTPS
 * is set, WBF when WBFS clears, TE/QIE when their status matches. */
int vtd_gcmd(struct vtd_unit *u, uint32_t cmd, bool on, const char *step)
{
	uint32_t v = rd32(u, VTD_GSTS_REG) & ~VTD_GCMD_ONE_SHOT;
	uint32_t want = on ? cmd : 0;

	wr32(u, VTD_GCMD_REG, on ? v | cmd : v & ~cmd);
	if (cmd == VTD_GCMD_WBF)
		want = 0;
	return vtd_wait32(u, VTD_GSTS_REG, cmd, want, step);
}

static unsigned pick_levels(uint64_t cap)
{
	unsigned sagaw = VTD_CAP_SAGAW(cap);

	/* As Linux: the widest the unit offers (a Skylake graphics unit
	 * offers only 4-level, QEMU's default only 3-level). */
	return sagaw & VTD_SAGAW_48 ? 4 : sagaw & VTD_SAGAW_39 ? 3 : 0;
}

int vtd_unit_probe(struct vtd_unit *u, const struct vtd_io *io,
		   uint64_t base)
{
	*u = (struct vtd_unit){ .io = *io, .base = base };
	u->ver = rd32(u, VTD_VER_REG);
	u->cap = io->rd64(io->ctx, VTD_CAP_REG);
	u->ecap = io->rd64(io->ctx, VTD_ECAP_REG);
	if (u->cap == ~0ull || u->ecap == ~0ull)
		return -HV_EIO;
	u->fro = VTD_CAP_FRO(u->cap) * 16;
	u->nfr = VTD_CAP_NFR(u->cap) + 1;
	u->iro = VTD_ECAP_IRO(u->ecap) * 16;
	u->levels = pick_levels(u->cap);
	if (!u->levels || u->fro < VTD_IQA_REG ||
	    u->fro + 16 * u->nfr > VTD_REG_WINDOW ||
	    u->iro + 16 > VTD_REG_WINDOW)
		return -HV_ENOTSUP;
	if (VTD_VER_MAJOR(u->ver) >= VTD_VER_NO_REG_INVAL) {
		if (!(u->ecap & VTD_ECAP_QI))
			return -HV_ENOTSUP;
		u->inval = VTD_INVAL_QUEUED;	/* applied by the enable */
	}
	return 0;
}

bool vtd_unit_caches_not_present(const struct vtd_unit *u)
{
	return u->cap & VTD_CAP_CM;
}

/* Faults recorded before we own the unit say nothing about our tables. */
static void clear_faults(struct vtd_unit *u)
{
	wr32(u, VTD_FECTL_REG, VTD_FECTL_IM);
	for (uint32_t i = 0; i < u->nfr; i++)
		wr32(u, VTD_FRCD_F_DWORD(u->fro, i), VTD_FRCD_F_BIT);
	wr32(u, VTD_FSTS_REG, VTD_FSTS_W1C);
}

/* Firmware may leave translation or protected memory regions on (DMA
 * protection during boot); both would otherwise decide for our tables. */
static int take_from_firmware(struct vtd_unit *u)
{
	int err = 0;

	if (rd32(u, VTD_GSTS_REG) & VTD_GSTS_TES)
		err = vtd_gcmd(u, VTD_GCMD_TE, false, "TE off (left on)");
	if (!err && (u->cap & (VTD_CAP_PLMR | VTD_CAP_PHMR)) &&
	    (rd32(u, VTD_PMEN_REG) & VTD_PMEN_PRS)) {
		wr32(u, VTD_PMEN_REG, 0);
		err = vtd_wait32(u, VTD_PMEN_REG, VTD_PMEN_PRS, 0,
				 "protected memory off");
	}
	return err;
}

int vtd_unit_enable(struct vtd_unit *u, uint64_t root_pa)
{
	int err = take_from_firmware(u);

	if (err)
		return err;
	/* queued mode needs the queue running, register mode needs it off
	 * (a unit ignores register invalidation while QIES is set) */
	err = vtd_unit_set_inval(u, u->inval);
	if (err)
		return err;
	clear_faults(u);
	/* TTM (bits 11:10) 00: legacy root and context entries */
	u->io.wr64(u->io.ctx, VTD_RTADDR_REG, root_pa & PAGE_MASK);
	err = vtd_gcmd(u, VTD_GCMD_SRTP, true, "SRTP");
	if (!err)
		err = vtd_unit_flush_all(u);
	if (!err)
		err = vtd_gcmd(u, VTD_GCMD_TE, true, "TE on");
	u->enabled = !err;
	return err;
}

int vtd_unit_disable(struct vtd_unit *u)
{
	int err = vtd_gcmd(u, VTD_GCMD_TE, false, "TE off");

	if (!err)
		u->enabled = false;
	return err;
}
