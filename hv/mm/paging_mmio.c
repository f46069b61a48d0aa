/* Device windows in the hypervisor's page tables: memory types through the
 * PAT, and trapped (not present) ranges. See paging_mmio.h. */
#include "hv/mm/paging_mmio.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/cpu/x86.h"

#define PTE_P (1ull << 0)
#define PTE_RW (1ull << 1)
#define PTE_PWT (1ull << 3)
#define PTE_PCD (1ull << 4)
#define PTE_PS (1ull << 7)
#define PTE_PAT_LARGE (1ull << 12) /* PAT bit of a 2 MiB / 1 GiB leaf */
#define PTE_ADDR 0x000ffffffffff000ull
#define MIB2 (2ull << 20)
#define GIB (1ull << 30)

#define MSR_IA32_PAT 0x277
#define CPUID_1_EDX_PAT (1u << 16)
#define PAT_TYPE_WC 0x01ull
#define PAT_ENTRY_WC 5

#define MAX_TRAPS 4

static struct { uint64_t base, size; } traps[MAX_TRAPS];
static unsigned nr_traps;
static bool have_pat;

bool paging_pat_init(void)
{
	uint64_t pat;

	if (!(cpuid(1, 0).edx & CPUID_1_EDX_PAT))
		return false;
	pat = rdmsr(MSR_IA32_PAT);
	pat &= ~(0xffull << (8 * PAT_ENTRY_WC));
	pat |= PAT_TYPE_WC << (8 * PAT_ENTRY_WC);
	wrmsr(MSR_IA32_PAT, pat);
	have_pat = true;
	return true;
}

/* PAT index = PAT * 4 + PCD * 2 + PWT (SDM Vol. 3A 11.12.3). */
static uint64_t type_bits(enum paging_memtype t)
{
	if (t == PAGING_WC && have_pat)
		return PTE_PAT_LARGE | PTE_PWT; /* entry 5 */
	if (t == PAGING_WB)
		return 0; /* entry 0 */
	return PTE_PCD | PTE_PWT; /* entry 3: UC */
}

bool paging_is_trapped(uint64_t addr)
{
	for (unsigned i = 0; i < nr_traps; i++)
		if (addr >= traps[i].base && addr - traps[i].base < traps[i].size)
			return true;
	return false;
}

/* The page directory entry mapping addr, splitting a 1 GiB leaf into 512
 * 2 MiB leaves of the same attributes first. NULL when addr is not mapped
 * or no page is left for the split. */
static uint64_t *pde_of(uint64_t addr)
{
	uint64_t *pml4 = hv_va(read_cr3() & PTE_ADDR), *pdpt, *pd;
	uint64_t e;

	e = pml4[(addr >> 39) & 511];
	if (!(e & PTE_P))
		return NULL;
	pdpt = hv_va(e & PTE_ADDR);
	e = pdpt[(addr >> 30) & 511];
	if (!(e & PTE_P))
		return NULL;
	if (e & PTE_PS) {
		uint64_t attrs = e & ~PTE_ADDR & ~PTE_PAT_LARGE;
		uint64_t gb = e & PTE_ADDR & ~(GIB - 1);

		pd = page_alloc();
		if (!pd)
			return NULL;
		for (unsigned j = 0; j < 512; j++)
			pd[j] = (gb + j * MIB2) | attrs | (e & PTE_PAT_LARGE);
		pdpt[(addr >> 30) & 511] = hv_pa(pd) | PTE_P | PTE_RW;
	} else {
		pd = hv_va(e & PTE_ADDR);
	}
	if (!(pd[(addr >> 21) & 511] & PTE_PS))
		return NULL; /* 4 KiB tables are not ours: paging.c never makes them */
	return &pd[(addr >> 21) & 511];
}

static int set_range(uint64_t base, uint64_t size, enum paging_memtype t)
{
	if ((base | size) & (MIB2 - 1) || !size || base + size < base)
		return -HV_EINVAL;
	for (uint64_t a = base; a < base + size; a += MIB2) {
		uint64_t *pde = pde_of(a);

		if (!pde)
			return -HV_ENOMEM;
		*pde = a | PTE_RW | PTE_PS | type_bits(t) |
		       (paging_is_trapped(a) ? 0 : PTE_P);
	}
	write_cr3(read_cr3()); /* drop the old translations */
	return 0;
}

int paging_map_mmio(uint64_t base, uint64_t size, enum paging_memtype t)
{
	return set_range(base, size, t);
}

int paging_trap_range(uint64_t base, uint64_t size)
{
	if (nr_traps == MAX_TRAPS)
		return -HV_ENOMEM;
	traps[nr_traps].base = base;
	traps[nr_traps].size = size;
	nr_traps++;
	return set_range(base, size, PAGING_UC);
}

const char *paging_memtype_name(enum paging_memtype t)
{
	return t == PAGING_WC ? (have_pat ? "WC" : "UC (no PAT)") :
	       t == PAGING_UC ? "UC" : "WB";
}
