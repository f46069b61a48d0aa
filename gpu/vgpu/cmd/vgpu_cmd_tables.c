/* What guest command buffers may do: the data the scanner (vgpu_cmd_scan.c)
 * checks against. Kept as tables so a register a new guest driver needs is
 * one line (gvt-facts §F4: strict parsers broke each new driver release).
 *
 * Registers: MI_LOAD_REGISTER_IMM/MEM/REG and MI_STORE_REGISTER_MEM (and
 * PIPE_CONTROL's post-sync register write) reach only registers listed
 * here. Everything else - ELSP, ring and PPGTT root registers, GGTT and
 * fences, interrupts, forcewake, reset, display - changes what the
 * hardware does for other VMs or escapes the shadow page tables, so it is
 * never reachable from a command. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/cmd/cmd.h"
#include "mini/stdlib.h"

struct reg_allow {
	uint32_t start, end; /* inclusive, absolute or engine-relative */
	uint8_t access; /* CMD_REG_R / CMD_REG_W */
	bool relative; /* offsets from the engine's MMIO base */
	int8_t engine; /* -1: any engine */
};

#define RD CMD_REG_R
#define RW (CMD_REG_R | CMD_REG_W)

static const struct reg_allow reg_allow[] = {
	/* per engine */
	{ 0x030, 0x034, RD, true, -1 }, /* ring tail/head (debug reads) */
	{ 0x074, 0x074, RD, true, -1 }, /* ACTHD */
	{ 0x358, 0x35c, RD, true, -1 }, /* timestamp */
	{ 0x3a8, 0x3a8, RD, true, -1 }, /* context timestamp */
	{ 0x600, 0x67c, RW, true, -1 }, /* CS GPRs */
	/* render: pipeline statistics, workaround/chicken registers i915's
	 * context workaround list writes with LRI */
	/* FF_SLICE_CHICKEN, _3D_CHICKEN3: i915's Gen9 indirect context
	 * batch loads them at every render context restore (gt/intel_lrc.c
	 * gen9_init_indirectctx_bb; GVT: F_CMD_ACCESS) */
	{ 0x2088, 0x2088, RW, false, GEN9_RCS0 },
	{ 0x2090, 0x2090, RW, false, GEN9_RCS0 },
	{ 0x20d4, 0x20d4, RW, false, GEN9_RCS0 }, /* CSFE chicken */
	/* CS_DEBUG_MODE2: Mesa (iris, ANV) sets "CONSTANT_BUFFER Address
	 * Offset Disable" from its own batch at context creation, a
	 * per-context setting (docs/i915-command-path.md) */
	{ 0x20d8, 0x20d8, RW, false, GEN9_RCS0 },
	{ 0x20e0, 0x20e4, RW, false, GEN9_RCS0 }, /* FF slice chicken */
	{ 0x20ec, 0x20ec, RW, false, GEN9_RCS0 }, /* CS debug mode 1 */
	{ 0x2214, 0x2214, RW, false, GEN9_RCS0 }, /* MI_PREDICATE_RESULT_2 */
	{ 0x2248, 0x2248, RW, false, GEN9_RCS0 }, /* CTX_PREEMPT: i915 whitelists it for Mesa */
	{ 0x2300, 0x235c, RW, false, GEN9_RCS0 }, /* pipeline statistics */
	/* what Mesa loads from its batches (i915_cmd_parser.c
	 * gen7_render_regs): predication, indirect draw and dispatch */
	{ 0x2400, 0x2420, RW, false, GEN9_RCS0 }, /* MI_PREDICATE_*, 3DPRIM_END_OFFSET */
	{ 0x2430, 0x2440, RW, false, GEN9_RCS0 }, /* 3DPRIM_* */
	{ 0x2500, 0x2508, RW, false, GEN9_RCS0 }, /* GPGPU_DISPATCHDIM X/Y/Z */
	{ 0x2580, 0x2580, RW, false, GEN9_RCS0 }, /* CS chicken 1 */
	{ 0x5200, 0x52ff, RW, false, GEN9_RCS0 }, /* streamout counters */
	{ 0x7000, 0x701c, RW, false, GEN9_RCS0 }, /* cache mode, chicken */
	{ 0x7034, 0x7034, RW, false, GEN9_RCS0 }, /* GEN8_L3CNTLREG (Mesa) */
	{ 0x7300, 0x7304, RW, false, GEN9_RCS0 }, /* HDC chicken */
	{ 0xb020, 0xb09c, RW, false, -1 }, /* L3CC (MOCS) */
	{ 0xb118, 0xb118, RW, false, GEN9_RCS0 }, /* L3SQCREG4 */
	{ 0xc800, 0xcffc, RW, false, -1 }, /* MOCS */
	{ 0xe100, 0xe1fc, RW, false, GEN9_RCS0 }, /* half slice chicken */
	{ 0xe4f0, 0xe4f4, RW, false, GEN9_RCS0 }, /* row chicken */
	/* blitter: Y-tiling control (gen9-facts §6.2) */
	{ 0x22200, 0x22200, RW, false, GEN9_BCS0 },
};

uint32_t cmd_reg_access(int engine, uint32_t reg)
{
	uint32_t base = gen9_engine_mmio_base((enum gen9_engine_id)engine);
	size_t i;

	if (reg & 3 || reg >= GEN9_MMIO_SIZE)
		return 0;
	for (i = 0; i < sizeof(reg_allow) / sizeof(reg_allow[0]); i++) {
		const struct reg_allow *a = &reg_allow[i];
		uint32_t r = reg;

		if (a->engine >= 0 && a->engine != engine)
			continue;
		if (a->relative) {
			if (reg < base || reg >= base + GEN9_RING_REG_SPAN)
				continue;
			r = reg - base;
		}
		if (r >= a->start && r <= a->end)
			return a->access;
	}
	return 0;
}

/* FORCE_TO_NONPRIV: what a guest may whitelist in an engine's slots for
 * its non-privileged batches - exactly GVT-g's force_nonpriv_white_list
 * (Linux 6.1 gvt/handlers.c; sorted), and the engine's own RING_NOPID,
 * i915's filler for unused slots, which GVT accepts as well. It covers
 * i915's Skylake whitelist (CTX_PREEMPT 0x2248, CS_CHICKEN1, HDC_CHICKEN1,
 * L3SQCREG4, COMMON_SLICE_CHICKEN2, PS_INVOCATION_COUNT). A slot only lets
 * the hardware run an LRI to the register from a user batch; the scanner
 * still holds every command to reg_allow above. */
static const uint32_t nonpriv_allow[] = {
	0xd80,	0x20ec, 0x2248, 0x2340, 0x2348, 0x2350, 0x2580, 0x2690,
	0x2694, 0x2698, 0x2754, 0x28a0, 0x4de0, 0x4de4, 0x4dfc, 0x7010,
	0x7014, 0x7300, 0x7304, 0x7700, 0x7704, 0x7708, 0x770c, 0x83a8,
	0xb110, 0xb118, 0xe100, 0xe18c, 0xe48c, 0xe5f4, 0x64844,
};

#define NONPRIV_REG_MASK 0x03fffffcu /* bits 25:2; access/range bits aside */

static int cmp_reg(const void *key, const void *elem)
{
	uint32_t a = *(const uint32_t *)key, b = *(const uint32_t *)elem;

	return (a > b) - (a < b);
}

bool nonpriv_slot_allowed(int engine, uint32_t val)
{
	uint32_t reg = val & NONPRIV_REG_MASK;

	if (reg == RING_NOPID(gen9_engine_mmio_base((enum gen9_engine_id)engine)))
		return true;
	return bsearch(&reg, nonpriv_allow,
		       sizeof(nonpriv_allow) / sizeof(nonpriv_allow[0]),
		       sizeof(nonpriv_allow[0]), cmp_reg) != NULL;
}
