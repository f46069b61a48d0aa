/* hv.cfg: the one configuration file of the hypervisor.
 *
 * The parser is pure, freestanding C: it takes the file's bytes (read from
 * the ESP by boot/) and fills a struct hv_config. It never stops at the first
 * error: every problem is recorded with its line, section and a short reason,
 * a VM section with any error is kept in the list but marked invalid (so the
 * boot can say why it is not started), and a [global] key with an error
 * stays at its default. The format is documented for users in docs/hv-cfg.md.
 *
 * struct hv_config is large (~55 KiB): keep it in static storage, not on the
 * UEFI stack. */
#ifndef BOOT_CONFIG_H
#define BOOT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HVCFG_MAX_VMS		64
#define HVCFG_MAX_ERRORS	32
/* cpus=: CPU numbers 1..HVCFG_CPUS_MAX-1 (0 is the BSP's) */
#define HVCFG_CPUS_MAX		64
/* vcpus=: 1..HVCFG_VCPUS_MAX virtual CPUs per VM */
#define HVCFG_VCPUS_MAX		8
#define HVCFG_NAME_MAX		31	/* VM / section name, chars */
#define HVCFG_PATH_MAX		127	/* kernel= / ramdisk=, chars */
#define HVCFG_CMDLINE_MAX	511	/* cmdline=, chars */

/* Defaults of [global] and of the vGPU keys. */
#define HVCFG_DEFAULT_CONSOLE	HVCFG_CONSOLE_COM1
#define HVCFG_DEFAULT_SLICE_MS	10
#define HVCFG_DEFAULT_BALLOON_MS 500	/* gBalloon's period (the paper's) */
#define HVCFG_BALLOON_MS_MIN	10
#define HVCFG_BALLOON_MS_MAX	60000
#define HVCFG_DEFAULT_FENCES	4
/* gBalloon's calibration: 1/alpha and 1/beta, permille (0: derived from the
 * machine at boot, hv/gpu/gpu_balloon.c). */
#define HVCFG_RATE_MAX		1000000
/* vGPU faults (a hung or refused workload) each reset the vGPU; the
 * vgpu_faults-th within vgpu_fault_window_ms fails it for good. */
#define HVCFG_DEFAULT_VGPU_FAULTS	3
#define HVCFG_VGPU_FAULTS_MAX		1000
#define HVCFG_DEFAULT_VGPU_FAULT_WINDOW_MS 10000
#define HVCFG_VGPU_FAULT_WINDOW_MS_MAX	3600000

/* Limits of the VM keys. */
#define HVCFG_MEM_ALIGN		(2ull << 20)	/* VM memory granularity */
#define HVCFG_MEM_MIN		(2ull << 20)
#define HVCFG_MEM_MAX		(64ull << 30)
#define HVCFG_GM_ALIGN		(1ull << 20)	/* vGPU GM granularity */
#define HVCFG_GM_MIN		(1ull << 20)
#define HVCFG_GM_MAX		(4ull << 30)	/* each of low and high GM */
#define HVCFG_FENCES_MAX	32
/* vgpu_batch_kib= (gpu/vgpu/vgpu_priv.h VGPU_SBB_MIN_KIB/MAX_KIB) */
#define HVCFG_DISPLAY_MAX	15	/* vgpu_display= value, chars */
#define HVCFG_BATCH_KIB_MIN	256
#define HVCFG_BATCH_KIB_MAX	65536
/* vgpu_shadow_pt_kib=: the vGPU's budget of shadow page-table memory
 * (gpu/vgpu/vgpu.h VGPU_SHADOW_PT_KIB_*, docs/shadow-ppgtt.md). */
#define HVCFG_DEFAULT_SHADOW_PT_KIB	16384
#define HVCFG_SHADOW_PT_KIB_MIN		256
#define HVCFG_SHADOW_PT_KIB_MAX		262144
#define HVCFG_SLICE_MS_MIN	1
#define HVCFG_SLICE_MS_MAX	1000
/* slice_lone_ms=: how long a VM that is alone runnable on its CPU runs
 * before the main loop gets its round (0: every slice_ms, as with others). */
#define HVCFG_DEFAULT_SLICE_LONE_MS	100
#define HVCFG_SLICE_LONE_MS_MAX	1000
/* slice_stretch_ms=: how late a slice's end may come when nobody else on
 * the CPU waits for it, to ride on an exit the VM takes anyway (its own
 * timer's) instead of a preemption-timer exit of its own (hv/vm/sched.h
 * sched_set_stretch; 0: off). */
#define HVCFG_DEFAULT_SLICE_STRETCH_MS	10
#define HVCFG_SLICE_STRETCH_MS_MAX	100

/* console=: a bit mask of output sinks. */
enum hvcfg_console {
	HVCFG_CONSOLE_COM1 = 1,	/* the 16550 UART at 0x3f8 */
	HVCFG_CONSOLE_E9 = 2,	/* debug port 0xE9 (Bochs, QEMU -debugcon) */
	HVCFG_CONSOLE_FB = 4,	/* text drawn on the GOP framebuffer */
};

/* test_exit=: when to print the exit marker and leave the emulator. */
enum hvcfg_test_exit {
	HVCFG_EXIT_NO,
	HVCFG_EXIT_BOOT,	/* after the boot summary */
	HVCFG_EXIT_VMS,		/* once every VM has stopped */
	HVCFG_EXIT_SHELL,	/* when the shell's `halt` command runs */
};

/* selftest=: deliberately fault after boot to exercise the handler, or
 * start a CPU that is not there. */
enum hvcfg_selftest {
	HVCFG_SELFTEST_NONE,
	HVCFG_SELFTEST_PF,	/* page fault */
	HVCFG_SELFTEST_UD,	/* invalid opcode */
	/* at SMP bring-up, one more AP than the firmware listed, with an
	 * APIC id no CPU has: the bounded wait and the report of an AP
	 * that never checks in (hv/smp.c) */
	HVCFG_SELFTEST_SMP_GHOST,
};

/* gpu=: which physical GPU serves the vGPUs. */
enum hvcfg_gpu {
	HVCFG_GPU_AUTO,		/* a Gen9 iGPU on the PCI bus, else the model */
	HVCFG_GPU_MODEL,	/* always the software Gen9 model */
	HVCFG_GPU_MODEL_MMIO,	/* the model behind trapped MMIO, driven as
				 * the iGPU (hv/gpu/gpu_trapdev.c) */
};

/* vtd=: program the iGPU's VT-d unit (hv/vtd/vtd.c) when the DMAR has one. */
enum hvcfg_vtd {
	HVCFG_VTD_ON,
	HVCFG_VTD_OFF,
};

/* vtd_selftest=: after boot, DMA from a test device through the iGPU's
 * VT-d tables (hv/vtd/vtd_selftest.c). */
enum hvcfg_vtd_selftest {
	HVCFG_VTD_SELFTEST_NONE,
	HVCFG_VTD_SELFTEST_EDU,	/* QEMU's edu device */
};

/* placement=: where vGPUs' high GM goes on gScale's slots at boot. */
enum hvcfg_placement {
	HVCFG_PLACE_GSCALE,	/* each new vGPU on the least used slots */
	HVCFG_PLACE_DYMGPU,	/* DymGPU's size-based placement of all */
};

/* vgpu_ppgtt=: how the vGPU shadows its guest's PPGTT (gHyvi). */
enum hvcfg_ppgtt {
	HVCFG_PPGTT_STRICT,	/* trap every page-table store (gVirt) */
	HVCFG_PPGTT_FULL,	/* relax all table pages, diff all each time */
	HVCFG_PPGTT_DYNAMIC,	/* relax pages as they are written */
	HVCFG_PPGTT_SEGMENTED,	/* as dynamic, re-protect after each
				 * reconstruction (the paper's choice) */
	HVCFG_PPGTT_ADAPTIVE,	/* per table, by cost (gHyvi's default) */
};

struct hvcfg_vm {
	char name[HVCFG_NAME_MAX + 1];
	int line;			/* line of the [name] header */
	bool valid;			/* no errors: may be started */
	unsigned nr_errors;		/* errors in this section (incl. dropped) */
	uint64_t memory;		/* bytes */
	char kernel[HVCFG_PATH_MAX + 1];	/* as written, '\' or '/' */
	char ramdisk[HVCFG_PATH_MAX + 1];	/* "" = none */
	char cmdline[HVCFG_CMDLINE_MAX + 1];
	bool has_vgpu;
	uint64_t vgpu_low_gm;		/* bytes; 0 without a vGPU */
	uint64_t vgpu_high_gm;		/* bytes; 0 without a vGPU */
	uint32_t fences;		/* 0 without a vGPU */
	enum hvcfg_ppgtt ppgtt;		/* ADAPTIVE unless given */
	uint32_t shadow_pt_kib;		/* shadow page-table budget, KiB */
	bool vgpu_trace;		/* log every guest access to the vGPU */
	bool vgpu_trace_batches;	/* log every command the scanner reads */
	uint32_t vgpu_batch_kib;	/* shadow batch budget; 0: default */
	/* vgpu_display=: the virtual monitor's mode name (gpu/display's
	 * table) or "none"; "": the mediator's default (1024x768). */
	char vgpu_display[HVCFG_DISPLAY_MAX + 1];
	bool no_autostart;		/* autostart=no: created only by the
					 * shell's `vm NAME start` */
	/* cpus=: the physical CPUs the VM is pinned to, alone (bit i: CPU i
	 * in hv/smp.h's numbering, the BSP is 0; docs/smp.md). 0: the BSP,
	 * shared with every other VM without cpus=. */
	uint64_t cpus;
	/* The same CPUs in the order listed: vCPU i runs on
	 * cpu_list[i % nr_cpus] (hv/vm/sched_place.h); nr_cpus 0 without
	 * cpus=, at most the VM's vCPUs. */
	uint8_t cpu_list[HVCFG_VCPUS_MAX];
	uint32_t nr_cpus;
	int cpus_line;			/* where cpus= was given */
	/* vcpus=: the VM's virtual CPUs, 0 (not given) meaning 1; they run
	 * on its cpus= CPUs, else all on its one CPU (docs/smp.md). */
	uint32_t vcpus;
	/* virtio_console=yes: a virtio console (legacy virtio-pci, 00:03.0,
	 * hv/vm/vvirtio.h) beside COM1, for a Linux guest's console=hvc0. */
	bool virtio_console;
};

struct hvcfg_error {
	int line;			/* 1-based line in hv.cfg */
	char section[HVCFG_NAME_MAX + 1]; /* "global", a VM, or "" (none) */
	char reason[96];
};

struct hv_config {
	/* [global] */
	char default_vm[HVCFG_NAME_MAX + 1];	/* "" = hypervisor shell */
	/* The VM whose screen the box shows at boot (docs/display.md);
	 * "" = the hypervisor console. */
	char display_owner[HVCFG_NAME_MAX + 1];
	unsigned console;			/* enum hvcfg_console bits */
	uint32_t slice_ms;
	uint32_t slice_lone_ms;			/* a lone VM's longest slice */
	uint32_t slice_stretch_ms;		/* sched_set_stretch */
	uint32_t balloon_ms;			/* gBalloon policy period */
	uint32_t balloon_w_max;			/* 1/alpha, permille; 0: auto */
	uint32_t balloon_rcopy_max;		/* 1/beta, permille; 0: auto */
	uint32_t vgpu_faults;			/* resets before failing */
	uint32_t vgpu_fault_window_ms;		/* ... counted within this */
	enum hvcfg_test_exit test_exit;
	enum hvcfg_selftest selftest;
	enum hvcfg_gpu gpu;
	bool gpu_smoke;				/* the GPU smoke test at boot */
	bool gpu_preempt;			/* take the GPU back by preemption */
	bool vmx_vpid;				/* VPIDs where the CPU has them */
	bool vmx_msr_reads;			/* safe MSR reads without exits */
	bool vmx_apicv;				/* APIC virtualization */
	bool vmx_vid;				/* virtual-interrupt delivery */
	bool vuart_fifo_temt;			/* LSR.TEMT goes with THRE */
	bool dymgpu_live;			/* DymGPU's live moves */
	bool spread;				/* unpinned VMs over free CPUs */
	enum hvcfg_placement placement;
	enum hvcfg_vtd vtd;
	enum hvcfg_vtd_selftest vtd_selftest;

	/* one per VM section, in file order, valid or not */
	unsigned nr_vms;
	struct hvcfg_vm vms[HVCFG_MAX_VMS];

	/* The first HVCFG_MAX_ERRORS errors found, sorted by line. */
	unsigned nr_errors;		/* stored in errors[] */
	unsigned errors_dropped;	/* found after errors[] was full */
	struct hvcfg_error errors[HVCFG_MAX_ERRORS];
};

/* Everything at its default, no VMs, no errors: the configuration of a boot
 * without hv.cfg. */
void hvcfg_defaults(struct hv_config *cfg);

/* Resets cfg (hvcfg_defaults) and parses len bytes of text, which need not be
 * NUL-terminated. Returns the total number of errors, dropped ones included.
 * On return default_vm is either "" or the name of a listed VM (which may
 * still be invalid: check ->valid before attaching the console to it). */
unsigned hvcfg_parse(struct hv_config *cfg, const char *text, size_t len);

/* Formats error i as "hv.cfg:LINE: [section] reason" ("hv.cfg:LINE: reason"
 * for lines outside any section). Returns what snprintf returns, or -1 (and
 * an empty buf) when i is out of range. */
int hvcfg_format_error(const struct hv_config *cfg, unsigned i, char *buf,
		       size_t size);

/* The listed VM called name (case-sensitive), valid or not; NULL if none. */
const struct hvcfg_vm *hvcfg_find_vm(const struct hv_config *cfg,
				     const char *name);

#endif
