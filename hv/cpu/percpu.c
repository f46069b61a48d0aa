/* Carving an AP's per-CPU area (hv/cpu/percpu.h). */
#include "hv/cpu/percpu.h"
#include "hv/mm/mem.h"
#include "mini/string.h"

struct percpu *percpu_carve(void *base, uint32_t index, uint32_t apic_id)
{
	uint8_t *b = base;
	struct percpu *p = base;

	memset(p, 0, sizeof(*p));
	p->self = p;
	p->index = index;
	p->apic_id = apic_id;
	p->idt = b + PERCPU_IDT_PAGE * PAGE_SIZE;
	p->ist_top = (uint64_t)(uintptr_t)(b + PERCPU_IST_PAGE * PAGE_SIZE +
					   PERCPU_IST_BYTES);
	p->stack_top = (uint64_t)(uintptr_t)(b + PERCPU_STACK_PAGE * PAGE_SIZE +
					     PERCPU_STACK_BYTES);
	return p;
}

struct percpu *percpu_alloc(uint32_t index, uint32_t apic_id)
{
	void *base = page_alloc_contig(PERCPU_PAGES);

	return base ? percpu_carve(base, index, apic_id) : NULL;
}
