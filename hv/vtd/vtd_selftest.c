/* vtd_selftest=edu: real DMA through the iGPU's VT-d tables, in QEMU.
 *
 * QEMU has no Intel GPU but emulates a VT-d unit (-device intel-iommu)
 * and a device that does DMA on command (-device edu: source 0x80,
 * destination 0x88, count 0x90, command 0x98; its 4 KiB buffer at 0x40000
 * in its own address space; QEMU's docs/specs/edu.txt). At boot, before
 * the GPU comes up (vtd_selftest_prepare), the edu function is attached
 * to the iGPU's domain (the same root, context and second-level tables,
 * domain id and policy; where no unit covers 00:02.0, as in QEMU, the
 * unit covering edu is programmed with that domain). After boot
 * (vtd_selftest_edu) one buffer is allowed, and then:
 *   - a DMA read from an allowed page and a DMA write into an allowed page
 *     arrive (the bytes are compared);
 *   - a DMA write to a page outside leaves it unchanged, and the fault is
 *     read from the unit with the device, the page and the reason, and
 *     counted; a second one on the same page is counted, not printed;
 *   - a DMA read from outside does not deliver that page's bytes;
 *   - a page taken back after the device used it (so the unit's IOTLB
 *     holds its translation) faults: the invalidation reached the unit.
 * Once with register-based invalidation and once through the queue.
 * Each check prints one line; the last says PASS or FAIL. */
#include "hv/vtd/vtd_selftest.h"
#include "hv/console/console.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/mm/paging_mmio.h"
#include "hv/platform/pci.h"
#include "hv/platform/tsc.h"
#include "hv/vtd/vtd.h"
#include "hv/vtd/vtd_fault.h"
#include "hv/cpu/x86.h"
#include "mini/string.h"

#define EDU_VENDOR	0x1234
#define EDU_DEVICE	0x11e8
#define EDU_ID		0x00	/* 0x010000ed */
#define EDU_DMA_SRC	0x80
#define EDU_DMA_DST	0x88
#define EDU_DMA_CNT	0x90
#define EDU_DMA_CMD	0x98
#define EDU_CMD_RUN	1u
#define EDU_CMD_TO_RAM	2u	/* buffer -> RAM; clear: RAM -> buffer */
#define EDU_BUF		0x40000ull
/* QEMU 7.2's edu refuses (hw_error, QEMU exits) a transfer that ends at
 * the end of its 4 KiB buffer: move half of it. */
#define EDU_XFER	2048u
#define EDU_DMA_MS	10000	/* it completes 100 ms (QEMU's virtual
				 * clock) after the command */
#define PCI_CMD_MEM_BM	0x6u
#define MAP_GRAIN	(2ull << 20)
#define OUTSIDE_BYTE	0xee

struct edu {
	const struct pci_dev *pd;
	volatile uint8_t *bar;
	uint16_t sid;
};

static unsigned checks, failed;

static void check(bool ok, const char *what)
{
	checks++;
	failed += !ok;
	kprintf("vtd: selftest: %s: %s\n", what, ok ? "ok" : "FAILED");
}

static void edu_wr(struct edu *e, uint32_t off, uint64_t v)
{
	*(volatile uint64_t *)(e->bar + off) = v;
}

static bool edu_busy(struct edu *e)
{
	return *(volatile uint32_t *)(e->bar + EDU_DMA_CMD) & EDU_CMD_RUN;
}

/* One transfer of EDU_XFER bytes; false (and said) when the device did
 * not finish in time. Polled once a millisecond: each MMIO read takes
 * QEMU's global lock, which the timer that completes the transfer needs
 * too; polled flat out on a loaded host, the timer starved and a check
 * failed (vtd48-qemu, once). */
static bool edu_dma(struct edu *e, uint64_t src, uint64_t dst, bool to_ram)
{
	uint64_t t0 = rdtsc(), t;

	edu_wr(e, EDU_DMA_SRC, src);
	edu_wr(e, EDU_DMA_DST, dst);
	edu_wr(e, EDU_DMA_CNT, EDU_XFER);
	edu_wr(e, EDU_DMA_CMD, EDU_CMD_RUN | (to_ram ? EDU_CMD_TO_RAM : 0));
	while (edu_busy(e)) {
		if (rdtsc() - t0 > tsc_ms(EDU_DMA_MS)) {
			kprintf("vtd: selftest: edu did not finish a DMA within "
				"%u ms\n", EDU_DMA_MS);
			return false;
		}
		for (t = rdtsc(); rdtsc() - t < tsc_ms(1);)
			cpu_relax();
	}
	return true;
}

static const struct pci_dev *find_edu(void)
{
	const struct pci_bus_info *pi = pci_info();

	for (uint32_t i = 0; i < pi->nr_devs; i++)
		if (pi->devs[i].vendor == EDU_VENDOR &&
		    pi->devs[i].device == EDU_DEVICE)
			return &pi->devs[i];
	return NULL;
}

static int edu_open(struct edu *e)
{
	const struct pci_dev *d = find_edu();
	uint32_t cmd;
	uint64_t bar;

	if (!d)
		return -HV_ENOENT;
	e->pd = d;
	e->sid = (uint16_t)(d->bus << 8 | d->dev << 3 | d->fn);
	bar = pci_read32(d->bus, d->dev, d->fn, PCI_BAR0);
	if ((bar & 6) == 4)	/* 64-bit memory BAR */
		bar |= (uint64_t)pci_read32(d->bus, d->dev, d->fn,
					    PCI_BAR0 + 4) << 32;
	bar &= ~0xfull;
	if (!bar || paging_map_mmio(bar & ~(MAP_GRAIN - 1), MAP_GRAIN,
				    PAGING_UC))
		return -HV_EINVAL;
	e->bar = hv_va(bar);
	cmd = pci_read32(d->bus, d->dev, d->fn, PCI_COMMAND) & 0xffff;
	pci_write32(d->bus, d->dev, d->fn, PCI_COMMAND, cmd | PCI_CMD_MEM_BM);
	if ((*(volatile uint32_t *)(e->bar + EDU_ID) & 0xff) != 0xed)
		return -HV_EIO;
	return 0;
}

/* A fault record arrived since the log counted `before`, and the last
 * one names this device, this page, the direction and the reason. */
static bool fault_is(const struct edu *e, uint64_t before, uint64_t page,
		     bool read, uint8_t reason)
{
	const struct vtd_fault_log *l = vtd_fault_log();

	vtd_poll_faults();
	return l->total > before && l->last.source == e->sid &&
	       l->last.addr == page && l->last.read == read &&
	       l->last.reason == reason;
}

struct pages {
	uint8_t *src, *in, *out;	/* allowed, allowed, outside */
};

static bool all_bytes(const uint8_t *p, uint8_t v)
{
	for (unsigned i = 0; i < EDU_XFER; i++)
		if (p[i] != v)
			return false;
	return true;
}

/* The allowed pages carry data both ways. */
static void allowed_dma(struct edu *e, struct pages *pg, uint8_t pattern)
{
	memset(pg->src, pattern, PAGE_SIZE);
	memset(pg->in, 0, PAGE_SIZE);
	check(edu_dma(e, hv_pa(pg->src), EDU_BUF, false) &&
	      edu_dma(e, EDU_BUF, hv_pa(pg->in), true) &&
	      all_bytes(pg->in, pattern),
	      "DMA read from and write into the allowed buffer: 2048 bytes "
	      "arrived");
}

/* Outside: blocked, reported, counted; once more: counted only. */
static void outside_dma(struct edu *e, struct pages *pg)
{
	const struct vtd_fault_log *l = vtd_fault_log();
	uint64_t out = hv_pa(pg->out), total = l->total, pages;

	memset(pg->out, OUTSIDE_BYTE, PAGE_SIZE);
	check(edu_dma(e, EDU_BUF, out, true) &&
	      all_bytes(pg->out, OUTSIDE_BYTE),
	      "DMA write to a page outside: blocked, the page unchanged");
	check(fault_is(e, total, out, false, 5),
	      "the fault was read from the unit: this device, this page, "
	      "write, reason 5");
	total = l->total;
	pages = l->nr_pages;
	check(edu_dma(e, EDU_BUF, out, true) && fault_is(e, total, out, false, 5)
	      && l->nr_pages == pages && l->repeats > 0,
	      "a second fault on that page: counted, not reported again");
	total = l->total;
	memset(pg->in, 0, PAGE_SIZE);
	check(edu_dma(e, out, EDU_BUF, false) &&
	      edu_dma(e, EDU_BUF, hv_pa(pg->in), true) &&
	      !all_bytes(pg->in, OUTSIDE_BYTE) && fault_is(e, total, out,
							     true, 6),
	      "DMA read from the page outside: its bytes did not arrive, "
	      "fault reason 6");
}

/* The device just wrote `in`, so the unit may cache its translation:
 * taking it back must reach the IOTLB. */
static void taken_back_dma(struct edu *e, struct pages *pg)
{
	const struct vtd_fault_log *l = vtd_fault_log();
	uint64_t in = hv_pa(pg->in), total;

	check(!vtd_test_buffer(in, PAGE_SIZE, false),
	      "allowed page taken back, IOTLB invalidated");
	total = l->total;
	memset(pg->in, 0, PAGE_SIZE);
	check(edu_dma(e, EDU_BUF, in, true) && all_bytes(pg->in, 0) &&
	      fault_is(e, total, in, false, 5),
	      "DMA write to the page taken back: blocked and reported");
}

static void run_phase(struct edu *e, struct pages *pg, uint8_t pattern)
{
	kprintf("vtd: selftest: %s invalidation; allowed %llx and %llx, "
		"outside %llx\n", vtd_inval_name(),
		(unsigned long long)hv_pa(pg->src),
		(unsigned long long)hv_pa(pg->in),
		(unsigned long long)hv_pa(pg->out));
	if (vtd_test_buffer(hv_pa(pg->src), PAGE_SIZE, true) ||
	    vtd_test_buffer(hv_pa(pg->in), PAGE_SIZE, true)) {
		check(false, "allowing the test buffer");
		return;
	}
	allowed_dma(e, pg, pattern);
	outside_dma(e, pg);
	taken_back_dma(e, pg);
	vtd_test_buffer(hv_pa(pg->src), PAGE_SIZE, false);
}

static bool get_pages(struct pages *pg)
{
	pg->src = page_alloc();
	pg->in = page_alloc();
	pg->out = page_alloc();
	return pg->src && pg->in && pg->out;
}

static void put_pages(struct pages *pg)
{
	if (pg->src)
		page_free(pg->src);
	if (pg->in)
		page_free(pg->in);
	if (pg->out)
		page_free(pg->out);
}

static void run(struct edu *e)
{
	struct pages pg[2] = { 0 };
	int err;

	if (!get_pages(&pg[0]) || !get_pages(&pg[1])) {
		check(false, "memory for the test pages");
	} else {
		run_phase(e, &pg[0], 0x5a);
		err = vtd_set_inval(VTD_INVAL_QUEUED);
		check(!err, "switched to queued invalidation");
		if (!err)
			run_phase(e, &pg[1], 0xa5);
	}
	vtd_detach_device(e->pd->bus, (uint8_t)(e->pd->dev << 3 | e->pd->fn));
	put_pages(&pg[0]);
	put_pages(&pg[1]);
}

static struct edu edu;
static int prepared = -HV_ENOENT;

void vtd_selftest_prepare(void)
{
	int err;

	if (!tsc_hz())
		tsc_calibrate();
	err = edu_open(&edu);
	if (!err)
		err = vtd_start_for_test(edu.pd->bus,
					 (uint8_t)(edu.pd->dev << 3 | edu.pd->fn));
	if (!err)
		err = vtd_attach_device(edu.pd->bus,
					(uint8_t)(edu.pd->dev << 3 | edu.pd->fn));
	prepared = err;
	if (!err)
		kprintf("vtd: selftest: edu %02x:%02x.%x put behind the iGPU's "
			"tables\n", edu.pd->bus, edu.pd->dev, edu.pd->fn);
}

void vtd_selftest_edu(void)
{
	int err = prepared;

	checks = failed = 0;
	if (err) {
		kprintf("vtd: selftest: not run: %s (%d)\n",
			!edu.pd ? "no edu device" :
			err == -HV_ENOTSUP ? "edu is not behind the iGPU's "
			"VT-d unit" :
			!vtd_active() ? "no VT-d translation (see the vt-d "
			"lines above)" : "the edu device is not usable", err);
		return;
	}
	run(&edu);
	kprintf("vtd: selftest: %s (%u checks, %u failed)\n",
		failed ? "FAIL" : "PASS", checks, failed);
}
