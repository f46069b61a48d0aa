# The physical-GPU driver (gpu/hw/pgpu*.c) against the Gen9 model, and the
# MMIO backend against a plain buffer standing in for BAR0.
UNIT_TESTS += test_pgpu
test_pgpu_SRCS := gpu/hw/pgpu.c gpu/hw/pgpu_engine.c gpu/hw/pgpu_irq.c \
	gpu/hw/pci_ids.c gpu/hw/mmio_backend.c $(wildcard gpu/model/*.c) \
	tests/harness/model_harness.c
