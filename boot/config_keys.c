/* hv.cfg parser, part 2 of 3 (config_internal.h): every key, what it
 * accepts and where it stores it. The reference for users is
 * docs/hv-cfg.md. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mini/stdio.h"
#include "mini/string.h"
#include "boot/config_internal.h"
#include "gpu/display/vdisp_edid.h"

/* ---- keys -------------------------------------------------------------- */


/* A complaint about the value of k. */
static bool bad_value(struct parser *p, const struct key *k, struct span v,
		      const char *why)
{
	char q[28];

	cfg_err(p, "%s: '%s' %s", k->name, cfg_quote(q, sizeof(q), v), why);
	return false;
}

struct keyword {
	const char *word;
	unsigned value;
};

static bool lookup_keyword(const struct keyword *kw, struct span v,
			   unsigned *out)
{
	for (; kw->word; kw++) {
		if (cfg_span_ieq(v, kw->word)) {
			*out = kw->value;
			return true;
		}
	}
	return false;
}

bool cfg_valid_name(struct span v)
{
	size_t i;

	if (!v.n || v.n > HVCFG_NAME_MAX)
		return false;
	for (i = 0; i < v.n; i++)
		if (!cfg_is_alnum(v.s[i]) && v.s[i] != '_' && v.s[i] != '-')
			return false;
	return true;
}

/* -- [global] -- */

static bool set_default(struct parser *p, const struct key *k, struct span v)
{
	if (!cfg_valid_name(v))
		return bad_value(p, k, v, "is not a VM name");
	cfg_copy_span(p->cfg->default_vm, sizeof(p->cfg->default_vm), v);
	/* Whether the VM exists is known only at the end of the file. */
	p->default_line = p->line;
	return true;
}

static void reset_default(struct hv_config *cfg)
{
	cfg->default_vm[0] = '\0';
}

static bool set_display_owner(struct parser *p, const struct key *k,
			      struct span v)
{
	if (!cfg_valid_name(v))
		return bad_value(p, k, v, "is not a VM name");
	cfg_copy_span(p->cfg->display_owner, sizeof(p->cfg->display_owner), v);
	p->display_owner_line = p->line;	/* checked at the end */
	return true;
}

static void reset_display_owner(struct hv_config *cfg)
{
	cfg->display_owner[0] = '\0';
}

static const struct keyword console_words[] = {
	{ "com1", HVCFG_CONSOLE_COM1 },
	{ "e9", HVCFG_CONSOLE_E9 },
	{ "fb", HVCFG_CONSOLE_FB },
	{ NULL, 0 },
};

static bool set_console(struct parser *p, const struct key *k, struct span v)
{
	unsigned mask = 0, bit;
	struct span all = v, item;
	size_t comma;

	for (;;) {
		comma = cfg_span_find(v, ',');
		item = cfg_trim((struct span){ v.s, comma });
		if (!item.n)
			return bad_value(p, k, all, "has an empty item");
		if (!lookup_keyword(console_words, item, &bit))
			return bad_value(p, k, item, "is not a sink (com1, fb, e9)");
		mask |= bit;
		if (comma == v.n)
			break;
		v = cfg_span_from(v, comma + 1);
	}
	p->cfg->console = mask;
	return true;
}

static void reset_console(struct hv_config *cfg)
{
	cfg->console = HVCFG_DEFAULT_CONSOLE;
}

static bool set_slice_ms(struct parser *p, const struct key *k, struct span v)
{
	uint64_t x;

	if (!cfg_parse_number(v, &x))
		return bad_value(p, k, v, "is not a number");
	if (x < HVCFG_SLICE_MS_MIN || x > HVCFG_SLICE_MS_MAX)
		return bad_value(p, k, v, "is out of range (1..1000)");
	p->cfg->slice_ms = (uint32_t)x;
	return true;
}

static void reset_slice_ms(struct hv_config *cfg)
{
	cfg->slice_ms = HVCFG_DEFAULT_SLICE_MS;
}

static bool set_balloon_ms(struct parser *p, const struct key *k,
			   struct span v)
{
	uint64_t x;

	if (!cfg_parse_number(v, &x))
		return bad_value(p, k, v, "is not a number");
	if (x < HVCFG_BALLOON_MS_MIN || x > HVCFG_BALLOON_MS_MAX)
		return bad_value(p, k, v, "is out of range (10..60000)");
	p->cfg->balloon_ms = (uint32_t)x;
	return true;
}

static void reset_balloon_ms(struct hv_config *cfg)
{
	cfg->balloon_ms = HVCFG_DEFAULT_BALLOON_MS;
}

/* Plain numbers of [global]: where each lives, its range and default. */
struct num_key {
	size_t off;
	uint32_t min, max, def;
	const char *range;
};

static const struct num_key num_keys[NR_GK] = {
	[GK_BALLOON_W_MAX] = { offsetof(struct hv_config, balloon_w_max), 0,
			       HVCFG_RATE_MAX, 0, "is out of range (0..1000000)" },
	[GK_BALLOON_RCOPY_MAX] = { offsetof(struct hv_config,
					    balloon_rcopy_max),
				   0, HVCFG_RATE_MAX, 0, "is out of range (0..1000000)" },
	[GK_VGPU_FAULTS] = { offsetof(struct hv_config, vgpu_faults), 1,
			     HVCFG_VGPU_FAULTS_MAX, HVCFG_DEFAULT_VGPU_FAULTS,
			     "is out of range (1..1000)" },
	[GK_VGPU_FAULT_WINDOW_MS] = { offsetof(struct hv_config,
					       vgpu_fault_window_ms),
				      1, HVCFG_VGPU_FAULT_WINDOW_MS_MAX,
				      HVCFG_DEFAULT_VGPU_FAULT_WINDOW_MS,
				      "is out of range (1..3600000)" },
	[GK_SLICE_LONE_MS] = { offsetof(struct hv_config, slice_lone_ms), 0,
			       HVCFG_SLICE_LONE_MS_MAX,
			       HVCFG_DEFAULT_SLICE_LONE_MS,
			       "is out of range (0..1000)" },
	[GK_SLICE_STRETCH_MS] = { offsetof(struct hv_config,
					   slice_stretch_ms), 0,
				  HVCFG_SLICE_STRETCH_MS_MAX,
				  HVCFG_DEFAULT_SLICE_STRETCH_MS,
				  "is out of range (0..100)" },
};

static uint32_t *num_field(struct hv_config *cfg, unsigned gk)
{
	return (uint32_t *)((char *)cfg + num_keys[gk].off);
}

static bool set_num(struct parser *p, const struct key *k, struct span v)
{
	const struct num_key *n = &num_keys[k - cfg_global_keys];
	uint64_t x;

	if (!cfg_parse_number(v, &x))
		return bad_value(p, k, v, "is not a number");
	if (x < n->min || x > n->max)
		return bad_value(p, k, v, n->range);
	*num_field(p->cfg, (unsigned)(k - cfg_global_keys)) = (uint32_t)x;
	return true;
}

#define NUM_RESET(gk, fn)                                                   \
	static void fn(struct hv_config *cfg)                               \
	{                                                                   \
		*num_field(cfg, gk) = num_keys[gk].def;                     \
	}
NUM_RESET(GK_BALLOON_W_MAX, reset_w_max)
NUM_RESET(GK_BALLOON_RCOPY_MAX, reset_rcopy_max)
NUM_RESET(GK_VGPU_FAULTS, reset_vgpu_faults)
NUM_RESET(GK_VGPU_FAULT_WINDOW_MS, reset_vgpu_fault_window)
NUM_RESET(GK_SLICE_LONE_MS, reset_slice_lone_ms)
NUM_RESET(GK_SLICE_STRETCH_MS, reset_slice_stretch_ms)

static const struct keyword placement_words[] = {
	{ "gscale", HVCFG_PLACE_GSCALE },
	{ "dymgpu", HVCFG_PLACE_DYMGPU },
	{ NULL, 0 },
};

static bool set_placement(struct parser *p, const struct key *k,
			  struct span v)
{
	unsigned x;

	if (!lookup_keyword(placement_words, v, &x))
		return bad_value(p, k, v, "is not one of gscale, dymgpu");
	p->cfg->placement = (enum hvcfg_placement)x;
	return true;
}

static void reset_placement(struct hv_config *cfg)
{
	cfg->placement = HVCFG_PLACE_GSCALE;
}

static const struct keyword test_exit_words[] = {
	{ "no", HVCFG_EXIT_NO },
	{ "boot", HVCFG_EXIT_BOOT },
	{ "vms", HVCFG_EXIT_VMS },
	{ "shell", HVCFG_EXIT_SHELL },
	{ NULL, 0 },
};

static bool set_test_exit(struct parser *p, const struct key *k, struct span v)
{
	unsigned x;

	if (!lookup_keyword(test_exit_words, v, &x))
		return bad_value(p, k, v, "is not one of no, boot, vms, shell");
	p->cfg->test_exit = (enum hvcfg_test_exit)x;
	return true;
}

static void reset_test_exit(struct hv_config *cfg)
{
	cfg->test_exit = HVCFG_EXIT_NO;
}

static const struct keyword selftest_words[] = {
	{ "none", HVCFG_SELFTEST_NONE },
	{ "pf", HVCFG_SELFTEST_PF },
	{ "ud", HVCFG_SELFTEST_UD },
	{ "smp-ghost", HVCFG_SELFTEST_SMP_GHOST },
	{ NULL, 0 },
};

static bool set_selftest(struct parser *p, const struct key *k, struct span v)
{
	unsigned x;

	if (!lookup_keyword(selftest_words, v, &x))
		return bad_value(p, k, v, "is not one of none, pf, ud, smp-ghost");
	p->cfg->selftest = (enum hvcfg_selftest)x;
	return true;
}

static void reset_selftest(struct hv_config *cfg)
{
	cfg->selftest = HVCFG_SELFTEST_NONE;
}

static const struct keyword gpu_words[] = {
	{ "auto", HVCFG_GPU_AUTO },
	{ "model", HVCFG_GPU_MODEL },
	{ "model-mmio", HVCFG_GPU_MODEL_MMIO },
	{ NULL, 0 },
};

static bool set_gpu(struct parser *p, const struct key *k, struct span v)
{
	unsigned x;

	if (!lookup_keyword(gpu_words, v, &x))
		return bad_value(p, k, v, "is not one of auto, model, model-mmio");
	p->cfg->gpu = (enum hvcfg_gpu)x;
	return true;
}

static void reset_gpu(struct hv_config *cfg)
{
	cfg->gpu = HVCFG_GPU_AUTO;
}

static const struct keyword vtd_words[] = {
	{ "on", HVCFG_VTD_ON },
	{ "off", HVCFG_VTD_OFF },
	{ NULL, 0 },
};

static bool set_vtd(struct parser *p, const struct key *k, struct span v)
{
	unsigned x;

	if (!lookup_keyword(vtd_words, v, &x))
		return bad_value(p, k, v, "is not one of on, off");
	p->cfg->vtd = (enum hvcfg_vtd)x;
	return true;
}

static void reset_vtd(struct hv_config *cfg)
{
	cfg->vtd = HVCFG_VTD_ON;
}

static const struct keyword vtd_selftest_words[] = {
	{ "none", HVCFG_VTD_SELFTEST_NONE },
	{ "edu", HVCFG_VTD_SELFTEST_EDU },
	{ NULL, 0 },
};

static bool set_vtd_selftest(struct parser *p, const struct key *k,
			     struct span v)
{
	unsigned x;

	if (!lookup_keyword(vtd_selftest_words, v, &x))
		return bad_value(p, k, v, "is not one of none, edu");
	p->cfg->vtd_selftest = (enum hvcfg_vtd_selftest)x;
	return true;
}

static void reset_vtd_selftest(struct hv_config *cfg)
{
	cfg->vtd_selftest = HVCFG_VTD_SELFTEST_NONE;
}

static const struct keyword yes_no_words[] = {
	{ "no", 0 },
	{ "yes", 1 },
	{ NULL, 0 },
};

/* Switches of [global], yes or no: gpu_smoke=yes (off by default) runs the
 * hardware smoke test at boot (docs/hardware.md); gpu_preempt (on by
 * default) takes the GPU back from a vGPU whose slice is over by
 * preemption rather than by waiting or resetting (docs/vgpu-reset.md);
 * vmx_vpid (on by default) tags each vCPU's TLB entries with its own VPID
 * where the CPU has them, `no` keeps the flush at every entry and exit
 * (docs/performance.md); vmx_msr_reads (on by default) lets the guest
 * read the MSRs VM entry loads with its values without an exit;
 * vmx_apicv (on by default) virtualizes the xAPIC page where the CPU can
 * (hv/vm/vlapic_apicv.c); vmx_vid (on by default) adds virtual-interrupt
 * delivery to it where the CPU has it (no EOI exits for edge vectors);
 * vuart_fifo_temt (on by default) sets the vUART's LSR.TEMT with THRE
 * (hv/vm/vuart.c); spread (on by default) places each VM without cpus=
 * on the least loaded CPU nobody pinned, `no` keeps them all on the BSP
 * (hv/vm/sched_place.h). */
static const size_t switch_keys[NR_GK] = {
	[GK_GPU_SMOKE] = offsetof(struct hv_config, gpu_smoke),
	[GK_GPU_PREEMPT] = offsetof(struct hv_config, gpu_preempt),
	[GK_VMX_VPID] = offsetof(struct hv_config, vmx_vpid),
	[GK_VMX_MSR_READS] = offsetof(struct hv_config, vmx_msr_reads),
	[GK_VMX_APICV] = offsetof(struct hv_config, vmx_apicv),
	[GK_VUART_FIFO_TEMT] = offsetof(struct hv_config, vuart_fifo_temt),
	[GK_DYMGPU_LIVE] = offsetof(struct hv_config, dymgpu_live),
	[GK_SPREAD] = offsetof(struct hv_config, spread),
	[GK_VMX_VID] = offsetof(struct hv_config, vmx_vid),
};

static bool *switch_field(struct hv_config *cfg, unsigned gk)
{
	return (bool *)((char *)cfg + switch_keys[gk]);
}

static bool set_switch(struct parser *p, const struct key *k, struct span v)
{
	unsigned x;

	if (!lookup_keyword(yes_no_words, v, &x))
		return bad_value(p, k, v, "is not yes or no");
	*switch_field(p->cfg, (unsigned)(k - cfg_global_keys)) = x != 0;
	return true;
}

#define SWITCH_RESET(gk, fn, on)                                            \
	static void fn(struct hv_config *cfg)                               \
	{                                                                   \
		*switch_field(cfg, gk) = on;                                \
	}
SWITCH_RESET(GK_GPU_SMOKE, reset_gpu_smoke, false)
SWITCH_RESET(GK_GPU_PREEMPT, reset_gpu_preempt, true)
SWITCH_RESET(GK_VMX_VPID, reset_vmx_vpid, true)
SWITCH_RESET(GK_VMX_MSR_READS, reset_vmx_msr_reads, true)
SWITCH_RESET(GK_VMX_APICV, reset_vmx_apicv, true)
SWITCH_RESET(GK_VMX_VID, reset_vmx_vid, true)
SWITCH_RESET(GK_VUART_FIFO_TEMT, reset_vuart_fifo_temt, true)
SWITCH_RESET(GK_DYMGPU_LIVE, reset_dymgpu_live, true)
SWITCH_RESET(GK_SPREAD, reset_spread, true)

const struct key cfg_global_keys[NR_GK] = {
	[GK_DEFAULT]	= { "default", false, set_default, reset_default },
	[GK_CONSOLE]	= { "console", false, set_console, reset_console },
	[GK_SLICE_MS]	= { "slice_ms", false, set_slice_ms, reset_slice_ms },
	[GK_BALLOON_MS]	= { "balloon_ms", false, set_balloon_ms,
			    reset_balloon_ms },
	[GK_TEST_EXIT]	= { "test_exit", false, set_test_exit, reset_test_exit },
	[GK_SELFTEST]	= { "selftest", false, set_selftest, reset_selftest },
	[GK_GPU]	= { "gpu", false, set_gpu, reset_gpu },
	[GK_PLACEMENT]	= { "placement", false, set_placement,
			    reset_placement },
	[GK_BALLOON_W_MAX] = { "balloon_w_max", false, set_num, reset_w_max },
	[GK_BALLOON_RCOPY_MAX] = { "balloon_rcopy_max", false, set_num,
				   reset_rcopy_max },
	[GK_VGPU_FAULTS] = { "vgpu_faults", false, set_num,
			     reset_vgpu_faults },
	[GK_VGPU_FAULT_WINDOW_MS] = { "vgpu_fault_window_ms", false, set_num,
				      reset_vgpu_fault_window },
	[GK_VTD]	= { "vtd", false, set_vtd, reset_vtd },
	[GK_VTD_SELFTEST] = { "vtd_selftest", false, set_vtd_selftest,
			      reset_vtd_selftest },
	[GK_GPU_SMOKE]	= { "gpu_smoke", false, set_switch, reset_gpu_smoke },
	[GK_GPU_PREEMPT] = { "gpu_preempt", false, set_switch,
			     reset_gpu_preempt },
	[GK_VMX_VPID]	= { "vmx_vpid", false, set_switch, reset_vmx_vpid },
	[GK_VMX_MSR_READS] = { "vmx_msr_reads", false, set_switch,
			       reset_vmx_msr_reads },
	[GK_VMX_APICV]	= { "vmx_apicv", false, set_switch, reset_vmx_apicv },
	[GK_VUART_FIFO_TEMT] = { "vuart_fifo_temt", false, set_switch,
				 reset_vuart_fifo_temt },
	[GK_DISPLAY_OWNER] = { "display_owner", false, set_display_owner,
			       reset_display_owner },
	[GK_DYMGPU_LIVE] = { "dymgpu_live", false, set_switch,
			     reset_dymgpu_live },
	[GK_SLICE_LONE_MS] = { "slice_lone_ms", false, set_num,
			       reset_slice_lone_ms },
	[GK_SPREAD]	= { "spread", false, set_switch, reset_spread },
	[GK_SLICE_STRETCH_MS] = { "slice_stretch_ms", false, set_num,
				  reset_slice_stretch_ms },
	[GK_VMX_VID]	= { "vmx_vid", false, set_switch, reset_vmx_vid },
};

/* -- [vm] -- */

static bool set_memory(struct parser *p, const struct key *k, struct span v)
{
	uint64_t x;

	if (!cfg_parse_size(v, &x))
		return bad_value(p, k, v, "is not a size");
	if (x < HVCFG_MEM_MIN || x > HVCFG_MEM_MAX)
		return bad_value(p, k, v, "is out of range (2M..64G)");
	/* EPT maps guest memory with 2 MiB pages. */
	if (x % HVCFG_MEM_ALIGN)
		return bad_value(p, k, v, "is not a multiple of 2M");
	p->vm->memory = x;
	return true;
}

static bool set_path(struct parser *p, const struct key *k, struct span v,
		     char *dst)
{
	size_t i;

	if (v.n > HVCFG_PATH_MAX)
		return bad_value(p, k, v, "is too long (max 127 chars)");
	/* Paths are from the ESP root: there is no current directory. */
	if (v.s[0] != '\\' && v.s[0] != '/')
		return bad_value(p, k, v, "must start with \\ or /");
	/* boot/ widens the path to CHAR16 byte by byte. */
	for (i = 0; i < v.n; i++)
		if (!cfg_is_print(v.s[i]))
			return bad_value(p, k, v, "has a non-ASCII character");
	cfg_copy_span(dst, HVCFG_PATH_MAX + 1, v);
	return true;
}

static bool set_kernel(struct parser *p, const struct key *k, struct span v)
{
	return set_path(p, k, v, p->vm->kernel);
}

static bool set_ramdisk(struct parser *p, const struct key *k, struct span v)
{
	return set_path(p, k, v, p->vm->ramdisk);
}

static bool set_cmdline(struct parser *p, const struct key *k, struct span v)
{
	size_t i;

	if (v.n > HVCFG_CMDLINE_MAX)
		return bad_value(p, k, v, "is too long (max 511 chars)");
	/* Bytes >= 0x80 pass (the kernel takes them); control bytes are
	 * almost surely a broken file. */
	for (i = 0; i < v.n; i++) {
		unsigned char c = (unsigned char)v.s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return bad_value(p, k, v, "has a control character");
	}
	cfg_copy_span(p->vm->cmdline, sizeof(p->vm->cmdline), v);
	return true;
}

/* Graphics memory: the vGPU types are sized in MiB, and each half must fit
 * the 4 GiB GGTT. */
static bool set_gm(struct parser *p, const struct key *k, struct span v,
		   uint64_t *dst)
{
	uint64_t x;

	if (!cfg_parse_size(v, &x))
		return bad_value(p, k, v, "is not a size");
	if (x < HVCFG_GM_MIN || x > HVCFG_GM_MAX)
		return bad_value(p, k, v, "is out of range (1M..4G)");
	if (x % HVCFG_GM_ALIGN)
		return bad_value(p, k, v, "is not a multiple of 1M");
	*dst = x;
	return true;
}

static bool set_low_gm(struct parser *p, const struct key *k, struct span v)
{
	return set_gm(p, k, v, &p->vm->vgpu_low_gm);
}

static bool set_high_gm(struct parser *p, const struct key *k, struct span v)
{
	return set_gm(p, k, v, &p->vm->vgpu_high_gm);
}

static bool set_fences(struct parser *p, const struct key *k, struct span v)
{
	uint64_t x;

	if (!cfg_parse_number(v, &x))
		return bad_value(p, k, v, "is not a number");
	if (x > HVCFG_FENCES_MAX)
		return bad_value(p, k, v, "is out of range (0..32)");
	p->vm->fences = (uint32_t)x;
	return true;
}

static const struct keyword ppgtt_words[] = {
	{ "strict", HVCFG_PPGTT_STRICT },
	{ "full", HVCFG_PPGTT_FULL },
	{ "dynamic", HVCFG_PPGTT_DYNAMIC },
	{ "segmented", HVCFG_PPGTT_SEGMENTED },
	{ "adaptive", HVCFG_PPGTT_ADAPTIVE },
	{ NULL, 0 },
};

static bool set_ppgtt(struct parser *p, const struct key *k, struct span v)
{
	unsigned x;

	if (!lookup_keyword(ppgtt_words, v, &x))
		return bad_value(p, k, v, "is not one of strict, full, "
				 "dynamic, segmented, adaptive");
	p->vm->ppgtt = (enum hvcfg_ppgtt)x;
	return true;
}

/* vgpu_shadow_pt_kib=: how much shadow page-table memory the vGPU's
 * PPGTT shadows may hold (idle ones are evicted beyond it). */
static bool set_shadow_pt(struct parser *p, const struct key *k,
			  struct span v)
{
	uint64_t x;

	if (!cfg_parse_number(v, &x))
		return bad_value(p, k, v, "is not a number");
	if (x < HVCFG_SHADOW_PT_KIB_MIN || x > HVCFG_SHADOW_PT_KIB_MAX)
		return bad_value(p, k, v, "is out of range (256..262144)");
	if (x % 4)
		return bad_value(p, k, v, "is not a multiple of 4");
	p->vm->shadow_pt_kib = (uint32_t)x;
	return true;
}

/* vgpu_trace=yes: a debugging switch (docs/linux-i915.md), off by default:
 * every guest access to the vGPU is printed on the console; =batches:
 * every command the scanner reads instead (docs/gpu-commands.md). */
enum { TRACE_NO, TRACE_YES, TRACE_BATCHES };
static const struct keyword trace_words[] = {
	{ "yes", TRACE_YES }, { "no", TRACE_NO },
	{ "batches", TRACE_BATCHES }, { NULL, 0 },
};

static bool set_trace(struct parser *p, const struct key *k, struct span v)
{
	unsigned x;

	if (!lookup_keyword(trace_words, v, &x))
		return bad_value(p, k, v, "is not yes, no or batches");
	p->vm->vgpu_trace = x == TRACE_YES;
	p->vm->vgpu_trace_batches = x == TRACE_BATCHES;
	return true;
}

/* autostart=no: the VM is not created at boot; the shell's `vm NAME
 * start` creates and starts it later (docs/hv-cfg.md). */
static bool set_autostart(struct parser *p, const struct key *k,
			  struct span v)
{
	unsigned x;

	if (!lookup_keyword(yes_no_words, v, &x))
		return bad_value(p, k, v, "is not yes or no");
	p->vm->no_autostart = x == 0;
	return true;
}

/* vgpu_batch_kib=: the VM's shadow batch budget (gpu/vgpu/exec/vgpu_own_gm.c),
 * KiB: at least a 1 MiB request plus room for another, a whole number of
 * 4 KiB pages, and no more than the mediator offers one vGPU. */
static bool set_batch_kib(struct parser *p, const struct key *k,
			  struct span v)
{
	uint64_t x;

	if (!cfg_parse_number(v, &x))
		return bad_value(p, k, v, "is not a number");
	if (x < HVCFG_BATCH_KIB_MIN || x > HVCFG_BATCH_KIB_MAX)
		return bad_value(p, k, v, "is out of range (256..65536)");
	if (x % 4)
		return bad_value(p, k, v, "is not a multiple of 4");
	p->vm->vgpu_batch_kib = (uint32_t)x;
	return true;
}

/* vgpu_display=: the vGPU's virtual monitor (docs/display.md), a mode
 * of gpu/display's table by its exact name, or none for no monitor. */
static bool set_display(struct parser *p, const struct key *k,
			struct span v)
{
	char name[HVCFG_DISPLAY_MAX + 1];

	cfg_copy_span(name, sizeof(name), v);
	if (v.n > HVCFG_DISPLAY_MAX || strlen(name) != v.n ||
	    (strcmp(name, "none") != 0 && !vdisp_mode_parse(name, NULL)))
		return bad_value(p, k, v, "is not a mode (" VDISP_MODE_FIRST
				 " .. " VDISP_MODE_LAST ", none)");
	memcpy(p->vm->vgpu_display, name, sizeof(name));
	return true;
}

/* vcpus=N, 1..HVCFG_VCPUS_MAX: the VM's virtual CPUs, run by the CPUs of
 * its cpus= list (docs/smp.md, "Several vCPUs"), else by its one CPU. */
static bool set_vcpus(struct parser *p, const struct key *k, struct span v)
{
	uint64_t n;

	if (!cfg_parse_number(v, &n))
		return bad_value(p, k, v, "is not a number");
	if (n < 1 || n > HVCFG_VCPUS_MAX)
		return bad_value(p, k, v, "is not a vCPU count (1-8)");
	p->vm->vcpus = (uint32_t)n;
	return true;
}

/* One CPU number of a cpus= list: decimal, 1..HVCFG_CPUS_MAX-1. CPU 0 is
 * refused: it runs the shell, the GPU and the VMs without cpus=. */
static bool cpus_item(struct parser *p, const struct key *k, struct span v,
		      uint64_t *mask, uint64_t *cpu)
{
	if (!cfg_parse_number(v, cpu))
		return bad_value(p, k, v, "is not a CPU number");
	if (*cpu == 0)
		return bad_value(p, k, v, "is the BSP, which runs the shell, "
				 "the GPU and the shared VMs");
	if (*cpu >= HVCFG_CPUS_MAX)
		return bad_value(p, k, v, "is not a CPU number (1-63)");
	if (*mask & (1ull << *cpu))
		return bad_value(p, k, v, "is listed twice");
	*mask |= 1ull << *cpu;
	return true;
}

/* The first earlier VM section that holds a CPU of mask, or NULL. */
static const struct hvcfg_vm *cpus_owner(const struct parser *p,
					 uint64_t mask, unsigned *cpu)
{
	for (const struct hvcfg_vm *o = p->cfg->vms; o < p->vm; o++)
		if (o->cpus & mask) {
			*cpu = (unsigned)__builtin_ctzll(o->cpus & mask);
			return o;
		}
	return NULL;
}

/* cpus=1 or cpus=2,3: the physical CPUs the VM owns, in order: vCPU i
 * runs on the (i mod n)-th (docs/smp.md "A VM on several CPUs"). No CPU
 * belongs to two VMs; at most one CPU per vCPU (checked at the section's
 * end, boot/config.c, since vcpus= may come later). */
static bool set_cpus(struct parser *p, const struct key *k, struct span v)
{
	const struct hvcfg_vm *o;
	uint8_t list[HVCFG_VCPUS_MAX];
	uint64_t mask = 0, cpu;
	unsigned owned, n = 0;

	for (;;) {
		size_t comma = cfg_span_find(v, ',');

		if (!cpus_item(p, k, cfg_trim((struct span){ v.s, comma }),
			       &mask, &cpu))
			return false;
		if (n == HVCFG_VCPUS_MAX) {
			cfg_err(p, "%s: more than %u CPUs: a VM has at most "
				"%u vCPUs, one CPU each", k->name,
				HVCFG_VCPUS_MAX, HVCFG_VCPUS_MAX);
			return false;
		}
		list[n++] = (uint8_t)cpu;
		if (comma >= v.n)
			break;
		v = cfg_span_from(v, comma + 1);
	}
	o = cpus_owner(p, mask, &owned);
	if (o) {
		cfg_err(p, "%s: CPU %u already belongs to VM '%s' (line %d)",
			k->name, owned, o->name, o->line);
		return false;
	}
	p->vm->cpus = mask;
	memcpy(p->vm->cpu_list, list, n);
	p->vm->nr_cpus = n;
	p->vm->cpus_line = p->line;
	return true;
}

/* virtio_console=yes|no (no by default): the VM gets a virtio console
 * (hv/vm/vvirtio.h); its guest's console=hvc0 then costs one exit per
 * batch of bytes instead of two per byte on COM1. */
static bool set_virtio_console(struct parser *p, const struct key *k,
			       struct span v)
{
	unsigned x;

	if (!lookup_keyword(yes_no_words, v, &x))
		return bad_value(p, k, v, "is not yes or no");
	p->vm->virtio_console = x != 0;
	return true;
}

const struct key cfg_vm_keys[NR_VK] = {
	[VK_MEMORY]	= { "memory", false, set_memory, NULL },
	[VK_KERNEL]	= { "kernel", false, set_kernel, NULL },
	[VK_RAMDISK]	= { "ramdisk", false, set_ramdisk, NULL },
	[VK_CMDLINE]	= { "cmdline", true, set_cmdline, NULL },
	[VK_LOW_GM]	= { "vgpu_low_gm", false, set_low_gm, NULL },
	[VK_HIGH_GM]	= { "vgpu_high_gm", false, set_high_gm, NULL },
	[VK_FENCES]	= { "fences", false, set_fences, NULL },
	[VK_PPGTT]	= { "vgpu_ppgtt", false, set_ppgtt, NULL },
	[VK_TRACE]	= { "vgpu_trace", false, set_trace, NULL },
	[VK_VCPUS]	= { "vcpus", false, set_vcpus, NULL },
	[VK_AUTOSTART]	= { "autostart", false, set_autostart, NULL },
	[VK_BATCH_KIB]	= { "vgpu_batch_kib", false, set_batch_kib, NULL },
	[VK_SHADOW_PT]	= { "vgpu_shadow_pt_kib", false, set_shadow_pt, NULL },
	[VK_DISPLAY]	= { "vgpu_display", false, set_display, NULL },
	[VK_CPUS]	= { "cpus", false, set_cpus, NULL },
	[VK_VIRTIO_CONSOLE] = { "virtio_console", false, set_virtio_console,
				NULL },
};
