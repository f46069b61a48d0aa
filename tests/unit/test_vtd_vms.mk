# VT-d kept in step with the VMs (hv/vtd/vtd_vms.c): which VMs' RAM the GPU
# may reach each main-loop round.
UNIT_TESTS += test_vtd_vms
test_vtd_vms_SRCS := hv/vtd/vtd_vms.c hv/vm/vdev.c hv/vm/mmio.c
