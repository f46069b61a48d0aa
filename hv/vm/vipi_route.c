/* ICR decode, destination resolution and the INIT/SIPI rules; see
 * vipi.h. Pure: no VMX state, host-tested (tests/unit/test_vipi.c). */
#include "hv/vm/vipi.h"
#include "hv/vm/vlapic.h"

#define ICR_LOGICAL	(1u << 11)
#define ICR_LEVEL	(1u << 14)
#define X2APIC_BCAST	0xffffffffu
#define XAPIC_BCAST	0xffu

void ipi_decode(uint64_t icr, bool x2apic, struct ipi *ipi)
{
	uint32_t lo = (uint32_t)icr;

	ipi->vector = (uint8_t)lo;
	ipi->mode = (uint8_t)((lo >> 8) & 7);
	ipi->shorthand = (uint8_t)((lo >> 18) & 3);
	ipi->logical = lo & ICR_LOGICAL;
	ipi->deassert = !(lo & ICR_LEVEL);
	ipi->x2apic = x2apic;
	ipi->dest = (uint32_t)(icr >> 32);
	if (!x2apic)
		ipi->dest &= XAPIC_BCAST;
}

#define MSI_ADDR_BASE	0xfee00000ull
#define MSI_RH		(1u << 3)
#define MSI_DM		(1u << 2)

bool msi_decode(uint64_t addr, uint32_t data, bool x2apic, struct ipi *ipi)
{
	ipi->vector = (uint8_t)data;
	ipi->mode = (uint8_t)((data >> 8) & 7);
	ipi->shorthand = IPI_DEST;
	ipi->logical = addr & MSI_DM;
	ipi->deassert = false;
	ipi->x2apic = x2apic;
	ipi->dest = (uint32_t)(addr >> 12) & 0xff;
	if (x2apic && ipi->dest == XAPIC_BCAST && !ipi->logical)
		ipi->dest = X2APIC_BCAST;	/* 8 bits: 0xFF is all */
	if ((addr & MSI_RH) && ipi->mode == IPI_FIXED)
		ipi->mode = IPI_LOWEST;
	return (addr & ~0xfffffull) == MSI_ADDR_BASE;
}

/* x2APIC logical (SDM 10.12.10.2): cluster in 31:16, a bit in 15:0. */
static bool match_x2apic_logical(uint32_t dest, uint32_t ldr)
{
	return (dest >> 16) == (ldr >> 16) && (dest & ldr & 0xffffu);
}

/* xAPIC logical (SDM 10.6.2.2): flat (DFR 1111b): any common bit of the
 * 8-bit logical ID; cluster (0000b): the same cluster (high nibble) and
 * a common bit of the low one. */
static bool match_xapic_logical(uint32_t dest, const struct vlapic *t)
{
	uint32_t id = t->xapic_ldr >> 24;

	if ((t->xapic_dfr >> 28) == 0xf)
		return dest & id;
	return (dest >> 4) == (id >> 4) && (dest & id & 0xf);
}

static bool match(const struct ipi *ipi, const struct vlapic *t)
{
	uint32_t bcast = ipi->x2apic ? X2APIC_BCAST : XAPIC_BCAST;

	if (ipi->dest == bcast)
		return true;
	if (!ipi->logical)
		return t->id == ipi->dest;
	return ipi->x2apic ? match_x2apic_logical(ipi->dest, t->ldr)
			   : match_xapic_logical(ipi->dest, t);
}

uint32_t ipi_targets(const struct ipi *ipi, unsigned self,
		     const struct vlapic *const *l, unsigned nr)
{
	uint32_t all = nr >= 32 ? ~0u : (1u << nr) - 1, set = 0;

	if (self >= nr)
		return 0;
	switch (ipi->shorthand) {
	case IPI_SELF: return 1u << self;
	case IPI_ALL: set = all; break;
	case IPI_OTHERS: set = all & ~(1u << self); break;
	default:
		for (unsigned i = 0; i < nr && i < 32; i++)
			if (match(ipi, l[i]))
				set |= 1u << i;
	}
	if (ipi->mode == IPI_LOWEST && set)
		set &= -set;	/* the lowest-numbered vCPU */
	return set;
}

enum ipi_effect ipi_effect(const struct ipi *ipi, unsigned target,
			   enum vcpu_run run)
{
	bool waiting = run == VCPU_WAIT_SIPI;

	switch (ipi->mode) {
	case IPI_FIXED:
	case IPI_LOWEST:
		return ipi->vector < 16 || waiting ? IPI_EFF_DROP
						   : IPI_EFF_IRR;
	case IPI_NMI:
		return waiting ? IPI_EFF_DROP : IPI_EFF_NMI;
	case IPI_INIT:
		if (ipi->deassert)
			return IPI_EFF_NONE;
		return target == 0 ? IPI_EFF_DROP : IPI_EFF_INIT;
	case IPI_SIPI:
		return waiting ? IPI_EFF_START : IPI_EFF_DROP;
	default:
		return IPI_EFF_DROP;
	}
}
