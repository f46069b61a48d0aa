/* Names of the Gen9 registers i915 touches, for the log: a register the
 * mediator only stores (or does not know at all) is reported once per
 * vGPU by name (issue 15: "whatever the driver writes that we do not model
 * is logged once by register name"). Names and offsets as in the hardware
 * documentation / i915's i915_reg.h; the list follows what Linux 6.1's
 * i915 wrote in Bochs (tests/fixtures/i915-probe.trace), and its modeset
 * on the virtual monitor (pipe A, port D: docs/display.md). Sorted by offset
 * (a unit test checks); engine-relative registers are in the engine
 * blocks, handled by vgpu_execlist.c, and not listed here. */
#include "gpu/vgpu/vgpu_priv.h"

struct reg_name {
	uint32_t off;
	const char *name;
};

static const struct reg_name names[] = {
	{ 0x00fdc, "GEN8_MCR_SELECTOR" },
	{ 0x04000, "GEN6_BSD_SLEEP_PSMI_CONTROL" },
	{ 0x04090, "GAM_ECOCHK" },
	{ 0x04094, "GEN8_RING_FAULT_REG" },
	{ 0x040a0, "ERROR_GEN6" },
	{ 0x04ab0, "GEN9_GAMT_ECO_REG_RW_IA" },
	{ 0x04b10, "GEN8_FAULT_TLB_DATA0" },
	{ 0x04b14, "GEN8_FAULT_TLB_DATA1" },
	{ 0x05588, "GEN9_WM_CHICKEN3" },
	{ 0x07004, "CACHE_MODE_1" },
	{ 0x07008, "GEN7_GT_MODE" },
	{ 0x07010, "GEN7_COMMON_SLICE_CHICKEN1" },
	{ 0x07014, "GEN8_COMMON_SLICE_CHICKEN2" },
	{ 0x07300, "HDC_CHICKEN0" },
	{ 0x07308, "GEN9_SLICE_COMMON_ECO_CHICKEN0" },
	{ 0x09008, "HSW_IDICR" },
	{ 0x0907c, "GEN6_MBCTL" },
	{ 0x09118, "GEN10_MIRROR_FUSE3" },
	{ 0x09120, "GEN8_FUSE2" },
	{ 0x09134, "GEN9_EU_DISABLE(0)" },
	{ 0x09400, "GEN6_UCGCTL1" },
	{ 0x09404, "GEN6_UCGCTL2" },
	{ 0x0940c, "GEN7_UCGCTL4" },
	{ 0x0941c, "GEN6_GDRST" },
	{ 0x09420, "GEN6_RSTCTL" },
	{ 0x09424, "GEN7_MISCCPCTL" },
	{ 0x09430, "GEN8_UCGCTL6" },
	{ 0x0a008, "GEN6_RPNSWREQ" },
	{ 0x0a00c, "GEN6_RC_VIDEO_FREQ" },
	{ 0x0a010, "GEN6_RP_DOWN_TIMEOUT" },
	{ 0x0a014, "GEN6_RP_INTERRUPT_LIMITS" },
	{ 0x0a01c, "GEN6_RPSTAT1" },
	{ 0x0a024, "GEN6_RP_CONTROL" },
	{ 0x0a02c, "GEN6_RP_UP_THRESHOLD" },
	{ 0x0a030, "GEN6_RP_DOWN_THRESHOLD" },
	{ 0x0a068, "GEN6_RP_UP_EI" },
	{ 0x0a06c, "GEN6_RP_DOWN_EI" },
	{ 0x0a070, "GEN6_RP_IDLE_HYSTERSIS" },
	{ 0x0a090, "GEN6_RC_CONTROL" },
	{ 0x0a094, "GEN6_RC_STATE" },
	{ 0x0a098, "GEN6_RC1_WAKE_RATE_LIMIT" },
	{ 0x0a09c, "GEN6_RC6_WAKE_RATE_LIMIT" },
	{ 0x0a0a8, "GEN6_RC_EVALUATION_INTERVAL" },
	{ 0x0a0ac, "GEN6_RC_IDLE_HYSTERSIS" },
	{ 0x0a0b0, "GEN6_RC_SLEEP" },
	{ 0x0a0b8, "GEN6_RC6_THRESHOLD" },
	{ 0x0a168, "GEN6_PMINTRMSK" },
	{ 0x0a180, "ECOBUS" },
	{ 0x0a188, "FORCEWAKE_MT" },
	{ 0x0a210, "GEN9_PG_ENABLE" },
	{ 0x0a26c, "GEN8_CTC_MODE" },
	{ 0x0a2a0, "GEN9_PWRGT_DOMAIN_STATUS" },
	{ 0x0b004, "GEN8_GARBCNTL" },
	{ 0x0b008, "GEN9_SCRATCH_LNCF1" },
	{ 0x0b118, "GEN8_L3SQCREG4" },
	{ 0x0e180, "HALF_SLICE_CHICKEN2" },
	{ 0x0e184, "GEN8_HALF_SLICE_CHICKEN3" },
	{ 0x0e188, "GEN9_HALF_SLICE_CHICKEN5" },
	{ 0x0e194, "GEN9_HALF_SLICE_CHICKEN7" },
	{ 0x0e4f0, "GEN8_ROW_CHICKEN" },
	{ 0x0e4f4, "GEN7_ROW_CHICKEN2" },
	{ 0x41000, "CPU_VGACNTRL" },
	{ 0x42000, "SKL_FUSE_STATUS" },
	{ 0x42080, "CHICKEN_PAR1_1" },
	{ 0x42300, "FPGA_DBG" },
	{ 0x44040, "GEN7_ERR_INT" },
	{ 0x44050, "DERRMR" },
	{ 0x45000, "DISP_ARB_CTL" },
	{ 0x45008, "DBUF_CTL" },
	{ 0x45010, "GEN7_MSG_CTL" },
	{ 0x45400, "HSW_PWR_WELL_CTL1" },
	{ 0x45404, "HSW_PWR_WELL_CTL2" },
	{ 0x45408, "HSW_PWR_WELL_CTL3" },
	{ 0x4540c, "HSW_PWR_WELL_CTL4" },
	{ 0x45504, "DC_STATE_EN" },
	{ 0x45520, "DC_STATE_DEBUG" },
	{ 0x46000, "CDCLK_CTL" },
	{ 0x46010, "LCPLL1_CTL" },
	{ 0x46014, "LCPLL2_CTL" },
	{ 0x46140, "TRANS_CLK_SEL(A)" },
	{ 0x46408, "HSW_NDE_RSTWRN_OPT" },
	{ 0x46430, "GEN8_CHICKEN_DCPR_1" },
	{ 0x46530, "GEN9_CLKGATE_DIS_0" },
	{ 0x48250, "BLC_PWM_CPU_CTL2" },
	{ 0x48254, "BLC_PWM_CPU_CTL" },
	{ 0x51000, "SKL_DFSM" },
	{ 0x51004, "SKL_DSSM" },
	{ 0x60000, "HTOTAL(A)" },
	{ 0x60004, "HBLANK(A)" },
	{ 0x60008, "HSYNC(A)" },
	{ 0x6000c, "VTOTAL(A)" },
	{ 0x60010, "VBLANK(A)" },
	{ 0x60014, "VSYNC(A)" },
	{ 0x6001c, "PIPESRC(A)" },
	{ 0x60028, "VSYNCSHIFT(A)" },
	{ 0x60030, "PIPE_DATA_M1(A)" },
	{ 0x60034, "PIPE_DATA_N1(A)" },
	{ 0x60040, "PIPE_LINK_M1(A)" },
	{ 0x60044, "PIPE_LINK_N1(A)" },
	{ 0x60400, "TRANS_DDI_FUNC_CTL(A)" },
	{ 0x60410, "TRANS_MSA_MISC(A)" },
	{ 0x64000, "DDI_BUF_CTL(A)" },
	{ 0x64010, "DP_AUX_CH_CTL(A)" },
	{ 0x64040, "DP_TP_CTL(A)" },
	{ 0x64044, "DP_TP_STATUS(A)" },
	{ 0x64110, "DP_AUX_CH_CTL(B)" },
	{ 0x64210, "DP_AUX_CH_CTL(C)" },
	{ 0x64300, "DDI_BUF_CTL(D)" },
	{ 0x64310, "DP_AUX_CH_CTL(D)" },
	{ 0x64340, "DP_TP_CTL(D)" },
	{ 0x64344, "DP_TP_STATUS(D)" },
	{ 0x64834, "EDP_PSR_IMR" },
	{ 0x64838, "EDP_PSR_IIR" },
	{ 0x64f20, "DDI_BUF_TRANS(D)" },
	{ 0x68170, "PS_WIN_POS(A,1)" },
	{ 0x68174, "PS_WIN_SZ(A,1)" },
	{ 0x68180, "PS_CTRL(A,1)" },
	{ 0x6c040, "DPLL1_CFGCR1" },
	{ 0x6c044, "DPLL1_CFGCR2" },
	{ 0x6c058, "DPLL_CTRL1" },
	{ 0x6c05c, "DPLL_CTRL2" },
	{ 0x6c060, "DPLL_STATUS" },
	{ 0x70000, "PIPEDSL(A)" },
	{ 0x70008, "PIPECONF(A)" },
	{ 0x70030, "PIPEMISC(A)" },
	{ 0x70040, "PIPE_FRMCOUNT_G4X(A)" },
	{ 0x70044, "PIPE_FLIPCOUNT_G4X(A)" },
	{ 0x70080, "CURCNTR(A)" },
	{ 0x70084, "CURBASE(A)" },
	{ 0x700ac, "CURSURFLIVE(A)" },
	{ 0x70180, "PLANE_CTL(A,1)" },
	{ 0x70188, "PLANE_STRIDE(A,1)" },
	{ 0x7018c, "PLANE_POS(A,1)" },
	{ 0x70190, "PLANE_SIZE(A,1)" },
	{ 0x7019c, "PLANE_SURF(A,1)" },
	{ 0x701ac, "PLANE_SURFLIVE(A,1)" },
	{ 0x70240, "PLANE_WM(A,1,0)" },
	{ 0x7027c, "PLANE_BUF_CFG(A,1)" },
	{ 0x7029c, "PLANE_SURF(A,2)" },
	{ 0x7039c, "PLANE_SURF(A,3)" },
	{ 0x71000, "PIPEDSL(B)" },
	{ 0x71008, "PIPECONF(B)" },
	{ 0x71040, "PIPE_FRMCOUNT_G4X(B)" },
	{ 0x7119c, "PLANE_SURF(B,1)" },
	{ 0x72000, "PIPEDSL(C)" },
	{ 0x72008, "PIPECONF(C)" },
	{ 0x72040, "PIPE_FRMCOUNT_G4X(C)" },
	{ 0x7219c, "PLANE_SURF(C,1)" },
	{ 0xc2000, "SOUTH_CHICKEN1" },
	{ 0xc2014, "SFUSE_STRAP" },
	{ 0xc2020, "SOUTH_DSPCLK_GATE_D" },
	{ 0xc4000, "SDEISR" },
	{ 0xc4030, "PCH_PORT_HOTPLUG" },
	{ 0xc5100, "PCH_GMBUS0" },
	{ 0xc5104, "PCH_GMBUS1" },
	{ 0xc5108, "PCH_GMBUS2" },
	{ 0xc510c, "PCH_GMBUS3" },
	{ 0xc5110, "PCH_GMBUS4" },
	{ 0xc5120, "PCH_GMBUS5" },
	{ 0xc7200, "PP_STATUS" },
	{ 0xc7204, "PP_CONTROL" },
	{ 0xc7208, "PP_ON_DELAYS" },
	{ 0xc720c, "PP_OFF_DELAYS" },
	{ 0xc8250, "BLC_PWM_PCH_CTL1" },
	{ 0xc8254, "BLC_PWM_PCH_CTL2" },
	{ 0x101008, "GFX_FLSH_CNTL_GEN6" },
	{ 0x120010, "HSW_EDRAM_CAP" },
	{ 0x138044, "GEN6_GT_CORE_STATUS" },
	{ 0x13805c, "GEN6_GT_THREAD_STATUS_REG" },
	{ 0x138108, "GEN6_GT_GFX_RC6" },
	{ 0x138124, "GEN6_PCODE_MAILBOX" },
	{ 0x138128, "GEN6_PCODE_DATA" },
	{ 0x13812c, "GEN6_PCODE_DATA1" },
	{ 0x145000, "SKL_MAD_INTER_CHANNEL_0_0_0_MCHBAR_MCMAIN" },
	{ 0x14500c, "SKL_MAD_DIMM_CH0_0_0_0_MCHBAR_MCMAIN" },
	{ 0x145010, "SKL_MAD_DIMM_CH1_0_0_0_MCHBAR_MCMAIN" },
	{ 0x145948, "GEN6_MCH_SSKPD" },
	{ 0x145998, "GEN6_RP_STATE_CAP" },
};

#define NAMES_N (sizeof(names) / sizeof(names[0]))

/* The register's name, NULL when the list does not have it. */
const char *vgpu_reg_name(uint32_t off)
{
	size_t lo = 0, hi = NAMES_N;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (off < names[mid].off)
			hi = mid;
		else if (off > names[mid].off)
			lo = mid + 1;
		else
			return names[mid].name;
	}
	return NULL;
}

/* For the unit test: the list is sorted and without duplicates. */
bool vgpu_reg_names_sorted(void)
{
	size_t i;

	for (i = 1; i < NAMES_N; i++)
		if (names[i - 1].off >= names[i].off)
			return false;
	return true;
}
