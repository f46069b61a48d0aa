/* Graphics memory (GGTT address space) partitioning and the guest's view of
 * it.
 *
 * gVirt partitions the GGTT statically (gvt features §2): the host keeps
 * [0, host_low) of the aperture-backed ("low", mappable) part and
 * [aperture, aperture + host_high) of the part above it ("high", hidden);
 * every vGPU gets one extent of each. Guests are told their extents through
 * PVINFO and balloon the rest away (guest §3), so guest and host GGTT
 * addresses are the same numbers: commands and registers are validated,
 * never translated. */
#include "gpu/vgpu/vgpu_priv.h"
#include "mini/string.h"

/* First fit; extents stay sorted so the holes are the gaps between them. */
int gm_region_alloc(struct gm_region *r, uint64_t size, uint64_t *start)
{
	uint64_t at = r->base;
	unsigned int i;

	if (!size || r->n >= GM_MAX_EXTENTS)
		return -GPU_ENOSPC;
	for (i = 0; i <= r->n; i++) {
		uint64_t end = i < r->n ? r->ext[i].start : r->base + r->size;

		if (end >= at && end - at >= size)
			break;
		if (i < r->n)
			at = r->ext[i].start + r->ext[i].size;
	}
	if (i > r->n)
		return -GPU_ENOSPC;
	memmove(&r->ext[i + 1], &r->ext[i], (r->n - i) * sizeof(r->ext[0]));
	r->ext[i].start = at;
	r->ext[i].size = size;
	r->n++;
	*start = at;
	return 0;
}

void gm_region_free(struct gm_region *r, uint64_t start)
{
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		if (r->ext[i].start != start)
			continue;
		memmove(&r->ext[i], &r->ext[i + 1],
			(r->n - i - 1) * sizeof(r->ext[0]));
		r->n--;
		return;
	}
}

uint64_t gm_region_largest_free(const struct gm_region *r)
{
	uint64_t at = r->base, best = 0;
	unsigned int i;

	for (i = 0; i <= r->n; i++) {
		uint64_t end = i < r->n ? r->ext[i].start : r->base + r->size;

		if (end > at && end - at > best)
			best = end - at;
		if (i < r->n)
			at = r->ext[i].start + r->ext[i].size;
	}
	return best;
}

static bool in_range(uint64_t addr, uint64_t len, uint64_t base, uint64_t size)
{
	return addr >= base && len <= size && addr - base <= size - len;
}

/* GVT's rule (intel_gvt_ggtt_validate_range): the whole range inside the
 * low slice or inside the high slice. */
bool vgpu_gm_valid(const struct vgpu *v, uint64_t addr, uint64_t len)
{
	if (!len)
		len = 1;
	return in_range(addr, len, v->low_base, v->low_size) ||
	       in_range(addr, len, v->high_base, v->high_size);
}

void vgpu_gm_ranges(const struct vgpu *v, uint64_t *low_base,
		    uint64_t *low_size, uint64_t *high_base,
		    uint64_t *high_size)
{
	*low_base = v->low_base;
	*low_size = v->low_size;
	*high_base = v->high_base;
	*high_size = v->high_size;
}

/* Index of a GGTT page in the vGPU's own arrays (low pages, then high). */
static int gm_local_index(const struct vgpu *v, uint64_t gm, uint32_t *idx)
{
	if (in_range(gm, 1, v->low_base, v->low_size)) {
		*idx = (uint32_t)((gm - v->low_base) >> 12);
		return 0;
	}
	if (in_range(gm, 1, v->high_base, v->high_size)) {
		*idx = (uint32_t)((v->low_size + gm - v->high_base) >> 12);
		return 0;
	}
	return -GPU_ERANGE;
}

/* Through the entries the guest wrote: only the guest's own view is
 * trusted for reading its objects (its context images, rings, batches). */
int vgpu_gm_to_gpa(struct vgpu *v, uint64_t gm, uint64_t *gpa)
{
	uint32_t idx;
	uint64_t pte;

	if (gm_local_index(v, gm, &idx))
		return -GPU_ERANGE;
	pte = *(uint64_t *)parray_at(&v->ggtt_guest, (size_t)idx * 8);
	if (!(pte & GEN8_PAGE_PRESENT))
		return -GPU_EFAULT;
	*gpa = gen8_pte_addr(pte) | (gm & 0xfff);
	return 0;
}

int vgpu_gm_rw(struct vgpu *v, uint64_t gm, void *buf, size_t len, bool write)
{
	uint8_t *p = buf;

	while (len) {
		size_t chunk = VGPU_PAGE - (gm & 0xfff);
		uint64_t gpa;
		int ret;

		if (chunk > len)
			chunk = len;
		ret = vgpu_gm_to_gpa(v, gm, &gpa);
		if (ret)
			return ret;
		ret = write ? vgpu_write_gpa(v, gpa, p, chunk)
			    : vgpu_read_gpa(v, gpa, p, chunk);
		if (ret)
			return ret;
		gm += chunk;
		p += chunk;
		len -= chunk;
	}
	return 0;
}
