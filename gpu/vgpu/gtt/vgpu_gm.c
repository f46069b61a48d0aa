/* Graphics memory (GGTT address space) partitioning and the guest's view of
 * it.
 *
 * gVirt partitions the GGTT statically (gvt-facts §2): the host keeps
 * [0, host_low) of the aperture-backed ("low", mappable) part and
 * [aperture, aperture + host_high) of the part above it ("high", hidden);
 * every vGPU gets one extent of each. Guests are told their extents through
 * PVINFO and balloon the rest away (i915-guest §3), so guest and host GGTT
 * addresses are the same numbers: commands and registers are validated,
 * never translated.
 *
 * Under gScale a vGPU's high GM may be several ranges (runs of slots,
 * issue 17): every test here - GGTT writes, command addresses, fences,
 * context and ring addresses - asks whether an address lies inside the
 * low slice or inside ONE of the high ranges. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
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
 * low slice or inside one high range (two ranges are never one object:
 * they are not adjacent). */
bool vgpu_gm_valid(const struct vgpu *v, uint64_t addr, uint64_t len)
{
	if (!len)
		len = 1;
	if (in_range(addr, len, v->low_base, v->low_size))
		return true;
	for (uint32_t r = 0; r < v->nr_high; r++)
		if (in_range(addr, len, v->hr[r].base, v->hr[r].size))
			return true;
	return false;
}

void vgpu_gm_set_high(struct vgpu *v, const struct vgpu_gm_range *r,
		      uint32_t n)
{
	memset(v->hr, 0, sizeof(v->hr));
	memcpy(v->hr, r, n * sizeof(r[0]));
	v->nr_high = n;
	v->high_total = 0;
	for (uint32_t i = 0; i < n; i++)
		v->high_total += r[i].size;
	v->high_base = n ? r[0].base : 0;
	v->high_size = n ? r[0].size : 0;
}

uint32_t vgpu_high_ranges(const struct vgpu *v, struct vgpu_gm_range *out,
			  uint32_t max)
{
	for (uint32_t r = 0; r < v->nr_high && r < max; r++)
		out[r] = v->hr[r];
	return v->nr_high;
}

uint64_t vgpu_gm_entries(const struct vgpu *v)
{
	return (v->low_size + v->high_total) >> 12;
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

/* Index of a GGTT page in the vGPU's own arrays (low pages, then each
 * high range in order), and the bytes from gm to the end of its range. */
static int gm_local_left(const struct vgpu *v, uint64_t gm, uint32_t *idx,
			 uint64_t *left)
{
	uint64_t off = v->low_size;

	if (in_range(gm, 1, v->low_base, v->low_size)) {
		*idx = (uint32_t)((gm - v->low_base) >> 12);
		*left = v->low_base + v->low_size - gm;
		return 0;
	}
	for (uint32_t r = 0; r < v->nr_high; r++) {
		if (in_range(gm, 1, v->hr[r].base, v->hr[r].size)) {
			*idx = (uint32_t)((off + gm - v->hr[r].base) >> 12);
			*left = v->hr[r].base + v->hr[r].size - gm;
			return 0;
		}
		off += v->hr[r].size;
	}
	return -GPU_ERANGE;
}

int vgpu_gm_local(const struct vgpu *v, uint64_t gm, uint32_t *idx)
{
	uint64_t left;

	return gm_local_left(v, gm, idx, &left);
}

uint64_t vgpu_gm_of_local(const struct vgpu *v, uint32_t idx)
{
	uint64_t off = (uint64_t)idx << 12;

	if (off < v->low_size)
		return v->low_base + off;
	off -= v->low_size;
	for (uint32_t r = 0; r < v->nr_high; r++) {
		if (off < v->hr[r].size)
			return v->hr[r].base + off;
		off -= v->hr[r].size;
	}
	return ~0ull;
}

/* Through the entries the guest wrote: only the guest's own view is
 * trusted for reading its objects (its context images, rings, batches). */
int vgpu_gm_to_gpa(struct vgpu *v, uint64_t gm, uint64_t *gpa)
{
	uint32_t idx;
	uint64_t pte;

	if (vgpu_gm_local(v, gm, &idx))
		return -GPU_ERANGE;
	pte = *(uint64_t *)parray_at(&v->ggtt_guest, (size_t)idx * 8);
	if (!(pte & GEN8_PAGE_PRESENT))
		return -GPU_EFAULT;
	*gpa = gen8_pte_addr(pte) | (gm & 0xfff);
	return 0;
}

/* Pages of the guest's GGTT view from gm on, up to len bytes, whose
 * frames follow each other in guest-physical memory: one hv copy for the
 * run (a context image, a ring), one range lookup for all of it, where it
 * used to be one of each per page (issue 31). Each page's entry is still
 * checked present; the run ends with gm's range. */
static int gm_run(struct vgpu *v, uint64_t gm, size_t len, uint64_t *gpa,
		  size_t *run)
{
	uint32_t idx;
	uint64_t pte, next, left;
	size_t n = VGPU_PAGE - (gm & 0xfff);

	if (gm_local_left(v, gm, &idx, &left))
		return -GPU_ERANGE;
	pte = *(uint64_t *)parray_at(&v->ggtt_guest, (size_t)idx * 8);
	if (!(pte & GEN8_PAGE_PRESENT))
		return -GPU_EFAULT;
	*gpa = gen8_pte_addr(pte) | (gm & 0xfff);
	next = gen8_pte_addr(pte) + VGPU_PAGE;
	if (len > left)
		len = left; /* the next range (or none) is looked up anew */
	while (n < len) {
		pte = *(uint64_t *)parray_at(&v->ggtt_guest, (size_t)++idx * 8);
		if (!(pte & GEN8_PAGE_PRESENT) || gen8_pte_addr(pte) != next)
			break;
		next += VGPU_PAGE;
		n += VGPU_PAGE;
	}
	*run = n < len ? n : len;
	return 0;
}

int vgpu_gm_rw(struct vgpu *v, uint64_t gm, void *buf, size_t len, bool write)
{
	uint8_t *p = buf;

	while (len) {
		size_t chunk;
		uint64_t gpa;
		int ret;

		ret = gm_run(v, gm, len, &gpa, &chunk);
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
