/* Guest aperture pages that stand for pages of a *trapped* physical
 * aperture (gpu=model-mmio): the mediator asked for EPT gpa -> hpa with
 * hpa in BAR2, but that BAR is not memory, only pages the hypervisor's
 * own accesses fault on. So the EPT entry stays not present and this
 * table remembers the target: the guest's access exits (EPT violation,
 * the VM's BAR2 region), the hypervisor repeats it at hpa, which faults
 * into the model (hv/gpu/gpu_trapdev.c): two traps per access, fine for a
 * test mode, and the same GGTT entry and fence the iGPU would apply.
 *
 * A fixed open-addressed table keyed by (VM id, guest page); pure, so the
 * host tests run it. */
#ifndef HV_GPU_AP_REDIRECT_H
#define HV_GPU_AP_REDIRECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ap_redirect_slot {
	uint64_t key; /* 0 free, else (gpa page | vm id + 1) */
	uint64_t hpa; /* page */
};

struct ap_redirect {
	struct ap_redirect_slot *slot;
	uint32_t cap; /* power of two */
	uint32_t used;
};

/* slots: cap entries, zeroed; cap a power of two. */
void ap_redirect_init(struct ap_redirect *t, struct ap_redirect_slot *slots,
		      uint32_t cap);
/* 0, or -1 when full (more than 3/4 used). Replaces an existing entry. */
int ap_redirect_set(struct ap_redirect *t, uint32_t vm, uint64_t gpa,
		    uint64_t hpa);
void ap_redirect_clear(struct ap_redirect *t, uint32_t vm, uint64_t gpa);
/* The hpa page gpa's page stands for, with gpa's page offset added. */
bool ap_redirect_find(const struct ap_redirect *t, uint32_t vm, uint64_t gpa,
		      uint64_t *hpa);

#endif
