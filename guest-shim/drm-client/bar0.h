/* The vGPU's BAR0 from Linux user space (root): 32-bit register and 64-bit
 * GGTT entry access. i915 owns the device; this is what a hostile root
 * process can do beside it. Through /dev/mem at the BAR's address (sysfs
 * "resource"), registers and GGTT mapped apart: i915 maps the GGTT half
 * write-combining, and a sysfs resource0 mapping (strictly uncached) of
 * the whole BAR conflicts with that in PAT (EINVAL, "conflicting memory
 * types"); /dev/mem takes the type already in use. Needs iomem=relaxed
 * (strict devmem refuses a range a driver holds). */
#ifndef GUEST_SHIM_DRM_CLIENT_BAR0_H
#define GUEST_SHIM_DRM_CLIENT_BAR0_H

#include <stdint.h>

#define BAR0_RESOURCE "/sys/bus/pci/devices/0000:00:02.0/resource"
#define BAR0_REGS_SIZE (2u << 20) /* the registers i915 maps */
#define BAR0_GGTT (8u << 20) /* Gen9: the GGTT entries at BAR0 + 8 MiB */
#define BAR0_GGTT_SIZE (8u << 20)

/* PVINFO (i915 i915_pvinfo.h, struct vgt_if at 0x78000). */
#define PVINFO_BASE 0x78000u
#define PV_MAPPABLE_BASE (PVINFO_BASE + 0x40)
#define PV_MAPPABLE_SIZE (PVINFO_BASE + 0x44)
#define PV_NONMAPPABLE_BASE (PVINFO_BASE + 0x48)
#define PV_NONMAPPABLE_SIZE (PVINFO_BASE + 0x4c)
#define PV_G2V_NOTIFY (PVINFO_BASE + 0x818)
/* g9hv's own G2V code (not GVT's): log this vGPU's counters, low 16 bits
 * the guest's mark (gpu/vgpu/mmio/vgpu_pvinfo.c). */
#define G2V_G9HV_MARK 0x67390000u

struct bar0 {
	volatile uint8_t *p;	/* registers: BAR0 + 0, NULL if unmapped */
	volatile uint8_t *gtt;	/* GGTT entries: BAR0 + 8 MiB */
};

/* 0, or -errno (the guest kernel may refuse the mapping). */
int bar0_map(struct bar0 *b);
void bar0_unmap(struct bar0 *b);
uint32_t bar0_r32(const struct bar0 *b, uint32_t off);
void bar0_w32(const struct bar0 *b, uint32_t off, uint32_t val);
uint64_t bar0_pte_r(const struct bar0 *b, uint32_t index);
void bar0_pte_w(const struct bar0 *b, uint32_t index, uint64_t pte);

#endif
