/* The model-behind-MMIO GPU (gpu_trapdev.h): setup, its PCI function, and
 * the #PF hook that turns the hypervisor's own faulting loads and stores
 * into model accesses (hv/gpu/trapdev_access.c). */
#include "gpu/hw/pgpu_msi.h"
#include "gpu/hw/pgpu_takeover.h"
#include "gpu/model/gen9_model.h"
#include "hv/console/console.h"
#include "hv/cpu/cpu.h"
#include "hv/gpu/ap_redirect.h"
#include "hv/gpu/gpu_lock.h"
#include "hv/gpu/gpu_trapdev.h"
#include "hv/gpu/trapdev_access.h"
#include "hv/cpu/host_lapic.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/mm/paging_mmio.h"
#include "hv/vmx/insn_decode.h"
#include "hv/platform/pci.h"
#include "hv/cpu/x86.h"
#include "mini/string.h"

#define TRAPDEV_GGTT_ENTRIES (512u * 1024u) /* as the plain model: 2 GiB */
#define TRAPDEV_APERTURE (256ull << 20)
#define TRAPDEV_STOLEN (32ull << 20)
/* BDSM is 32-bit: stolen memory lies below 4 GiB. This address is in the
 * PCI hole of the emulators we run (no RAM there); nothing of ours ever
 * dereferences stolen memory, the takeover only accounts for it. */
#define TRAPDEV_STOLEN_BASE 0xc0000000ull
#define TRAPDEV_STOLEN_RESERVED (1ull << 20)
#define GIB (1ull << 30)

#define REDIRECT_SLOTS 16384u /* 3/4 usable: 48 MiB of 4 KiB pages */

static struct gen9_model model;
static struct trapdev td;
static bool present;
/* Guest aperture pages standing for trapped BAR2 pages (ap_redirect.h),
 * and how many guest accesses went through them. */
static struct ap_redirect redirects;
static uint64_t ap_guest_accesses, ap_map_refused;

static uint32_t cfg_read32(uint16_t off)
{
	return trapdev_cfg_read(&td, off);
}

static void cfg_write32(uint16_t off, uint32_t v)
{
	trapdev_cfg_write(&td, off, v);
}

/* The model's interrupt output rose: the device sends its MSI, a memory
 * write of the data to the address its capability holds. An address in
 * the 0xFEExxxxx window reaches the LAPIC it names (SDM 3A 10.11); the
 * hypervisor plays the chipset by sending that LAPIC the same fixed
 * interrupt through its ICR, so the vector arrives as it would from the
 * iGPU: pending in the IRR until the host opens its window or, while a
 * guest runs, as an external-interrupt VM exit. */
static void raise_msi(void *ctx, bool asserted)
{
	uint32_t dest;
	uint8_t vector;

	(void)ctx;
	if (asserted && trapdev_msi(&td, &dest, &vector) &&
	    lapic_send_fixed(dest, vector)) {
		td.msi_sent--;
		td.msi_bad++;
	}
}

static const struct pci_emulated pci_fn = { 0, 2, 0, cfg_read32, cfg_write32 };

/* Registers of the interrupted code, in the decoder's numbering. */
static void frame_to_regs(const struct exception_frame *f, struct guest_regs *r)
{
	r->rax = f->rax; r->rcx = f->rcx; r->rdx = f->rdx; r->rbx = f->rbx;
	r->rsp = f->rsp; r->rbp = f->rbp; r->rsi = f->rsi; r->rdi = f->rdi;
	r->r8 = f->r8; r->r9 = f->r9; r->r10 = f->r10; r->r11 = f->r11;
	r->r12 = f->r12; r->r13 = f->r13; r->r14 = f->r14; r->r15 = f->r15;
}

static void regs_to_frame(const struct guest_regs *r, struct exception_frame *f)
{
	f->rax = r->rax; f->rcx = r->rcx; f->rdx = r->rdx; f->rbx = r->rbx;
	f->rbp = r->rbp; f->rsi = r->rsi; f->rdi = r->rdi;
	f->r8 = r->r8; f->r9 = r->r9; f->r10 = r->r10; f->r11 = r->r11;
	f->r12 = r->r12; f->r13 = r->r13; f->r14 = r->r14; f->r15 = r->r15;
}

/* A fault in our windows: emulate and step over the instruction. Anything
 * else (or an instruction we cannot emulate) stays a fatal fault. */
static bool pf_hook(struct exception_frame *f)
{
	uint64_t addr = read_cr2();
	struct guest_regs regs;
	uint8_t len;

	if (!trapdev_claims(&td, addr))
		return false;
	frame_to_regs(f, &regs);
	if (trapdev_access(&td, addr, (const uint8_t *)(uintptr_t)f->rip,
			   INSN_MAX_LEN, &regs, &len)) {
		kprintf("gpu: model-mmio: cannot emulate the access at rip "
			"%llx to %llx\n", (unsigned long long)f->rip,
			(unsigned long long)addr);
		return false;
	}
	regs_to_frame(&regs, f);
	f->rip += len;
	return true;
}

static void *identity(void *ctx, uint64_t hpa, size_t len)
{
	(void)ctx;
	(void)len;
	return hv_va(hpa);
}

static int model_create(void)
{
	struct gen9_model_config mc = { 0 };
	struct gen9_model_mem mm;
	static const struct gpu_dma dma = { NULL, identity };

	mm.regs = page_alloc_contig(GEN9_MODEL_REGS_BYTES / PAGE_SIZE);
	mm.ggtt = page_alloc_contig(TRAPDEV_GGTT_ENTRIES * 8ull / PAGE_SIZE);
	mm.ggtt_entries = TRAPDEV_GGTT_ENTRIES;
	if (!mm.regs || !mm.ggtt)
		return -HV_ENOMEM;
	mc.gttmmadr = td.bar0;
	mc.gmadr = td.bar2;
	mc.aperture_size = TRAPDEV_APERTURE;
	mc.stolen_base = TRAPDEV_STOLEN_BASE;
	mc.stolen_size = TRAPDEV_STOLEN;
	mc.irq_notify = raise_msi;
	return gen9_model_init(&model, &mc, &mm, &dma);
}

/* What a Skylake firmware leaves behind: the GOP scanning out of the
 * start of stolen memory on pipe A plane 1, the top 1 MiB of stolen
 * reserved. The takeover (gpu/hw/pgpu_takeover.c) has it to undo. */
static void firmware_state(void)
{
	uint64_t res = TRAPDEV_STOLEN_BASE + TRAPDEV_STOLEN -
		       TRAPDEV_STOLEN_RESERVED;

	gen9_model_write32(&model, SKL_TRANSCONF(0),
			   TRANSCONF_ENABLE | TRANSCONF_STATE);
	/* PIPESRC: a 1024x768 mode, (w - 1) << 16 | (h - 1). */
	gen9_model_write32(&model, 0x6001c, 1023u << 16 | 767u);
	gen9_model_write32(&model, SKL_PLANE_CTL(0, 0),
			   PLANE_CTL_ENABLE | 4u << 24 /* XRGB8888 */);
	gen9_model_write32(&model, SKL_PLANE_SURF(0, 0), 0);
	gen9_model_write32(&model, GEN6_STOLEN_RESERVED,
			   ((uint32_t)res & GEN6_STOLEN_RESERVED_ADDR_MASK) |
				   GEN6_STOLEN_RESERVED_ENABLE);
}

/* The last GiB of the identity map, above RAM and above 4 GiB: where a
 * firmware puts 64-bit BARs, and where nothing else lives. */
static int place_bars(uint64_t map_top, uint64_t ram_top)
{
	uint64_t region = (map_top & ~(GIB - 1)) - GIB;

	if (map_top < GIB || region < ram_top || region < 4 * GIB)
		return -HV_ENOMEM;
	td.bar0 = region;
	td.bar2 = region + GIB / 2;
	td.bar2_size = TRAPDEV_APERTURE;
	return 0;
}

int gpu_trapdev_setup(uint64_t map_top, uint64_t ram_top)
{
	struct ap_redirect_slot *slots;
	int err = place_bars(map_top, ram_top);

	if (!err)
		err = model_create();
	if (!err)
		err = paging_trap_range(td.bar0, GEN9_BAR0_SIZE);
	if (!err)
		err = paging_trap_range(td.bar2, td.bar2_size);
	if (err) {
		kprintf("gpu: model-mmio: cannot build the device (%d)\n", err);
		return err;
	}
	td.model = &model;
	firmware_state();
	trapdev_cfg_init(&td);
	slots = page_alloc_contig(REDIRECT_SLOTS *
				  sizeof(struct ap_redirect_slot) / PAGE_SIZE);
	if (slots) /* without it guest pages never stand for BAR2 pages */
		ap_redirect_init(&redirects, slots, REDIRECT_SLOTS);
	exception_set_pf_hook(pf_hook);
	pci_set_emulated(&pci_fn);
	present = true;
	kprintf("gpu: model-mmio: the software Gen9 model behind trapped "
		"pages, PCI 00:02.0, BAR0 %llx BAR2 %llx+%llx\n",
		(unsigned long long)td.bar0, (unsigned long long)td.bar2,
		(unsigned long long)td.bar2_size);
	return 0;
}

void gpu_trapdev_tick(uint32_t us)
{
	if (present)
		gen9_model_udelay(&model, us);
}

bool gpu_trapdev_present(void)
{
	return present;
}

struct gen9_model *gpu_trapdev_model(void)
{
	return present ? &model : NULL;
}

int gpu_trapdev_ap_map(uint32_t vm, uint64_t gpa, uint64_t hpa)
{
	if (!redirects.slot || ap_redirect_set(&redirects, vm, gpa, hpa)) {
		ap_map_refused++;
		return -HV_ENOMEM;
	}
	return 0;
}

void gpu_trapdev_ap_unmap(uint32_t vm, uint64_t gpa)
{
	if (redirects.slot)
		ap_redirect_clear(&redirects, vm, gpa);
}

void gpu_trapdev_ap_unmap_range(uint32_t vm, uint64_t gpa, uint64_t size)
{
	for (uint64_t x = 0; redirects.slot && redirects.used && x < size;
	     x += 4096)
		ap_redirect_clear(&redirects, vm, gpa + x);
}

/* The guest's access, repeated by us at the BAR2 address: a load or store
 * of the same width, which faults into pf_hook like every access of ours
 * to the trapped windows. */
static bool ap_access(uint32_t vm, uint64_t gpa, unsigned size, bool write,
		      uint64_t *val)
{
	uint64_t hpa;
	void *p;

	if (!present || !ap_redirect_find(&redirects, vm, gpa, &hpa) ||
	    (size != 1 && size != 2 && size != 4 && size != 8))
		return false;
	p = hv_va(hpa);
	ap_guest_accesses++;
	switch (size) {
	case 1:
		if (write) *(volatile uint8_t *)p = (uint8_t)*val;
		else *val = *(volatile uint8_t *)p;
		break;
	case 2:
		if (write) *(volatile uint16_t *)p = (uint16_t)*val;
		else *val = *(volatile uint16_t *)p;
		break;
	case 4:
		if (write) *(volatile uint32_t *)p = (uint32_t)*val;
		else *val = *(volatile uint32_t *)p;
		break;
	default:
		if (write) *(volatile uint64_t *)p = *val;
		else *val = *(volatile uint64_t *)p;
		break;
	}
	return true;
}

/* A VM's trap into the model: under the mediator lock (gpu_lock.h). */
bool gpu_trapdev_ap_access(uint32_t vm, uint64_t gpa, unsigned size,
			   bool write, uint64_t *val)
{
	bool r;

	gpu_lock();
	r = ap_access(vm, gpa, size, write, val);
	gpu_unlock();
	return r;
}

void gpu_trapdev_report(void)
{
	if (!present)
		return;
	kprintf("gpu: model-mmio: trapped accesses: registers %llu reads "
		"%llu writes, GGTT %llu reads %llu writes, aperture %llu "
		"bytes, %llu undefined; MSI %llu sent, %llu while disabled, "
		"%llu undeliverable; guest accesses through the physical "
		"aperture %llu (%u pages, %llu refused)\n",
		(unsigned long long)td.reg_reads,
		(unsigned long long)td.reg_writes,
		(unsigned long long)td.pte_reads,
		(unsigned long long)td.pte_writes,
		(unsigned long long)td.ap_bytes, (unsigned long long)td.odd,
		(unsigned long long)td.msi_sent,
		(unsigned long long)td.msi_disabled,
		(unsigned long long)td.msi_bad,
		(unsigned long long)ap_guest_accesses, redirects.used,
		(unsigned long long)ap_map_refused);
}
