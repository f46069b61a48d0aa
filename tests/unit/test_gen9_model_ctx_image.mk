# The Gen9 model's context save/restore at the Gen9 image layout.
UNIT_TESTS += test_gen9_model_ctx_image
test_gen9_model_ctx_image_SRCS := $(wildcard gpu/model/*.c) gpu/hw/pci_ids.c \
	tests/harness/model_harness.c
