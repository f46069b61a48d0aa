/* The physical GPU the vGPU mediator runs on (hv/gpu/gpu_host.c). */
#ifndef HV_GPU_HOST_H
#define HV_GPU_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include "boot/config.h"
#include "gpu/vgpu/vgpu.h"
#include "hv/vm/sched.h"

struct gvt;
struct pci_dev;
struct vgpu;
struct gen9_model;

/* If any VM in cfg asks for a vGPU: bring up the GPU (igpu, the Gen9 iGPU
 * found on the PCI bus, unless NULL or hv.cfg says gpu=model; else the
 * software model) and the mediator on it. */
/* Before the PCI scan: hv.cfg gpu=model-mmio builds its emulated device
 * (hv/gpu/gpu_trapdev.c) with BARs in the last GiB below map_top. */
void gpu_host_early(const struct hv_config *cfg, uint64_t map_top,
		    uint64_t ram_top);
void gpu_host_init(const struct hv_config *cfg, const struct pci_dev *igpu);
/* After every VM's vGPU exists: hv.cfg's placement= (DymGPU by size). */
void gpu_host_place(const struct hv_config *cfg);
/* gBalloon's R_copy since the mediator came up, in thousandths. */
uint64_t gpu_host_rcopy_permille(void);
/* One line of the physical GPU's hang and reset counters (always, or only
 * when something was reset). */
void gpu_host_print_resets(bool always);
/* What EPT may do with a guest aperture page the mediator points at hpa
 * (gScale's fence pool): hpa outside the physical aperture, or no
 * physical aperture (the plain model): NONE; the iGPU's BAR2: map it
 * (DIRECT); gpu=model-mmio's trapped BAR2: keep the guest page trapping
 * and repeat its accesses at hpa (TRAPPED, hv/gpu/ap_redirect.h). */
enum gpu_ap_target { GPU_AP_NONE, GPU_AP_DIRECT, GPU_AP_TRAPPED };
enum gpu_ap_target gpu_host_aperture_target(uint64_t hpa);
/* The mediator, or NULL when none was created. */
struct gvt *gpu_host_gvt(void);
/* The GPU the mediator drives (NULL without one): what the physical
 * plane is programmed through (hv/gpu/screen_plane.c). */
struct gpu_hw *gpu_host_hw(void);
/* The software model behind it (gpu=model, gpu=model-mmio), or NULL on an
 * iGPU: what `screen dump` asks for the box's screen. */
struct gen9_model *gpu_host_model(void);

/* A vGPU for the VM just created with id from its hv.cfg section. */
void gpu_host_vgpu_create(const struct hvcfg_vm *c, uint32_t id);
/* Prints VM vm_id's vGPU: GM ranges and counters (false: it has none). */
bool gpu_host_report(unsigned vm_id);
/* What those lines show, kept for a vGPU that is gone (gpu_teardown.c). */
struct gpu_vgpu_lines {
	int id;
	unsigned vm_id;
	bool dead, torn_down;
	const char *ppgtt;
	uint64_t lb, ls, hb, hs;
	uint32_t nr_high;		/* high ranges; hr[0] is hb+hs */
	struct vgpu_gm_range hr[VGPU_MAX_RANGES];
	struct vgpu_stats st;
};
void gpu_host_vgpu_lines(struct vgpu *v, unsigned vm_id,
			 struct gpu_vgpu_lines *l);
void gpu_host_print_vgpu(const struct gpu_vgpu_lines *l);
/* v's PPGTT shadowing policy (gHyvi) by name: strict, full, ... */
const char *gpu_host_ppgtt_name(const struct vgpu *v);
/* gvt_poll, when a mediator exists (the main loop, hv/orchestrate.c, once
 * per round): the model, the mediator, failed vGPUs reset or their VMs
 * stopped. */
void gpu_host_poll(void);
/* hv/vm/sched.h's post-exit hook (set by the main loop): the mediator
 * for submissions the exit posted, and who pays for it. */
struct vm;
enum sched_post gpu_host_after_exit(struct vm *vm);
bool gpu_host_needs_rounds(void);
/* When the GPU side next needs the BSP's main loop (docs/smp.md "CPU 0
 * sleeps when idle"): now while it has work (posted, queued or running
 * submissions, a VM's picture composed onto the screen, gpu=model-mmio);
 * else UINT64_MAX: its periodic work (vblank ticks in gvt_poll, the
 * balloon and placement ticks) waits at most the caller's cap. */
uint64_t gpu_host_next_event(uint64_t now);
/* gBalloon's and DymGPU's periodic work, when a mediator exists; the main
 * loop calls it after stopped VMs' devices are torn down. */
void gpu_host_tick(void);

/* The mediator lock's and the mailboxes' counters (docs/smp.md). */
void gpu_host_print_concurrency(void);

#endif
