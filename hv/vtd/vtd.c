/* VT-d on the machine (vtd.h): the unit's registers through MMIO, the TSC
 * as its clock, clflush for a unit that does not snoop, and the boot
 * messages. */
#include "hv/vtd/vtd.h"
#include "hv/platform/acpi.h"
#include "hv/console/console.h"
#include "hv/hv.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/mm/paging_mmio.h"
#include "hv/platform/tsc.h"
#include "hv/vtd/vtd_fault.h"
#include "hv/vtd/vtd_policy.h"
#include "hv/vtd/vtd_regs.h"
#include "hv/vtd/vtd_tables.h"
#include "hv/cpu/x86.h"

#define IGPU_DEVFN	(2 << 3)	/* 00:02.0 */
#define IGPU_DID	1		/* the only domain; 0 is reserved
					 * on caching-mode units */
#define MAP_GRAIN	(2ull << 20)	/* paging_map_mmio's granularity */
#define CACHE_LINE	64

static struct {
	bool on;		/* translating through our tables */
	bool off_by_cfg;	/* hv.cfg vtd=off */
	const struct acpi_drhd *drhd;
	struct vtd_unit unit;
	struct vtd_domain dom;
	struct vtd_policy pol;
	struct vtd_fault_log log;
	const char *names[VTD_POLICY_MAX_VMS];
	int err;		/* why it is off, when programming failed */
} vt;

static volatile uint8_t *regs(void *ctx, uint32_t off)
{
	return (volatile uint8_t *)ctx + off;
}

static uint32_t mmio_rd32(void *ctx, uint32_t off)
{
	return *(volatile uint32_t *)regs(ctx, off);
}

static uint64_t mmio_rd64(void *ctx, uint32_t off)
{
	return *(volatile uint64_t *)regs(ctx, off);
}

static void mmio_wr32(void *ctx, uint32_t off, uint32_t v)
{
	*(volatile uint32_t *)regs(ctx, off) = v;
}

static void mmio_wr64(void *ctx, uint32_t off, uint64_t v)
{
	*(volatile uint64_t *)regs(ctx, off) = v;
}

static uint64_t tsc_now_us(void *ctx)
{
	(void)ctx;
	return rdtsc() / (tsc_hz() / 1000000 + 1);
}

/* The unit reads tables from memory: write the lines back first. */
static void clflush_range(const void *p, unsigned long n)
{
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(CACHE_LINE - 1);

	__asm__ volatile("mfence" ::: "memory");
	for (; a < (uintptr_t)p + n; a += CACHE_LINE)
		__asm__ volatile("clflush (%0)" :: "r"(a) : "memory");
	__asm__ volatile("mfence" ::: "memory");
}

/* Does [base, last] touch memory the page allocator or our image owns?
 * A DRHD there is a broken table (writing "registers" would corrupt
 * memory); an RMRR there would give the GPU pages that VMs get later
 * (Linux warns "[Firmware Bug]: No firmware reserved region can cover
 * this RMRR"). */
static bool touches_ram(uint64_t base, uint64_t last)
{
	const struct boot_info *bi = hv_platform.bi;

	for (uint32_t i = 0; bi && i < bi->nr_mem; i++) {
		const struct mem_range *m = &bi->mem[i];
		uint64_t end = m->base + m->pages * PAGE_SIZE - 1;

		if ((m->type == MEM_USABLE || m->type == MEM_HV_IMAGE) &&
		    m->pages && base <= end && last >= m->base)
			return true;
	}
	return false;
}

static int map_unit(uint64_t base)
{
	if (!base || (base & (PAGE_SIZE - 1)) ||
	    touches_ram(base, base + PAGE_SIZE - 1) ||
	    base >= hv_platform.paging.mapped_bytes)
		return -HV_EINVAL;
	/* registers uncached whatever the MTRRs say (a unit above 4 GiB
	 * usually sits in the WB default type) */
	return paging_map_mmio(base & ~(MAP_GRAIN - 1), MAP_GRAIN, PAGING_UC);
}

static int probe(const struct acpi_drhd *g)
{
	struct vtd_io io = { hv_va(g->base), mmio_rd32, mmio_rd64, mmio_wr32,
			     mmio_wr64, tsc_now_us, clflush_range };
	struct vtd_unit *u = &vt.unit;
	int err;

	if (!tsc_hz())
		tsc_calibrate();	/* the unit's timeouts need a clock */
	err = map_unit(g->base);
	if (err)
		return err;
	err = vtd_unit_probe(u, &io, g->base);
	if (err) {
		kprintf("vt-d: unit %llx: not usable (VER %x CAP %016llx ECAP "
			"%016llx, error %d)\n", (unsigned long long)g->base,
			u->ver, (unsigned long long)u->cap,
			(unsigned long long)u->ecap, err);
		return err;
	}
	if (u->ecap & VTD_ECAP_C)
		u->io.flush = NULL;
	kprintf("vt-d: unit %llx: version %u.%u, CAP %016llx ECAP %016llx: "
		"%u-level tables, %u fault record(s), %s invalidation, page "
		"walks %s\n", (unsigned long long)g->base,
		VTD_VER_MAJOR(u->ver), VTD_VER_MINOR(u->ver),
		(unsigned long long)u->cap, (unsigned long long)u->ecap,
		u->levels, u->nfr, vtd_inval_name(),
		u->io.flush ? "not coherent (tables flushed with clflush)"
			    : "coherent");
	return 0;
}

/* The RMRRs whose scope names the iGPU: stolen memory, which the GOP's
 * scanout reads until the takeover and the GPU uses after it. */
static void add_rmrrs(const struct acpi_dmar *d)
{
	for (uint32_t i = 0; i < d->nr_rmrr; i++) {
		const struct acpi_rmrr *r = &d->rmrr[i];

		if (!r->igpu)
			continue;
		if (touches_ram(r->base, r->limit)) {
			kprintf("vt-d: RMRR %llx-%llx overlaps RAM we hand out "
				"(firmware bug): NOT mapped for 00:02.0\n",
				(unsigned long long)r->base,
				(unsigned long long)r->limit);
			continue;
		}
		kprintf("vt-d: RMRR %llx-%llx (stolen memory) mapped 1:1 for "
			"00:02.0%s\n", (unsigned long long)r->base,
			(unsigned long long)r->limit,
			vtd_policy_add_rmrr(&vt.pol, r->base, r->limit)
				? ": FAILED" : "");
	}
}

static int program(const struct acpi_dmar *d, const struct acpi_drhd *g)
{
	struct vtd_unit *u = &vt.unit;
	int err = probe(g);

	if (err)
		return err;
	err = vtd_domain_init(&vt.dom, u->levels, IGPU_DID, 0, IGPU_DEVFN,
			      u->io.flush);
	if (err)
		return err;
	vtd_policy_init(&vt.pol, &vt.dom);
	add_rmrrs(d);
	err = vtd_unit_enable(u, hv_pa(vt.dom.root));
	if (err) {
		kprintf("vt-d: the unit did not complete '%s'\n",
			u->failed_step ? u->failed_step : "?");
		/* half-enabled would block the GPU from pages we no longer
		 * track: translation off, best effort */
		(void)vtd_unit_disable(u);
		return err;
	}
	vt.on = true;
	return 0;
}

/* Program g for the iGPU's domain and say how it went. */
static int start(const struct acpi_drhd *g)
{
	vt.drhd = g;
	vt.err = program(&hv_platform.acpi.dmar, g);
	if (vt.err)
		kprintf("vt-d: not enabled (error %d): the GPU's DMA is not "
			"isolated\n", vt.err);
	else
		kprintf("vt-d: translation on: 00:02.0 (domain %u) reaches "
			"%llu page(s); any other DMA through this unit faults "
			"and is reported\n", IGPU_DID,
			(unsigned long long)vt.dom.pages_allowed);
	return vt.err;
}

void vtd_boot(const struct hv_config *cfg)
{
	const struct acpi_dmar *d = &hv_platform.acpi.dmar;
	const struct acpi_drhd *g = acpi_dmar_igpu_unit(d);

	if (!d->present) {
		kprintf("vt-d: no DMAR table: no VT-d; the GPU's DMA is not "
			"isolated by an IOMMU\n");
		return;
	}
	kprintf("vt-d: DMAR: %u remapping unit(s), %u RMRR(s), host address "
		"width %u\n", d->nr_drhd, d->nr_rmrr, d->haw + 1);
	if (g)
		kprintf("vt-d: the iGPU's unit is at %llx (%s)\n",
			(unsigned long long)g->base,
			g->igpu ? "its own" : "INCLUDE_PCI_ALL");
	else
		kprintf("vt-d: no unit covers 00:02.0: the GPU's DMA is not "
			"isolated\n");
	if (cfg->vtd == HVCFG_VTD_OFF) {
		vt.off_by_cfg = true;
		kprintf("vt-d: vtd=off in hv.cfg: no unit is programmed; the "
			"GPU's DMA is not isolated\n");
		return;
	}
	if (g)
		start(g);
}

int vtd_start_for_test(uint8_t bus, uint8_t devfn)
{
	const struct acpi_drhd *g =
		acpi_dmar_unit_for(&hv_platform.acpi.dmar, bus, devfn);

	if (!g)
		return -HV_ENOENT;
	if (vt.on)	/* the iGPU's unit: the device must be behind it */
		return g == vt.drhd ? 0 : -HV_ENOTSUP;
	if (vt.drhd || vt.off_by_cfg)	/* it failed, or vtd=off */
		return -HV_EPERM;
	kprintf("vt-d: no iGPU unit here: programming the unit at %llx, "
		"which covers the test device, with the iGPU's domain\n",
		(unsigned long long)g->base);
	return start(g);
}

bool vtd_active(void)
{
	return vt.on;
}

/* After the policy changed: invalidate where the unit may hold stale
 * translations. A failure is said; the unit then may still translate
 * pages we took back, which is why it is loud. */
static void flush_if_needed(void)
{
	int err;

	if (!vtd_policy_take_flush(&vt.pol, vtd_unit_caches_not_present(
						    &vt.unit)))
		return;
	err = vtd_unit_flush_domain(&vt.unit, IGPU_DID);
	if (err)
		kprintf("vt-d: IOTLB invalidation FAILED (%d, %s): pages taken "
			"back may still be reachable\n", err,
			vt.unit.failed_step ? vt.unit.failed_step : "?");
}

void vtd_gpu_pages(uint64_t hpa, size_t npages, bool alloc)
{
	if (!vt.on)
		return;
	if (vtd_policy_mediator(&vt.pol, hpa, npages, alloc))
		kprintf("vt-d: %llu mediator page(s) at %llx could not be %s\n",
			(unsigned long long)npages, (unsigned long long)hpa,
			alloc ? "mapped for the GPU" : "taken back");
	flush_if_needed();
}

void vtd_vm_ram(unsigned id, const char *name, bool want, uint64_t base,
		uint64_t len)
{
	const struct vtd_range *r;
	struct vtd_range old;
	int err;

	if (!vt.on || id >= VTD_POLICY_MAX_VMS)
		return;
	r = &vt.pol.vm[id];
	old = *r;
	if (old.on == want && (!want || (old.base == base && old.len == len)))
		return;
	vt.names[id] = name;
	err = vtd_policy_vm(&vt.pol, id, want, base, len);
	flush_if_needed();
	if (old.on)
		kprintf("vt-d: vm '%s': RAM %llx+%llx taken back from the GPU\n",
			name, (unsigned long long)old.base,
			(unsigned long long)old.len);
	if (want)
		kprintf("vt-d: vm '%s': RAM %llx+%llx %s\n", name,
			(unsigned long long)base, (unsigned long long)len,
			err ? "could NOT be mapped for the GPU" :
			"mapped for the GPU (it has a vGPU)");
}

/* What our tables say about the faulting access: a page we allow that
 * the unit still refused means it did not see our tables (a missing
 * flush or invalidation), which is a bug of ours, not the device's. */
static const char *tables_say(const struct vtd_fault *f)
{
	uint64_t hpa;

	if (vtd_translate(&vt.dom, (uint8_t)(f->source >> 8),
			  (uint8_t)f->source, f->addr, !f->read, &hpa))
		return "our tables allow it: the unit missed an update";
	return "not allowed";
}

static void report_fault(const struct vtd_fault *f)
{
	kprintf("vt-d: DMA fault: %02x:%02x.%x %s %llx: reason %u (%s), %s; "
		"further faults on this page only counted\n", f->source >> 8,
		(f->source >> 3) & 31, f->source & 7,
		f->read ? "read of" : "write to", (unsigned long long)f->addr,
		f->reason, vtd_fault_reason_name(f->reason), tables_say(f));
}

unsigned vtd_poll_faults(void)
{
	return vt.on ? vtd_fault_poll(&vt.unit, &vt.log, report_fault) : 0;
}

const struct vtd_fault_log *vtd_fault_log(void)
{
	return &vt.log;
}

int vtd_attach_device(uint8_t bus, uint8_t devfn)
{
	int err;

	if (!vt.on)
		return -HV_ENOTSUP;
	err = vtd_domain_attach(&vt.dom, bus, devfn);
	return err ? err : vtd_unit_flush_all(&vt.unit);
}

void vtd_detach_device(uint8_t bus, uint8_t devfn)
{
	if (!vt.on)
		return;
	vtd_domain_detach(&vt.dom, bus, devfn);
	(void)vtd_unit_flush_all(&vt.unit);
}

int vtd_test_buffer(uint64_t hpa, uint64_t len, bool allow)
{
	int err;

	if (!vt.on)
		return -HV_ENOTSUP;
	err = vtd_policy_test(&vt.pol, hpa, len, allow);
	flush_if_needed();
	return err;
}

int vtd_set_inval(enum vtd_inval_mode m)
{
	return vt.on ? vtd_unit_set_inval(&vt.unit, m) : -HV_ENOTSUP;
}

const char *vtd_inval_name(void)
{
	return vt.unit.inval == VTD_INVAL_QUEUED ? "queued" : "register-based";
}

static void print_ranges(void)
{
	const struct vtd_policy *p = &vt.pol;

	for (unsigned i = 0; i < p->nr_rmrr; i++)
		kprintf("  allowed: RMRR %llx+%llx\n",
			(unsigned long long)p->rmrr[i].base,
			(unsigned long long)p->rmrr[i].len);
	for (unsigned i = 0; i < VTD_POLICY_MAX_VMS; i++)
		if (p->vm[i].on)
			kprintf("  allowed: vm '%s' RAM %llx+%llx\n",
				vt.names[i] ? vt.names[i] : "?",
				(unsigned long long)p->vm[i].base,
				(unsigned long long)p->vm[i].len);
	kprintf("  allowed: mediator %llu page(s) in %llu allocation(s)\n",
		(unsigned long long)p->mediator_pages,
		(unsigned long long)p->mediator_allocs);
	for (unsigned i = 0; i < p->nr_test; i++)
		kprintf("  allowed: test buffer %llx+%llx\n",
			(unsigned long long)p->test[i].base,
			(unsigned long long)p->test[i].len);
}

static void print_faults(void)
{
	const struct vtd_fault_log *l = &vt.log;

	kprintf("  faults: %llu recorded, %u page(s) reported, %llu "
		"repeat(s), %llu past the page list, %llu overflow(s)\n",
		(unsigned long long)l->total, l->nr_pages,
		(unsigned long long)l->repeats, (unsigned long long)l->unlisted,
		(unsigned long long)l->overflows);
	if (l->total)
		kprintf("  last fault: %02x:%02x.%x %s %llx reason %u\n",
			l->last.source >> 8, (l->last.source >> 3) & 31,
			l->last.source & 7, l->last.read ? "read" : "write",
			(unsigned long long)l->last.addr, l->last.reason);
}

void vtd_print_status(void)
{
	const struct vtd_unit *u = &vt.unit;

	if (vt.off_by_cfg) {
		kprintf("vt-d: off (vtd=off in hv.cfg)\n");
		return;
	}
	if (!vt.drhd) {
		kprintf("vt-d: no remapping unit for 00:02.0 (%s)\n",
			hv_platform.acpi.dmar.present ? "none in the DMAR"
						      : "no DMAR table");
		return;
	}
	kprintf("vt-d: unit %llx (%s): translation %s, %u-level tables, %s "
		"invalidation\n", (unsigned long long)vt.drhd->base,
		vt.drhd->igpu ? "the iGPU's own" :
		vt.drhd->include_all ? "INCLUDE_PCI_ALL" :
		"its scope names the test device",
		vt.on ? "ON" : "off", u->levels, vtd_inval_name());
	if (!vt.on)
		return;
	kprintf("  domain %u: %u device(s):", vt.dom.did, vt.dom.nr_devs);
	for (unsigned i = 0; i < vt.dom.nr_devs; i++)
		kprintf(" %02x:%02x.%x", vt.dom.devs[i] >> 8,
			(vt.dom.devs[i] >> 3) & 31, vt.dom.devs[i] & 7);
	kprintf("; %llu page(s) allowed\n",
		(unsigned long long)vt.dom.pages_allowed);
	print_ranges();
	print_faults();
	kprintf("  invalidations: %llu context, %llu IOTLB, %llu write-buffer "
		"flushes; %llu timeouts, %llu errors, %llu refused ranges\n",
		(unsigned long long)u->st.ctx_invals,
		(unsigned long long)u->st.iotlb_invals,
		(unsigned long long)u->st.wb_flushes,
		(unsigned long long)u->st.timeouts,
		(unsigned long long)u->st.inval_errors,
		(unsigned long long)vt.pol.refused);
}
