/* VT-d on the machine: the iGPU's remapping unit from the DMAR, its
 * registers mapped uncached, translation turned on over a domain that
 * lets 00:02.0 reach only what hv/vtd/vtd_policy.c allows, and its faults
 * polled from the main loop and reported (device, page, reason) once
 * per page, with counters (`vtd` in the shell).
 *
 * Without a DMAR, or with no unit for 00:02.0, or with vtd=off in
 * hv.cfg, boot says so and every call here does nothing. */
#ifndef HV_VTD_H
#define HV_VTD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "boot/config.h"
#include "hv/vtd/vtd_unit.h"

struct vtd_fault_log;

/* After the ACPI walk (hv_platform.acpi.dmar): find, program, say. */
void vtd_boot(const struct hv_config *cfg);
/* Translation is on for the iGPU's domain. */
bool vtd_active(void);
/* The mediator took (alloc) or gives back npages at hpa: the GPU may
 * reach them / no longer (invalidated before this returns, so the pages
 * can be reused). hv_ops' page_alloc/page_free call it; any other code
 * that gives the GPU memory to read or write (a smoke test's batch and
 * target pages) must call it too, or the GPU's access faults. */
void vtd_gpu_pages(uint64_t hpa, size_t npages, bool alloc);
/* VM id (name for messages) has a vGPU and runs (want) with its RAM at
 * [base, base + len): hv/vtd/vtd_vms.c keeps this in step each round. */
void vtd_vm_ram(unsigned id, const char *name, bool want, uint64_t base,
		uint64_t len);
/* Faults the unit recorded: read, report, count. Returns records read. */
unsigned vtd_poll_faults(void);
const struct vtd_fault_log *vtd_fault_log(void);
/* The shell's `vtd`. */
void vtd_print_status(void);

/* For the self-test (hv/vtd/vtd_selftest.c). Where no unit translates
 * 00:02.0 (QEMU has no iGPU) the unit that covers the test device
 * bus:devfn is programmed exactly as the iGPU's would be (its domain,
 * with 00:02.0 in it, and its RMRRs); where the iGPU's unit is on, the
 * test device must be behind it. Then: the device put behind the same
 * tables, a test buffer, the invalidation interface. */
int vtd_start_for_test(uint8_t bus, uint8_t devfn);
int vtd_attach_device(uint8_t bus, uint8_t devfn);
void vtd_detach_device(uint8_t bus, uint8_t devfn);
int vtd_test_buffer(uint64_t hpa, uint64_t len, bool allow);
int vtd_set_inval(enum vtd_inval_mode m);
const char *vtd_inval_name(void);

#endif
