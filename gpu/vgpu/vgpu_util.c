/* Small helpers every mediator file uses: pages from the hypervisor,
 * page-backed arrays, logging with the vGPU id, guest memory. */
#include "gpu/vgpu/vgpu_priv.h"
#include "mini/stdio.h"
#include "mini/string.h"

void *gvt_pages(struct gvt *gvt, size_t n, uint64_t *hpa)
{
	uint64_t dummy;

	return gvt->hv.ops->page_alloc(gvt->hv.ctx, n, hpa ? hpa : &dummy);
}

void gvt_free_pages(struct gvt *gvt, void *va, size_t n)
{
	if (va)
		gvt->hv.ops->page_free(gvt->hv.ctx, va, n);
}

/* Zeroed array of `bytes`, one page at a time. */
int parray_init(struct gvt *gvt, struct parray *a, size_t bytes)
{
	size_t i;

	a->npages = (bytes + VGPU_PAGE - 1) / VGPU_PAGE;
	a->tab_pages = (a->npages * sizeof(uint8_t *) + VGPU_PAGE - 1) /
		       VGPU_PAGE;
	if (!a->npages)
		a->tab_pages = 1;
	a->page = gvt_pages(gvt, a->tab_pages, NULL);
	if (!a->page)
		return -GPU_ENOMEM;
	for (i = 0; i < a->npages; i++) {
		a->page[i] = gvt_pages(gvt, 1, NULL);
		if (!a->page[i]) {
			parray_fini(gvt, a);
			return -GPU_ENOMEM;
		}
	}
	return 0;
}

void parray_fini(struct gvt *gvt, struct parray *a)
{
	size_t i;

	if (!a->page)
		return;
	for (i = 0; i < a->npages; i++)
		gvt_free_pages(gvt, a->page[i], 1);
	gvt_free_pages(gvt, a->page, a->tab_pages);
	a->page = NULL;
	a->npages = 0;
}

void gvt_log(const struct gvt *gvt, int level, int vgpu_id, const char *fmt,
	     ...)
{
	char buf[192];
	va_list ap;

	if (!gvt->hv.ops->log)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	gvt->hv.ops->log(gvt->hv.ctx, level, vgpu_id, buf);
}

int vgpu_read_gpa(struct vgpu *v, uint64_t gpa, void *buf, size_t len)
{
	const struct hv_if *hv = &v->gvt->hv;

	return hv->ops->read_gpa(hv->ctx, v->vm, gpa, buf, len);
}

int vgpu_write_gpa(struct vgpu *v, uint64_t gpa, const void *buf, size_t len)
{
	const struct hv_if *hv = &v->gvt->hv;

	return hv->ops->write_gpa(hv->ctx, v->vm, gpa, buf, len);
}

int vgpu_gpa_to_hpa(struct vgpu *v, uint64_t gpa, uint64_t *hpa)
{
	const struct hv_if *hv = &v->gvt->hv;

	return hv->ops->gpa_to_hpa(hv->ctx, v->vm, gpa, hpa);
}
