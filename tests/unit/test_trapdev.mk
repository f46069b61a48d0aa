# The model-behind-MMIO GPU (gpu=model-mmio): trapped accesses emulated
# against the model, and the real MMIO backend + pGPU driver running over
# PROT_NONE pages whose faults a SIGSEGV handler emulates, as the
# hypervisor's #PF hook does; the PCI function's MSI as pgpu_msi programs it.
UNIT_TESTS += test_trapdev
test_trapdev_SRCS := hv/gpu/trapdev_access.c hv/gpu/trapdev_cfg.c \
	hv/vmx/insn_decode.c hv/vmx/insn_vec.c gpu/hw/pgpu_msi.c tests/harness/trapped_mmio.c \
	gpu/hw/pgpu.c gpu/hw/pgpu_engine.c gpu/hw/pgpu_irq.c \
	gpu/hw/pci_ids.c gpu/hw/mmio_backend.c $(wildcard gpu/model/*.c) \
	tests/harness/model_harness.c
