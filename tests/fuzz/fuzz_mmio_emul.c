/* libFuzzer target for hv/vm/mmio_emul.c, behind the decoder.
 *
 * Input: byte 0 picks the mode and DF; bytes 1-4 map eight linear pages
 * (a nibble each: unmapped, RAM, read-only RAM, write-protected RAM, one
 * of two device pages, a NATIVE page, nothing); bytes 5-16 seed rSI, rDI
 * and rCX; the rest is the instruction, decoded as the EPT handler does,
 * and also (from byte 17 on) a guest RAM image for a page walk. Whatever
 * the decode, the emulation must stay in its buffers (ASan), answer one
 * of its three results, and for a string: move at most
 * EMUL_STRING_MAX_ELEMS elements per call, make progress on every call that
 * leaves the instruction unfinished, step rSI/rDI by exactly the
 * elements rCX lost, and never touch memory after a fault. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hv/vm/mmio_emul.h"
#include "hv/vmx/vmx_defs.h"

#define PG	4096ull
#define LBASE	0x10000ull	/* linear page 0 of the world */
#define NPAGES	8
#define RAM_PG	4
#define DEV_PG	2

enum pkind { P_NONE, P_RAM, P_RO, P_WP, P_DEV0, P_DEV1, P_NATIVE, P_HOLE };

static uint8_t kinds[NPAGES];
static uint8_t ram[RAM_PG * PG], dev[DEV_PG * PG];
static uint64_t touched;	/* accesses carried out */

/* Physical layout: RAM pages 0-3 (page 3 write-protected), devices at
 * 0x100000, NATIVE at 0x200000, HOLE at 0x300000. */
static uint64_t page_gpa(unsigned pg)
{
	static const uint64_t base[] = {
		[P_RAM] = 0, [P_RO] = 0x1000, [P_WP] = 0x3000,
		[P_DEV0] = 0x100000, [P_DEV1] = 0x101000,
		[P_NATIVE] = 0x200000, [P_HOLE] = 0x300000,
	};
	return kinds[pg] == P_RAM ? (pg % 3) * PG : base[kinds[pg]];
}

static int f_walk(void *ctx, uint64_t lin, bool write, uint64_t *gpa,
		  struct emul_fault *f)
{
	uint64_t pg = (lin - LBASE) / PG;

	(void)ctx;
	if (lin < LBASE || pg >= NPAGES || kinds[pg] == P_NONE ||
	    (write && kinds[pg] == P_RO)) {
		f->lin = lin;
		f->pf_err = write ? EMUL_PF_W : 0;
		return EMUL_PF;
	}
	*gpa = page_gpa((unsigned)pg) | (lin & (PG - 1));
	return 0;
}

static int f_route(void *ctx, uint64_t gpa, unsigned n, bool write,
		   struct emul_fault *f)
{
	(void)ctx;
	if (n == 0 || n > PG || (gpa & (PG - 1)) + n > PG)
		abort();	/* parts never cross a page */
	if (gpa < RAM_PG * PG)
		return write && gpa >= 0x3000 ? EMUL_PART_RAM_WP
					      : EMUL_PART_RAM;
	if (gpa >= 0x100000 && gpa < 0x100000 + DEV_PG * PG)
		return EMUL_PART_DEV;
	if (gpa >> 12 == 0x200)
		return EMUL_PART_NATIVE;
	f->why = "nothing";
	return -1;
}

static uint8_t *backing(uint64_t gpa, unsigned n, enum emul_part part)
{
	if (part == EMUL_PART_DEV) {
		if (gpa < 0x100000 || gpa + n > 0x100000 + DEV_PG * PG)
			abort();
		return &dev[gpa - 0x100000];
	}
	if (part == EMUL_PART_NATIVE || gpa + n > RAM_PG * PG)
		abort();	/* never carried out */
	return &ram[gpa];
}

static void f_read(void *ctx, uint64_t gpa, void *buf, unsigned n,
		   enum emul_part part)
{
	(void)ctx;
	touched++;
	memcpy(buf, backing(gpa, n, part), n);
}

static void f_write(void *ctx, uint64_t gpa, const void *buf, unsigned n,
		    enum emul_part part)
{
	(void)ctx;
	touched++;
	memcpy(backing(gpa, n, part), buf, n);
}

static const struct emul_ops ops = { f_walk, f_route, f_read, f_write };

static void check_result(int rc)
{
	if (rc != EMUL_OK && rc != EMUL_PF && rc != EMUL_STOP)
		abort();
}

/* One call's register movement: the elements rCX lost (or 1 without
 * REP) must be what rSI/rDI moved, and at most the per-exit bound. */
static void check_step(const struct mmio_insn *in, const struct guest_regs *a,
		       const struct guest_regs *b, bool df, bool done, int rc)
{
	uint64_t m = gpr_size_mask(in->addr_size);
	uint64_t dist = df ? (a->rdi - b->rdi) & m : (b->rdi - a->rdi) & m;
	uint64_t elems = dist / in->size;

	if (dist % in->size || elems > EMUL_STRING_MAX_ELEMS)
		abort();
	if (in->rep && ((a->rcx - b->rcx) & m) != elems)
		abort();
	if (in->kind == INSN_MOVS &&
	    (df ? (a->rsi - b->rsi) & m : (b->rsi - a->rsi) & m) != dist)
		abort();
	if (rc == EMUL_OK && !done && elems == 0)
		abort();	/* an unfinished call that did nothing */
	if (done && in->rep && (b->rcx & m) != 0)
		abort();
	if ((a->rcx & ~m) != (b->rcx & ~m) && in->addr_size != 4)
		abort();	/* 16-bit: only CX changes */
}

static void run_string(const struct mmio_insn *in, struct guest_regs *r,
		       bool df)
{
	struct emul_string_env env = { 0, 0, df };

	for (int exit = 0; exit < 64; exit++) {
		struct guest_regs before = *r;
		struct emul_fault f = { 0 };
		bool done = false;
		uint64_t t0 = touched;
		int rc = emul_string(&ops, NULL, in, r, &env, &done, &f);

		check_result(rc);
		check_step(in, &before, r, df, done, rc);
		if (rc == EMUL_PF && touched != t0 &&
		    before.rdi == r->rdi)
			abort();	/* the faulting element touched memory */
		if (rc != EMUL_OK || done)
			return;
	}
}

static void run_single(const struct mmio_insn *in, const struct guest_regs *r)
{
	uint8_t buf[32];
	struct emul_fault f = { 0 };
	uint64_t t0 = touched;
	int rc;

	memset(buf, 0x77, sizeof(buf));
	rc = emul_access(&ops, NULL, r->rdi, buf, in->size,
			 mmio_insn_access(in) & MMIO_ACCESS_WRITE, &f);
	check_result(rc);
	if (rc != EMUL_OK && touched != t0)
		abort();	/* all or nothing */
	if (rc == EMUL_PF && (f.lin < r->rdi || f.lin >= r->rdi + in->size))
		abort();
}

/* The page walk over RAM built from the input. */
static int pt_read(void *ctx, uint64_t gpa, uint64_t *pte)
{
	(void)ctx;
	if (gpa >= sizeof(ram) || sizeof(ram) - gpa < 8)
		return -1;
	memcpy(pte, &ram[gpa], 8);
	return 0;
}

static int pt_write(void *ctx, uint64_t gpa, uint64_t pte)
{
	(void)ctx;
	if (gpa >= sizeof(ram) || sizeof(ram) - gpa < 8)
		abort();	/* only entries it read */
	memcpy(&ram[gpa], &pte, 8);
	return 0;
}

static void run_walk(uint64_t lin, unsigned cpl, uint64_t cr3, bool write)
{
	struct emul_paging pg = {
		.cr0 = CR0_PG | (cpl & 2 ? CR0_WP : 0), .cr3 = cr3 & 0x3000,
		.cr4 = cpl & 4 ? CR4_SMAP : 0, .rflags = 0,
		.efer = cpl & 8 ? EFER_NXE : 0, .cpl = cpl & 1 ? 3 : 0,
		.maxphyaddr = cpl & 16 ? 39 : 0,
		.pte_read = pt_read, .pte_write = pt_write,
	};
	struct emul_fault f = { 0 };
	uint64_t gpa = 0;
	int rc = emul_walk(&pg, lin, write, &gpa, &f);

	check_result(rc);
	if (rc == EMUL_OK && (gpa & 0xfff) != (lin & 0xfff))
		abort();
	if (rc == EMUL_PF && (f.lin != lin || (f.pf_err & ~15u)))
		abort();
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct guest_regs r;
	struct mmio_insn in;
	uint8_t *code;
	size_t n;

	if (size < 17 + 8)
		return 0;
	for (unsigned i = 0; i < NPAGES; i++)
		kinds[i] = (data[1 + i / 2] >> (4 * (i & 1))) & 7;
	memset(&r, 0, sizeof(r));
	r.rsi = LBASE + rd64(data + 5) % (NPAGES * PG + 64) - 32;
	r.rdi = LBASE + (rd64(data + 9) & 0xffffffffull) % (NPAGES * PG + 64)
		- 32;
	r.rcx = rd64(data + 13) & 0xffffffffull;
	r.rax = 0x0123456789abcdefull;
	n = size - 17;
	memset(ram, 0, sizeof(ram));
	memcpy(ram, data + 17, n < sizeof(ram) ? n : sizeof(ram));
	code = malloc(n);
	if (!code)
		return 0;
	memcpy(code, data + 17, n);
	if (insn_decode(code, n, (enum insn_mode)(data[0] % 3), &in) == 0) {
		if (in.kind == INSN_MOVS || in.kind == INSN_STOS)
			run_string(&in, &r, data[0] & 0x80);
		else
			run_single(&in, &r);
	}
	run_walk(rd64(data + 5), data[0] >> 2, rd64(data + 13), data[0] & 0x40);
	free(code);
	return 0;
}
