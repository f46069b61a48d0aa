/* Invalidating a VT-d unit's caches (spec 6.5), register-based or
 * through the invalidation queue (vtd_unit.h). Either way the caller
 * waits until the unit says it is done. */
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/vtd/vtd_regs.h"
#include "hv/vtd/vtd_unit.h"
#include "hv/vtd/vtd_unit_internal.h"

static uint32_t rd32(struct vtd_unit *u, uint32_t off)
{
	return u->io.rd32(u->io.ctx, off);
}

static uint64_t rd64(struct vtd_unit *u, uint32_t off)
{
	return u->io.rd64(u->io.ctx, off);
}

static void wr64(struct vtd_unit *u, uint32_t off, uint64_t v)
{
	u->io.wr64(u->io.ctx, off, v);
}

static bool qi_running(struct vtd_unit *u)
{
	return rd32(u, VTD_GSTS_REG) & VTD_GSTS_QIES;
}

/* Before QIE is cleared the unit must have fetched every descriptor
 * (IQH == IQT), whoever queued them. */
static int qi_stop(struct vtd_unit *u)
{
	uint64_t t0 = u->io.now_us(u->io.ctx);

	while (rd64(u, VTD_IQH_REG) != rd64(u, VTD_IQT_REG))
		if (u->io.now_us(u->io.ctx) - t0 > VTD_TIMEOUT_US) {
			u->st.timeouts++;
			u->failed_step = "queue drain";
			return -HV_ETIMEDOUT;
		}
	return vtd_gcmd(u, VTD_GCMD_QIE, false, "QIE off");
}

static int qi_alloc(struct vtd_unit *u)
{
	if (u->iq)
		return 0;
	u->iq = page_alloc();
	u->iq_status = page_alloc();
	if (u->iq && u->iq_status)
		return 0;
	vtd_unit_release(u);
	return -HV_ENOMEM;
}

/* Our queue: one page of 128-bit descriptors (IQA.QS 0, DW 0), the
 * tail at 0 (the unit resets its head when QIE goes on). */
static int qi_start(struct vtd_unit *u)
{
	u->iq_tail = 0;
	wr64(u, VTD_IQT_REG, 0);
	wr64(u, VTD_IQA_REG, hv_pa(u->iq));
	return vtd_gcmd(u, VTD_GCMD_QIE, true, "QIE on");
}

int vtd_unit_set_inval(struct vtd_unit *u, enum vtd_inval_mode m)
{
	int err = 0;

	if (m == VTD_INVAL_QUEUED) {
		if (!(u->ecap & VTD_ECAP_QI))
			return -HV_ENOTSUP;
		err = qi_alloc(u);
		if (!err && qi_running(u) &&
		    (u->inval != VTD_INVAL_QUEUED ||
		     rd64(u, VTD_IQA_REG) != hv_pa(u->iq)))
			err = qi_stop(u);	/* someone else's queue */
		if (!err && !qi_running(u))
			err = qi_start(u);
	} else {
		if (VTD_VER_MAJOR(u->ver) >= VTD_VER_NO_REG_INVAL)
			return -HV_ENOTSUP;
		if (qi_running(u))
			err = qi_stop(u);
	}
	if (!err)
		u->inval = m;
	return err;
}

void vtd_unit_release(struct vtd_unit *u)
{
	if (u->iq)
		page_free(u->iq);
	if (u->iq_status)
		page_free((void *)u->iq_status);
	u->iq = NULL;
	u->iq_status = NULL;
}

/* Queues the descriptors d[0..n) and a wait descriptor that writes a new
 * sequence number, then polls for that write (or a queue error). */
static int qi_submit(struct vtd_unit *u, const uint64_t (*d)[2], unsigned n,
		     const char *step)
{
	uint32_t seq = ++u->iq_seq;
	uint64_t w[2] = { VTD_QI_WAIT | VTD_QI_WAIT_SW | VTD_QI_WAIT_FN |
			  VTD_QI_WAIT_DATA(seq), hv_pa((void *)u->iq_status) };
	uint64_t t0;

	for (unsigned i = 0; i <= n; i++) {
		uint64_t *slot = &u->iq[2 * u->iq_tail];

		slot[0] = i < n ? d[i][0] : w[0];
		slot[1] = i < n ? d[i][1] : w[1];
		if (u->io.flush)
			u->io.flush(slot, VTD_IQ_DESC_BYTES);
		u->iq_tail = (u->iq_tail + 1) % VTD_IQ_ENTRIES;
	}
	wr64(u, VTD_IQT_REG, (uint64_t)u->iq_tail << VTD_IQT_SHIFT);
	t0 = u->io.now_us(u->io.ctx);
	while (*u->iq_status != seq) {
		if (rd32(u, VTD_FSTS_REG) & VTD_FSTS_IQE) {
			/* the unit stopped at a descriptor it refused:
			 * skip what is queued, clear the error */
			u->st.inval_errors++;
			u->failed_step = step;
			wr64(u, VTD_IQT_REG, rd64(u, VTD_IQH_REG));
			u->iq_tail = (uint32_t)(rd64(u, VTD_IQH_REG) >>
						VTD_IQT_SHIFT) % VTD_IQ_ENTRIES;
			u->io.wr32(u->io.ctx, VTD_FSTS_REG, VTD_FSTS_IQE);
			return -HV_EIO;
		}
		if (u->io.now_us(u->io.ctx) - t0 > VTD_TIMEOUT_US) {
			u->st.timeouts++;
			u->failed_step = step;
			return -HV_ETIMEDOUT;
		}
	}
	return 0;
}

static uint64_t drain_bits_reg(const struct vtd_unit *u)
{
	return (u->cap & VTD_CAP_DRD ? VTD_IOTLB_DR : 0) |
	       (u->cap & VTD_CAP_DWD ? VTD_IOTLB_DW : 0);
}

static uint64_t drain_bits_qi(const struct vtd_unit *u)
{
	return (u->cap & VTD_CAP_DRD ? VTD_QI_IOTLB_DR : 0) |
	       (u->cap & VTD_CAP_DWD ? VTD_QI_IOTLB_DW : 0);
}

/* CCMD: ICC stays set until done; CAIG 0 means it was not done. */
static int ctx_global_reg(struct vtd_unit *u)
{
	int err;

	wr64(u, VTD_CCMD_REG, VTD_CCMD_ICC | VTD_CCMD_CIRG_GLOBAL);
	err = vtd_wait64(u, VTD_CCMD_REG, VTD_CCMD_ICC, 0,
			 "context-cache invalidation");
	if (!err && !VTD_CCMD_CAIG(rd64(u, VTD_CCMD_REG))) {
		u->st.inval_errors++;
		u->failed_step = "context-cache invalidation (CAIG 0)";
		err = -HV_EIO;
	}
	return err;
}

static int iotlb_reg(struct vtd_unit *u, uint64_t granularity, uint16_t did)
{
	uint32_t off = u->iro + 8;
	int err;

	wr64(u, off, VTD_IOTLB_IVT | granularity | VTD_IOTLB_DID(did) |
		     drain_bits_reg(u));
	err = vtd_wait64(u, off, VTD_IOTLB_IVT, 0, "IOTLB invalidation");
	if (!err && !VTD_IOTLB_IAIG(rd64(u, off))) {
		u->st.inval_errors++;
		u->failed_step = "IOTLB invalidation (IAIG 0)";
		err = -HV_EIO;
	}
	return err;
}

/* CAP.RWBF: the unit's write buffer must be flushed before it may see
 * changed tables. */
static int flush_write_buffer(struct vtd_unit *u)
{
	if (!(u->cap & VTD_CAP_RWBF))
		return 0;
	u->st.wb_flushes++;
	return vtd_gcmd(u, VTD_GCMD_WBF, true, "write buffer flush");
}

int vtd_unit_flush_all(struct vtd_unit *u)
{
	uint64_t q[2][2] = {
		{ VTD_QI_CC | VTD_QI_G_GLOBAL, 0 },
		{ VTD_QI_IOTLB | VTD_QI_G_GLOBAL | drain_bits_qi(u), 0 },
	};
	int err = flush_write_buffer(u);

	if (err)
		return err;
	u->st.ctx_invals++;
	u->st.iotlb_invals++;
	if (u->inval == VTD_INVAL_QUEUED)
		return qi_submit(u, q, 2, "queued global invalidation");
	err = ctx_global_reg(u);
	return err ? err : iotlb_reg(u, VTD_IOTLB_IIRG_GLOBAL, 0);
}

int vtd_unit_flush_domain(struct vtd_unit *u, uint16_t did)
{
	uint64_t q[1][2] = { { VTD_QI_IOTLB | VTD_QI_G_DOMAIN | VTD_QI_DID(did) |
			       drain_bits_qi(u), 0 } };
	int err = flush_write_buffer(u);

	if (err)
		return err;
	u->st.iotlb_invals++;
	if (u->inval == VTD_INVAL_QUEUED)
		return qi_submit(u, q, 1, "queued IOTLB invalidation");
	return iotlb_reg(u, VTD_IOTLB_IIRG_DOMAIN, did);
}
