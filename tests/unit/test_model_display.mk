# The model's display engine (gpu/model/display.c): pipe A's plane 1
# scanned out through the model's GGTT as a monitor sees it: host unit
# test.
UNIT_TESTS += test_model_display
test_model_display_SRCS := $(wildcard gpu/model/*.c) gpu/hw/pci_ids.c \
	tests/harness/model_harness.c
