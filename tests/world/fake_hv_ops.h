/* A hypervisor over plain memory for host tests of the mediator.
 *
 * One arena stands in for host-physical memory: the mediator's pages, the
 * VMs' RAM and everything the GPU (fake or model) reads come from it, and
 * hpa = FAKE_HPA_BASE + offset. VM RAM is deliberately not contiguous in
 * host-physical space (pairs of pages are swapped) so code that assumes
 * gpa + n -> hpa + n fails visibly.
 *
 * Optional, for studies: more VMs (fake_hv_init_vms), a clock of the
 * caller's (clock), and a record of the EPT mappings made in one window of
 * guest-physical space (fake_hv_record_ept), so a guest CPU access there
 * can be followed to what it reaches (fake_hv_ept_hpa). */
#ifndef TESTS_UNIT_FAKE_HV_OPS_H
#define TESTS_UNIT_FAKE_HV_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/hv_ops.h"
#include "gpu/hw/gpu_hw.h"

#define FAKE_HPA_BASE 0x100000000ull
#define FAKE_DEFAULT_VMS 20 /* VM ids 0 .. 19 (fake_hv_init) */

struct fake_vm {
	bool used;
	uint64_t ram_size;
	uint64_t first_page; /* arena page index of its RAM */
	uint8_t *wp; /* one byte per page: write-protected */
	uint64_t msi_count, msi_addr;
	uint32_t msi_data;
	uint64_t maps, unmaps;
	uint64_t *ept; /* recorded window: page -> mapped hpa (page), 0: none */
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
	struct fake_vm *vm; /* nr_vms of them */
	uint32_t nr_vms;
	uint64_t now;
	uint64_t now_step; /* added on every now_ns() call */
	/* When set, now_ns() is now + clock(clock_arg) instead (now_step
	 * unused): e.g. real elapsed time, with now moved by the caller. */
	uint64_t (*clock)(void *arg);
	void *clock_arg;
	uint64_t ept_gpa, ept_pages; /* recorded EPT window, pages 0: none */
	uint64_t wp_calls, unwp_calls;
	uint64_t foreign_maps; /* ept_map of another VM's RAM: must stay 0 */
	uint64_t logs[4];
	char last_log[256];
	/* When set, the last log line containing log_watch is kept in
	 * watched (a later, unrelated line does not hide it). */
	const char *log_watch;
	char watched[256];
	bool verbose;
	uint8_t *dirty; /* fake_hv_track_dirty: a byte per arena page */
	fake_trap_fn trap;
	void *trap_arg;
	struct hv_if hv;
	struct gpu_dma dma;
};

/* pool_mib for the mediator, ram_mib shared by all VMs. */
int fake_hv_init(struct fake_hv *f, uint32_t pool_mib, uint32_t ram_mib);
/* The same with VM ids 0 .. nr_vms - 1 (fake_hv_init: FAKE_DEFAULT_VMS). */
int fake_hv_init_vms(struct fake_hv *f, uint32_t pool_mib, uint32_t ram_mib,
		     uint32_t nr_vms);
void fake_hv_fini(struct fake_hv *f);
/* A VM with ram bytes of RAM at gpa 0. */
int fake_hv_add_vm(struct fake_hv *f, uint32_t vm, uint64_t ram);
/* Make VM vm's RAM read-only for the host (ro) or writable again: from
 * then on any store into it, by the mediator, the GPU model or the test,
 * faults at the storing instruction (fuzz targets: "not a byte of the
 * victim's memory changes", without comparing it after every input).
 * 0, or -1 with errno. */
int fake_hv_protect_ram(struct fake_hv *f, uint32_t vm, bool ro);
/* Note from now on every page of VM vm's RAM a pointer is handed out for
 * (guest reads and writes, the GPU's DMA, reads included: the holder of
 * a pointer may store through it), so fake_hv_zero_dirty can put the RAM
 * back to zero at the cost of what was touched rather than its size. */
int fake_hv_track_dirty(struct fake_hv *f, uint32_t vm);
/* Zero VM vm's pages touched since the last call (all of its RAM on the
 * first call after fake_hv_track_dirty); how many pages. */
uint64_t fake_hv_zero_dirty(struct fake_hv *f, uint32_t vm);
/* The same, copying them back from snap instead: a copy of all its RAM in
 * the arena's order (arena + first_page * 4096, ram_size bytes). */
uint64_t fake_hv_restore_dirty(struct fake_hv *f, uint32_t vm,
			       const uint8_t *snap);
/* The fake's tables outside struct fake_hv (mediator pages in use, VMs,
 * their write protection), saved and put back around a fuzz input;
 * together with a copy of the struct and the arena's pages, a fake as it
 * was. Not with a recorded EPT window (fake_hv_record_ept): -1. */
struct fake_hv_tables {
	uint8_t *pool_used;
	struct fake_vm *vm;
	uint8_t *wp; /* every used VM's, in VM order */
};
int fake_hv_save_tables(const struct fake_hv *f, struct fake_hv_tables *t);
void fake_hv_load_tables(struct fake_hv *f, const struct fake_hv_tables *t);
void fake_hv_free_tables(struct fake_hv_tables *t);
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
/* Record from now on the EPT mappings of every VM in [gpa, gpa + size)
 * (e.g. where guests place their aperture BAR); one window per fake. */
void fake_hv_record_ept(struct fake_hv *f, uint64_t gpa, uint64_t size);
/* What a guest CPU access to gpa in the recorded window reaches: the hpa
 * the EPT maps there (plus the offset in the page); 0 when unmapped (the
 * access would trap) or outside the window. */
uint64_t fake_hv_ept_hpa(struct fake_hv *f, uint32_t vm, uint64_t gpa);
/* Plain guest memory access (no trap). */
void fake_hv_guest_write(struct fake_hv *f, uint32_t vm, uint64_t gpa,
			 const void *data, size_t len);
void fake_hv_guest_read(struct fake_hv *f, uint32_t vm, uint64_t gpa,
			void *data, size_t len);

#endif
