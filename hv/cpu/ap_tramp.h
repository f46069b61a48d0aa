/* The APs' real-mode trampoline (hv/cpu/ap_trampoline.asm): copied to a page
 * below 1 MiB, where a SIPI starts an AP in real mode at vector:0000, and
 * patched with what depends on that page and on the BSP (docs/smp.md). The
 * data block sits at AP_TRAMP_DATA_OFF; the assembly spells the same offsets
 * as numbers (each field's comment gives it), checked on both sides. */
#ifndef HV_AP_TRAMP_H
#define HV_AP_TRAMP_H

#include <stddef.h>
#include <stdint.h>

#define AP_TRAMP_MAGIC		0x50413947u	/* "G9AP" */
#define AP_TRAMP_VERSION	1
#define AP_TRAMP_DATA_OFF	8
/* Code page, then the copy of the top-level page table that 32-bit code
 * can load into CR3 (the real one may sit above 4 GiB). */
#define AP_TRAMP_PAGES		2
/* SIPI vectors 0xA0-0xBF are reserved (SDM Vol. 3A 10.6.1) and the
 * code must be in conventional memory: both pages below 640 KiB. */
#define AP_TRAMP_LIMIT		0xa0000ull

#define AP_TRAMP_SEL_CODE32	0x08
#define AP_TRAMP_SEL_DATA32	0x10
#define AP_TRAMP_SEL_CODE64	0x18

struct ap_tramp_data {
	uint32_t magic;		/* 0x08 */
	uint16_t version;	/* 0x0c */
	uint16_t pad0;
	uint64_t gdt[4];	/* 0x10: null, code32, data32, code64 */
	uint16_t gdtr_limit;	/* 0x30 */
	uint32_t gdtr_base;	/* 0x32: patched, linear */
	uint16_t pad1;
	uint32_t jmp32_off;	/* 0x38: patched far pointer to pm32 */
	uint16_t jmp32_sel;	/* 0x3c */
	uint16_t pad2;
	uint32_t jmp64_off;	/* 0x40: patched far pointer to lm64 */
	uint16_t jmp64_sel;	/* 0x44 */
	uint16_t pad3;
	uint16_t pm32_off;	/* 0x48: set by the assembler */
	uint16_t lm64_off;	/* 0x4a: set by the assembler */
	uint32_t cr3_low;	/* 0x4c: patched: the page-table copy */
	uint64_t efer;		/* 0x50 */
	uint64_t cr3;		/* 0x58 */
	uint64_t cr0;		/* 0x60 */
	uint64_t cr4;		/* 0x68 */
	uint64_t entry;		/* 0x70: C entry, called with the area */
	uint64_t percpu;	/* 0x78: the area offered, taken by XCHG */
} __attribute__((packed));

_Static_assert(offsetof(struct ap_tramp_data, gdtr_base) + AP_TRAMP_DATA_OFF
	       == 0x32, "offsets used by ap_trampoline.asm");
_Static_assert(offsetof(struct ap_tramp_data, cr3_low) + AP_TRAMP_DATA_OFF
	       == 0x4c, "offsets used by ap_trampoline.asm");
_Static_assert(offsetof(struct ap_tramp_data, percpu) + AP_TRAMP_DATA_OFF
	       == 0x78, "offsets used by ap_trampoline.asm");

/* The BSP's state the AP takes on: long mode with the hypervisor's page
 * tables, the same CR0/CR4/EFER, and where to go. */
struct ap_tramp_regs {
	uint64_t cr0, cr3, cr4, efer, entry;
};

/* Copies blob (len bytes, the assembly's ap_tramp_start..end) to dst, whose
 * physical address is pa (AP_TRAMP_PAGES pages), patches the data block
 * for that address, copies the 4 KiB table at pml4 into the second page,
 * and takes r; EFER.LMA and CR4.VMXE are cleared (the CPU sets LMA; each AP
 * turns VMX on itself after its own checks). 0, or -HV_EINVAL when pa is
 * not page-aligned with both pages below AP_TRAMP_LIMIT, the blob does not
 * fit a page or does not carry this layout's magic and version. */
int ap_tramp_install(void *dst, uint64_t pa, const void *blob, size_t len,
		     const void *pml4, const struct ap_tramp_regs *r);

/* The SIPI vector that starts an AP at pa: its page number. */
static inline uint8_t ap_tramp_sipi_vector(uint64_t pa)
{
	return (uint8_t)(pa >> 12);
}

/* Hands the area at percpu (non-zero) to the next AP through the trampoline:
 * the first AP to run it takes it (XCHG with 0), a later one finds 0 and
 * halts. */
void ap_tramp_offer(void *dst, uint64_t percpu);
/* Takes the offer back: returns it if no AP took it, 0 if one did. */
uint64_t ap_tramp_withdraw(void *dst);
/* Whether an AP has taken the offer. */
int ap_tramp_taken(const void *dst);

#endif
