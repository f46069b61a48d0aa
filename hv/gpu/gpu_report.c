/* A vGPU's lines at the end of a run, on `vgpu VM` and for a torn-down
 * vGPU (gpu_teardown.c): which GM it has, then its counters, one line per
 * part of the mediator. The counters are a table of (text, field) pairs,
 * so a new counter is one row, not another printf with its argument list
 * kept in step by hand. */
#include <stddef.h>
#include "gpu/ghyvi/ghyvi.h"
#include "gpu/vgpu/vgpu.h"
#include "hv/console/console.h"
#include "hv/gpu/gpu_host.h"
#include "hv/vm/vm.h"

/* One counter: the text before it, where it is in struct vgpu_stats and
 * the unit it is shown in (1: as kept; 1000: ns shown as us). A row with
 * no text after the last field ends the line with `tail`. */
struct stat_field {
	const char *text;
	size_t off;
	uint32_t div;
};

/* Every counter is a uint64_t: a field of another size does not compile. */
#define OFF(field)	(offsetof(struct vgpu_stats, field) + 0 * sizeof(char[ \
	sizeof(((struct vgpu_stats *)0)->field) == 8 ? 1 : -1]))
#define F(text, field)	{ text, OFF(field), 1 }
#define US(text, field)	{ text, OFF(field), 1000 }
#define STATS_MAX_FIELDS 16

/* A line: printed always, or only when one of the `when` counters is not
 * zero (a part the run did not use stays quiet). */
struct stat_line {
	const struct stat_field f[STATS_MAX_FIELDS];
	const char *tail;
	const size_t when[3];	/* offsets + 1; 0 ends the list */
};

#define WHEN(field)	(OFF(field) + 1)

static uint64_t field(const struct vgpu_stats *s, size_t off)
{
	return *(const uint64_t *)((const char *)s + off);
}

static const struct stat_line counters = { {
	F("  mmio r/w ", mmio_reads), F("/", mmio_writes),
	F("  pvinfo ", pvinfo_reads), F("  ggtt writes ", ggtt_writes),
	F(" invalid ", ggtt_invalid), F("  pte traps ", pte_traps),
	F("  elsp ", elsp_submits), F("  workloads ", workloads),
	F(" done ", workloads_done), F(" failed ", workloads_failed),
	F(" rejected ", workloads_rejected), F("  irqs ", irqs_injected),
	F("  switches ", vgpu_switches), F("  ggtt copied ", gm_entries_copied),
	F("  ladder ", ladder_updates), F("  on-hw ", ns_on_hw),
}, " ns\n", { 0 } };

/* The ppgtt line starts with the policy's name (not a counter). */
static const struct stat_line ppgtt = { {
	F(", tables relaxed ", pte_relaxed),
	F(", reconstructions ", recon_runs),
	F(", entries re-translated ", recon_entries),
	F("; faults ", faults), F(", resets ", resets),
	US(" (last: ", ns_reset_to_run),
}, " us from the fault to running again)\n", { 0 } };

static const struct stat_line more[] = {
	{ {
		F("  scanner: commands ", cmds_scanned),
		F(", batches ", batches_scanned),
		F(", GGTT selectors cleared ", scan_ggtt_cleared),
		F(", privileged no-ops ", scan_priv_nooped),
		F(", registers dropped ", scan_regs_neutralized),
		F(", user batches refused ", user_faults),
	}, "\n", { 0 } },
	/* What the scanner read, by class (vgpu_cmd_scan.c cmd_class). */
	{ {
		F("  scanned: bytes ", scan_bytes), F(", mi ", scan_mi),
		F(", 3d ", scan_3d), F(", media/gpgpu ", scan_media),
		F(", mfx/vebox ", scan_video), F(", 2d ", scan_2d),
		F("; ns scanning ", ns_scan), F(", shadow ppgtt ", ns_shadow),
	}, "\n", { 0 } },
	/* The render context's workaround batches (vgpu_cmd_scan.c
	 * vgpu_scan_wa_ctx): copies scanned, workloads run with them. */
	{ {
		F("  wa batches: scanned ", wa_scanned),
		F(" (", wa_bytes), F(" bytes), run ", wa_run),
		F(", refused ", wa_refused),
	}, "\n", { WHEN(wa_scanned), WHEN(wa_refused) } },
	/* GPU time (gpu/vgpu/exec/vgpu_sched.c): how its work left the GPU. */
	{ {
		F("  gpu time: preemptions ", preemptions),
		F(" of ", preempt_requests), F(" asked, overruns ", overruns),
		F(", user hangs ", user_hangs), US(" (held off ", ns_held),
	}, " us)\n", { WHEN(preempt_requests), WHEN(overruns),
		       WHEN(user_hangs) } },
	/* The shadow batch pool (gpu/vgpu/exec/vgpu_own_gm.c), in 4 KiB pages. */
	{ {
		F("  batch pool: pages ", sbb_pages),
		F(" now, peak ", sbb_pages_peak), F("; waits ", sbb_waits),
		F(", requests over the budget ", sbb_too_big),
	}, "\n", { 0 } },
	/* Shadow rings grown past 64 KiB for a large segment, from that
	 * pool (gpu/vgpu/exec/vgpu_workload.c): peak in 4 KiB pages. */
	{ {
		F("  shadow rings: grown ", sring_grows),
		F(" times, peak ", sring_pages_peak),
		F(" pages; waits ", sring_waits),
		F(", segments over the budget ", sring_too_big),
	}, "\n", { 0 } },
	/* User batches that loop (docs/gpu-spinner.md) and software
	 * detiling of fenced aperture accesses. */
	{ {
		F("  loops: made in copies ", scan_loops),
		F(", watched ", loops_watched),
		F(" (no slot ", loops_watch_full),
		F("), batch ends mirrored ", batch_ends_mirrored),
		F(", other writes ignored ", batch_writes_ignored),
		F("; aperture accesses detiled ", ap_detiled),
	}, "\n", { WHEN(scan_loops), WHEN(loops_watched), WHEN(ap_detiled) } },
	/* gHyvi's unit costs for make bench (tools/bench-exits). */
	{ {
		F("  ghyvi costs: ept ", wp_changes), F(" in ", ns_ept),
		F(" ns, snapshots ", snapshots), F(" in ", ns_snapshot),
		F(" ns, pages diffed ", recon_pages), F(" in ", ns_diff),
		F(" ns, leaf entries re-translated ", retranslated_ptes),
		F(" in ", ns_retranslate),
	}, " ns\n", { WHEN(wp_changes), WHEN(recon_pages) } },
	/* Shadow PPGTT pool (docs/shadow-ppgtt.md). */
	{ {
		F("  shadow ppgtt: roots ", mm_created),
		F(", evicted ", mm_evicted), F(", rebuilt ", mm_rebuilt_evicted),
		F(" in ", ns_mm_rebuild), F(" ns, waits ", mm_waits),
		F(", over budget ", mm_over_budget),
		F(", entries built ", spt_entries_filled),
	}, "\n", { WHEN(mm_created) } },
	/* The virtual monitor's pipes (gpu/vgpu/display/vgpu_display.c). */
	{ {
		F("  display: vblanks ", vblanks), F(", flips ", flips),
		F(", planes refused ", planes_refused),
		F(", ring flips ", cmd_flips),
		F(", refused ", cmd_flips_refused),
		F(", hotplugs ", hotplugs),
	}, "\n", { WHEN(vblanks), WHEN(planes_refused),
		   WHEN(cmd_flips_refused) } },
};

static bool line_wanted(const struct stat_line *ln, const struct vgpu_stats *s)
{
	if (!ln->when[0])
		return true;
	for (size_t i = 0; i < 3 && ln->when[i]; i++)
		if (field(s, ln->when[i] - 1))
			return true;
	return false;
}

static void print_line(const struct stat_line *ln, const struct vgpu_stats *s)
{
	for (size_t i = 0; i < STATS_MAX_FIELDS && ln->f[i].text; i++)
		kprintf("%s%llu", ln->f[i].text, (unsigned long long)
			(field(s, ln->f[i].off) / ln->f[i].div));
	kprintf("%s", ln->tail);
}

/* gHyvi's policy of v, as hv.cfg and the `ppgtt` command spell it. */
const char *gpu_host_ppgtt_name(const struct vgpu *v)
{
	static const char *const names[] = {
		[VGPU_PPGTT_STRICT] = "strict", [VGPU_PPGTT_FULL] = "full",
		[VGPU_PPGTT_STATIC] = "static", [VGPU_PPGTT_DYNAMIC] = "dynamic",
		[VGPU_PPGTT_DYNAMIC_SEGMENTED] = "segmented",
		[VGPU_PPGTT_ADAPTIVE] = "adaptive",
	};
	struct vgpu_ghyvi_params p;

	vgpu_ghyvi_get(v, &p);
	return (unsigned)p.policy < VGPU_PPGTT_NR_POLICIES ? names[p.policy]
							   : "?";
}

void gpu_host_vgpu_lines(struct vgpu *v, unsigned vm_id,
			 struct gpu_vgpu_lines *l)
{
	l->id = vgpu_id(v);
	l->vm_id = vm_id;
	l->dead = vgpu_dead(v);
	l->torn_down = false;
	l->ppgtt = gpu_host_ppgtt_name(v);
	l->st = *vgpu_get_stats(v);
	vgpu_gm_ranges(v, &l->lb, &l->ls, &l->hb, &l->hs);
	l->nr_high = vgpu_high_ranges(v, l->hr, VGPU_MAX_RANGES);
}

/* The first line: which GM the vGPU has and whether it is still alive. */
static void print_head(const struct gpu_vgpu_lines *l)
{
	kprintf("vgpu %d (vm %u '%s'): low %llx+%llx high %llx+%llx",
		l->id, l->vm_id, vms[l->vm_id].name, (unsigned long long)l->lb,
		(unsigned long long)l->ls, (unsigned long long)l->hb,
		(unsigned long long)l->hs);
	/* Non-contiguous slots: the other high ranges, lowest first. */
	for (uint32_t r = 1; r < l->nr_high && r < VGPU_MAX_RANGES; r++)
		kprintf(", %llx+%llx", (unsigned long long)l->hr[r].base,
			(unsigned long long)l->hr[r].size);
	kprintf("%s%s\n", l->dead ? " FAILED" : "",
		l->torn_down ? " (torn down: released)" : "");
}

void gpu_host_print_vgpu(const struct gpu_vgpu_lines *l)
{
	const struct vgpu_stats *s = &l->st;

	print_head(l);
	print_line(&counters, s);
	kprintf("  ppgtt: %s", l->ppgtt);
	print_line(&ppgtt, s);
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		if (line_wanted(&more[i], s))
			print_line(&more[i], s);
}
