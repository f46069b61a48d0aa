/* hv.cfg gpu=model-mmio: the software Gen9 model placed behind trapped
 * hypervisor pages and an emulated PCI function at 00:02.0, so that the
 * real-GPU path (PCI discovery, config decoding, BAR mapping, the MMIO
 * backend's loads and stores, the pGPU driver) runs against it. See
 * docs/hardware.md, "One backend path". */
#ifndef HV_GPU_GPU_TRAPDEV_H
#define HV_GPU_GPU_TRAPDEV_H

#include <stdbool.h>
#include <stdint.h>

struct gen9_model;

/* Build the device with its BARs just below map_top (the end of the
 * identity map), above ram_top. Before pci_scan. 0 or a negative error,
 * said on the console. */
int gpu_trapdev_setup(uint64_t map_top, uint64_t ram_top);

/* The device's clock: us microseconds passed (the MMIO backend's delay);
 * also lets the model run submitted work, as a GPU does on its own. */
void gpu_trapdev_tick(uint32_t us);

/* Is there one? */
bool gpu_trapdev_present(void);
/* Its model (the display engine's scanout: `screen dump`), or NULL. */
struct gen9_model *gpu_trapdev_model(void);

/* A guest aperture page gpa of VM vm stands for the trapped BAR2 page hpa
 * (hv/gpu/ap_redirect.h): remembered, or forgotten. 0 or -HV_ENOMEM. */
int gpu_trapdev_ap_map(uint32_t vm, uint64_t gpa, uint64_t hpa);
void gpu_trapdev_ap_unmap(uint32_t vm, uint64_t gpa);
/* The same for every page of [gpa, gpa + size); nothing to do (O(1))
 * while no page of any VM stands for a trapped BAR2 page. */
void gpu_trapdev_ap_unmap_range(uint32_t vm, uint64_t gpa, uint64_t size);
/* A guest's aperture access that exited: when gpa stands for a BAR2 page,
 * repeat it there (size 1, 2, 4 or 8; *val in for a write, out for a
 * read) and return true; false when it does not. */
bool gpu_trapdev_ap_access(uint32_t vm, uint64_t gpa, unsigned size,
			   bool write, uint64_t *val);

/* One line of counters: trapped accesses by kind. */
void gpu_trapdev_report(void);

#endif
