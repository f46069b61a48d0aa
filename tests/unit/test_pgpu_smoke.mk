# The hardware smoke test (gpu/hw/pgpu_smoke*.c) against the model through
# the real MMIO backend over trapping pages, as gpu=model-mmio runs it.
UNIT_TESTS += test_pgpu_smoke
test_pgpu_smoke_SRCS := gpu/hw/pgpu_smoke.c gpu/hw/pgpu_smoke_engines.c \
	gpu/hw/pgpu.c gpu/hw/pgpu_engine.c gpu/hw/pgpu_irq.c \
	gpu/hw/pci_ids.c gpu/hw/mmio_backend.c $(wildcard gpu/model/*.c) \
	hv/gpu/trapdev_access.c hv/vmx/insn_decode.c hv/vmx/insn_vec.c \
	tests/harness/trapped_mmio.c tests/harness/model_harness.c
