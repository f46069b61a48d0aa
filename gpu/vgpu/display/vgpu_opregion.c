/* The vGPU's OpRegion (vgpu.h vgpu_opregion_place; docs/display.md, "The
 * OpRegion and its VBT"). The content is gpu/display/vdisp_opregion.c's;
 * the place is the hypervisor's (the VM's firmware reserves it in the
 * guest's memory map and copies buf there, hv/vm/vpci_fw.c), and ASLS
 * reads it from then on (gpu/vgpu/mmio/vgpu_cfg.c: read-only to the
 * guest). */
#include "gpu/display/vdisp_opregion.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"

_Static_assert(VGPU_OPREGION_SIZE == VDISP_OPREGION_SIZE, "OpRegion size");

int vgpu_opregion_place(struct vgpu *v, uint64_t gpa, void *buf, size_t len)
{
	size_t vbt;

	if (len < VGPU_OPREGION_SIZE || (gpa & 0xfffu) || !gpa ||
	    gpa + VGPU_OPREGION_SIZE > 0x100000000ull) {
		vgpu_err(v, "OpRegion at 0x%llx (%zu bytes): refused, it must "
			 "be 4 KiB aligned, below 4 GiB and %u bytes",
			 (unsigned long long)gpa, len, VGPU_OPREGION_SIZE);
		return -GPU_EINVAL;
	}
	vbt = vdisp_opregion_build(buf);
	v->opregion_gpa = (uint32_t)gpa;
	v->cfg[GEN9_PCI_ASLS] = (uint8_t)gpa;
	v->cfg[GEN9_PCI_ASLS + 1] = (uint8_t)(gpa >> 8);
	v->cfg[GEN9_PCI_ASLS + 2] = (uint8_t)(gpa >> 16);
	v->cfg[GEN9_PCI_ASLS + 3] = (uint8_t)(gpa >> 24);
	gvt_log(v->gvt, HV_LOG_INFO, v->id, "OpRegion at 0x%x, VBT %zu bytes: "
		"one DP monitor on port D", v->opregion_gpa, vbt);
	return 0;
}
