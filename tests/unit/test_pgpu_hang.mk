# The pGPU driver's hang handling on the MMIO backend (gpu=model-mmio on
# the host): the engine watchdog (ACTHD / head / CSB progress) and the
# i915-style engine and full resets (RING_RESET_CTL handshake, GDRST, the
# full reset's later attempts without READY_TO_RESET), the interrupt mask
# kept across them.
UNIT_TESTS += test_pgpu_hang
test_pgpu_hang_SRCS := gpu/hw/pgpu.c gpu/hw/pgpu_engine.c gpu/hw/pgpu_irq.c \
	gpu/hw/pci_ids.c gpu/hw/mmio_backend.c $(wildcard gpu/model/*.c) \
	hv/gpu/trapdev_access.c hv/vmx/insn_decode.c hv/vmx/insn_vec.c \
	tests/harness/trapped_mmio.c tests/harness/model_harness.c
