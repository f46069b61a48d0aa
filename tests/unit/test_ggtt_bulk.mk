# gpu_hw's bulk GGTT write on both backends: the model's GGTT, and the MMIO
# backend against a plain buffer standing in for BAR0.
UNIT_TESTS += test_ggtt_bulk
test_ggtt_bulk_SRCS := gpu/hw/mmio_backend.c $(wildcard gpu/model/*.c) \
	gpu/hw/pci_ids.c tests/harness/model_harness.c
