/* The guest's GGTT window: BAR0 + 8 MiB, one 8-byte PTE per 4 KiB of GGTT
 * address space (gen9-facts §1.4, §2).
 *
 * The guest sees the whole GGTT (i915-guest §1, item 4) but owns only its
 * two slices; writes elsewhere are dropped cheaply because a ballooning
 * guest may write scratch entries over the whole space (i915-guest §10).
 * For an entry in its slices the guest's value is kept as written (reads return it) and the
 * physical entry gets the host page behind the guest page, after
 * hv_ops has confirmed the page is this VM's RAM. A PTE naming anything
 * else is dropped: the physical entry keeps its previous (valid) value.
 *
 * 64-bit PTEs also arrive as two 4-byte halves (i915-guest §10): halves wait in
 * a small per-vGPU table until their partner arrives; half an entry never
 * reaches the hardware. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "mini/string.h"

static uint64_t *guest_pte(struct vgpu *v, uint32_t local)
{
	return parray_at(&v->ggtt_guest, (size_t)local * 8);
}

static uint64_t *host_pte(struct vgpu *v, uint32_t local)
{
	return parray_at(&v->ggtt_host, (size_t)local * 8);
}

/* GGTT index -> index into the vGPU's arrays, or -1 outside its slices
 * (low, and each high range: vgpu_gm.c). */
/* A translated entry reaches the hardware: at once under gVirt (the GGTT
 * slice is the vGPU's alone); through the shared-GM system when GM is
 * shared (vgpu_ext.h ggtt_write: gScale's private shadow). */
static void ggtt_hw_write(struct vgpu *v, uint32_t index, uint64_t host)
{
	const struct gvt *gvt = v->gvt;

	if (gvt->gm)
		gvt_gm_ops(gvt)->ggtt_write(v, gvt_gm_state(gvt), index, host);
	else
		gpu_hw_ggtt_write(v->gvt->hw, index, host);
}

static int64_t local_of(const struct vgpu *v, uint32_t index)
{
	uint32_t idx;

	return vgpu_gm_local(v, (uint64_t)index << 12, &idx) ? -1 : (int64_t)idx;
}

int vgpu_ggtt_init(struct vgpu *v)
{
	size_t n = (size_t)vgpu_gm_entries(v);
	int ret;

	ret = parray_init(v->gvt, &v->ggtt_guest, n * 8);
	if (ret)
		return ret;
	ret = parray_init(v->gvt, &v->ggtt_host, n * 8);
	if (ret)
		parray_fini(v->gvt, &v->ggtt_guest);
	return ret;
}

/* Leave nothing of the guest in the physical GGTT. */
void vgpu_ggtt_reset(struct vgpu *v)
{
	struct gpu_hw *hw = v->gvt->hw;
	uint64_t gm;
	uint32_t local;
	bool any = false;

	for (gm = 0; gm < v->low_size + v->high_total; gm += VGPU_PAGE) {
		local = (uint32_t)(gm >> 12);
		if (*host_pte(v, local)) {
			uint64_t addr = vgpu_gm_of_local(v, local);

			ggtt_hw_write(v, (uint32_t)(addr >> 12), 0);
			*host_pte(v, local) = 0;
			any = true;
		}
		*guest_pte(v, local) = 0;
	}
	memset(v->partial, 0, sizeof(v->partial));
	v->high_present = 0;
	if (any)
		gpu_hw_ggtt_flush(hw);
}

void vgpu_ggtt_fini(struct vgpu *v)
{
	if (v->ggtt_guest.page && v->ggtt_host.page)
		vgpu_ggtt_reset(v);
	parray_fini(v->gvt, &v->ggtt_guest);
	parray_fini(v->gvt, &v->ggtt_host);
}

/* high_present follows the guest's entry at `local` becoming `pte`. */
static void count_high(struct vgpu *v, uint32_t local, uint64_t pte)
{
	bool was = *guest_pte(v, local) & GEN8_PAGE_PRESENT;
	bool is = pte & GEN8_PAGE_PRESENT;

	if (local < (uint32_t)(v->low_size >> 12) || was == is)
		return;
	if (is)
		v->high_present++;
	else
		v->high_present--;
}

/* An entry of the GGTT indexes the display area's scanout window copies
 * (scan_first, scan_n, and the cursor's scan_cur_*: display/vgpu_scanout.c
 * sets them) changed: the
 * window is refilled at the next vblank. The GTT area reports it in the
 * vGPU's state and calls nothing up. */
static void note_scanout(struct vgpu *v, uint32_t index)
{
	if ((v->scan_n && index - v->scan_first < v->scan_n) ||
	    (v->scan_cur_n && index - v->scan_cur_first < v->scan_cur_n))
		v->scan_dirty = true;
}

/* Validate, translate, commit one whole entry. */
static void ggtt_commit(struct vgpu *v, uint32_t index, uint64_t pte)
{
	int64_t local = local_of(v, index);
	uint64_t hpa, host;

	if (local < 0) {
		v->stats.ggtt_out_of_range++;
		return;
	}
	if (pte & GEN8_PAGE_PRESENT) {
		if (vgpu_gpa_to_hpa(v, gen8_pte_addr(pte), &hpa)) {
			if (!v->stats.ggtt_invalid)
				vgpu_warn(v, "GGTT entry %u: 0x%llx is not guest RAM, dropped",
					  index, (unsigned long long)pte);
			v->stats.ggtt_invalid++;
			return;
		}
		/* Keep only what the hardware reads: address and present. */
		host = gen8_ggtt_pte_encode(hpa);
	} else {
		host = 0;
	}
	count_high(v, (uint32_t)local, pte);
	*guest_pte(v, (uint32_t)local) = pte;
	*host_pte(v, (uint32_t)local) = host;
	note_scanout(v, index);
	ggtt_hw_write(v, index, host);
	v->stats.ggtt_writes++;
}

static struct ggtt_partial *partial_slot(struct vgpu *v, uint32_t index)
{
	struct ggtt_partial *p, *free = NULL, *oldest = NULL;
	int i;

	for (i = 0; i < VGPU_PARTIAL_PTES; i++) {
		p = &v->partial[i];
		if (p->used && p->index == index)
			return p;
		if (!p->used && !free)
			free = p;
		if (p->used && (!oldest || p->seq < oldest->seq))
			oldest = p;
	}
	if (!free) {
		/* A half whose partner never came: forget it (counted). */
		v->stats.ggtt_half_evicted++;
		free = oldest;
	}
	memset(free, 0, sizeof(*free));
	free->used = true;
	free->index = index;
	/* Start from the current entry so a lone half reads back sanely. */
	free->val = local_of(v, index) >= 0
			    ? *guest_pte(v, (uint32_t)local_of(v, index))
			    : 0;
	return free;
}

static void ggtt_half(struct vgpu *v, uint32_t index, bool high, uint32_t val)
{
	struct ggtt_partial *p = partial_slot(v, index);

	v->stats.ggtt_half_writes++;
	if (high)
		p->val = (p->val & 0xffffffffull) | ((uint64_t)val << 32);
	else
		p->val = (p->val & ~0xffffffffull) | val;
	p->have |= high ? 2 : 1;
	p->seq = ++v->partial_seq;
	if (p->have == 3) {
		p->used = false;
		ggtt_commit(v, index, p->val);
	}
}

int vgpu_ggtt_write(struct vgpu *v, uint64_t off, uint64_t val,
		    unsigned int size)
{
	uint64_t rel = off - GEN9_GGTT_OFFSET;
	uint32_t index = (uint32_t)(rel >> 3);

	if (index >= v->gvt->ggtt_entries || (size != 8 && size != 4) ||
	    (rel & (size - 1))) {
		v->stats.mmio_bad_access++;
		return -GPU_EINVAL;
	}
	/* Outside the slices: drop before any other work. */
	if (local_of(v, index) < 0) {
		v->stats.ggtt_out_of_range++;
		return 0;
	}
	if (size == 8)
		ggtt_commit(v, index, val);
	else
		ggtt_half(v, index, rel & 4, (uint32_t)val);
	return 0;
}

int vgpu_ggtt_read(struct vgpu *v, uint64_t off, uint64_t *val,
		   unsigned int size)
{
	uint64_t rel = off - GEN9_GGTT_OFFSET;
	uint32_t index = (uint32_t)(rel >> 3);
	int64_t local;
	uint64_t pte;
	int i;

	if (index >= v->gvt->ggtt_entries || (size != 8 && size != 4) ||
	    (rel & (size - 1))) {
		v->stats.mmio_bad_access++;
		*val = ~0ull;
		return -GPU_EINVAL;
	}
	local = local_of(v, index);
	pte = local < 0 ? 0 : *guest_pte(v, (uint32_t)local);
	for (i = 0; i < VGPU_PARTIAL_PTES; i++)
		if (v->partial[i].used && v->partial[i].index == index)
			pte = v->partial[i].val;
	*val = size == 8 ? pte : (uint32_t)(pte >> (rel & 4 ? 32 : 0));
	return 0;
}

/* For the shell: what the guest wrote at index and what the hardware gets
 * for it (the validated, translated entry; 0 = dropped or never written). */
int vgpu_ggtt_entry(struct vgpu *v, uint32_t index, uint64_t *guest,
		    uint64_t *host)
{
	int64_t local = index < v->gvt->ggtt_entries ? local_of(v, index) : -1;

	if (local < 0)
		return -GPU_EINVAL;
	*guest = *guest_pte(v, (uint32_t)local);
	*host = *host_pte(v, (uint32_t)local);
	return 0;
}

/* The vGPU's high GM becomes the ranges r[0..n) (ballooning), in two
 * steps so the caller can move gScale's view in between and give up
 * cleanly: prepare builds the new arrays (entries at GM addresses both
 * layouts share keep their guest and host values; the rest of the old
 * ranges is forgotten), commit swaps them in, abandon frees them. Low GM
 * is unchanged. */
int vgpu_ggtt_prepare_high(struct vgpu *v, const struct vgpu_gm_range *r,
			   uint32_t nr, struct ggtt_arrays *out)
{
	uint32_t low = (uint32_t)(v->low_size >> 12), n = low, at_page = low;
	struct parray *g = &out->guest, *h = &out->host;

	if (!nr || nr > VGPU_MAX_RANGES)
		return -GPU_EINVAL;
	for (uint32_t i = 0; i < nr; i++)
		n += (uint32_t)(r[i].size >> 12);

	if (parray_init(v->gvt, g, (size_t)n * 8))
		return -GPU_ENOMEM;
	if (parray_init(v->gvt, h, (size_t)n * 8)) {
		parray_fini(v->gvt, g);
		return -GPU_ENOMEM;
	}
	out->present = 0;
	out->high_present = 0;
	for (uint32_t l = 0; l < low; l++) {
		*(uint64_t *)parray_at(g, l * 8ull) = *guest_pte(v, l);
		*(uint64_t *)parray_at(h, l * 8ull) = *host_pte(v, l);
		out->present += *host_pte(v, l) != 0;
	}
	for (uint32_t i = 0; i < nr; i++)
		for (uint64_t gm = r[i].base; gm < r[i].base + r[i].size;
		     gm += VGPU_PAGE, at_page++) {
			int64_t old = local_of(v, (uint32_t)(gm >> 12));
			size_t at = at_page * 8ull;

			if (old < 0)
				continue;
			*(uint64_t *)parray_at(g, at) = *guest_pte(v, (uint32_t)old);
			*(uint64_t *)parray_at(h, at) = *host_pte(v, (uint32_t)old);
			out->present += *host_pte(v, (uint32_t)old) != 0;
			out->high_present += !!(*guest_pte(v, (uint32_t)old) &
						GEN8_PAGE_PRESENT);
		}
	memcpy(out->hr, r, nr * sizeof(r[0]));
	out->nr_high = nr;
	return 0;
}

void vgpu_ggtt_abandon_high(struct vgpu *v, struct ggtt_arrays *a)
{
	parray_fini(v->gvt, &a->guest);
	parray_fini(v->gvt, &a->host);
}

void vgpu_ggtt_commit_high(struct vgpu *v, struct ggtt_arrays *a)
{
	parray_fini(v->gvt, &v->ggtt_guest);
	parray_fini(v->gvt, &v->ggtt_host);
	v->ggtt_guest = a->guest;
	v->ggtt_host = a->host;
	vgpu_gm_set_high(v, a->hr, a->nr_high);
	v->gm_present = a->present; /* what the monitor reports as GM used */
	v->high_present = a->high_present;
	for (int i = 0; i < VGPU_PARTIAL_PTES; i++)
		if (v->partial[i].used && local_of(v, v->partial[i].index) < 0)
			v->partial[i].used = false;
}
