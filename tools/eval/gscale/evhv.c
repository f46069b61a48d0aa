/* See evhv.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "tools/eval/gscale/evhv.h"

#define PG 4096ull

static struct evhv *E(void *ctx)
{
	return ctx;
}

static uint64_t ram_first_page(const struct evhv *e, uint32_t vm)
{
	return e->pool_pages + (uint64_t)(vm - 1) * e->ram_pages_per_vm;
}

uint64_t evhv_gpa_to_hpa(const struct evhv *e, uint32_t vm, uint64_t gpa)
{
	uint64_t page = gpa / PG;

	if (vm < 1 || vm > e->nvms || page >= e->ram_pages_per_vm)
		return 0;
	/* Pairs of pages swapped: code assuming contiguity fails visibly. */
	page ^= 1;
	return EVHV_HPA_BASE + (ram_first_page(e, vm) + page) * PG +
	       (gpa & (PG - 1));
}

void *evhv_hpa_ptr(const struct evhv *e, uint64_t hpa, size_t len)
{
	uint64_t off;

	if (hpa < EVHV_HPA_BASE)
		return NULL;
	off = hpa - EVHV_HPA_BASE;
	if (off >= e->arena_pages * PG || len > e->arena_pages * PG - off)
		return NULL;
	return e->arena + off;
}

uint32_t evhv_hpa_owner(const struct evhv *e, uint64_t hpa)
{
	uint64_t page;

	if (hpa < EVHV_HPA_BASE)
		return 0;
	page = (hpa - EVHV_HPA_BASE) / PG;
	if (page < e->pool_pages || page >= e->arena_pages)
		return 0;
	return (uint32_t)((page - e->pool_pages) / e->ram_pages_per_vm) + 1;
}

uint64_t evhv_ap_hpa(const struct evhv *e, uint32_t vm, uint64_t off)
{
	uint64_t m;

	if (vm < 1 || vm > e->nvms || off / PG >= e->ap_pages)
		return 0;
	m = e->ept[vm][off / PG];
	return m ? m + (off & (PG - 1)) : 0;
}

static int op_gpa_to_hpa(void *ctx, uint32_t vm, uint64_t gpa, uint64_t *hpa)
{
	uint64_t h = evhv_gpa_to_hpa(E(ctx), vm, gpa);

	if (!h)
		return -GPU_EFAULT;
	*hpa = h;
	return 0;
}

static int guest_rw(struct evhv *e, uint32_t vm, uint64_t gpa, uint8_t *p,
		    size_t len, bool write)
{
	if (vm < 1 || vm > e->nvms || gpa >= e->ram_pages_per_vm * PG ||
	    len > e->ram_pages_per_vm * PG - gpa)
		return -GPU_EFAULT;
	while (len) {
		size_t n = PG - (gpa & (PG - 1));
		uint8_t *h;

		if (n > len)
			n = len;
		h = evhv_hpa_ptr(e, evhv_gpa_to_hpa(e, vm, gpa), n);
		if (write)
			memcpy(h, p, n);
		else
			memcpy(p, h, n);
		p += n;
		gpa += n;
		len -= n;
	}
	return 0;
}

static int op_read_gpa(void *ctx, uint32_t vm, uint64_t gpa, void *buf,
		       size_t len)
{
	return guest_rw(E(ctx), vm, gpa, buf, len, false);
}

static int op_write_gpa(void *ctx, uint32_t vm, uint64_t gpa, const void *buf,
			size_t len)
{
	return guest_rw(E(ctx), vm, gpa, (uint8_t *)buf, len, true);
}

static int op_ept_map(void *ctx, uint32_t vm, uint64_t gpa, uint64_t hpa,
		      uint32_t flags)
{
	struct evhv *e = E(ctx);
	uint32_t owner = evhv_hpa_owner(e, hpa);

	(void)flags;
	if (vm < 1 || vm > e->nvms)
		return -GPU_EINVAL;
	e->maps++;
	if (owner && owner != vm)
		e->foreign_maps++;
	if (gpa >= EVHV_AP_GPA && (gpa - EVHV_AP_GPA) / PG < e->ap_pages)
		e->ept[vm][(gpa - EVHV_AP_GPA) / PG] = hpa & ~(PG - 1);
	else
		e->ept_outside++;
	return 0;
}

static int op_ept_unmap(void *ctx, uint32_t vm, uint64_t gpa)
{
	struct evhv *e = E(ctx);

	if (vm < 1 || vm > e->nvms)
		return -GPU_EINVAL;
	e->unmaps++;
	if (gpa >= EVHV_AP_GPA && (gpa - EVHV_AP_GPA) / PG < e->ap_pages)
		e->ept[vm][(gpa - EVHV_AP_GPA) / PG] = 0;
	return 0;
}

static int op_wp(void *ctx, uint32_t vm, uint64_t gpa)
{
	(void)ctx;
	(void)vm;
	(void)gpa;
	return 0;
}

static int op_inject_msi(void *ctx, uint32_t vm, uint64_t addr, uint32_t data)
{
	(void)vm;
	(void)addr;
	(void)data;
	E(ctx)->msis++;
	return 0;
}

static uint64_t op_now(void *ctx)
{
	struct evhv *e = E(ctx);

	return e->virt_ns + (uint64_t)((double)(__rdtsc() - e->tsc0) *
				       e->ns_per_tick);
}

static void op_log(void *ctx, int level, int id, const char *msg)
{
	struct evhv *e = E(ctx);

	if (level == HV_LOG_ERR)
		e->logs_err++;
	if (level == HV_LOG_WARN)
		e->logs_warn++;
	if (!e->quiet && level <= HV_LOG_WARN)
		fprintf(stderr, "[evhv %d] vgpu%d: %s\n", level, id, msg);
}

static void *op_page_alloc(void *ctx, size_t n, uint64_t *hpa)
{
	struct evhv *e = E(ctx);
	uint64_t start = e->pool_hint, tries, i;

	if (!n || n > e->pool_pages)
		return NULL;
	for (tries = 0; tries < e->pool_pages; tries++) {
		if (start + n > e->pool_pages)
			start = 0;
		for (i = 0; i < n && !e->pool_used[start + i]; i++)
			;
		if (i == n)
			break;
		start += i + 1;
	}
	if (tries == e->pool_pages)
		return NULL;
	memset(e->pool_used + start, 1, n);
	e->pool_hint = start + n;
	e->pages_in_use += n;
	if (e->pages_in_use > e->pages_peak)
		e->pages_peak = e->pages_in_use;
	*hpa = EVHV_HPA_BASE + start * PG;
	memset(e->arena + start * PG, 0, n * PG);
	return e->arena + start * PG;
}

static void op_page_free(void *ctx, void *va, size_t n)
{
	struct evhv *e = E(ctx);
	uint64_t page = (uint64_t)((uint8_t *)va - e->arena) / PG;

	if ((uint8_t *)va < e->arena || page + n > e->pool_pages) {
		fprintf(stderr, "evhv: bad page_free %p\n", va);
		abort();
	}
	memset(e->pool_used + page, 0, n);
	e->pages_in_use -= n;
}

static void *dma_ptr(void *ctx, uint64_t hpa, size_t len)
{
	return evhv_hpa_ptr(E(ctx), hpa, len);
}

static const struct hv_ops ev_ops = {
	.gpa_to_hpa = op_gpa_to_hpa,
	.read_gpa = op_read_gpa,
	.write_gpa = op_write_gpa,
	.ept_map = op_ept_map,
	.ept_unmap = op_ept_unmap,
	.wp_page = op_wp,
	.unwp_page = op_wp,
	.inject_msi = op_inject_msi,
	.now_ns = op_now,
	.log = op_log,
	.page_alloc = op_page_alloc,
	.page_free = op_page_free,
	.bar_moved = NULL,
};

double evhv_tsc_hz(void)
{
	static double hz;
	struct timespec a, b;
	uint64_t t0, t1;
	double ns;

	if (hz)
		return hz;
	clock_gettime(CLOCK_MONOTONIC, &a);
	t0 = __rdtsc();
	do {
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = (double)(b.tv_sec - a.tv_sec) * 1e9 +
		     (double)(b.tv_nsec - a.tv_nsec);
	} while (ns < 5e7);
	t1 = __rdtsc();
	hz = (double)(t1 - t0) / (ns / 1e9);
	return hz;
}

int evhv_init(struct evhv *e, uint32_t pool_mib, uint32_t nvms,
	      uint32_t ram_mib, uint64_t ap_bytes)
{
	memset(e, 0, sizeof(*e));
	if (nvms > EVHV_MAX_VMS || ram_mib < 1)
		return -1;
	e->nvms = nvms;
	e->pool_pages = (uint64_t)pool_mib << 8;
	e->ram_pages_per_vm = (uint64_t)ram_mib << 8;
	e->arena_pages = e->pool_pages + nvms * e->ram_pages_per_vm;
	e->arena = calloc(e->arena_pages, PG);
	e->pool_used = calloc(e->pool_pages, 1);
	e->ap_pages = ap_bytes / PG;
	if (!e->arena || !e->pool_used)
		return -1;
	for (uint32_t vm = 1; vm <= nvms; vm++) {
		e->ept[vm] = calloc(e->ap_pages, sizeof(uint64_t));
		if (!e->ept[vm])
			return -1;
	}
	e->ns_per_tick = 1e9 / evhv_tsc_hz();
	e->tsc0 = __rdtsc();
	e->virt_ns = 1000000;
	e->hv.ops = &ev_ops;
	e->hv.ctx = e;
	e->dma.ctx = e;
	e->dma.phys_ptr = dma_ptr;
	return 0;
}

void evhv_fini(struct evhv *e)
{
	for (uint32_t vm = 1; vm <= e->nvms; vm++)
		free(e->ept[vm]);
	free(e->arena);
	free(e->pool_used);
	memset(e, 0, sizeof(*e));
}
