/* TSC frequency from the 8254 PIT, channel 2 (the one gated by port 0x61
 * that drives no interrupt): count a known number of PIT ticks, read the
 * TSC at both ends. */
#include "hv/platform/tsc.h"
#include "hv/cpu/x86.h"

#define PIT_HZ		1193182u
#define PIT_CH2		0x42
#define PIT_CMD		0x43
#define PIT_GATE	0x61
#define GATE_ON		0x01	/* channel 2 gate */
#define SPEAKER_OFF	0x02	/* keep the speaker out of it */
#define OUT2		0x20	/* channel 2 output, read back on 0x61 */
#define CH2_MODE0	0xb0	/* channel 2, lo/hi byte, mode 0, binary */
#define CALIBRATE_MS	20

static uint64_t hz;

uint64_t tsc_calibrate(void)
{
	uint32_t ticks = PIT_HZ / 1000 * CALIBRATE_MS;
	uint8_t gate = inb(PIT_GATE);
	uint64_t t0, t1;

	outb(PIT_GATE, (uint8_t)((gate & ~SPEAKER_OFF) | GATE_ON));
	outb(PIT_CMD, CH2_MODE0);
	outb(PIT_CH2, (uint8_t)ticks);
	outb(PIT_CH2, (uint8_t)(ticks >> 8));
	/* Mode 0: OUT goes high when the count reaches 0. */
	t0 = rdtsc();
	/* Bounded: a machine without a working PIT must still boot (it
	 * then gets a nonsense frequency, which the boot log shows). */
	do
		t1 = rdtsc();
	while (!(inb(PIT_GATE) & OUT2) && t1 - t0 < (1ull << 36));
	outb(PIT_GATE, gate);
	hz = (t1 - t0) * 1000 / CALIBRATE_MS;
	return hz;
}

uint64_t tsc_hz(void)
{
	return hz;
}
