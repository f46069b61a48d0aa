/* gpu=model-mmio on the host: the real MMIO backend (gpu/hw/mmio_backend.c)
 * over PROT_NONE "BARs". Every load and store the compiler emitted for
 * them faults; a SIGSEGV handler emulates the instruction through
 * trapdev_access exactly as the hypervisor's #PF hook does
 * (hv/gpu/gpu_trapdev.c), so the model sees the driver's accesses with
 * their real widths. One at a time (the handler is process-wide). */
#ifndef TESTS_HARNESS_TRAPPED_MMIO_H
#define TESTS_HARNESS_TRAPPED_MMIO_H

#include "gpu/hw/gpu_hw.h"
#include "hv/gpu/trapdev_access.h"
#include "tests/harness/model_harness.h"

struct trapped {
	struct trapdev td;
	struct gpu_mmio_backend be;
	struct gpu_hw hw; /* the MMIO backend over the trapping BARs */
	uint64_t faults;  /* accesses emulated */
};

/* Map the BARs of h's model and install the handler; asserts on failure.
 * Call it inside the test body: cmocka installs its own SIGSEGV handler
 * around each test. */
void trapped_init(struct trapped *t, struct harness *h);
void trapped_fini(struct trapped *t);

#endif
