/* The TSC as the hypervisor's clock: its frequency, measured once at boot
 * against the PIT (in Bochs the TSC advances with executed instructions,
 * and so does the emulated PIT, so the two agree there too). */
#ifndef HV_TSC_H
#define HV_TSC_H

#include <stdint.h>

/* Measures and remembers the frequency; returns it in Hz. */
uint64_t tsc_calibrate(void);
uint64_t tsc_hz(void);
static inline uint64_t tsc_ms(uint64_t ms) { return tsc_hz() / 1000 * ms; }

#endif
