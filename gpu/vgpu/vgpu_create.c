/* Device and vGPU life cycle, and static resource partitioning.
 *
 * How many vGPUs fit (gvt-facts §2, gvt-facts §F1): each needs its
 * low GM inside the aperture, its high GM above it, and its fences, after
 * the host took its share. For a 4 GiB GGTT, the common 256 MiB aperture,
 * GVT's host reservation (128 MiB low, 384 MiB high, 4 fences) and the
 * 64 MiB low / 384 MiB high / 4 fence type (GVTg_V5_8):
 *   low  (256 - 128) / 64          = 2
 *   high (4096 - 256 - 384) / 384  = 9
 *   fences (32 - 4) / 4            = 7
 * so at most 2 vGPUs: the aperture binds. That is the limit gScale lifts.
 * (512 MiB aperture: min(6, 8, 7) = 6; 1 GiB: min(14, 7, 7) = 7.) */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/display/display.h"
#include "mini/string.h"

#define MiB (1ull << 20)

const struct vgpu_type vgpu_type_v5_8 = { "GVTg_V5_8", 64 * MiB, 384 * MiB, 4, 2 };
const struct vgpu_type vgpu_type_v5_4 = { "GVTg_V5_4", 128 * MiB, 512 * MiB, 4, 4 };
const struct vgpu_type vgpu_type_v5_2 = { "GVTg_V5_2", 256 * MiB, 1024 * MiB, 4, 8 };
const struct vgpu_type vgpu_type_v5_1 = { "GVTg_V5_1", 512 * MiB, 2048 * MiB, 4, 16 };

#define DEFAULT_ENGINES (BIT(GEN9_RCS0) | BIT(GEN9_BCS0) | BIT(GEN9_VCS0) | \
			 BIT(GEN9_VECS0))

static void set_defaults(struct gvt_params *p)
{
	if (!p->host_low_gm)
		p->host_low_gm = 128 * MiB;
	if (!p->host_high_gm)
		p->host_high_gm = 384 * MiB;
	if (!p->host_fences)
		p->host_fences = 4;
	if (!p->timeslice_ns)
		p->timeslice_ns = GVT_TIMESLICE_NS;
	if (!p->hang_timeout_ns)
		p->hang_timeout_ns = 2000000000ull;
	if (!p->overrun_ns)
		p->overrun_ns = GVT_OVERRUN_NS;
	if (!p->max_overruns)
		p->max_overruns = GVT_MAX_OVERRUNS;
}

static int gvt_layout(struct gvt *gvt)
{
	const struct gpu_hw_info *info = &gvt->hw->info;
	struct gvt_params *p = &gvt->p;

	gvt->ggtt_size = info->ggtt_size;
	gvt->ggtt_entries = info->ggtt_entries;
	gvt->aperture_size = info->aperture_size;
	gvt->fences_total = info->num_fences ? info->num_fences : GEN9_NUM_FENCES;
	if (gvt->fences_total > GEN9_NUM_FENCES)
		gvt->fences_total = GEN9_NUM_FENCES;
	if (!gvt->ggtt_size || gvt->aperture_size > gvt->ggtt_size ||
	    p->host_low_gm > gvt->aperture_size ||
	    p->host_high_gm < GVT_OWN_GM_SIZE ||
	    gvt->aperture_size + p->host_high_gm > gvt->ggtt_size ||
	    p->host_fences > gvt->fences_total)
		return -GPU_EINVAL;
	gvt->low.base = p->host_low_gm;
	gvt->low.size = gvt->aperture_size - p->host_low_gm;
	gvt->high.base = gvt->aperture_size + p->host_high_gm;
	gvt->high.size = gvt->ggtt_size - gvt->high.base;
	gvt->own_gm_base = gvt->high.base - GVT_OWN_GM_SIZE;
	/* The rest of the host's high part holds the vGPUs' shadow batch
	 * pools, one window of its budget each (vgpu_own_gm.c). */
	gvt->sbb_region.base = gvt->aperture_size;
	gvt->sbb_region.size = gvt->own_gm_base - gvt->aperture_size;
	gvt->fence_used = p->host_fences >= 32 ? ~0u : (1u << p->host_fences) - 1;
	gvt->engine_mask = p->engine_mask ? p->engine_mask
			   : info->engine_mask ? info->engine_mask : DEFAULT_ENGINES;
	return 0;
}

/* The areas' parts of the register table (mmio/mmio.h), joined with the
 * register area's own ranges. */
static const struct mmio_part *const area_regs[] = {
	&exec_regs_part, &gtt_regs_part, &ppgtt_regs_part, &display_regs_part,
};

int gvt_create(struct gpu_hw *hw, const struct hv_if *hv,
	       const struct gvt_params *p, struct gvt **out)
{
	uint32_t pages = (sizeof(struct gvt) + VGPU_PAGE - 1) / VGPU_PAGE;
	struct gvt *gvt;
	uint64_t hpa;
	int ret;

	gvt = hv->ops->page_alloc(hv->ctx, pages, &hpa);
	if (!gvt)
		return -GPU_ENOMEM;
	memset(gvt, 0, sizeof(*gvt));
	gvt->gvt_pages = pages;
	gvt->hw = hw;
	gvt->hv = *hv;
	if (p)
		gvt->p = *p;
	set_defaults(&gvt->p);
	ret = vgpu_ext_check(&gvt->p);
	if (ret)
		gvt_log(gvt, HV_LOG_ERR, 0,
			"gvt_params.ext refused: two systems fill the PPGTT or "
			"shared-GM hooks, or one fills only some shared-GM "
			"ones (vgpu_ext.h)");
	if (!ret)
		ret = gvt_layout(gvt);
	if (!ret)
		ret = vgpu_ext_gvt_attach(gvt);
	if (!ret)
		ret = gvt_regs_join(gvt, area_regs,
				    sizeof(area_regs) / sizeof(area_regs[0]));
	if (!ret)
		ret = gvt_snapshot_golden(gvt);
	if (!ret)
		ret = gvt_mmio_switch_init(gvt);
	if (!ret)
		ret = pexec_init(gvt);
	if (ret) {
		gvt_log(gvt, HV_LOG_ERR, 0, "mediator setup failed: %d", ret);
		gvt_destroy(gvt);
		return ret;
	}
	gvt_log(gvt, HV_LOG_INFO, 0,
		"GGTT %llu MiB, aperture %llu MiB, vGPU low GM %llu MiB, high GM %llu MiB, %u fences",
		(unsigned long long)(gvt->ggtt_size / MiB),
		(unsigned long long)(gvt->aperture_size / MiB),
		(unsigned long long)(gvt->low.size / MiB),
		(unsigned long long)(gvt->high.size / MiB),
		gvt->fences_total - gvt->p.host_fences);
	*out = gvt;
	return 0;
}

void gvt_destroy(struct gvt *gvt)
{
	int id;

	if (!gvt)
		return;
	for (id = 1; id <= GVT_MAX_VGPUS; id++)
		if (gvt->vgpu[id])
			vgpu_destroy(gvt->vgpu[id]);
	gvt_scanout_fini(gvt);
	pexec_fini(gvt);
	vgpu_ext_gvt_detach(gvt);
	gvt_mmio_switch_fini(gvt);
	parray_fini(gvt, &gvt->golden);
	gvt_regs_fini(gvt);
	gvt_free_pages(gvt, gvt, gvt->gvt_pages);
}

/* ---- resources ---------------------------------------------------------- */

static uint64_t fit_count(const struct gm_region *r, uint64_t size)
{
	uint64_t at = r->base, n = 0;
	unsigned int i;

	for (i = 0; i <= r->n; i++) {
		uint64_t end = i < r->n ? r->ext[i].start : r->base + r->size;

		if (end > at)
			n += (end - at) / size;
		if (i < r->n)
			at = r->ext[i].start + r->ext[i].size;
	}
	return n;
}

static int fence_alloc(struct gvt *gvt, uint32_t n, uint32_t *base)
{
	uint32_t b, mask;

	if (!n || n > gvt->fences_total)
		return n ? -GPU_ENOSPC : 0;
	mask = n >= 32 ? ~0u : (1u << n) - 1;
	for (b = 0; b + n <= gvt->fences_total; b++)
		if (!(gvt->fence_used & (mask << b))) {
			gvt->fence_used |= mask << b;
			*base = b;
			return 0;
		}
	return -GPU_ENOSPC;
}

static uint32_t fences_free(const struct gvt *gvt)
{
	uint32_t b, n = 0;

	for (b = 0; b < gvt->fences_total; b++)
		n += !(gvt->fence_used & (1u << b));
	return n;
}

/* The partitioned GM's count, or the shared-GM system's (vgpu_ext.h
 * room). */
uint32_t gvt_room_for(const struct gvt *gvt, const struct vgpu_type *t,
		      const char **limit)
{
	uint64_t low = t->low_gm_size ? fit_count(&gvt->low, t->low_gm_size) : ~0ull;
	uint64_t high = t->high_gm_size ? fit_count(&gvt->high, t->high_gm_size) : ~0ull;
	uint64_t fences = t->fences ? fences_free(gvt) / t->fences : ~0ull;
	uint64_t ids = GVT_MAX_VGPUS - gvt->nr_vgpus, n = ids;
	const char *why = "ids", *gm_why = "ids";

	if (gvt->gm) {
		low = gvt_gm_ops(gvt)->room(gvt, gvt_gm_state(gvt), t, &gm_why);
		high = fences = ~0ull;
	}
	if (low < n) {
		n = low;
		why = gvt->gm ? gm_why : "low-gm";
	}
	if (high < n) {
		n = high;
		why = "high-gm";
	}
	if (fences < n) {
		n = fences;
		why = "fences";
	}
	if (limit)
		*limit = why;
	return (uint32_t)n;
}

struct vgpu *gvt_vgpu_by_vm(struct gvt *gvt, uint32_t vm)
{
	int id;

	for (id = 1; id <= GVT_MAX_VGPUS; id++)
		if (gvt->vgpu[id] && gvt->vgpu[id]->vm == vm)
			return gvt->vgpu[id];
	return NULL;
}

/* ---- vGPUs -------------------------------------------------------------- */

static int take_resources(struct gvt *gvt, struct vgpu *v,
			  const struct vgpu_type *t)
{
	v->gs_id = -1;
	if (!t->low_gm_size || !t->high_gm_size ||
	    (t->low_gm_size | t->high_gm_size) & (VGPU_PAGE - 1))
		return -GPU_EINVAL;
	if (gvt->gm) /* shared GM: the system places it (vgpu_ext.h) */
		return gvt_gm_ops(gvt)->place(gvt, gvt_gm_state(gvt), v, t);
	if (gm_region_alloc(&gvt->low, t->low_gm_size, &v->low_base))
		return -GPU_ENOSPC;
	v->low_size = t->low_gm_size;
	if (gm_region_alloc(&gvt->high, t->high_gm_size, &v->high_base)) {
		gm_region_free(&gvt->low, v->low_base);
		v->low_size = 0;
		return -GPU_ENOSPC;
	}
	v->high_size = t->high_gm_size;
	if (fence_alloc(gvt, t->fences, &v->fence_base)) {
		gm_region_free(&gvt->low, v->low_base);
		gm_region_free(&gvt->high, v->high_base);
		v->low_size = v->high_size = 0;
		return -GPU_ENOSPC;
	}
	v->fence_num = t->fences;
	vgpu_gm_set_high(v, &(struct vgpu_gm_range){ v->high_base,
						     v->high_size }, 1);
	return 0;
}

static void give_back(struct gvt *gvt, struct vgpu *v)
{
	uint32_t mask;

	if (gvt->gm) {
		gvt_gm_ops(gvt)->unplace(gvt, gvt_gm_state(gvt), v);
		return; /* fences are shared, not taken */
	}
	if (v->low_size)
		gm_region_free(&gvt->low, v->low_base);
	if (v->high_size)
		gm_region_free(&gvt->high, v->high_base);
	if (v->fence_num) {
		mask = v->fence_num >= 32 ? ~0u : (1u << v->fence_num) - 1;
		gvt->fence_used &= ~(mask << v->fence_base);
	}
}

static int vgpu_state_init(struct vgpu *v)
{
	struct gvt *gvt = v->gvt;
	uint32_t off;
	int ret;

	ret = parray_init(gvt, &v->vreg, GEN9_MMIO_SIZE);
	if (ret)
		return ret;
	for (off = 0; off < GEN9_MMIO_SIZE; off += VGPU_PAGE)
		memcpy(parray_at(&v->vreg, off), parray_at(&gvt->golden, off),
		       VGPU_PAGE);
	v->unknown_logged = gvt_pages(gvt, GEN9_MMIO_SIZE / 4 / 8 / VGPU_PAGE, NULL);
	if (!v->unknown_logged)
		return -GPU_ENOMEM;
	ret = vgpu_ggtt_init(v);
	if (!ret)
		ret = vgpu_sbb_init(v, VGPU_SBB_DEFAULT_KIB);
	if (!ret)
		ret = vgpu_ppgtt_init(v);
	if (!ret)
		ret = vgpu_engines_init(v);
	if (ret)
		return ret;
	vgpu_cfg_init(v);
	vgpu_pvinfo_init(v);
	vgpu_irq_init(v);
	vgpu_fence_reset(v);
	vgpu_display_init(v);
	return 0;
}

int vgpu_create(struct gvt *gvt, const struct vgpu_type *t, uint32_t vm,
		struct vgpu **out)
{
	uint32_t pages = (sizeof(struct vgpu) + VGPU_PAGE - 1) / VGPU_PAGE;
	struct vgpu *v;
	int id, ret;

	for (id = 1; id <= GVT_MAX_VGPUS && gvt->vgpu[id]; id++)
		;
	if (id > GVT_MAX_VGPUS || gvt_vgpu_by_vm(gvt, vm))
		return id > GVT_MAX_VGPUS ? -GPU_ENOSPC : -GPU_EEXIST;
	v = gvt_pages(gvt, pages, NULL);
	if (!v)
		return -GPU_ENOMEM;
	ret = take_resources(gvt, v, t);
	if (ret) {
		gvt_log(gvt, HV_LOG_WARN, 0, "vGPU of type %s for VM %u: no room",
			t->name ? t->name : "?", vm);
		gvt_free_pages(gvt, v, pages);
		return ret;
	}
	v->gvt = gvt;
	v->id = id;
	v->fault_engine = -1;
	v->vm = vm;
	v->type = *t;
	v->own_slot = (uint32_t)id;
	v->disp_mode = vdisp_mode_default(); /* GVT's default monitor */
	gvt->vgpu[id] = v;
	gvt->vgpu_ids |= 1ull << (id - 1);
	gvt->nr_vgpus++;
	ret = vgpu_state_init(v);
	if (ret) {
		vgpu_destroy(v);
		return ret;
	}
	vgpu_info(v, "created for VM %u: low GM 0x%llx+%lluM, high GM 0x%llx+%lluM, fences %u-%u",
		  vm, (unsigned long long)v->low_base,
		  (unsigned long long)(v->low_size / MiB),
		  (unsigned long long)v->high_base,
		  (unsigned long long)(v->high_size / MiB), v->fence_base,
		  v->fence_base + v->fence_num - 1);
	*out = v;
	return 0;
}

void vgpu_destroy(struct vgpu *v)
{
	struct gvt *gvt = v->gvt;
	uint32_t pages = (sizeof(struct vgpu) + VGPU_PAGE - 1) / VGPU_PAGE;
	int id;

	gvt_sched_remove(gvt, v);
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (v->eng[id].present)
			vgpu_workload_drop_all(v, &v->eng[id]);
	vgpu_scanout_forget(v);
	vgpu_aperture_unmap(v);
	if (v->vreg.page)
		vgpu_fence_reset(v);
	vgpu_engines_fini(v);
	vgpu_sbb_fini(v);
	vgpu_ppgtt_fini(v);
	vgpu_ggtt_fini(v);
	gvt_free_pages(gvt, v->unknown_logged, GEN9_MMIO_SIZE / 4 / 8 / VGPU_PAGE);
	parray_fini(gvt, &v->vreg);
	give_back(gvt, v);
	gvt->vgpu[v->id] = NULL;
	gvt->vgpu_ids &= ~(1ull << (v->id - 1));
	gvt->nr_vgpus--;
	gvt_free_pages(gvt, v, pages);
}

int vgpu_id(const struct vgpu *v)
{
	return v->id;
}

const struct vgpu_stats *vgpu_get_stats(const struct vgpu *v)
{
	return &v->stats;
}

bool vgpu_failed(const struct vgpu *v)
{
	return v->failed || v->banned;
}

void vgpu_set_movable(struct vgpu *v, bool movable)
{
	v->movable = movable;
}

void vgpu_set_gm_in_use(struct vgpu *v, bool in_use)
{
	v->gm_in_use = in_use;
}
