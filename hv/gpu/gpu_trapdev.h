/* hv.cfg gpu=model-mmio: the software Gen9 model placed behind trapped
 * hypervisor pages and an emulated PCI function at 00:02.0, so that the
 * real-GPU path (PCI discovery, config decoding, BAR mapping, the MMIO
 * backend's loads and stores, the pGPU driver) runs against it. See
 * docs/hardware.md, "One backend path". */
#ifndef HV_GPU_GPU_TRAPDEV_H
#define HV_GPU_GPU_TRAPDEV_H

#include <stdbool.h>
#include <stdint.h>

/* Build the device with its BARs just below map_top (the end of the
 * identity map), above ram_top. Before pci_scan. 0 or a negative error,
 * said on the console. */
int gpu_trapdev_setup(uint64_t map_top, uint64_t ram_top);

/* The device's clock: us microseconds passed (the MMIO backend's delay);
 * also lets the model run submitted work, as a GPU does on its own. */
void gpu_trapdev_tick(uint32_t us);

/* Is there one? */
bool gpu_trapdev_present(void);

/* One line of counters: trapped accesses by kind. */
void gpu_trapdev_report(void);

#endif
