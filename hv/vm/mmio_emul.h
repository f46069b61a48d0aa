/* The memory side of MMIO emulation: the accesses an instruction the
 * EPT-violation handler decoded (hv/vmx/insn_decode.h) makes, carried out
 * on the guest's behalf. Pure (no VMCS, no VM): exit_ept.c and
 * mmio_access.c give it the guest's page walk and its memory through
 * struct emul_ops, the host unit tests give it fakes.
 *
 * - One access of up to 32 bytes (a MOV, an SSE/AVX move) is cut at page
 *   boundaries into at most two parts; each part's guest-linear page is
 *   translated through the guest's page tables and its guest-physical
 *   range routed to RAM or to a device. Every part is checked before any
 *   is carried out, so a #PF or a refusal on the second page leaves the
 *   first untouched, as on the CPU.
 * - MOVS/STOS, with or without REP: a bounded chunk per exit (at most
 *   EMUL_STRING_MAX_ELEMS elements, and only while an element still
 *   touches a device: once source and destination are plain RAM again the
 *   CPU does the rest faster). rCX/rSI/rDI move per element at the address size;
 *   *done says whether the instruction is over (RIP advances) or the
 *   guest re-executes it for the next chunk, taking pending interrupts
 *   in between as a CPU does between iterations. A fault stops the chunk
 *   at the faulting element with the registers of the elements before
 *   it, as the CPU's own REP does.
 *
 * Results: EMUL_OK, EMUL_PF (inject #PF: f->lin is CR2, f->pf_err the
 * error code) or EMUL_STOP (f->why says what cannot be emulated). */
#ifndef HV_VM_MMIO_EMUL_H
#define HV_VM_MMIO_EMUL_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/vmx/insn_decode.h"

enum { EMUL_OK = 0, EMUL_PF, EMUL_STOP };

/* Where a guest-physical range goes. RAM_WP: RAM the CPU may not write
 * (a device write-protected it to shadow it; the store is reported to
 * that device). NATIVE: a page EPT maps for this access though it is not
 * the VM's RAM (an aperture page mapped on demand): the CPU can make that
 * access itself, the emulator cannot. */
enum emul_part {
	EMUL_PART_RAM, EMUL_PART_RAM_WP, EMUL_PART_DEV, EMUL_PART_NATIVE,
};

struct emul_fault {
	uint64_t lin;		/* EMUL_PF: the faulting linear address */
	uint32_t pf_err;	/* EMUL_PF: the #PF error code */
	const char *why;	/* EMUL_STOP: the reason */
};

struct emul_ops {
	/* Guest-linear -> guest-physical for a data access (write or read)
	 * at lin: 0, or EMUL_PF with f->pf_err set. */
	int (*walk)(void *ctx, uint64_t lin, bool write, uint64_t *gpa,
		    struct emul_fault *f);
	/* What answers [gpa, gpa + n) (within one page): an enum emul_part,
	 * or -1 with f->why set (nothing there, past a device's end). */
	int (*route)(void *ctx, uint64_t gpa, unsigned n, bool write,
		     struct emul_fault *f);
	/* The access itself, on a range route() accepted. */
	void (*read)(void *ctx, uint64_t gpa, void *buf, unsigned n,
		     enum emul_part part);
	void (*write)(void *ctx, uint64_t gpa, const void *buf, unsigned n,
		      enum emul_part part);
};

/* One access of n (1..32) bytes at guest-linear lin, to or from buf.
 * EMUL_OK, EMUL_PF, or EMUL_STOP (a part routed NATIVE is refused too:
 * the CPU did not make it, so nothing can). */
int emul_access(const struct emul_ops *ops, void *ctx, uint64_t lin,
		void *buf, unsigned n, bool write, struct emul_fault *f);

/* A translation the CPU made for this access: the page of lin_pg maps
 * to the page of gpa_pg (an EPT violation's guest-linear and
 * guest-physical addresses, EPT_QUAL_GLA_TRANSLATED). */
struct emul_known {
	uint64_t lin_pg, gpa_pg;
};

/* emul_access, with a read's part on known's page taken without a walk
 * (the CPU's own walk checked it and set its accessed bits); a write
 * walks anyway, for the dirty bit the CPU sets only when it writes. */
int emul_access_known(const struct emul_ops *ops, void *ctx, uint64_t lin,
		      void *buf, unsigned n, bool write,
		      const struct emul_known *known, struct emul_fault *f);

/* Per exit, a string instruction moves at most this many elements. The
 * cost is per element (a device access, a route per side): at 4 KiB per
 * exit, as first written, mmio-emul-bochs's longest exit was 1444 us of
 * Bochs time (512 elements); with 64 it was 374 us, of the order of the
 * longest exits the README's "exit length" row measures. */
#define EMUL_STRING_MAX_ELEMS 64u

/* Segment bases of the string's source (DS or the override) and
 * destination (always ES), already zero where 64-bit mode ignores them,
 * and RFLAGS.DF. */
struct emul_string_env {
	uint64_t src_base, dst_base;
	bool df;
};

/* The guest-linear address of the first element's source (write false)
 * or destination (write true) of a MOVS/STOS: for checking that the
 * exit's linear address is in it. */
uint64_t emul_string_lin(const struct mmio_insn *insn,
			 const struct guest_regs *regs,
			 const struct emul_string_env *env, bool write);

/* One chunk of a MOVS/STOS (insn->kind), updating regs. EMUL_OK with
 * *done true when RIP must advance (the count ran out, or no REP), false
 * when the guest must re-execute it; else EMUL_PF/EMUL_STOP with the
 * elements before the faulting one done. REP with rCX = 0 does nothing
 * and is done. */
int emul_string(const struct emul_ops *ops, void *ctx,
		const struct mmio_insn *insn, struct guest_regs *regs,
		const struct emul_string_env *env, bool *done,
		struct emul_fault *f);

/* The guest's 4-level page walk for a data access (SDM Vol. 3A 4.5 and
 * 4.6): present bits, reserved bits (above MAXPHYADDR, XD without
 * EFER.NXE, PS in a PML4E, the low address bits of a large page), R/W
 * (enforced for supervisor writes only with CR0.WP), U/S, SMAP (a
 * supervisor access to a user page with CR4.SMAP and RFLAGS.AC clear),
 * 2 MiB and 1 GiB pages; it sets the accessed bits on the way and the
 * leaf's dirty bit for a write, as the CPU does.
 * Paging off: linear is physical. pte_read/pte_write move one 8-byte
 * entry at a guest-physical address (nonzero: not RAM, which the CPU
 * would answer with a machine check; here a #PF-less refusal). */
struct emul_paging {
	uint64_t cr0, cr3, cr4, rflags, efer;
	unsigned cpl;
	unsigned maxphyaddr;	/* CPUID 80000008h EAX[7:0]; 0: 52 */
	void *ctx;
	int (*pte_read)(void *ctx, uint64_t gpa, uint64_t *pte);
	int (*pte_write)(void *ctx, uint64_t gpa, uint64_t pte);
};
#define EMUL_PF_P	0x1u	/* the page was present: a protection fault */
#define EMUL_PF_W	0x2u
#define EMUL_PF_U	0x4u
#define EMUL_PF_RSVD	0x8u
/* 0, EMUL_PF (f->lin, f->pf_err), or EMUL_STOP (a table outside RAM). */
int emul_walk(const struct emul_paging *pg, uint64_t lin, bool write,
	      uint64_t *gpa, struct emul_fault *f);

#endif
