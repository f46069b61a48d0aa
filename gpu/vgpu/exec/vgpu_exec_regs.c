/* The execution area's part of the register table (mmio/mmio.h): each
 * engine's register block (ELSP, the CSB, ring and context registers:
 * vgpu_execlist.c) and GDRST, the guest's engine and full resets. Joined
 * with the other areas' parts at gvt_create (vgpu_create.c). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/exec/exec.h"

static int gdrst_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	uint32_t mask = 0;
	int id;

	(void)off;
	if (val & GEN6_GRDOM_FULL) {
		vgpu_info(v, "guest full GPU reset");
		mask = ~0u;
	} else {
		for (id = 0; id < GEN9_NUM_ENGINES; id++)
			if (val & gen9_engine_reset_domain((enum gen9_engine_id)id))
				mask |= BIT(id);
	}
	if (mask)
		vgpu_execlist_reset(v, mask);
	/* No GuC runs for a vGPU; its reset only has to look done, as GVT
	 * answers (gdrst_mmio_write): MIA held in reset. */
	if (val & (GEN6_GRDOM_FULL | GEN9_GRDOM_GUC))
		vreg_set(v, GUC_STATUS, vreg(v, GUC_STATUS) | GS_MIA_IN_RESET);
	/* Done at once: the guest polls for the bits to clear. */
	vreg_set(v, GEN6_GDRST, 0);
	return 0;
}


#define ENGINE_BLOCK(s, e, nm) \
	{ s, e, MMIO_EMULATED, 0, vgpu_engine_reg_read, vgpu_engine_reg_write, nm }

static const struct mmio_range exec_ranges[] = {
	ENGINE_BLOCK(0x02000, 0x02fff, "rcs"),
	{ GEN6_GDRST, GEN6_GDRST + 3, MMIO_EMULATED, 0, NULL, gdrst_write, "gdrst" },
	ENGINE_BLOCK(0x12000, 0x12fff, "vcs0"),
	ENGINE_BLOCK(0x1a000, 0x1afff, "vecs0"),
	ENGINE_BLOCK(0x1c000, 0x1cfff, "vcs1"),
	ENGINE_BLOCK(0x22000, 0x22fff, "bcs"),
};

const struct mmio_part exec_regs_part = {
	.area = "exec",
	.ranges = exec_ranges,
	.n = sizeof(exec_ranges) / sizeof(exec_ranges[0]),
};
