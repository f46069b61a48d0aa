/* A hypervisor over plain memory for host tests of the mediator.
 *
 * One arena stands in for host-physical memory: the mediator's pages, the
 * VMs' RAM and everything the GPU (fake or model) reads come from it, and
 * hpa = FAKE_HPA_BASE + offset. VM RAM is deliberately not contiguous in
 * host-physical space (pairs of pages are swapped) so code that assumes
 * gpa + n -> hpa + n fails visibly. */
#ifndef TESTS_UNIT_FAKE_HV_OPS_H
#define TESTS_UNIT_FAKE_HV_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/hv_ops.h"
#include "gpu/hw/gpu_hw.h"

#define FAKE_HPA_BASE 0x100000000ull
#define FAKE_MAX_VMS 20

struct fake_vm {
	bool used;
	uint64_t ram_size;
	uint64_t first_page; /* arena page index of its RAM */
	uint8_t *wp; /* one byte per page: write-protected */
	uint64_t msi_count, msi_addr;
	uint32_t msi_data;
	uint64_t maps, unmaps;
};

typedef void (*fake_trap_fn)(void *arg, uint32_t vm, uint64_t gpa,
			     const void *data, size_t len);

struct fake_hv {
	uint8_t *arena;
	uint64_t arena_pages;
	uint64_t pool_first, pool_pages; /* mediator page pool */
	uint8_t *pool_used;
	uint64_t pool_hint;
	uint64_t pages_in_use, pages_peak;
	long fail_alloc_after; /* < 0: never; else fail when it reaches 0 */
	uint64_t next_ram_page;
	struct fake_vm vm[FAKE_MAX_VMS];
	uint64_t now;
	uint64_t now_step; /* added on every now_ns() call */
	uint64_t wp_calls, unwp_calls;
	uint64_t foreign_maps; /* ept_map of another VM's RAM: must stay 0 */
	uint64_t logs[4];
	char last_log[256];
	bool verbose;
	fake_trap_fn trap;
	void *trap_arg;
	struct hv_if hv;
	struct gpu_dma dma;
};

/* pool_mib for the mediator, ram_mib shared by all VMs. */
int fake_hv_init(struct fake_hv *f, uint32_t pool_mib, uint32_t ram_mib);
void fake_hv_fini(struct fake_hv *f);
/* A VM with ram bytes of RAM at gpa 0. */
int fake_hv_add_vm(struct fake_hv *f, uint32_t vm, uint64_t ram);
/* hpa of a VM page, or 0; host pointer of an hpa, or NULL. */
uint64_t fake_hv_gpa_to_hpa(struct fake_hv *f, uint32_t vm, uint64_t gpa);
void *fake_hv_hpa_ptr(struct fake_hv *f, uint64_t hpa, size_t len);
/* Which VM owns the page at hpa (-1: none, e.g. a mediator page). */
int fake_hv_hpa_owner(struct fake_hv *f, uint64_t hpa);
bool fake_hv_is_wp(struct fake_hv *f, uint32_t vm, uint64_t gpa);
uint32_t fake_hv_nr_wp(struct fake_hv *f, uint32_t vm);
/* A guest CPU store: memory first, then the trap if the page is
 * write-protected (what the hypervisor's EPT handler does). */
void fake_hv_guest_store(struct fake_hv *f, uint32_t vm, uint64_t gpa,
			 const void *data, size_t len);
/* Plain guest memory access (no trap). */
void fake_hv_guest_write(struct fake_hv *f, uint32_t vm, uint64_t gpa,
			 const void *data, size_t len);
void fake_hv_guest_read(struct fake_hv *f, uint32_t vm, uint64_t gpa,
			void *data, size_t len);

#endif
