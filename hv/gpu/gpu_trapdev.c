/* The model-behind-MMIO GPU (gpu_trapdev.h): setup, its PCI function, and
 * the #PF hook that turns the hypervisor's own faulting loads and stores
 * into model accesses (hv/gpu/trapdev_access.c). */
#include "gpu/hw/pgpu_takeover.h"
#include "gpu/model/gen9_model.h"
#include "hv/console.h"
#include "hv/cpu.h"
#include "hv/gpu/gpu_trapdev.h"
#include "hv/gpu/trapdev_access.h"
#include "hv/hv_errno.h"
#include "hv/mem.h"
#include "hv/paging_mmio.h"
#include "hv/vmx/insn_decode.h"
#include "hv/pci.h"
#include "hv/x86.h"
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

static struct gen9_model model;
static struct trapdev td;
static uint8_t cfg[GEN9_PCI_CFG_SIZE];
static bool present;

static uint32_t get32(uint16_t off)
{
	return cfg[off] | cfg[off + 1] << 8 | cfg[off + 2] << 16 |
	       (uint32_t)cfg[off + 3] << 24;
}

static void put32(uint16_t off, uint32_t v)
{
	for (unsigned b = 0; b < 4; b++)
		cfg[off + b] = (uint8_t)(v >> (8 * b));
}

static uint32_t cfg_read32(uint16_t off)
{
	return get32(off);
}

/* Writable: COMMAND's low byte and the BARs' sizing protocol (all ones
 * reads back the size mask; the place itself is fixed, as a BAR the
 * firmware assigned). Everything else reads as the hardware's reset
 * value and ignores writes. */
static void cfg_write32(uint16_t off, uint32_t v)
{
	static const uint64_t bar_size[2] = { GEN9_BAR0_SIZE, TRAPDEV_APERTURE };
	uint64_t base;

	if (off == GEN9_PCI_COMMAND) {
		cfg[off] = (uint8_t)v;
		return;
	}
	if (off < GEN9_PCI_BAR0 || off >= GEN9_PCI_BAR4)
		return;
	base = off < GEN9_PCI_BAR2 ? td.bar0 : td.bar2;
	if (v == 0xffffffffu && !(off & 4))
		put32(off, (uint32_t)~(bar_size[off >= GEN9_PCI_BAR2] - 1) |
				   (get32(off) & 0xf));
	else if (v == 0xffffffffu)
		put32(off, 0xffffffffu);
	else
		put32(off, (off & 4) ? (uint32_t)(base >> 32)
				     : (uint32_t)base | (get32(off) & 0xf));
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
	gen9_model_pci_config(&model, cfg);
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

void gpu_trapdev_report(void)
{
	if (!present)
		return;
	kprintf("gpu: model-mmio: trapped accesses: registers %llu reads "
		"%llu writes, GGTT %llu reads %llu writes, aperture %llu "
		"bytes, %llu undefined\n", (unsigned long long)td.reg_reads,
		(unsigned long long)td.reg_writes,
		(unsigned long long)td.pte_reads,
		(unsigned long long)td.pte_writes,
		(unsigned long long)td.ap_bytes, (unsigned long long)td.odd);
}
