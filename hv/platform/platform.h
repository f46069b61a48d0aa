/* Machine-level actions: halt, reboot, and the emulator exit used by tests. */
#ifndef HV_PLATFORM_H
#define HV_PLATFORM_H

#include <stdbool.h>

/* Called once the config is known: whether emulator exit ports may be used
 * (they are only touched when hv.cfg asks for test_exit). */
void platform_set_test_exit(bool enabled);

/* Prints "HV-EXIT: status=N" (the marker emulator tests wait for) and, in
 * test mode, asks the emulator to quit (QEMU isa-debug-exit at 0x501, Bochs
 * shutdown port 0x8900). Returns only when not in test mode. */
void platform_test_exit(int status);

void platform_halt(const char *why) __attribute__((noreturn));
void platform_reboot(void) __attribute__((noreturn));

#endif
