/* hv_ops: the one door between the GPU mediator (gpu/vgpu/) and the
 * hypervisor above it.
 *
 * The mediator never touches EPT, VMCS or the page allocator directly; it
 * asks through these calls. The hypervisor (hv/) implements them for real;
 * host unit tests implement them over plain memory
 * (tests/world/fake_hv_ops.c). Every call names the VM it is about by the
 * hypervisor's VM id, so one table serves all VMs.
 *
 * Conventions: 0 or a non-negative count on success, a negative GPU_E*
 * code (gpu/hw/gpu_hw.h, Linux numbers) on failure. Addresses are byte
 * addresses; "page" means 4 KiB. None of these may call back into the
 * mediator synchronously, except where noted.
 *
 * This header is an API other code builds on: change it only by adding. */
#ifndef GPU_HV_OPS_H
#define GPU_HV_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Log levels, most severe first (same order as hv/console). */
enum hv_log_level {
	HV_LOG_ERR = 0,
	HV_LOG_WARN = 1,
	HV_LOG_INFO = 2,
	HV_LOG_DEBUG = 3,
};

/* ept_map flags */
#define HV_MAP_READ 0x1u
#define HV_MAP_WRITE 0x2u
#define HV_MAP_WC 0x4u /* write-combining (aperture) */

struct hv_ops {
	/* Guest-physical page -> host-physical page of VM vm. Fails with
	 * -GPU_EFAULT when gpa is not RAM of this VM (MMIO holes, other VMs'
	 * memory, beyond the end). Only the page frame matters: the offset
	 * inside the page is carried over. */
	int (*gpa_to_hpa)(void *ctx, uint32_t vm, uint64_t gpa, uint64_t *hpa);

	/* Copy len bytes from / to the VM's RAM at gpa. The whole range must
	 * be this VM's RAM (bounds-checked; -GPU_EFAULT otherwise, nothing
	 * copied). These are plain memory accesses: they bypass write
	 * protection and never call the mediator's trap handler. */
	int (*read_gpa)(void *ctx, uint32_t vm, uint64_t gpa, void *buf,
			size_t len);
	int (*write_gpa)(void *ctx, uint32_t vm, uint64_t gpa, const void *buf,
			 size_t len);

	/* Map the 4 KiB guest-physical page gpa of VM vm to host-physical page
	 * hpa (EPT), replacing any trap or mapping there; unmap makes the page
	 * trap again (an EPT violation the hypervisor routes back to the
	 * mediator as an MMIO access). Used for the aperture. */
	int (*ept_map)(void *ctx, uint32_t vm, uint64_t gpa, uint64_t hpa,
		       uint32_t flags);
	int (*ept_unmap)(void *ctx, uint32_t vm, uint64_t gpa);

	/* Write-protect / unprotect the guest page containing gpa. While a
	 * page is protected, every guest store to it is emulated by the
	 * hypervisor (the bytes land in guest memory) and then reported with
	 * vgpu_page_write() (gpu/vgpu/vgpu.h) with the store's gpa, bytes and
	 * width (1..16 bytes; a string store may be reported per store or as
	 * one range, even one crossing pages: the mediator handles both).
	 * Protecting an already protected page is not an error. */
	int (*wp_page)(void *ctx, uint32_t vm, uint64_t gpa);
	int (*unwp_page)(void *ctx, uint32_t vm, uint64_t gpa);

	/* Deliver a message-signalled interrupt to VM vm as the virtual PCI
	 * device 00:02.0 would (address/data from its MSI capability). */
	int (*inject_msi)(void *ctx, uint32_t vm, uint64_t addr, uint32_t data);

	/* Monotonic time in nanoseconds (TSC-derived on the machine). */
	uint64_t (*now_ns)(void *ctx);

	/* One log line, without trailing newline; vgpu_id 0 = the mediator
	 * itself. The hypervisor prefixes "vgpu<N>" and keeps it in its
	 * console ring. */
	void (*log)(void *ctx, int level, int vgpu_id, const char *msg);

	/* npages physically contiguous, zeroed, 4 KiB aligned pages for the
	 * mediator's own structures and for memory the GPU reads (shadow page
	 * tables, shadow rings and contexts): the returned pointer is the
	 * CPU view, *hpa the host-physical address of the first page. NULL
	 * when exhausted. */
	void *(*page_alloc)(void *ctx, size_t npages, uint64_t *hpa);
	void (*page_free)(void *ctx, void *va, size_t npages);

	/* Optional (may be NULL): the guest moved or (dis)abled a BAR of its
	 * virtual 00:02.0; base is the new guest-physical base. The
	 * hypervisor moves its BAR0 trap accordingly. */
	void (*bar_moved)(void *ctx, uint32_t vm, int bar, uint64_t base,
			  uint64_t size, bool enabled);

	/* Optional (may be NULL): ept_unmap for every page of [gpa, gpa +
	 * size) in one go, one TLB flush for all. A hypervisor that has it
	 * also calls vgpu_aperture_fault() when the guest touches an aperture
	 * page that is not mapped, so the mediator maps the aperture on
	 * demand: a BAR move costs one call, not one per page. */
	int (*ept_unmap_range)(void *ctx, uint32_t vm, uint64_t gpa,
			       uint64_t size);
};

/* What the mediator holds: the table and the hypervisor's context. */
struct hv_if {
	const struct hv_ops *ops;
	void *ctx;
};

#endif
