# The Gen9 model's privilege rules for non-privileged (PPGTT) batches and
# the request shapes stock i915 emits (issue 13 items 2 and 15).
UNIT_TESTS += test_gen9_model_priv
test_gen9_model_priv_SRCS := $(wildcard gpu/model/*.c) gpu/hw/pci_ids.c \
	tests/harness/model_harness.c
