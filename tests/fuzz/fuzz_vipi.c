/* libFuzzer target for hv/vm/vipi_route.c: guest ICR writes and logical
 * IDs against the promise of docs/smp.md, "Several vCPUs": an IPI reaches
 * only vCPUs of the sender's VM, and INIT/SIPI follow the state machine.
 *
 * Input: byte 0: the VM's vCPU count (1-8) and byte 1 the sender; then
 * records of 10 bytes: a selector byte (bit 0: x2APIC mode; bits 1-3: a
 * vCPU whose xAPIC LDR/DFR the next byte sets, when bit 4 is set), that
 * byte, and the 64-bit ICR value. Each record is decoded, its targets
 * resolved and its effect applied to a model of the vCPUs' run states;
 * anything outside the promise aborts. A record with selector bit 6 is a
 * device MSI instead (msi_decode): the low 32 bits of the value its
 * address (bit 7: with the second byte as address bits 39:32), the high
 * 32 its data; it reaches only the VM's vCPUs, lowest priority one. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hv/vm/vipi.h"
#include "hv/vm/vlapic.h"

#define NR_MAX 8

static void check(int ok)
{
	if (!ok)
		abort();
}

static void apply(const struct ipi *ipi, unsigned t, enum vcpu_run *run)
{
	enum ipi_effect e = ipi_effect(ipi, t, *run);

	switch (e) {
	case IPI_EFF_IRR:
		check(*run != VCPU_WAIT_SIPI && ipi->vector >= 16);
		break;
	case IPI_EFF_NMI:
		check(*run != VCPU_WAIT_SIPI);
		break;
	case IPI_EFF_INIT:
		check(t != 0 && ipi->mode == IPI_INIT);
		*run = VCPU_WAIT_SIPI;
		break;
	case IPI_EFF_START:
		check(*run == VCPU_WAIT_SIPI && ipi->mode == IPI_SIPI);
		*run = VCPU_RUN;
		break;
	case IPI_EFF_NONE:
	case IPI_EFF_DROP:
		break;
	default:
		abort();
	}
}

static void check_msi(uint64_t v, uint8_t sel, uint8_t b,
		      const struct vlapic *const *lp, unsigned nr)
{
	uint64_t addr = (uint32_t)v | (sel & 0x80 ? (uint64_t)b << 32 : 0);
	struct ipi ipi;
	bool ok = msi_decode(addr, (uint32_t)(v >> 32), sel & 1, &ipi);
	uint32_t set;

	check(ok == ((addr >> 20) == 0xfee));
	check(ipi.shorthand == IPI_DEST && !ipi.deassert);
	check(ipi.dest <= 0xff || ipi.dest == 0xffffffffu);
	set = ipi_targets(&ipi, 0, lp, nr);
	check((set >> nr) == 0);
	if (ipi.mode == IPI_LOWEST)
		check((set & (set - 1)) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vlapic l[NR_MAX];
	const struct vlapic *lp[NR_MAX];
	enum vcpu_run run[NR_MAX];
	unsigned nr, self;

	if (size < 2)
		return 0;
	nr = 1 + data[0] % NR_MAX;
	self = data[1] % (NR_MAX + 1);	/* one past: a sender not in it */
	memset(l, 0, sizeof(l));
	for (unsigned i = 0; i < nr; i++) {
		l[i].id = i;
		vlapic_reset(&l[i]);
		lp[i] = &l[i];
		run[i] = i ? VCPU_WAIT_SIPI : VCPU_RUN;
	}
	for (size_t o = 2; o + 10 <= size; o += 10) {
		uint8_t sel = data[o], b = data[o + 1];
		unsigned who = (sel >> 1) & 7;
		uint64_t icr;
		struct ipi ipi;
		uint32_t set;

		memcpy(&icr, data + o + 2, 8);
		if (sel & 0x40) {
			check_msi(icr, sel, b, lp, nr);
			continue;
		}
		if ((sel & 0x10) && who < nr) {
			l[who].xapic_ldr = (uint32_t)b << 24;
			l[who].xapic_dfr = sel & 0x20 ? 0x0fffffffu
						      : 0xffffffffu;
		}
		ipi_decode(icr, sel & 1, &ipi);
		check(ipi.x2apic || ipi.dest <= 0xff);
		set = ipi_targets(&ipi, self, lp, nr);
		check((set >> nr) == 0);	/* only the VM's vCPUs */
		if (self >= nr)
			check(set == 0);
		if (ipi.shorthand == IPI_SELF && self < nr)
			check(set == 1u << self);
		if (ipi.mode == IPI_LOWEST || (!ipi.logical &&
		    ipi.shorthand == IPI_DEST && ipi.dest != 0xff &&
		    ipi.dest != 0xffffffffu))
			check((set & (set - 1)) == 0);	/* one at most */
		for (unsigned i = 0; i < nr; i++)
			if (set & (1u << i))
				apply(&ipi, i, &run[i]);
		check(run[0] != VCPU_WAIT_SIPI);	/* vCPU 0 never waits */
	}
	return 0;
}
