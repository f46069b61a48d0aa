# The model's aperture window: GGTT translation and fence detiling (X/Y,
# gpu/model/aperture.c over gpu/hw/gen9_tiling.h), as the trapped BAR2 of
# gpu=model-mmio answers CPU accesses.
UNIT_TESTS += test_model_aperture
test_model_aperture_SRCS := $(wildcard gpu/model/*.c) gpu/hw/pci_ids.c \
	gpu/hw/pgpu.c gpu/hw/pgpu_engine.c gpu/hw/pgpu_irq.c \
	tests/harness/model_harness.c
