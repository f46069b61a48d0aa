/* The bring-up plan (hv/cpu/smp_plan.h). */
#include "hv/cpu/smp_plan.h"
#include "hv/cpu/ap_tramp.h"
#include "mini/string.h"

#define PAGE 4096ull
/* The real-mode IVT and BIOS data area: never ours to take. */
#define LOW_RESERVED 0x1000ull

static void skip(struct smp_plan *p, uint32_t id, enum smp_skip why)
{
	if (p->nr_skipped == SMP_MAX_CPUS) {
		p->skipped_dropped++;
		return;
	}
	p->skipped[p->nr_skipped].apic_id = id;
	p->skipped[p->nr_skipped++].why = why;
}

static bool seen(const uint32_t *ids, uint32_t i)
{
	for (uint32_t j = 0; j < i; j++)
		if (ids[j] == ids[i])
			return true;
	return false;
}

void smp_plan_build(const uint32_t *ids, uint32_t n, uint32_t bsp,
		    bool x2apic, struct smp_plan *out)
{
	memset(out, 0, sizeof(*out));
	out->nr_listed = n;
	out->bsp_apic_id = bsp;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id = ids[i];

		if (seen(ids, i))
			skip(out, id, SMP_SKIP_DUPLICATE);
		else if (id == bsp)
			out->bsp_listed = true;
		else if (!x2apic && id > SMP_XAPIC_MAX_ID)
			skip(out, id, SMP_SKIP_XAPIC_ID);
		else if (out->nr_aps + 1 >= SMP_MAX_CPUS)
			skip(out, id, SMP_SKIP_TOO_MANY);
		else
			out->ap_apic_id[out->nr_aps++] = id;
	}
}

const char *smp_skip_name(enum smp_skip why)
{
	switch (why) {
	case SMP_SKIP_DUPLICATE:
		return "listed twice";
	case SMP_SKIP_XAPIC_ID:
		return "APIC id above 0xFE while our LAPIC is in xAPIC mode";
	case SMP_SKIP_TOO_MANY:
		return "more CPUs than the hypervisor supports";
	}
	return "?";
}

uint64_t smp_find_trampoline(const struct mem_range *map, uint32_t n,
			     uint32_t pages)
{
	uint64_t best = 0, need = pages * PAGE;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t base = map[i].base, end = base + map[i].pages * PAGE;

		if (map[i].type != MEM_USABLE)
			continue;
		if (base < LOW_RESERVED)
			base = LOW_RESERVED;
		if (end > AP_TRAMP_LIMIT)
			end = AP_TRAMP_LIMIT;
		base = (base + PAGE - 1) & ~(PAGE - 1);
		end &= ~(PAGE - 1);
		if (end > base && end - base >= need && end - need > best)
			best = end - need;
	}
	return best;
}
