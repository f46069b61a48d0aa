/* i915 6.1 request shapes on Gen9 (see i915_shapes.h). Encodings from
 * gt/gen8_engine_cs.c, gt/gen8_engine_cs.h, gt/intel_gpu_commands.h,
 * gt/intel_workarounds.c, gt/intel_renderstate.c, gt/gen9_renderstate.c
 * (Linux 6.1), written out as our own code. */
#include "tests/harness/i915_shapes.h"

#include "gpu/hw/gen9_cmds.h"

#define MI_USE_GGTT (1u << 22)
/* MI_SEMAPHORE_* and preemption: not emitted on a vGPU (no semaphores). */

void i915_cs_reset(struct i915_cs *cs)
{
	cs->n = 0;
	cs->cmds = 0;
}

static void out(struct i915_cs *cs, uint32_t v)
{
	if (cs->n < I915_CS_MAX)
		cs->dw[cs->n++] = v;
}

static void cmd(struct i915_cs *cs, const uint32_t *dw, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		out(cs, dw[i]);
	cs->cmds++;
}

static void one(struct i915_cs *cs, uint32_t v)
{
	cmd(cs, &v, 1);
}

/* gen8_emit_pipe_control: 6 dwords, flags in DW1, offset in DW2, rest 0. */
static void pipe_control(struct i915_cs *cs, uint32_t flags, uint32_t offset)
{
	uint32_t pc[6] = { GFX_OP_PIPE_CONTROL(6), flags, offset, 0, 0, 0 };

	cmd(cs, pc, 6);
}

/* __gen8_emit_write_rcs via gen8_emit_ggtt_write_rcs: QW write of value
 * (upper dword thrashed with 0) at a GGTT offset. */
static void ggtt_write_rcs(struct i915_cs *cs, uint32_t value, uint32_t gtt,
			   uint32_t flags)
{
	uint32_t pc[6] = { GFX_OP_PIPE_CONTROL(6),
			   flags | PIPE_CONTROL_GLOBAL_GTT_IVB | PIPE_CONTROL_QW_WRITE,
			   gtt, 0, value, 0 };

	cmd(cs, pc, 6);
}

/* gen8_emit_ggtt_write: MI_FLUSH_DW (4 dwords) storing a dword by GGTT. */
static void ggtt_write(struct i915_cs *cs, uint32_t value, uint32_t gtt)
{
	uint32_t fd[4] = { (MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW,
			   gtt | MI_FLUSH_DW_USE_GTT, 0, value };

	cmd(cs, fd, 4);
}

/* gen8_emit_flush_rcs on SKL (the KBL A0-B0 WaForGAMHang is not taken). */
void i915_gen8_emit_flush_rcs(struct i915_cs *cs, unsigned int mode)
{
	uint32_t flags = PIPE_CONTROL_CS_STALL;

	if (mode & I915_EMIT_FLUSH)
		flags |= PIPE_CONTROL_RENDER_TARGET_CACHE_FLUSH |
			 PIPE_CONTROL_DEPTH_CACHE_FLUSH |
			 PIPE_CONTROL_DC_FLUSH_ENABLE | PIPE_CONTROL_FLUSH_ENABLE;
	if (mode & I915_EMIT_INVALIDATE) {
		flags |= PIPE_CONTROL_TLB_INVALIDATE |
			 PIPE_CONTROL_INSTRUCTION_CACHE_INVALIDATE |
			 PIPE_CONTROL_TEXTURE_CACHE_INVALIDATE |
			 PIPE_CONTROL_VF_CACHE_INVALIDATE |
			 PIPE_CONTROL_CONST_CACHE_INVALIDATE |
			 PIPE_CONTROL_STATE_CACHE_INVALIDATE |
			 PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_STORE_DATA_INDEX;
		/* Gen9: a null PIPE_CONTROL before VF_CACHE_INVALIDATE. */
		pipe_control(cs, 0, 0);
	}
	pipe_control(cs, flags, I915_LRC_PPHWSP_SCRATCH_ADDR);
}

void i915_gen8_emit_flush_xcs(struct i915_cs *cs, unsigned int mode, int engine)
{
	uint32_t c = (MI_FLUSH_DW + 1) | MI_FLUSH_DW_STORE_INDEX |
		     MI_FLUSH_DW_OP_STOREDW;
	uint32_t fd[4];

	if (mode & I915_EMIT_INVALIDATE) {
		c |= MI_INVALIDATE_TLB;
		if (engine == GEN9_VCS0 || engine == GEN9_VCS1)
			c |= MI_INVALIDATE_BSD;
	}
	fd[0] = c;
	fd[1] = I915_LRC_PPHWSP_SCRATCH_ADDR;
	fd[2] = 0;
	fd[3] = 0;
	cmd(cs, fd, 4);
}

void i915_gen8_emit_init_breadcrumb(struct i915_cs *cs, uint32_t hwsp,
				    uint32_t seqno)
{
	uint32_t sdi[4] = { MI_STORE_DWORD_IMM_GEN4 | MI_USE_GGTT, hwsp, 0,
			    seqno - 1 };

	cmd(cs, sdi, 4);
	one(cs, MI_NOOP);
	one(cs, MI_ARB_CHECK);
}

void i915_gen8_emit_bb_start_noarb(struct i915_cs *cs, uint64_t offset,
				   int secure)
{
	uint32_t bb[3] = { MI_BATCH_BUFFER_START_GEN8 | (secure ? 0 : MI_BATCH_PPGTT),
			   (uint32_t)offset, (uint32_t)(offset >> 32) };

	one(cs, MI_ARB_ON_OFF | MI_ARB_DISABLE);
	cmd(cs, bb, 3);
}

void i915_gen8_emit_bb_start(struct i915_cs *cs, uint64_t offset, int secure)
{
	uint32_t bb[3] = { MI_BATCH_BUFFER_START_GEN8 | (secure ? 0 : MI_BATCH_PPGTT),
			   (uint32_t)offset, (uint32_t)(offset >> 32) };

	one(cs, MI_ARB_ON_OFF | MI_ARB_ENABLE);
	cmd(cs, bb, 3);
	one(cs, MI_ARB_ON_OFF | MI_ARB_DISABLE);
	one(cs, MI_NOOP);
}

/* gen8_emit_fini_breadcrumb_tail (no semaphores) + gen8_emit_wa_tail. */
static void fini_tail(struct i915_cs *cs)
{
	one(cs, MI_USER_INTERRUPT);
	one(cs, MI_ARB_ON_OFF | MI_ARB_ENABLE);
	one(cs, MI_ARB_CHECK);
	one(cs, MI_NOOP);
}

void i915_gen8_emit_fini_breadcrumb_rcs(struct i915_cs *cs, uint32_t hwsp,
					uint32_t seqno)
{
	pipe_control(cs, PIPE_CONTROL_RENDER_TARGET_CACHE_FLUSH |
				 PIPE_CONTROL_DEPTH_CACHE_FLUSH |
				 PIPE_CONTROL_DC_FLUSH_ENABLE, 0);
	ggtt_write_rcs(cs, seqno, hwsp,
		       PIPE_CONTROL_FLUSH_ENABLE | PIPE_CONTROL_CS_STALL);
	fini_tail(cs);
}

void i915_gen8_emit_fini_breadcrumb_xcs(struct i915_cs *cs, uint32_t hwsp,
					uint32_t seqno)
{
	ggtt_write(cs, seqno, hwsp);
	fini_tail(cs);
}

/* ---- context workarounds -------------------------------------------------- */

#define MASKED_EN(b) (((uint32_t)(b) << 16) | (uint32_t)(b))
#define MASKED_DIS(b) ((uint32_t)(b) << 16)
#define MASKED_FIELD(m, v) (((uint32_t)(m) << 16) | (uint32_t)(v))

/* gen9_ctx_workarounds_init (+ skl_tune_iz_hashing: nothing on GT2). */
const struct i915_wa i915_skl_ctx_wa[] = {
	/* WaDisable3DMidCmdPreemption (PREEMPT_3D_OBJECT_LEVEL bit 0 off),
	 * WaDisableGPGPUMidCmdPreemption (GPGPU level 2:1 = command) */
	{ 0x2580, MASKED_DIS(1u << 0) | MASKED_FIELD(3u << 1, 2u << 1), "GEN8_CS_CHICKEN1" },
	/* Wa4x4STCOptimizationDisable (bit 6), WaDisablePartialResolveInVc (bit 1) */
	{ 0x7004, MASKED_EN((1u << 6) | (1u << 1)), "CACHE_MODE_1" },
	/* WaCompressedResourceSamplerPbeMediaNewHashMode (HAS_LLC) */
	{ 0x7014, MASKED_EN(1u << 13), "COMMON_SLICE_CHICKEN2" },
	/* WaForceContextSaveRestoreNonCoherent (5, 15), WaForceEnableNonCoherent (4) */
	{ 0x7300, MASKED_EN((1u << 15) | (1u << 5) | (1u << 4)), "HDC_CHICKEN0" },
	/* WaDisableSTUnitPowerOptimization: GEN8_ST_PO_DISABLE */
	{ 0xe180, MASKED_EN(1u << 13), "HALF_SLICE_CHICKEN2" },
	/* WaDisableSamplerPowerBypassForSOPingPong */
	{ 0xe184, MASKED_EN(1u << 1), "GEN8_HALF_SLICE_CHICKEN3" },
	/* WaCcsTlbPrefetchDisable */
	{ 0xe188, MASKED_DIS(1u << 3), "GEN9_HALF_SLICE_CHICKEN5" },
	/* sampler hash (HAS_LLC), YV12 bugfix, GPGPU preemption */
	{ 0xe194, MASKED_EN((1u << 8) | (1u << 4) | (1u << 2)), "GEN9_HALF_SLICE_CHICKEN7" },
	/* WaClearFlowControlGpgpuContextSave, WaDisablePartialInstShootdown */
	{ 0xe4f0, MASKED_EN((1u << 15) | (1u << 8)), "GEN8_ROW_CHICKEN" },
};
const size_t i915_skl_ctx_wa_count = sizeof(i915_skl_ctx_wa) / sizeof(i915_skl_ctx_wa[0]);

void i915_intel_engine_emit_ctx_wa(struct i915_cs *cs)
{
	uint32_t lri[1 + 2 * 9];
	size_t i;

	i915_gen8_emit_flush_rcs(cs, I915_EMIT_BARRIER);
	lri[0] = MI_LOAD_REGISTER_IMM((uint32_t)i915_skl_ctx_wa_count);
	for (i = 0; i < i915_skl_ctx_wa_count; i++) {
		lri[1 + 2 * i] = i915_skl_ctx_wa[i].reg;
		lri[2 + 2 * i] = i915_skl_ctx_wa[i].set;
	}
	cmd(cs, lri, 1 + 2 * (uint32_t)i915_skl_ctx_wa_count);
	one(cs, MI_NOOP);
	i915_gen8_emit_flush_rcs(cs, I915_EMIT_BARRIER);
}

/* ---- the Gen9 null render state -------------------------------------------- */

/* gen9_null_state_batch as runs: H = a command header, V = a payload
 * dword, Z(n) = n zero dwords, R = a relocated dword (the source's
 * "reloc" entries: byte offsets 0x7a8, 0x7b4, 0x7bc, 0x7cc). */
struct run {
	uint32_t v;
	uint16_t rep;
	uint8_t kind;
};
enum { K_V, K_H, K_R };
#define H(x) { (x), 1, K_H }
#define V(x) { (x), 1, K_V }
#define Z(n) { 0, (n), K_V }
#define R(x) { (x), 1, K_R }
#define VB(k) V(((uint32_t)(k) << 26) | 0x4000u), Z(3)

static const struct run null_state[] = {
	H(0x7a000004), V(0x01000000), Z(4),	/* PIPE_CONTROL */
	H(0x69040300),				/* PIPELINE_SELECT (1 dword) */
	H(0x78140000), V(0x04000000),
	H(0x7820000a), Z(2), V(0x80000000), Z(8),
	H(0x78130002), Z(2), V(0x02001808),
	H(0x781f0004), Z(5),
	H(0x78510009), Z(10),
	H(0x78100007), Z(2), V(0x00010000), Z(5),
	H(0x781b0007), Z(6), V(0x00000800), Z(1),
	H(0x78110008), Z(9),
	H(0x781e0003), Z(4),
	H(0x781d0009), Z(10),
	H(0x78120002), Z(3),
	H(0x78500003), Z(4),
	H(0x781c0002), Z(3),
	H(0x780c0000), Z(1),
	H(0x78520003), Z(4),
	H(0x78300000), V(0x08010040),
	H(0x78310000), V(0x1e000000),
	H(0x78320000), V(0x1e000000),
	H(0x78330000), V(0x1e000000),
	H(0x79190002), Z(3),
	H(0x791a0002), Z(3),
	H(0x791b0002), Z(3),
	H(0x79120000), Z(1),
	H(0x79130000), Z(1),
	H(0x79140000), Z(1),
	H(0x79150000), Z(1),
	H(0x79160000), Z(1),
	H(0x78150009), Z(10),
	H(0x78190009), Z(10),
	H(0x781a0009), Z(10),
	H(0x78160009), Z(10),
	H(0x78170009), Z(10),
	H(0x78490001), Z(2),
	H(0x784a0000), Z(1),
	H(0x784b0000), V(0x00000004),
	H(0x79170101), Z(1), V(0x00000080), Z(256), /* SO_DECL_LIST: 9-bit length */
	H(0x79180006), Z(7),
	H(0x79180006), V(0x20000000), Z(6),
	H(0x79180006), V(0x40000000), Z(6),
	H(0x79180006), V(0x60000000), Z(6),
	H(0x61010011),				/* STATE_BASE_ADDRESS at 0x7a4 */
	R(1), Z(2), R(1), Z(1), R(1), Z(1), V(1), Z(1), R(1), Z(1),
	V(0x1001), V(0x1001), V(1), V(0x1001), Z(3),
	H(0x61020001), Z(2),
	H(0x79000002), Z(3),
	H(0x78050006), Z(7),
	H(0x79040002), Z(3),
	H(0x79040002), V(0x40000000), Z(2),
	H(0x79040002), V(0x80000000), Z(2),
	H(0x79040002), V(0xc0000000), Z(2),
	H(0x79080001), Z(2),
	H(0x790a0001), Z(2),
	H(0x78060003), Z(4),
	H(0x78070003), Z(4),
	H(0x78040001), Z(2),
	H(0x79110000), Z(1),
	H(0x780d0000), Z(1),
	H(0x79060000), Z(1),
	H(0x7907001f), Z(32),
	H(0x7902000f), Z(16),
	H(0x790c000f), Z(16),
	H(0x780a0003), Z(4),
	H(0x78080083),				/* VERTEX_BUFFERS: 33 x 4 dwords */
	VB(0), VB(1), VB(2), VB(3), VB(4), VB(5), VB(6), VB(7), VB(8), VB(9),
	VB(10), VB(11), VB(12), VB(13), VB(14), VB(15), VB(16), VB(17), VB(18),
	VB(19), VB(20), VB(21), VB(22), VB(23), VB(24), VB(25), VB(26), VB(27),
	VB(28), VB(29), VB(30), VB(31), VB(32),
	H(0x78090043), V(0x02000000), V(0x22220000), Z(66),
	H(0x78550003), V(0x0000000f), Z(3),
	H(0x680b0001),				/* 3DSTATE_VF_STATISTICS (1 dword) */
	H(0x780e0000), V(0x00000e01),
	H(0x78240000), V(0x00000e41),
	H(0x784f0000), V(0x80000100),
	H(0x784d0000), V(0x40000000),
	H(0x782b0000), Z(1),
	H(0x782c0000), Z(1),
	H(0x782d0000), Z(1),
	H(0x782e0000), Z(1),
	H(0x782f0000), Z(1),
	H(0x780f0000), Z(1),
	H(0x78230000), V(0x00000ea0),
	H(0x78210000), V(0x00000ec0),
	H(0x78260000), Z(1),
	H(0x78270000), Z(1),
	H(0x78280000), Z(1),
	H(0x78290000), Z(1),
	H(0x782a0000), Z(1),
	H(0x7b000005), V(4), V(1), Z(1), V(1), Z(2), /* 3DPRIMITIVE */
	H(0x05000000),				/* MI_BATCH_BUFFER_END: cmds end */
	Z(10),
	/* state: COLOR_CALC_STATE at 0xe00, blend constant 1.0f x 4; the
	 * rest of the state block is zeros (its exact length, here to 0xf00,
	 * is not checked against the source: no command reads past 0xec0
	 * and nothing executes it) */
	Z(2), V(0x3f800000), V(0x3f800000), V(0x3f800000), V(0x3f800000),
	Z(58),
};

#define CACHELINE_DWORDS 16

size_t i915_gen9_null_state(uint32_t *o, size_t max, uint32_t ggtt,
			    uint32_t *cmds)
{
	size_t i = 0, r;
	uint32_t k, n = 0;

	for (r = 0; r < sizeof(null_state) / sizeof(null_state[0]); r++) {
		const struct run *x = &null_state[r];

		for (k = 0; k < x->rep && i + 1 < max; k++) {
			/* render_state_setup: the low dword gets the batch's
			 * GGTT address added, the next (64-bit reloc) its
			 * upper half, 0 here */
			o[i++] = x->kind == K_R ? x->v + ggtt : x->v;
		}
		if (x->kind == K_H && i <= I915_GEN9_NULL_STATE_CMDS_END + 1)
			n++;
	}
	/* pad to a cacheline, then the aux batch: MI_BATCH_BUFFER_END only
	 * (no pooled EU on SKL), which i915 does not submit (aux_size 4) */
	while (i % CACHELINE_DWORDS && i < max)
		o[i++] = MI_NOOP;
	if (i < max)
		o[i++] = MI_BATCH_BUFFER_END;
	if (cmds)
		*cmds = n;
	return i;
}

/* i915's _MASKED_FIELD / _MASKED_BIT_ENABLE */
#define MASKED(mask, val) (((uint32_t)(mask) << 16) | (uint32_t)(val))
#define GEN8_LQSC_FLUSH_COHERENT_LINES (1u << 21)

/* gen8_emit_flush_coherentl3_wa */
static void flush_coherentl3_wa(struct i915_cs *cs, uint32_t scratch)
{
	uint32_t srm[4] = { MI_STORE_REGISTER_MEM_GEN8 | MI_SRM_LRM_GLOBAL_GTT,
			    I915_GEN8_L3SQCREG4, scratch + 256, 0 };
	uint32_t lri[3] = { MI_LOAD_REGISTER_IMM(1), I915_GEN8_L3SQCREG4,
			    0x40400000u | GEN8_LQSC_FLUSH_COHERENT_LINES };
	uint32_t lrm[4] = { MI_LOAD_REGISTER_MEM_GEN8 | MI_SRM_LRM_GLOBAL_GTT,
			    I915_GEN8_L3SQCREG4, scratch + 256, 0 };

	cmd(cs, srm, 4);
	cmd(cs, lri, 3);
	pipe_control(cs, PIPE_CONTROL_CS_STALL | PIPE_CONTROL_DC_FLUSH_ENABLE, 0);
	cmd(cs, lrm, 4);
}

void i915_gen9_indirectctx_bb(struct i915_cs *cs, uint32_t scratch)
{
	uint32_t lri[7] = {
		MI_LOAD_REGISTER_IMM(3),
		I915_COMMON_SLICE_CHICKEN2, MASKED(1u << 12, 0),
		I915_FF_SLICE_CHICKEN, MASKED(1u << 1, 1u << 1),
		I915_3D_CHICKEN3, MASKED(1u << 12, 1u << 12),
	};

	one(cs, MI_ARB_ON_OFF | MI_ARB_DISABLE);
	flush_coherentl3_wa(cs, scratch);
	pipe_control(cs, PIPE_CONTROL_FLUSH_L3 | PIPE_CONTROL_STORE_DATA_INDEX |
				 PIPE_CONTROL_CS_STALL | PIPE_CONTROL_QW_WRITE,
		     I915_LRC_PPHWSP_SCRATCH_ADDR);
	cmd(cs, lri, 7);
	one(cs, MI_NOOP);
	one(cs, MI_ARB_ON_OFF | MI_ARB_ENABLE);
	while (cs->n % 16)
		one(cs, MI_NOOP);
}
