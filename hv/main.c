/* hv_main: the hypervisor's life after ExitBootServices (docs/architecture.md,
 * "1. Boot"): own CPU tables and memory, console, platform discovery
 * (ACPI, PCI, GPU, VT-x), the other CPUs (docs/smp.md), then the VMs of
 * hv.cfg and the console shell. */
#include "gpu/hw/gen9_regs.h"
#include "hv/console/console.h"
#include "hv/console/console_fb.h"
#include "hv/cpu/cpu.h"
#include "hv/hv.h"
#include "hv/mm/mem.h"
#include "hv/mm/page_alloc.h"
#include "hv/mm/paging_mmio.h"
#include "hv/platform/pci.h"
#include "hv/platform/platform.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/gpu_smoke.h"
#include "hv/orchestrate.h"
#include "hv/smp.h"
#include "hv/vtd/vtd.h"
#include "hv/vtd/vtd_selftest.h"
#include "hv/cpu/x86.h"

struct hv_platform hv_platform = { .gpu_index = -1 };

#define FOUR_GIB (4ull << 30)

static void setup_memory(const struct boot_info *bi)
{
	struct paging_info *pg = &hv_platform.paging;
	uint64_t top = memmap_highest_addr(bi);
	int err;

	memmap_print_summary(bi);
	page_alloc_init(bi->mem, bi->nr_mem);
	/* MMIO (local APIC, ECAM, the GPU's BARs) sits below 4 GiB even on
	 * machines with less RAM, so the map covers at least that. */
	err = paging_init(top > FOUR_GIB ? top : FOUR_GIB, pg);
	if (err)
		platform_halt("no memory for the hypervisor's page tables");
	kprintf("paging: identity map of %llu GiB with %s pages "
		"(%u table pages, MAXPHYADDR %u)\n",
		(unsigned long long)(pg->mapped_bytes >> 30),
		pg->page_bytes == (1u << 30) ? "1 GiB" : "2 MiB",
		pg->table_pages, pg->phys_bits);
	kprintf("paging: PAT %s\n", paging_pat_init()
		? "entry 5 = write-combining (device apertures)"
		: "absent: apertures will be mapped uncached");
}

static void discover_acpi(const struct boot_info *bi)
{
	struct acpi_info *ai = &hv_platform.acpi;

	if (!bi->acpi_rsdp) {
		kprintf("acpi: the firmware published no RSDP; assuming one "
			"CPU and legacy PCI configuration ports\n");
		return;
	}
	if (acpi_parse(bi->acpi_rsdp, hv_platform.paging.mapped_bytes, ai) < 0) {
		kprintf("acpi: RSDP at %llx is invalid; assuming one CPU and "
			"legacy PCI configuration ports\n",
			(unsigned long long)bi->acpi_rsdp);
		return;
	}
	hv_platform.has_acpi = true;
	kprintf("acpi: %s %s, %u tables, %u CPUs, %u I/O APICs, %u ECAM "
		"windows%s\n", ai->oem_id, ai->xsdt ? "XSDT" : "RSDT",
		ai->nr_tables, ai->nr_cpus, ai->nr_ioapics, ai->nr_mcfg,
		ai->bad_checksums ? " (tables with bad checksums skipped)" : "");
}

static void discover_pci(void)
{
	const struct acpi_info *ai = &hv_platform.acpi;
	const struct pci_bus_info *pi;

	if (ai->nr_mcfg && ai->mcfg[0].segment == 0)
		pci_init(ai->mcfg[0].base, ai->mcfg[0].bus_start,
			 ai->mcfg[0].bus_end);
	else
		pci_init(0, 0, 0);
	pci_scan();
	pi = pci_info();
	if (pi->ecam)
		kprintf("pci: ECAM at %llx, buses %u-%u: %u functions\n",
			(unsigned long long)pi->ecam_base, pi->bus_start,
			pi->bus_end, pi->nr_devs);
	else
		kprintf("pci: no MCFG, using ports 0xCF8/0xCFC: %u functions\n",
			pi->nr_devs);
	pci_print_devices();
}

static void discover_gpu(void)
{
	const struct pci_bus_info *pi = pci_info();

	for (uint32_t i = 0; i < pi->nr_devs; i++) {
		const struct pci_dev *d = &pi->devs[i];

		if (d->vendor != PCI_VENDOR_INTEL || (d->class_code >> 16) != 3 ||
		    !gen9_is_supported_device(d->device))
			continue;
		hv_platform.gpu_index = (int)i;
		kprintf("gpu: Intel Gen9 %s (%s, 8086:%04x) at %02x:%02x.%x\n",
			gen9_gt_name(gen9_device_gt(d->device)),
			gen9_device_desc(d->device), d->device, d->bus, d->dev,
			d->fn);
		return;
	}
	kprintf("gpu: no Intel Gen9 iGPU on the PCI bus; vGPUs will be served "
		"by the software Gen9 model\n");
}

static void discover_vtx(void)
{
	hv_platform.vtx = vtx_detect();
	kprintf("vt-x: %s%s\n", vtx_explain(&hv_platform.vtx),
		hv_platform.vtx.in_vm ? " (running under another hypervisor)"
				      : "");
}

/* The VMs of hv.cfg that cannot start, and why; the others are created by
 * vms_create_from_config (hv/orchestrate.c), which prints their own lines. */
static void list_unstartable_vms(const struct hv_config *cfg)
{
	for (unsigned i = 0; i < cfg->nr_vms; i++) {
		const struct hvcfg_vm *vm = &cfg->vms[i];

		if (vm->valid && vtx_usable(&hv_platform.vtx))
			continue;
		kprintf("vm '%s': %llu MiB, kernel %s: not started: ", vm->name,
			(unsigned long long)(vm->memory >> 20), vm->kernel);
		if (vm->nr_errors)
			kprintf("%u errors in hv.cfg\n", vm->nr_errors);
		else if (!vm->valid)
			kprintf("a file it names could not be loaded\n");
		else
			kprintf("no usable VT-x\n");
	}
}

static void run_selftest(enum hvcfg_selftest t)
{
	if (t == HVCFG_SELFTEST_PF) {
		/* The first byte past the identity map is canonical and not
		 * present: a page fault with that address in CR2. */
		uint64_t addr = hv_platform.paging.mapped_bytes;

		kprintf("selftest: writing to unmapped address %llx\n",
			(unsigned long long)addr);
		*(volatile uint64_t *)hv_va(addr) = 1;
	} else if (t == HVCFG_SELFTEST_UD) {
		kprintf("selftest: executing ud2\n");
		__asm__ volatile("ud2");
	}
}

void hv_main(const struct boot_info *bi)
{
	const struct hv_config *cfg = bi->cfg;

	hv_platform.bi = bi;
	cpu_init();
	platform_set_test_exit(cfg->test_exit != HVCFG_EXIT_NO);
	kprintf("hv: boot services exited; running on our own GDT/IDT/TSS\n");
	setup_memory(bi);
	console_fb_attach(bi, hv_platform.paging.mapped_bytes);
	discover_acpi(bi);
	gpu_host_early(cfg, hv_platform.paging.mapped_bytes,
		       memmap_highest_addr(bi));
	discover_pci();
	discover_gpu();
	/* before the GPU is taken over: its DMA is isolated from the start */
	vtd_boot(cfg);
	if (cfg->vtd_selftest == HVCFG_VTD_SELFTEST_EDU)
		vtd_selftest_prepare();
	gpu_host_init(cfg, hv_platform.gpu_index >= 0
				   ? &pci_info()->devs[hv_platform.gpu_index]
				   : NULL);
	discover_vtx();
	smp_boot(bi);
	list_unstartable_vms(cfg);
	if (vtx_usable(&hv_platform.vtx))
		vms_create_from_config(cfg);
	if (cfg->vtd_selftest == HVCFG_VTD_SELFTEST_EDU)
		vtd_selftest_edu();
	run_selftest(cfg->selftest);
	kprintf("hv: boot complete\n");
	if (cfg->test_exit == HVCFG_EXIT_BOOT)
		platform_test_exit(gpu_smoke_status());
	hv_run(cfg);
}
