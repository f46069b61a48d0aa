/* Virtual IOAPIC; see vioapic.h. Registers: IOREGSEL at +0x00, IOWIN at
 * +0x10; index 0 ID, 1 version, 2 arbitration, 0x10 + 2n / + 2n + 1 the
 * low / high halves of redirection entry n (82093AA data sheet 3.2). */
#include "hv/vm/vioapic.h"
#include "hv/vm/vm.h"

#define IOREGSEL	0x00
#define IOWIN		0x10
#define REG_ID		0x00
#define REG_VER		0x01
#define REG_ARB		0x02
#define REG_REDIR0	0x10
#define VER_VALUE	(0x11u | (VIOAPIC_PINS - 1) << 16)
#define RTE_MASKED	(1ull << 16)
#define RTE_DELMODE	(7ull << 8)
#define RTE_DM_LOWPRI	(1ull << 8)	/* the lowest-numbered vCPU named */
#define RTE_DESTMOD	(1ull << 11)	/* logical destination */
#define RTE_RO_BITS	((1ull << 12) | (1ull << 14))	/* status, RIRR */

void vioapic_reset(struct vioapic *io)
{
	io->regsel = 0;
	io->id = 1u << 24;	/* id 1, as in the MADT */
	for (unsigned i = 0; i < VIOAPIC_PINS; i++)
		io->redir[i] = RTE_MASKED;
	io->gen++;
}

static uint32_t reg_read(const struct vioapic *io)
{
	unsigned r = io->regsel;

	if (r == REG_ID || r == REG_ARB)
		return io->id;
	if (r == REG_VER)
		return VER_VALUE;
	if (r >= REG_REDIR0 && r < REG_REDIR0 + 2 * VIOAPIC_PINS) {
		uint64_t e = io->redir[(r - REG_REDIR0) / 2];

		return (uint32_t)(r & 1 ? e >> 32 : e);
	}
	return 0xffffffffu;
}

static void reg_write(struct vioapic *io, uint32_t val)
{
	unsigned r = io->regsel;
	uint64_t *e;

	if (r == REG_ID) {
		io->id = val & 0x0f000000u;
		return;
	}
	if (r < REG_REDIR0 || r >= REG_REDIR0 + 2 * VIOAPIC_PINS)
		return;		/* version, arbitration: read-only */
	e = &io->redir[(r - REG_REDIR0) / 2];
	io->gen++;
	if (r & 1)
		*e = (*e & 0xffffffffull) | (uint64_t)val << 32;
	else
		*e = (*e & 0xffffffff00000000ull) |
		     ((val & ~RTE_RO_BITS) | ((uint32_t)*e & RTE_RO_BITS));
}

static uint64_t ioapic_read(struct vm *vm, uint64_t off, unsigned size)
{
	(void)size;
	if (off == IOREGSEL)
		return vm->ioapic.regsel;
	if (off == IOWIN)
		return reg_read(&vm->ioapic);
	return 0xffffffffu;
}

static void ioapic_write(struct vm *vm, uint64_t off, unsigned size,
			 uint64_t val)
{
	(void)size;
	if (off == IOREGSEL)
		vm->ioapic.regsel = (uint32_t)val & 0xff;
	else if (off == IOWIN)
		reg_write(&vm->ioapic, (uint32_t)val);
}

void vioapic_assert(struct vm *vm, unsigned pin)
{
	struct vioapic *io = &vm->ioapic;
	uint64_t e;

	if (pin >= VIOAPIC_PINS)
		return;
	e = io->redir[pin];
	if ((e & RTE_MASKED) || (e & RTE_DELMODE) > RTE_DM_LOWPRI) {
		io->masked_drops++;	/* masked, or SMI/NMI/INIT/ExtINT */
		return;
	}
	io->delivered++;
	vipi_device_irq(vm, (uint8_t)e, (e & RTE_DESTMOD) != 0,
			(uint8_t)(e >> 56), (e & RTE_DELMODE) == RTE_DM_LOWPRI);
}

const struct mmio_region vioapic_mmio = {
	"IOAPIC", 0xfec00000ull, 0x1000, ioapic_read, ioapic_write,
	NULL,
};
