/* mode=hostile mmio-emul: the moves a guest's memcpy/memset makes, on the
 * test device's memory window (G9HV_TESTDEV_MEM: plain memory behind
 * traps), each checked by reading back through RAM. REP MOVS forwards
 * and with DF=1, REP STOS, REP with rCX = 0, a string and an SSE store
 * running off the window's page into the unclaimed page after it (which
 * drops writes and reads all ones), and the SSE moves of issue 28:
 * movups/movdqu, movaps/movdqa, movntdq, movhps/movlps, movq, movnti. */
#include "guest-shim/testguest/tg.h"
#include "mini/string.h"

#define WIN_ADDR	(G9HV_TESTDEV_GPA + G9HV_TESTDEV_MEM)
#define WIN(off)	((void *)(uintptr_t)(WIN_ADDR + (off)))
#define CR4_OSFXSR	(1ull << 9)

static uint8_t src[256], back[256];

static void *rep_movsb(void *d, const void *s, uint64_t n)
{
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
	return d;
}

/* std; rep movsq from the last qword down; cld. */
static void rep_movsq_down(void *d, const void *s, uint64_t n)
{
	__asm__ volatile("std; rep movsq; cld"
			 : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static void *rep_stosl(void *d, uint32_t v, uint64_t n)
{
	__asm__ volatile("rep stosl" : "+D"(d), "+c"(n) : "a"(v) : "memory");
	return d;
}

static void fill(uint8_t *p, unsigned n, uint8_t seed)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + 31 * i);
}

static void check_strings(void)
{
	void *end;

	fill(src, sizeof(src), 3);
	end = rep_movsb(WIN(3), src, 200);
	memset(back, 0, sizeof(back));
	rep_movsb(back, WIN(3), 200);
	tg_check("mmio-rep-movsb", !memcmp(back, src, 200) && end == WIN(203),
		 "rep movsb to and from the device");

	fill(src, sizeof(src), 7);
	rep_movsq_down(WIN(0x100 + 15 * 8), src + 15 * 8, 16);
	memset(back, 0, sizeof(back));
	rep_movsb(back, WIN(0x100), 128);
	tg_check("mmio-rep-movsq-df", !memcmp(back, src, 128),
		 "std; rep movsq to the device");

	end = rep_stosl(WIN(0), 0x5aa5c33cu, G9HV_TESTDEV_MEM_SIZE / 4);
	tg_check("mmio-rep-stosd", end == WIN(G9HV_TESTDEV_MEM_SIZE) &&
		 *(volatile uint32_t *)WIN(0x7fc) == 0x5aa5c33cu &&
		 *(volatile uint32_t *)WIN(0) == 0x5aa5c33cu,
		 "rep stosd over the whole window");
	end = rep_stosl(WIN(0x10), 0, 0);
	tg_check("mmio-rep-rcx0", end == WIN(0x10) &&
		 *(volatile uint32_t *)WIN(0x10) == 0x5aa5c33cu,
		 "rep stosd with rcx = 0 does nothing");

	/* 8 bytes in the window, 8 on the unclaimed page after it */
	fill(src, 16, 11);
	rep_movsb(WIN(0x7f8), src, 16);
	rep_movsb(back, WIN(0x7f8), 16);
	tg_check("mmio-rep-page-cross", !memcmp(back, src, 8) &&
		 back[8] == 0xff && back[15] == 0xff,
		 "rep movsb across the device page's end");
}

static void enable_sse(void)
{
	uint64_t cr4;

	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	__asm__ volatile("mov %0, %%cr4" : : "r"(cr4 | CR4_OSFXSR));
}

/* The guest is built without vector registers: the asm names them, and
 * nothing else here uses them. */
static void check_sse(void)
{
	uint64_t q = 0;

	enable_sse();
	fill(src, 32, 17);
	memset(back, 0xcc, 32);
	__asm__ volatile("movups (%0), %%xmm1\n\t"
			 "movups %%xmm1, (%1)\n\t"
			 "movdqu (%1), %%xmm2\n\t"
			 "movups %%xmm2, (%2)"
			 : : "r"(src), "r"(WIN(0x301)), "r"(back) : "memory");
	tg_check("mmio-movups-movdqu", !memcmp(back, src, 16),
		 "unaligned 16-byte store and load");

	memset(back, 0xcc, 32);
	__asm__ volatile("movaps %%xmm1, (%0)\n\t"
			 "movntdq %%xmm1, 16(%0)\n\t"
			 "movdqa 16(%0), %%xmm3\n\t"
			 "movups %%xmm3, (%1)"
			 : : "r"(WIN(0x310)), "r"(back) : "memory");
	tg_check("mmio-movaps-movntdq", !memcmp(back, src, 16),
		 "aligned and non-temporal stores, aligned load");

	memset(back, 0xcc, 32);
	__asm__ volatile("movhps %%xmm1, (%0)\n\t"
			 "movups (%1), %%xmm4\n\t"
			 "movlps (%0), %%xmm4\n\t"
			 "movups %%xmm4, (%1)"
			 : : "r"(WIN(0x330)), "r"(back) : "memory");
	tg_check("mmio-movhps-movlps", !memcmp(back, src + 8, 8) &&
		 back[8] == 0xcc && back[15] == 0xcc,
		 "8 bytes out of and into one half of an XMM");

	__asm__ volatile("movq %%xmm1, (%1)\n\t"
			 "movnti %2, 8(%1)\n\t"
			 "mov (%1), %0"
			 : "=&r"(q) : "r"(WIN(0x340)), "r"(0x1122334455667788ull)
			 : "memory");
	tg_check("mmio-movq-movnti", !memcmp(&q, src, 8) &&
		 *(volatile uint64_t *)WIN(0x348) == 0x1122334455667788ull,
		 "movq and movnti stores");

	memset(back, 0, 32);
	__asm__ volatile("movups %%xmm1, (%0)\n\t"
			 "movups (%0), %%xmm5\n\t"
			 "movups %%xmm5, (%1)"
			 : : "r"(WIN(0x7f8)), "r"(back) : "memory");
	tg_check("mmio-movups-page-cross", !memcmp(back, src, 8) &&
		 back[8] == 0xff && back[15] == 0xff,
		 "16-byte store and load across the device page's end");
}

void mmio_emul_run(void)
{
	check_strings();
	check_sse();
}
