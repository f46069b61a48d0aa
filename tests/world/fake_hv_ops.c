/* Plain-memory hv_ops for host tests; see fake_hv_ops.h. */
#include "tests/world/fake_hv_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define PG 4096ull

/* The arena is mapped, not malloc'ed: page-aligned (a test may protect
 * a VM's RAM, fake_hv_protect_ram), zero until touched, and between two
 * inaccessible guard pages, so running off either end faults as ASan's
 * redzones of a malloc'ed arena would report it. */
static uint8_t *arena_map(uint64_t pages)
{
	uint8_t *p = mmap(NULL, (pages + 2) * PG, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + PG, pages * PG, PROT_READ | PROT_WRITE)) {
		munmap(p, (pages + 2) * PG);
		return NULL;
	}
	return p + PG;
}

static void arena_unmap(uint8_t *arena, uint64_t pages)
{
	if (arena)
		munmap(arena - PG, (pages + 2) * PG);
}

static struct fake_hv *F(void *ctx)
{
	return ctx;
}

static uint64_t vm_page_to_arena(struct fake_vm *v, uint64_t page)
{
	/* Swap neighbours: RAM is not host-contiguous. */
	uint64_t p = page ^ 1;

	if (p >= v->ram_size / PG)
		p = page;
	return v->first_page + p;
}

uint64_t fake_hv_gpa_to_hpa(struct fake_hv *f, uint32_t vm, uint64_t gpa)
{
	struct fake_vm *v;

	if (vm >= f->nr_vms || !f->vm[vm].used)
		return 0;
	v = &f->vm[vm];
	if (gpa >= v->ram_size)
		return 0;
	return FAKE_HPA_BASE + vm_page_to_arena(v, gpa / PG) * PG + (gpa & (PG - 1));
}

/* Every host pointer into the arena is made here (guest_rw, the DMA
 * hook), so the dirty map sees every page anyone may have stored to. */
static void mark_dirty(struct fake_hv *f, uint64_t off, size_t len)
{
	uint64_t first = off / PG, last = (off + (len ? len - 1 : 0)) / PG;

	memset(f->dirty + first, 1, last - first + 1);
}

void *fake_hv_hpa_ptr(struct fake_hv *f, uint64_t hpa, size_t len)
{
	uint64_t total = f->arena_pages * PG;

	if (hpa < FAKE_HPA_BASE || hpa - FAKE_HPA_BASE >= total ||
	    len > total - (hpa - FAKE_HPA_BASE))
		return NULL;
	if (f->dirty)
		mark_dirty(f, hpa - FAKE_HPA_BASE, len);
	return f->arena + (hpa - FAKE_HPA_BASE);
}

int fake_hv_track_dirty(struct fake_hv *f, uint32_t vm)
{
	struct fake_vm *v;

	if (vm >= f->nr_vms || !f->vm[vm].used)
		return -1;
	if (!f->dirty)
		f->dirty = calloc(f->arena_pages, 1);
	if (!f->dirty)
		return -1;
	v = &f->vm[vm];
	memset(f->dirty + v->first_page, 1, v->ram_size / PG); /* unknown yet */
	return 0;
}

uint64_t fake_hv_zero_dirty(struct fake_hv *f, uint32_t vm)
{
	return fake_hv_restore_dirty(f, vm, NULL);
}

uint64_t fake_hv_restore_dirty(struct fake_hv *f, uint32_t vm,
			       const uint8_t *snap)
{
	struct fake_vm *v = &f->vm[vm];
	uint8_t *d = f->dirty ? f->dirty + v->first_page : NULL;
	uint64_t p, n = 0;

	for (p = 0; d && p < v->ram_size / PG; p++)
		if (d[p]) {
			uint8_t *at = f->arena + (v->first_page + p) * PG;

			if (snap)
				memcpy(at, snap + p * PG, PG);
			else
				memset(at, 0, PG);
			d[p] = 0;
			n++;
		}
	return n;
}

int fake_hv_hpa_owner(struct fake_hv *f, uint64_t hpa)
{
	uint64_t page;
	uint32_t i;

	if (hpa < FAKE_HPA_BASE)
		return -1;
	page = (hpa - FAKE_HPA_BASE) / PG;
	for (i = 0; i < f->nr_vms; i++) {
		struct fake_vm *v = &f->vm[i];

		if (v->used && page >= v->first_page &&
		    page < v->first_page + v->ram_size / PG)
			return (int)i;
	}
	return -1;
}

static int op_gpa_to_hpa(void *ctx, uint32_t vm, uint64_t gpa, uint64_t *hpa)
{
	uint64_t h = fake_hv_gpa_to_hpa(F(ctx), vm, gpa);

	if (!h)
		return -GPU_EFAULT;
	*hpa = h;
	return 0;
}

static int guest_rw(struct fake_hv *f, uint32_t vm, uint64_t gpa, void *buf,
		    size_t len, bool write)
{
	uint8_t *p = buf;
	uint64_t a;

	/* Bounds first: all or nothing. */
	if (vm >= f->nr_vms || !f->vm[vm].used || gpa >= f->vm[vm].ram_size ||
	    len > f->vm[vm].ram_size - gpa)
		return -GPU_EFAULT;
	for (a = gpa; a < gpa + len;) {
		size_t n = PG - (a & (PG - 1));
		uint8_t *h;

		if (n > gpa + len - a)
			n = gpa + len - a;
		h = fake_hv_hpa_ptr(f, fake_hv_gpa_to_hpa(f, vm, a), n);
		if (write)
			memcpy(h, p, n);
		else
			memcpy(p, h, n);
		p += n;
		a += n;
	}
	return 0;
}

static int op_read_gpa(void *ctx, uint32_t vm, uint64_t gpa, void *buf,
		       size_t len)
{
	return guest_rw(F(ctx), vm, gpa, buf, len, false);
}

static int op_write_gpa(void *ctx, uint32_t vm, uint64_t gpa, const void *buf,
			size_t len)
{
	return guest_rw(F(ctx), vm, gpa, (void *)buf, len, true);
}

static bool in_ept_window(const struct fake_hv *f, uint64_t gpa)
{
	return gpa >= f->ept_gpa && (gpa - f->ept_gpa) / PG < f->ept_pages;
}

static int op_ept_map(void *ctx, uint32_t vm, uint64_t gpa, uint64_t hpa,
		      uint32_t flags)
{
	struct fake_hv *f = F(ctx);
	struct fake_vm *v;
	int owner;

	(void)flags;
	if (vm >= f->nr_vms)
		return -GPU_EINVAL;
	v = &f->vm[vm];
	v->maps++;
	/* The isolation invariant of every EPT mapping the mediator asks
	 * for: never RAM of another VM. */
	owner = fake_hv_hpa_owner(f, hpa);
	if (owner >= 0 && (uint32_t)owner != vm)
		f->foreign_maps++;
	if (in_ept_window(f, gpa)) {
		if (!v->ept)
			v->ept = calloc(f->ept_pages, sizeof(*v->ept));
		if (!v->ept)
			return -GPU_ENOMEM;
		v->ept[(gpa - f->ept_gpa) / PG] = hpa & ~(PG - 1);
	}
	return 0;
}

static int op_ept_unmap(void *ctx, uint32_t vm, uint64_t gpa)
{
	struct fake_hv *f = F(ctx);
	struct fake_vm *v;

	if (vm >= f->nr_vms)
		return -GPU_EINVAL;
	v = &f->vm[vm];
	v->unmaps++;
	if (v->ept && in_ept_window(f, gpa))
		v->ept[(gpa - f->ept_gpa) / PG] = 0;
	return 0;
}

void fake_hv_record_ept(struct fake_hv *f, uint64_t gpa, uint64_t size)
{
	f->ept_gpa = gpa;
	f->ept_pages = size / PG;
}

uint64_t fake_hv_ept_hpa(struct fake_hv *f, uint32_t vm, uint64_t gpa)
{
	uint64_t m;

	if (vm >= f->nr_vms || !f->vm[vm].ept || !in_ept_window(f, gpa))
		return 0;
	m = f->vm[vm].ept[(gpa - f->ept_gpa) / PG];
	return m ? m + (gpa & (PG - 1)) : 0;
}

static int set_wp(struct fake_hv *f, uint32_t vm, uint64_t gpa, bool on)
{
	if (vm >= f->nr_vms || !f->vm[vm].used || gpa >= f->vm[vm].ram_size)
		return -GPU_EFAULT;
	f->vm[vm].wp[gpa / PG] = on;
	return 0;
}

static int op_wp(void *ctx, uint32_t vm, uint64_t gpa)
{
	F(ctx)->wp_calls++;
	return set_wp(F(ctx), vm, gpa, true);
}

static int op_unwp(void *ctx, uint32_t vm, uint64_t gpa)
{
	F(ctx)->unwp_calls++;
	return set_wp(F(ctx), vm, gpa, false);
}

static int op_inject_msi(void *ctx, uint32_t vm, uint64_t addr, uint32_t data)
{
	struct fake_vm *v;

	if (vm >= F(ctx)->nr_vms)
		return -GPU_EINVAL;
	v = &F(ctx)->vm[vm];
	v->msi_count++;
	v->msi_addr = addr;
	v->msi_data = data;
	return 0;
}

static uint64_t op_now(void *ctx)
{
	struct fake_hv *f = F(ctx);

	if (f->clock)
		return f->now + f->clock(f->clock_arg);
	f->now += f->now_step;
	return f->now;
}

static void op_log(void *ctx, int level, int id, const char *msg)
{
	struct fake_hv *f = F(ctx);

	if (level >= 0 && level < 4)
		f->logs[level]++;
	snprintf(f->last_log, sizeof(f->last_log), "vgpu%d: %s", id, msg);
	if (f->log_watch && strstr(msg, f->log_watch))
		snprintf(f->watched, sizeof(f->watched), "%s", f->last_log);
	if (f->verbose || (level == HV_LOG_ERR && getenv("FAKE_HV_ERRORS")))
		fprintf(stderr, "[%d] %s\n", level, f->last_log);
}

static void *op_page_alloc(void *ctx, size_t n, uint64_t *hpa)
{
	struct fake_hv *f = F(ctx);
	uint64_t start, i, tries;

	if (f->fail_alloc_after == 0)
		return NULL;
	if (f->fail_alloc_after > 0)
		f->fail_alloc_after--;
	if (!n || n > f->pool_pages)
		return NULL;
	for (tries = 0, start = f->pool_hint; tries < f->pool_pages; tries++) {
		if (start + n > f->pool_pages)
			start = 0;
		for (i = 0; i < n && !f->pool_used[start + i]; i++)
			;
		if (i == n)
			break;
		start += i + 1;
	}
	if (tries == f->pool_pages)
		return NULL;
	memset(f->pool_used + start, 1, n);
	f->pool_hint = start + n;
	f->pages_in_use += n;
	if (f->pages_in_use > f->pages_peak)
		f->pages_peak = f->pages_in_use;
	*hpa = FAKE_HPA_BASE + (f->pool_first + start) * PG;
	memset(f->arena + (f->pool_first + start) * PG, 0, n * PG);
	return f->arena + (f->pool_first + start) * PG;
}

static void op_page_free(void *ctx, void *va, size_t n)
{
	struct fake_hv *f = F(ctx);
	uint64_t page = ((uint8_t *)va - f->arena) / PG - f->pool_first;

	if ((uint8_t *)va < f->arena || page + n > f->pool_pages) {
		fprintf(stderr, "fake_hv: bad page_free %p\n", va);
		abort();
	}
	for (uint64_t i = 0; i < n; i++) {
		if (!f->pool_used[page + i]) {
			fprintf(stderr, "fake_hv: double free of page %p\n", va);
			abort();
		}
		f->pool_used[page + i] = 0;
	}
	/* Scribble so use-after-free shows. */
	memset(va, 0x6b, n * PG);
	f->pages_in_use -= n;
}

static void *dma_ptr(void *ctx, uint64_t hpa, size_t len)
{
	return fake_hv_hpa_ptr(F(ctx), hpa, len);
}

static const struct hv_ops fake_ops = {
	.gpa_to_hpa = op_gpa_to_hpa,
	.read_gpa = op_read_gpa,
	.write_gpa = op_write_gpa,
	.ept_map = op_ept_map,
	.ept_unmap = op_ept_unmap,
	.wp_page = op_wp,
	.unwp_page = op_unwp,
	.inject_msi = op_inject_msi,
	.now_ns = op_now,
	.log = op_log,
	.page_alloc = op_page_alloc,
	.page_free = op_page_free,
	.bar_moved = NULL,
};

int fake_hv_init_vms(struct fake_hv *f, uint32_t pool_mib, uint32_t ram_mib,
		     uint32_t nr_vms)
{
	memset(f, 0, sizeof(*f));
	f->pool_pages = (uint64_t)pool_mib << 8;
	f->arena_pages = f->pool_pages + ((uint64_t)ram_mib << 8);
	f->arena = arena_map(f->arena_pages);
	f->pool_used = calloc(f->pool_pages, 1);
	f->vm = calloc(nr_vms, sizeof(*f->vm));
	f->nr_vms = nr_vms;
	if (!f->arena || !f->pool_used || !f->vm)
		return -1;
	f->pool_first = 0;
	f->next_ram_page = f->pool_pages;
	f->fail_alloc_after = -1;
	f->now = 1000000;
	f->now_step = 1000;
	f->verbose = getenv("FAKE_HV_VERBOSE") != NULL;
	f->hv.ops = &fake_ops;
	f->hv.ctx = f;
	f->dma.ctx = f;
	f->dma.phys_ptr = dma_ptr;
	return 0;
}

int fake_hv_init(struct fake_hv *f, uint32_t pool_mib, uint32_t ram_mib)
{
	return fake_hv_init_vms(f, pool_mib, ram_mib, FAKE_DEFAULT_VMS);
}

void fake_hv_fini(struct fake_hv *f)
{
	uint32_t i;

	for (i = 0; f->vm && i < f->nr_vms; i++) {
		free(f->vm[i].wp);
		free(f->vm[i].ept);
	}
	free(f->vm);
	arena_unmap(f->arena, f->arena_pages);
	free(f->pool_used);
	free(f->dirty);
	memset(f, 0, sizeof(*f));
}

int fake_hv_protect_ram(struct fake_hv *f, uint32_t vm, bool ro)
{
	if (vm >= f->nr_vms || !f->vm[vm].used)
		return -1;
	return mprotect(f->arena + f->vm[vm].first_page * PG, f->vm[vm].ram_size,
			ro ? PROT_READ : PROT_READ | PROT_WRITE);
}

int fake_hv_add_vm(struct fake_hv *f, uint32_t vm, uint64_t ram)
{
	struct fake_vm *v;

	if (vm >= f->nr_vms || f->vm[vm].used || ram % (2 * PG) ||
	    f->next_ram_page + ram / PG > f->arena_pages)
		return -1;
	v = &f->vm[vm];
	v->used = true;
	v->ram_size = ram;
	v->first_page = f->next_ram_page;
	v->wp = calloc(ram / PG, 1);
	f->next_ram_page += ram / PG;
	return v->wp ? 0 : -1;
}

bool fake_hv_is_wp(struct fake_hv *f, uint32_t vm, uint64_t gpa)
{
	return f->vm[vm].used && gpa < f->vm[vm].ram_size && f->vm[vm].wp[gpa / PG];
}

uint32_t fake_hv_nr_wp(struct fake_hv *f, uint32_t vm)
{
	uint32_t n = 0;
	uint64_t p;

	for (p = 0; p < f->vm[vm].ram_size / PG; p++)
		n += f->vm[vm].wp[p];
	return n;
}

void fake_hv_guest_write(struct fake_hv *f, uint32_t vm, uint64_t gpa,
			 const void *data, size_t len)
{
	if (guest_rw(f, vm, gpa, (void *)data, len, true)) {
		fprintf(stderr, "fake_hv: guest write outside RAM 0x%llx\n",
			(unsigned long long)gpa);
		abort();
	}
}

void fake_hv_guest_read(struct fake_hv *f, uint32_t vm, uint64_t gpa,
			void *data, size_t len)
{
	if (guest_rw(f, vm, gpa, data, len, false)) {
		fprintf(stderr, "fake_hv: guest read outside RAM 0x%llx\n",
			(unsigned long long)gpa);
		abort();
	}
}

void fake_hv_guest_store(struct fake_hv *f, uint32_t vm, uint64_t gpa,
			 const void *data, size_t len)
{
	fake_hv_guest_write(f, vm, gpa, data, len);
	if (f->trap && fake_hv_is_wp(f, vm, gpa))
		f->trap(f->trap_arg, vm, gpa, data, len);
}

/* Each used VM's wp bytes, one after another: total. */
static uint64_t wp_bytes(const struct fake_hv *f)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < f->nr_vms; i++)
		if (f->vm[i].used)
			n += f->vm[i].ram_size / PG;
	return n;
}

int fake_hv_save_tables(const struct fake_hv *f, struct fake_hv_tables *t)
{
	uint8_t *w;

	memset(t, 0, sizeof(*t));
	if (f->ept_pages)
		return -1;
	t->pool_used = malloc(f->pool_pages);
	t->vm = malloc(f->nr_vms * sizeof(*f->vm));
	t->wp = malloc(wp_bytes(f) + 1);
	if (!t->pool_used || !t->vm || !t->wp) {
		fake_hv_free_tables(t);
		return -1;
	}
	memcpy(t->pool_used, f->pool_used, f->pool_pages);
	memcpy(t->vm, f->vm, f->nr_vms * sizeof(*f->vm));
	w = t->wp;
	for (uint32_t i = 0; i < f->nr_vms; i++)
		if (f->vm[i].used) {
			memcpy(w, f->vm[i].wp, f->vm[i].ram_size / PG);
			w += f->vm[i].ram_size / PG;
		}
	return 0;
}

/* Only into the fake they were saved from (its VMs' wp arrays are the
 * same allocations; no VM may have been added since). */
void fake_hv_load_tables(struct fake_hv *f, const struct fake_hv_tables *t)
{
	const uint8_t *w = t->wp;

	memcpy(f->pool_used, t->pool_used, f->pool_pages);
	memcpy(f->vm, t->vm, f->nr_vms * sizeof(*f->vm));
	for (uint32_t i = 0; i < f->nr_vms; i++)
		if (f->vm[i].used) {
			memcpy(f->vm[i].wp, w, f->vm[i].ram_size / PG);
			w += f->vm[i].ram_size / PG;
		}
}

void fake_hv_free_tables(struct fake_hv_tables *t)
{
	free(t->pool_used);
	free(t->vm);
	free(t->wp);
	memset(t, 0, sizeof(*t));
}
