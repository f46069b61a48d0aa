# The software Gen9 GPU: register file, GGTT/aperture, interrupts,
# forcewake, reset, identification.
UNIT_TESTS += test_gen9_model
test_gen9_model_SRCS := $(wildcard gpu/model/*.c) gpu/hw/pci_ids.c \
	tests/harness/model_harness.c
