/* Unit tests for hv/vm/mmio_emul.c: the accesses the MMIO emulator makes
 * for a decoded instruction, on a fake guest.
 *
 * The fake: linear pages map to physical pages through a table (or fault:
 * not present, read-only); physical memory is RAM (0 .. 64 KiB, one page
 * of it write-protected), a two-page device at DEV that logs every access,
 * and a page EPT maps to something that is not RAM (NATIVE). The string
 * tests run the instruction as the guest would: emul_string once per
 * exit until it is done, counting exits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/vm/mmio_emul.h"
#include "hv/vmx/vmx_defs.h"

#define RAM_SIZE	0x10000ull
#define WP_PAGE		0x5000ull
#define DEV		0x100000ull
#define DEV_SIZE	0x2000ull
#define NATIVE_PAGE	0x200000ull

/* Linear pages 0x10 .. 0x1f. */
#define L(pg)		((uint64_t)(pg) << 12)
enum { UNMAPPED = 0, RW, RO };
static struct {
	uint64_t gpa;
	int kind;
} lmap[32];

static uint8_t ram[RAM_SIZE], dev[DEV_SIZE];
static unsigned dev_reads, dev_writes, wp_writes, walks;

static void world_reset(void)
{
	memset(lmap, 0, sizeof(lmap));
	memset(ram, 0, sizeof(ram));
	memset(dev, 0, sizeof(dev));
	dev_reads = dev_writes = wp_writes = walks = 0;
	lmap[0x10] = (typeof(lmap[0])){ 0x3000, RW };	  /* RAM */
	lmap[0x11] = (typeof(lmap[0])){ DEV, RW };	  /* device page 0 */
	lmap[0x12] = (typeof(lmap[0])){ DEV + 0x1000, RW }; /* device page 1 */
	/* 0x13 not present */
	lmap[0x14] = (typeof(lmap[0])){ NATIVE_PAGE, RW };
	lmap[0x15] = (typeof(lmap[0])){ 0x4000, RO };
	lmap[0x16] = (typeof(lmap[0])){ WP_PAGE, RW };
	lmap[0x17] = (typeof(lmap[0])){ 0x6000, RW };	  /* RAM */
	lmap[0x18] = (typeof(lmap[0])){ 0x7000, RW };	  /* RAM */
}

static int f_walk(void *ctx, uint64_t lin, bool write, uint64_t *gpa,
		  struct emul_fault *f)
{
	unsigned pg = (unsigned)(lin >> 12);

	(void)ctx;
	walks++;
	if (pg >= 32 || lmap[pg].kind == UNMAPPED) {
		f->lin = lin;
		f->pf_err = write ? EMUL_PF_W : 0;
		return EMUL_PF;
	}
	if (write && lmap[pg].kind == RO) {
		f->lin = lin;
		f->pf_err = EMUL_PF_P | EMUL_PF_W;
		return EMUL_PF;
	}
	*gpa = lmap[pg].gpa | (lin & 0xfff);
	return 0;
}

static int f_route(void *ctx, uint64_t gpa, unsigned n, bool write,
		   struct emul_fault *f)
{
	(void)ctx;
	if (gpa + n <= RAM_SIZE)
		return write && (gpa >> 12) == (WP_PAGE >> 12) ?
		       EMUL_PART_RAM_WP : EMUL_PART_RAM;
	if (gpa >= DEV && gpa + n <= DEV + DEV_SIZE)
		return EMUL_PART_DEV;
	if ((gpa >> 12) == (NATIVE_PAGE >> 12))
		return EMUL_PART_NATIVE;
	f->why = "nothing there";
	return -1;
}

static uint8_t *backing(uint64_t gpa, enum emul_part part)
{
	if (part == EMUL_PART_DEV)
		return &dev[gpa - DEV];
	assert_true(part == EMUL_PART_RAM || part == EMUL_PART_RAM_WP);
	return &ram[gpa];
}

static void f_read(void *ctx, uint64_t gpa, void *buf, unsigned n,
		   enum emul_part part)
{
	(void)ctx;
	dev_reads += part == EMUL_PART_DEV;
	memcpy(buf, backing(gpa, part), n);
}

static void f_write(void *ctx, uint64_t gpa, const void *buf, unsigned n,
		    enum emul_part part)
{
	(void)ctx;
	dev_writes += part == EMUL_PART_DEV;
	wp_writes += part == EMUL_PART_RAM_WP;
	memcpy(backing(gpa, part), buf, n);
}

static const struct emul_ops ops = { f_walk, f_route, f_read, f_write };

/* --- single accesses ----------------------------------------------------- */

static void test_access_one_page(void **state)
{
	uint8_t buf[32], want[32];
	struct emul_fault f = { 0 };

	(void)state;
	world_reset();
	for (unsigned i = 0; i < 32; i++)
		want[i] = (uint8_t)(0x40 + i);
	memcpy(buf, want, 32);
	assert_int_equal(emul_access(&ops, NULL, L(0x11) + 0x20, buf, 32, true,
				     &f), EMUL_OK);
	assert_memory_equal(&dev[0x20], want, 32);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(emul_access(&ops, NULL, L(0x11) + 0x20, buf, 16, false,
				     &f), EMUL_OK);
	assert_memory_equal(buf, want, 16);
}

/* A 16-byte store from the last 4 bytes of a RAM page into a device page,
 * and an 8-byte load across the two device pages. */
static void test_access_split(void **state)
{
	uint8_t buf[16], want[16];
	struct emul_fault f = { 0 };

	(void)state;
	world_reset();
	lmap[0x10].gpa = 0x3000;
	lmap[0x11].gpa = DEV;
	for (unsigned i = 0; i < 16; i++)
		want[i] = (uint8_t)(0x80 + i);
	memcpy(buf, want, 16);
	assert_int_equal(emul_access(&ops, NULL, L(0x11) - 4, buf, 16, true,
				     &f), EMUL_OK);
	assert_memory_equal(&ram[0x3ffc], want, 4);
	assert_memory_equal(&dev[0], want + 4, 12);

	memcpy(&dev[0xffc], "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(emul_access(&ops, NULL, L(0x12) - 4, buf, 8, false,
				     &f), EMUL_OK);
	assert_memory_equal(buf, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
}

/* A load split over the two device pages, with the CPU's translation of
 * the second (the exit's) known: only the first page is walked, and the
 * known page is used as given (here a different device page than the
 * table says, to tell them apart). A store walks both: the dirty bit. */
static void test_access_known(void **state)
{
	const struct emul_known k = { L(0x12) + 0x10, DEV + 0x10 };
	uint8_t buf[8];
	struct emul_fault f = { 0 };

	(void)state;
	world_reset();
	memcpy(&dev[0xffc], "\x01\x02\x03\x04", 4);
	memcpy(&dev[0], "\x05\x06\x07\x08", 4);
	assert_int_equal(emul_access_known(&ops, NULL, L(0x12) - 4, buf, 8,
					   false, &k, &f), EMUL_OK);
	assert_memory_equal(buf, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	assert_int_equal(walks, 1);
	assert_int_equal(emul_access_known(&ops, NULL, L(0x12) - 4, buf, 8,
					   true, &k, &f), EMUL_OK);
	assert_int_equal(walks, 3);
	assert_memory_equal(&dev[0x1000], "\x05\x06\x07\x08", 4);
	/* Without it, as emul_access: both pages walked. */
	walks = 0;
	assert_int_equal(emul_access_known(&ops, NULL, L(0x12) - 4, buf, 8,
					   false, NULL, &f), EMUL_OK);
	assert_int_equal(walks, 2);
}

/* The second page faults: #PF at its first byte, nothing written to the
 * first; a NATIVE part or nothing at all: a refusal, nothing written. */
static void test_access_faults(void **state)
{
	uint8_t buf[16];
	struct emul_fault f = { 0 };

	(void)state;
	world_reset();
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(emul_access(&ops, NULL, L(0x13) - 8, buf, 16, true,
				     &f), EMUL_PF);
	assert_int_equal(f.lin, L(0x13));
	assert_int_equal(f.pf_err, EMUL_PF_W);
	assert_int_equal(dev_writes, 0);
	assert_int_equal(dev[0xff8], 0);

	assert_int_equal(emul_access(&ops, NULL, L(0x15) + 8, buf, 8, true,
				     &f), EMUL_PF);
	assert_int_equal(f.pf_err, EMUL_PF_P | EMUL_PF_W);
	assert_int_equal(emul_access(&ops, NULL, L(0x15) + 8, buf, 8, false,
				     &f), EMUL_OK);	/* read-only reads */

	f.why = NULL;
	assert_int_equal(emul_access(&ops, NULL, L(0x15) - 8, buf, 16, false,
				     &f), EMUL_STOP);	/* 0x14: NATIVE */
	assert_non_null(f.why);
	assert_int_equal(emul_access(&ops, NULL, L(0x11), buf, 0, false, &f),
			 EMUL_STOP);
	assert_int_equal(emul_access(&ops, NULL, L(0x11), buf, 33, false, &f),
			 EMUL_STOP);
	lmap[0x19] = (typeof(lmap[0])){ 0x300000, RW };	/* no device */
	assert_int_equal(emul_access(&ops, NULL, L(0x19), buf, 4, false, &f),
			 EMUL_STOP);
	assert_int_equal(dev_writes, 0);
}

/* --- strings -------------------------------------------------------------- */

static struct mmio_insn decoded(const uint8_t *b, size_t n)
{
	struct mmio_insn in;

	assert_int_equal(insn_decode(b, n, INSN_MODE_64, &in), 0);
	return in;
}

static const uint8_t REP_MOVSB[] = { 0xf3, 0xa4 };
static const uint8_t REP_MOVSQ[] = { 0xf3, 0x48, 0xa5 };
static const uint8_t REP_MOVSW[] = { 0x66, 0xf3, 0xa5 };
static const uint8_t REP_STOSD[] = { 0xf3, 0xab };
static const uint8_t REP_STOSQ[] = { 0xf3, 0x48, 0xab };
static const uint8_t A32_REP_MOVSB[] = { 0x67, 0xf3, 0xa4 };
static const uint8_t FS_REP_MOVSB[] = { 0x64, 0xf3, 0xa4 };
static const uint8_t MOVSD1[] = { 0xa5 };
static const uint8_t STOSB1[] = { 0xaa };

/* Runs the instruction to its end or first fault as the guest would:
 * one emul_string per exit. Returns the result of the last; *exits. */
static int run(const struct mmio_insn *in, struct guest_regs *r,
	       const struct emul_string_env *env, unsigned *exits,
	       struct emul_fault *f)
{
	bool done = false;
	int err = EMUL_OK;

	for (*exits = 0; !done && err == EMUL_OK && *exits < 100000;
	     (*exits)++) {
		uint64_t rcx = r->rcx;

		err = emul_string(&ops, NULL, in, r, env, &done, f);
		/* bounded: never more than EMUL_STRING_MAX_ELEMS per exit */
		if (in->rep)
			assert_true(rcx - r->rcx <= EMUL_STRING_MAX_ELEMS);
		if (!done && err == EMUL_OK && r->rcx == rcx)
			break;	/* no progress: the CPU's turn (RAM only) */
	}
	return err;
}

static void fill_ram_page(uint64_t gpa, uint8_t seed)
{
	for (unsigned i = 0; i < 4096; i++)
		ram[gpa + i] = (uint8_t)(seed + i * 7);
}

/* rep movsb RAM -> device, 100 bytes: two exits (64 elements, then 36),
 * registers as the CPU leaves them. */
static void test_movsb_forward(void **state)
{
	struct mmio_insn in = decoded(REP_MOVSB, sizeof(REP_MOVSB));
	struct emul_string_env env = { 0, 0, false };
	struct guest_regs r = { 0 };
	struct emul_fault f = { 0 };
	unsigned exits;

	(void)state;
	world_reset();
	fill_ram_page(0x3000, 1);
	r.rsi = L(0x10) + 0x10;
	r.rdi = L(0x11) + 0x40;
	r.rcx = 100;
	assert_int_equal(run(&in, &r, &env, &exits, &f), EMUL_OK);
	assert_int_equal(exits, 2);
	assert_int_equal(r.rcx, 0);
	assert_int_equal(r.rsi, L(0x10) + 0x10 + 100);
	assert_int_equal(r.rdi, L(0x11) + 0x40 + 100);
	assert_memory_equal(&dev[0x40], &ram[0x3010], 100);
	assert_int_equal(dev_writes, 100);	/* element-sized accesses */
}

/* std; rep movsq from the device to RAM, backwards across the device's
 * page boundary. */
static void test_movsq_backward(void **state)
{
	struct mmio_insn in = decoded(REP_MOVSQ, sizeof(REP_MOVSQ));
	struct emul_string_env env = { 0, 0, true };
	struct guest_regs r = { 0 };
	struct emul_fault f = { 0 };
	unsigned exits;

	(void)state;
	world_reset();
	for (unsigned i = 0; i < DEV_SIZE; i++)
		dev[i] = (uint8_t)(i * 13 + 5);
	r.rsi = L(0x12) + 0x38;		/* last qword of 8 on page 1 */
	r.rdi = L(0x17) + 0xf00 + 0x38;
	r.rcx = 16;			/* 8 on page 1, 8 on page 0 */
	assert_int_equal(run(&in, &r, &env, &exits, &f), EMUL_OK);
	assert_int_equal(r.rcx, 0);
	assert_int_equal(r.rsi, L(0x12) + 0x38 - 16 * 8);
	assert_int_equal(r.rdi, L(0x17) + 0xf00 + 0x38 - 16 * 8);
	assert_memory_equal(&ram[0x6f00 - 0x40], &dev[0x1000 - 0x40], 0x80);
}

/* rep stosq with an enormous count over both device pages: every exit
 * bounded, resumed by re-execution, then a #PF on the unmapped page after
 * with the registers of the faulting element. */
static void test_stos_huge_count(void **state)
{
	struct mmio_insn in = decoded(REP_STOSQ, sizeof(REP_STOSQ));
	struct emul_string_env env = { 0, 0, false };
	struct guest_regs r = { 0 };
	struct emul_fault f = { 0 };
	unsigned exits;

	(void)state;
	world_reset();
	r.rax = 0x1122334455667788ull;
	r.rdi = L(0x11);
	r.rcx = 1ull << 40;
	assert_int_equal(run(&in, &r, &env, &exits, &f), EMUL_PF);
	/* 1024 qwords, 64 per exit, then the fault */
	assert_int_equal(exits, DEV_SIZE / 8 / EMUL_STRING_MAX_ELEMS + 1);
	assert_int_equal(f.lin, L(0x13));
	assert_int_equal(r.rdi, L(0x13));
	assert_int_equal(r.rcx, (1ull << 40) - DEV_SIZE / 8);
	for (unsigned i = 0; i < DEV_SIZE; i += 8)
		assert_memory_equal(&dev[i], &r.rax, 8);
}

/* REP with rCX = 0 touches nothing and is done; without REP one element. */
static void test_string_counts(void **state)
{
	struct mmio_insn in = decoded(REP_STOSD, sizeof(REP_STOSD));
	struct mmio_insn one = decoded(STOSB1, sizeof(STOSB1));
	struct emul_string_env env = { 0, 0, false };
	struct guest_regs r = { 0 };
	struct emul_fault f = { 0 };
	bool done = false;

	(void)state;
	world_reset();
	r.rdi = L(0x13);	/* would fault if touched */
	assert_int_equal(emul_string(&ops, NULL, &in, &r, &env, &done, &f),
			 EMUL_OK);
	assert_true(done);
	assert_int_equal(r.rdi, L(0x13));

	r.rdi = L(0x11) + 5;
	r.rax = 0xabcd;
	r.rcx = 7;
	assert_int_equal(emul_string(&ops, NULL, &one, &r, &env, &done, &f),
			 EMUL_OK);
	assert_true(done);
	assert_int_equal(r.rcx, 7);
	assert_int_equal(r.rdi, L(0x11) + 6);
	assert_int_equal(dev[5], 0xcd);
	assert_int_equal(dev[6], 0);
}

/* The chunk ends where the access leaves the device for plain RAM: the
 * CPU does RAM itself. A device -> device copy stays emulated. */
static void test_string_leaves_device(void **state)
{
	struct mmio_insn in = decoded(REP_MOVSW, sizeof(REP_MOVSW));
	struct emul_string_env env = { 0, 0, false };
	struct guest_regs r = { 0 };
	struct emul_fault f = { 0 };
	bool done = true;

	(void)state;
	world_reset();
	lmap[0x13] = (typeof(lmap[0])){ 0x8000, RW };	/* RAM after DEV */
	r.rsi = L(0x10);
	r.rdi = L(0x13) - 8;	/* 4 words on the device, then RAM */
	r.rcx = 100;
	assert_int_equal(emul_string(&ops, NULL, &in, &r, &env, &done, &f),
			 EMUL_OK);
	assert_false(done);
	assert_int_equal(r.rcx, 96);
	assert_int_equal(r.rdi, L(0x13));

	r.rsi = L(0x11);	/* device page 0 -> device page 1 */
	r.rdi = L(0x12);
	r.rcx = 10;
	assert_int_equal(emul_string(&ops, NULL, &in, &r, &env, &done, &f),
			 EMUL_OK);
	assert_true(done);
	assert_int_equal(dev_reads, 10);
}

/* 67: ESI/EDI/ECX, written back zero-extended; FS override on the source
 * base; a misaligned element straddling the two device pages. */
static void test_string_sizes_segments(void **state)
{
	struct mmio_insn a32 = decoded(A32_REP_MOVSB, sizeof(A32_REP_MOVSB));
	struct mmio_insn fs = decoded(FS_REP_MOVSB, sizeof(FS_REP_MOVSB));
	struct mmio_insn movsd = decoded(MOVSD1, sizeof(MOVSD1));
	struct emul_string_env env = { 0, 0, false };
	struct guest_regs r = { 0 };
	struct emul_fault f = { 0 };
	bool done;

	(void)state;
	world_reset();
	fill_ram_page(0x3000, 9);
	r.rsi = 0xffffffff00000000ull | L(0x10);
	r.rdi = 0x1234567800000000ull | L(0x11);
	r.rcx = 0xabcdef0000000003ull;	/* ECX = 3 */
	assert_int_equal(emul_string(&ops, NULL, &a32, &r, &env, &done, &f),
			 EMUL_OK);
	assert_true(done);
	assert_int_equal(r.rcx, 0);
	assert_int_equal(r.rsi, L(0x10) + 3);
	assert_int_equal(r.rdi, L(0x11) + 3);
	assert_memory_equal(&dev[0], &ram[0x3000], 3);

	env.src_base = L(0x10);	/* fs: rsi is an offset from FS.base */
	r.rsi = 0x20;
	r.rdi = L(0x11) + 0x100;
	r.rcx = 4;
	assert_int_equal(emul_string(&ops, NULL, &fs, &r, &env, &done, &f),
			 EMUL_OK);
	assert_memory_equal(&dev[0x100], &ram[0x3020], 4);
	assert_int_equal(emul_string_lin(&fs, &r, &env, false), L(0x10) + 0x24);

	env.src_base = 0;
	r.rsi = L(0x10);
	r.rdi = L(0x12) - 2;	/* 2 bytes on each device page */
	assert_int_equal(emul_string(&ops, NULL, &movsd, &r, &env, &done, &f),
			 EMUL_OK);
	assert_true(done);
	assert_memory_equal(&dev[0xffe], &ram[0x3000], 4);
}

/* A store into write-protected RAM goes through the hypervisor (so the
 * device shadowing it is told), element by element, not natively. */
static void test_string_wp_ram(void **state)
{
	struct mmio_insn in = decoded(REP_STOSD, sizeof(REP_STOSD));
	struct emul_string_env env = { 0, 0, false };
	struct guest_regs r = { 0 };
	struct emul_fault f = { 0 };
	unsigned exits;

	(void)state;
	world_reset();
	r.rdi = L(0x16);
	r.rcx = 1024;
	r.rax = 0xfeedf00d;
	assert_int_equal(run(&in, &r, &env, &exits, &f), EMUL_OK);
	assert_int_equal(exits, 1024 / EMUL_STRING_MAX_ELEMS);
	assert_int_equal(wp_writes, 1024);
	assert_memory_equal(&ram[WP_PAGE + 4092], &r.rax, 4);
}

/* A string whose next element has a NATIVE part and a device part cannot
 * be done by anyone: refused. NATIVE alone after the first: the CPU's. */
static void test_string_native(void **state)
{
	struct mmio_insn in = decoded(REP_MOVSB, sizeof(REP_MOVSB));
	struct emul_string_env env = { 0, 0, false };
	struct guest_regs r = { 0 };
	struct emul_fault f = { 0 };
	bool done;

	(void)state;
	world_reset();
	r.rsi = L(0x14);	/* NATIVE -> device */
	r.rdi = L(0x11);
	r.rcx = 4;
	assert_int_equal(emul_string(&ops, NULL, &in, &r, &env, &done, &f),
			 EMUL_STOP);
	assert_int_equal(r.rcx, 4);
	assert_int_equal(dev_writes, 0);

	r.rsi = L(0x11) + 0xffe;	/* device -> RAM, then NATIVE -> RAM */
	r.rdi = L(0x10);
	lmap[0x12] = lmap[0x14];
	assert_int_equal(emul_string(&ops, NULL, &in, &r, &env, &done, &f),
			 EMUL_OK);
	assert_false(done);
	assert_int_equal(r.rcx, 2);
}

/* --- the page walk --------------------------------------------------------- */

static int pt_read(void *ctx, uint64_t gpa, uint64_t *pte)
{
	(void)ctx;
	if (gpa + 8 > RAM_SIZE)
		return -1;
	memcpy(pte, &ram[gpa], 8);
	return 0;
}

static int pt_write(void *ctx, uint64_t gpa, uint64_t pte)
{
	(void)ctx;
	memcpy(&ram[gpa], &pte, 8);
	return 0;
}

static uint64_t pte_at(uint64_t gpa)
{
	uint64_t v;

	memcpy(&v, &ram[gpa], 8);
	return v;
}

static void set_pte(uint64_t gpa, uint64_t v)
{
	memcpy(&ram[gpa], &v, 8);
}

/* PML4 at 0x1000, PDPT 0x2000, PD 0x3000, PT 0x4000: linear 0x400000
 * (PD index 2) -> PT; 0x600000 (PD index 3) a 2 MiB page at 0xa00000. */
static struct emul_paging paging(unsigned cpl)
{
	struct emul_paging pg = {
		.cr0 = CR0_PG | CR0_WP, .cr3 = 0x1000, .cr4 = 0,
		.rflags = 0, .efer = EFER_NXE, .cpl = cpl, .maxphyaddr = 39,
		.ctx = NULL,
		.pte_read = pt_read, .pte_write = pt_write,
	};
	return pg;
}

static void build_tables(uint64_t leaf_flags)
{
	memset(ram, 0, sizeof(ram));
	set_pte(0x1000, 0x2000 | 0x7);
	set_pte(0x2000, 0x3000 | 0x7);
	set_pte(0x3000 + 2 * 8, 0x4000 | 0x7);
	set_pte(0x3000 + 3 * 8, 0xa00000 | 0x80 | leaf_flags);
	set_pte(0x4000 + 5 * 8, 0x9000 | leaf_flags);
}

static void test_walk(void **state)
{
	struct emul_paging pg = paging(0);
	struct emul_fault f = { 0 };
	uint64_t gpa = 0;

	(void)state;
	build_tables(0x7);
	assert_int_equal(emul_walk(&pg, 0x405123, false, &gpa, &f), 0);
	assert_int_equal(gpa, 0x9123);
	assert_true(pte_at(0x4000 + 5 * 8) & 0x20);	/* accessed */
	assert_false(pte_at(0x4000 + 5 * 8) & 0x40);	/* not dirty */
	assert_int_equal(emul_walk(&pg, 0x405123, true, &gpa, &f), 0);
	assert_true(pte_at(0x4000 + 5 * 8) & 0x40);	/* dirty */
	assert_true(pte_at(0x1000) & 0x20);
	/* 2 MiB page */
	assert_int_equal(emul_walk(&pg, 0x6abcde, true, &gpa, &f), 0);
	assert_int_equal(gpa, 0xaabcde);
	/* not present */
	assert_int_equal(emul_walk(&pg, 0x406000, true, &gpa, &f), EMUL_PF);
	assert_int_equal(f.lin, 0x406000);
	assert_int_equal(f.pf_err, EMUL_PF_W);
	/* paging off: identity */
	pg.cr0 = 0;
	assert_int_equal(emul_walk(&pg, 0x123456789ull, false, &gpa, &f), 0);
	assert_int_equal(gpa, 0x123456789ull);
	/* reserved bits: above MAXPHYADDR, XD without NXE, a 2 MiB page's
	 * address bits below 2 MiB, PS in the PML4E */
	pg = paging(0);
	set_pte(0x4000 + 5 * 8, (1ull << 40) | 0x9000 | 0x7);
	assert_int_equal(emul_walk(&pg, 0x405000, false, &gpa, &f), EMUL_PF);
	assert_int_equal(f.pf_err, EMUL_PF_P | EMUL_PF_RSVD);
	set_pte(0x4000 + 5 * 8, (1ull << 63) | 0x9000 | 0x7);
	assert_int_equal(emul_walk(&pg, 0x405000, false, &gpa, &f), 0);
	pg.efer = 0;
	assert_int_equal(emul_walk(&pg, 0x405000, true, &gpa, &f), EMUL_PF);
	assert_int_equal(f.pf_err, EMUL_PF_P | EMUL_PF_RSVD | EMUL_PF_W);
	pg.efer = EFER_NXE;
	set_pte(0x3000 + 3 * 8, 0xa00000 | 0x2000 | 0x80 | 0x7);
	assert_int_equal(emul_walk(&pg, 0x600000, false, &gpa, &f), EMUL_PF);
	set_pte(0x3000 + 3 * 8, 0xa00000 | 0x1000 | 0x80 | 0x7); /* PAT bit */
	assert_int_equal(emul_walk(&pg, 0x600000, false, &gpa, &f), 0);
	set_pte(0x1000, 0x2000 | 0x80 | 0x7);
	assert_int_equal(emul_walk(&pg, 0x405000, false, &gpa, &f), EMUL_PF);
	set_pte(0x1000, 0x2000 | 0x7);
	/* a table outside RAM */
	set_pte(0x3000 + 2 * 8, 0x800000 | 0x7);
	assert_int_equal(emul_walk(&pg, 0x405000, false, &gpa, &f), EMUL_STOP);
}

static void test_walk_protection(void **state)
{
	struct emul_paging k = paging(0), u = paging(3);
	struct emul_fault f = { 0 };
	uint64_t gpa;

	(void)state;
	build_tables(0x1);	/* supervisor, read-only */
	assert_int_equal(emul_walk(&k, 0x405000, false, &gpa, &f), 0);
	assert_int_equal(emul_walk(&k, 0x405000, true, &gpa, &f), EMUL_PF);
	assert_int_equal(f.pf_err, EMUL_PF_P | EMUL_PF_W);
	assert_false(pte_at(0x4000 + 5 * 8) & 0x40);	/* no dirty bit */
	k.cr0 &= ~CR0_WP;	/* supervisor writes ignore R/W */
	assert_int_equal(emul_walk(&k, 0x405000, true, &gpa, &f), 0);
	assert_int_equal(emul_walk(&u, 0x405000, false, &gpa, &f), EMUL_PF);
	assert_int_equal(f.pf_err, EMUL_PF_P | EMUL_PF_U);

	build_tables(0x7);	/* user, writable */
	assert_int_equal(emul_walk(&u, 0x405000, true, &gpa, &f), 0);
	k.cr4 = CR4_SMAP;	/* the kernel on a user page */
	assert_int_equal(emul_walk(&k, 0x405000, false, &gpa, &f), EMUL_PF);
	assert_int_equal(f.pf_err, EMUL_PF_P);
	k.rflags = 1ull << 18;	/* stac */
	assert_int_equal(emul_walk(&k, 0x405000, false, &gpa, &f), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_access_one_page),
		cmocka_unit_test(test_access_split),
		cmocka_unit_test(test_access_known),
		cmocka_unit_test(test_access_faults),
		cmocka_unit_test(test_movsb_forward),
		cmocka_unit_test(test_movsq_backward),
		cmocka_unit_test(test_stos_huge_count),
		cmocka_unit_test(test_string_counts),
		cmocka_unit_test(test_string_leaves_device),
		cmocka_unit_test(test_string_sizes_segments),
		cmocka_unit_test(test_string_wp_ram),
		cmocka_unit_test(test_string_native),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_walk_protection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
