/* Unit tests for hv/vm/vcpu_sipi.c: the state a SIPI starts an AP in is
 * the hardware's (SDM Vol. 3A 8.4.4, Table 9-1) and passes the VM-entry
 * checks of an unrestricted guest in real mode (SDM Vol. 3C 27.3.1.2),
 * written out here as the rules they are. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>

#include "hv/vm/vcpu_sipi.h"

#define AR_TYPE(ar)	((ar) & 0xfu)
#define AR_S		(1u << 4)
#define AR_DPL(ar)	(((ar) >> 5) & 3u)
#define AR_P		(1u << 7)
#define AR_DB		(1u << 14)
#define AR_G		(1u << 15)
#define AR_RSVD		0xfffe0f00u	/* bits 11:8 and 31:17 */

/* Limit and G agree (a limit with bits 11:0 not all set needs G=0, one
 * with bits 31:20 set needs G=1), reserved bits clear, present. */
static void assert_seg_common(const struct vcpu_seg_state *g)
{
	assert_int_equal(g->ar & AR_RSVD, 0);
	assert_true(g->ar & AR_P);
	if ((g->limit & 0xfffu) != 0xfffu)
		assert_false(g->ar & AR_G);
	if (g->limit & 0xfff00000u)
		assert_true(g->ar & AR_G);
}

/* Real mode under unrestricted guest: CS an accessed code segment (or
 * type 3), SS type 3 or 7 with DPL 0, data segments accessed, TR a busy
 * TSS, LDTR an LDT; CR0.PE and PG clear; RFLAGS bit 1 set. */
static void assert_real_mode_entry_ok(const struct vcpu_sipi_state *s)
{
	unsigned t = AR_TYPE(s->cs.ar);

	assert_seg_common(&s->cs);
	assert_true(t == 3 || t == 9 || t == 11 || t == 13 || t == 15);
	assert_true(s->cs.ar & AR_S);
	assert_seg_common(&s->data);
	t = AR_TYPE(s->data.ar);
	assert_true(t == 3 || t == 7);		/* as SS */
	assert_int_equal(AR_DPL(s->data.ar), 0);
	assert_true(s->data.ar & AR_S);
	assert_seg_common(&s->tr);
	assert_true(AR_TYPE(s->tr.ar) == 3 || AR_TYPE(s->tr.ar) == 11);
	assert_false(s->tr.ar & AR_S);
	assert_int_equal(s->tr.sel & 4, 0);	/* TI clear */
	assert_seg_common(&s->ldtr);
	assert_int_equal(AR_TYPE(s->ldtr.ar), 2);
	assert_false(s->ldtr.ar & AR_S);
	assert_int_equal(s->cr0 & 0x80000001ull, 0);	/* PE, PG */
	assert_int_equal(s->efer, 0);
	assert_int_equal(s->rflags, 2);
	assert_true(s->gdtr_limit <= 0xffff && s->idtr_limit <= 0xffff);
}

static void test_vector(void **state)
{
	struct vcpu_sipi_state s;

	(void)state;
	vcpu_sipi_state(0x9a, &s);
	assert_int_equal(s.cs.sel, 0x9a00);
	assert_int_equal(s.cs.base, 0x9a000);
	assert_int_equal(s.cs.limit, 0xffff);
	assert_int_equal(s.cs.ar, 0x9b);
	assert_int_equal(s.rip, 0);
	assert_int_equal(s.data.sel, 0);
	assert_int_equal(s.data.base, 0);
	assert_int_equal(s.data.ar, 0x93);
	assert_int_equal(s.cr0, 0x60000010);	/* CD NW ET */
	assert_int_equal(s.cr3, 0);
	assert_int_equal(s.cr4, 0);
	assert_int_equal(s.dr7, 0x400);
	assert_real_mode_entry_ok(&s);
}

/* Every vector gives a state VM entry takes, and the CS base is where the
 * guest's trampoline is: vector 4 KiB pages up, below 1 MiB. */
static void test_every_vector(void **state)
{
	struct vcpu_sipi_state s;

	(void)state;
	for (unsigned v = 0; v < 256; v++) {
		vcpu_sipi_state((uint8_t)v, &s);
		assert_int_equal(s.cs.base, v << 12);
		assert_int_equal(s.cs.base, (uint32_t)s.cs.sel << 4);
		assert_true(s.cs.base + s.rip < 0x100000);
		assert_real_mode_entry_ok(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vector),
		cmocka_unit_test(test_every_vector),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
