/* A hypervisor over plain host memory for the gScale study and its
 * mediator-level tests: like tests/unit/fake_hv_ops but for up to
 * EVHV_MAX_VMS VMs (the fake stops at 20), and it records the EPT mappings
 * the mediator asks for inside the guests' aperture window, so the ladder
 * mapping can be checked and used as the guest CPU's path to its aperture.
 *
 * One arena stands in for host-physical memory (hpa = EVHV_HPA_BASE +
 * offset): first the mediator's page pool, then each VM's RAM. now_ns() is
 * TSC-derived (real time, so the mediator's own timers measure real work)
 * plus a virtual offset the driver advances to simulate time passing. */
#ifndef TOOLS_EVAL_GSCALE_EVHV_H
#define TOOLS_EVAL_GSCALE_EVHV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/hv_ops.h"
#include "gpu/hw/gpu_hw.h"

#define EVHV_HPA_BASE 0x100000000ull
#define EVHV_MAX_VMS 72
/* Where every guest places BAR2 (guest-physical), above its RAM. */
#define EVHV_AP_GPA 0x80000000ull

struct evhv {
	uint8_t *arena;
	uint64_t pool_pages, ram_pages_per_vm, arena_pages;
	uint8_t *pool_used;
	uint64_t pool_hint, pages_in_use, pages_peak;
	uint32_t nvms;
	uint64_t ap_pages;              /* aperture window size in pages */
	uint64_t *ept[EVHV_MAX_VMS + 1]; /* per VM: aperture page -> hpa, 0 */
	uint64_t maps, unmaps, ept_outside; /* maps outside the window */
	uint64_t foreign_maps;          /* another VM's RAM: must stay 0 */
	uint64_t msis, logs_err, logs_warn;
	uint64_t virt_ns;               /* advanced by the driver */
	uint64_t tsc0;
	double ns_per_tick;
	bool quiet;
	/* Optional: the GPU whose aperture (BAR2 host range) an EPT mapping
	 * may name (the fence pool); evg_ap_read/write go through it then. */
	struct gpu_hw *gpu;
	struct hv_if hv;
	struct gpu_dma dma;
};

/* pool_mib for the mediator, nvms VMs (ids 1..nvms) of ram_mib each, an
 * aperture window of ap_bytes at EVHV_AP_GPA per VM. */
int evhv_init(struct evhv *e, uint32_t pool_mib, uint32_t nvms,
	      uint32_t ram_mib, uint64_t ap_bytes);
void evhv_fini(struct evhv *e);
uint64_t evhv_gpa_to_hpa(const struct evhv *e, uint32_t vm, uint64_t gpa);
void *evhv_hpa_ptr(const struct evhv *e, uint64_t hpa, size_t len);
/* VM owning the RAM page at hpa, 0: none (pool, aperture, garbage). */
uint32_t evhv_hpa_owner(const struct evhv *e, uint64_t hpa);
/* What the guest CPU's access to BAR2 offset off reaches: the hpa the EPT
 * maps there (page-aligned + offset), 0 when unmapped (would trap). */
uint64_t evhv_ap_hpa(const struct evhv *e, uint32_t vm, uint64_t off);
double evhv_tsc_hz(void);

#endif
