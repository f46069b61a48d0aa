/* The PVINFO page at BAR0 + 0x78000 (i915-guest §2): how a stock i915 learns it
 * runs on a GVT-g vGPU, which GGTT slices and fences it owns, and how it
 * announces its PPGTTs (handed to the PPGTT area through the register
 * table's g2v hook).
 *
 * The page lives in the vreg file, filled at creation like GVT's
 * populate_pvinfo_page(). i915 reads the magic as one qword and the version
 * as one word (i915-guest §2.1); the MMIO layer assembles those from dwords. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"

#define PV(off) (VGT_PVINFO_PAGE + (off))

void vgpu_pvinfo_init(struct vgpu *v)
{
	uint32_t off;

	for (off = 0; off < VGT_PVINFO_SIZE; off += 4)
		vreg_set(v, PV(off), 0);
	vreg_set(v, PV(PV_MAGIC), (uint32_t)VGT_MAGIC);
	vreg_set(v, PV(PV_MAGIC + 4), (uint32_t)(VGT_MAGIC >> 32));
	vreg_set(v, PV(PV_VERSION), VGT_VERSION_MAJOR | VGT_VERSION_MINOR << 16);
	vreg_set(v, PV(PV_VGT_ID), (uint32_t)v->id);
	/* Full PPGTT and HWSP emulation are mandatory for 5.x+ guests; no
	 * HUGE_GTT so the guest uses 4 KiB GTT pages only (i915-guest §2.3). */
	vreg_set(v, PV(PV_CAPS), VGT_CAPS_FULL_PPGTT | VGT_CAPS_HWSP_EMULATION);
	vreg_set(v, PV(PV_MAPPABLE_BASE), (uint32_t)v->low_base);
	vreg_set(v, PV(PV_MAPPABLE_SIZE), (uint32_t)v->low_size);
	vreg_set(v, PV(PV_NONMAPPABLE_BASE), (uint32_t)v->high_base);
	vreg_set(v, PV(PV_NONMAPPABLE_SIZE), (uint32_t)v->high_size);
	vreg_set(v, PV(PV_FENCE_NUM), v->fence_num);
	vreg_set(v, PV(PV_CURSOR_X_HOT), ~0u);
	vreg_set(v, PV(PV_CURSOR_Y_HOT), ~0u);
}

/* Fields GVT serves without complaint (handlers.c pvinfo_mmio_read). */
static bool pv_read_expected(uint32_t rel)
{
	return rel <= PV_CAPS || (rel >= PV_MAPPABLE_BASE && rel <= PV_FENCE_NUM) ||
	       rel == 0x81c || rel == PV_DISPLAY_READY;
}

int vgpu_pvinfo_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	uint32_t rel = off - VGT_PVINFO_PAGE;

	v->stats.pvinfo_reads++;
	if (rel == PV_MAGIC)
		v->pv_notified = true;
	if (!pv_read_expected(rel) && !v->pv_odd_read_logged) {
		/* GVT logs these too; served as zero all the same. */
		v->pv_odd_read_logged = true;
		vgpu_dbg(v, "pvinfo read of reserved offset 0x%x", rel);
	}
	*val = vreg(v, off);
	return 0;
}

/* The guest asked for a snapshot of its vGPU's counters (a g9hv mark):
 * what its measurement's deltas are taken from. */
static void g2v_mark(struct vgpu *v, uint32_t mark)
{
	const struct vgpu_stats *s = &v->stats;

	if (v->stats.g2v_marks++ >= VGPU_G2V_MARKS_LOGGED)
		return;
	vgpu_info(v, "counters at guest mark %u: mmio r/w %llu/%llu elsp %llu "
		  "workloads %llu done %llu irqs %llu switches %llu ggtt copied %llu "
		  "ggtt writes %llu pte traps %llu",
		  mark, (unsigned long long)s->mmio_reads,
		  (unsigned long long)s->mmio_writes,
		  (unsigned long long)s->elsp_submits,
		  (unsigned long long)s->workloads,
		  (unsigned long long)s->workloads_done,
		  (unsigned long long)s->irqs_injected,
		  (unsigned long long)s->vgpu_switches,
		  (unsigned long long)s->gm_entries_copied,
		  (unsigned long long)s->ggtt_writes,
		  (unsigned long long)s->pte_traps);
	vgpu_info(v, "scanner at guest mark %u: cmds %llu batches %llu bytes %llu "
		  "mi %llu 3d %llu media %llu 2d %llu refused %llu ns scan %llu "
		  "shadow ppgtt %llu", mark, (unsigned long long)s->cmds_scanned,
		  (unsigned long long)s->batches_scanned,
		  (unsigned long long)s->scan_bytes,
		  (unsigned long long)s->scan_mi, (unsigned long long)s->scan_3d,
		  (unsigned long long)s->scan_media, (unsigned long long)s->scan_2d,
		  (unsigned long long)s->user_faults,
		  (unsigned long long)s->ns_scan, (unsigned long long)s->ns_shadow);
	vgpu_info(v, "display at guest mark %u: vblanks %llu flips %llu "
		  "planes refused %llu aux %llu", mark,
		  (unsigned long long)s->vblanks, (unsigned long long)s->flips,
		  (unsigned long long)s->planes_refused,
		  (unsigned long long)s->aux_transactions);
}

static void g2v_notify(struct vgpu *v, uint32_t what)
{
	mmio_g2v_fn hook;
	int ret = 0;

	v->stats.g2v_notifies++;
	if ((what & VGT_G2V_G9HV_MARK_MASK) == VGT_G2V_G9HV_MARK) {
		g2v_mark(v, what & ~VGT_G2V_G9HV_MARK_MASK);
		return;
	}
	switch (what) {
	case VGT_G2V_PPGTT_L4_CREATE:
	case VGT_G2V_PPGTT_L4_DESTROY:
	case VGT_G2V_PPGTT_L3_CREATE:
	case VGT_G2V_PPGTT_L3_DESTROY:
		/* The PPGTT area's (ppgtt/vgpu_ppgtt_regs.c), through the
		 * hook it hands the register table. */
		hook = v->gvt->regs.g2v_ppgtt;
		ret = hook ? hook(v, what, v->pv_pdp[0]) : -GPU_ENOTSUP;
		break;
	case VGT_G2V_EXECLIST_CTX_CREATE:
	case VGT_G2V_EXECLIST_CTX_DESTROY:
	case 1: /* XenGT-era pointer shape; GVT accepts it silently */
		break;
	default:
		ret = -GPU_EINVAL;
		break;
	}
	if (ret) {
		v->stats.ppgtt_errors++;
		vgpu_warn(v, "g2v notify %u (pdp0 0x%llx) failed: %d", what,
			  (unsigned long long)v->pv_pdp[0], ret);
	}
}

int vgpu_pvinfo_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	uint32_t rel = off - VGT_PVINFO_PAGE;

	if (rel >= PV_PDP0_LO && rel < PV_PDP0_LO + 32) {
		unsigned int i = (rel - PV_PDP0_LO) / 8;

		vreg_set(v, off, val);
		if (rel & 4)
			v->pv_pdp[i] = (v->pv_pdp[i] & 0xffffffffull) | (uint64_t)val << 32;
		else
			v->pv_pdp[i] = (v->pv_pdp[i] & ~0xffffffffull) | val;
		return 0;
	}
	switch (rel) {
	case PV_DISPLAY_READY:
		v->display_ready = val == 1;
		vreg_set(v, off, val);
		return 0;
	case PV_G2V_NOTIFY:
		vreg_set(v, off, val);
		g2v_notify(v, val);
		return 0;
	case PV_CURSOR_X_HOT:
	case PV_CURSOR_Y_HOT:
	case PV_EXECLIST_DESC_LO:
	case PV_EXECLIST_DESC_HI:
		vreg_set(v, off, val);
		return 0;
	default:
		break;
	}
	if (rel >= PV_RSV5 && rel < PV_G2V_NOTIFY)
		vgpu_warn(v, "guest reports insufficient vGPU resources");
	if (!v->stats.pvinfo_bad_writes)
		vgpu_warn(v, "write to read-only pvinfo offset 0x%x dropped", rel);
	v->stats.pvinfo_bad_writes++;
	return 0;
}

/* The ballooning registers after the vGPU's GM changed (gpu/gscale/mediator/gscale_reshape.c):
 * a cooperating guest re-reads them; stock i915 reads them once at load. */
void vgpu_pvinfo_update_gm(struct vgpu *v)
{
	vreg_set(v, PV(PV_NONMAPPABLE_BASE), (uint32_t)v->high_base);
	vreg_set(v, PV(PV_NONMAPPABLE_SIZE), (uint32_t)v->high_size);
}
