# The Gen9 model's preemption at arbitration points, and resume.
UNIT_TESTS += test_gen9_model_preempt
test_gen9_model_preempt_SRCS := $(wildcard gpu/model/*.c) gpu/hw/pci_ids.c \
	tests/harness/model_harness.c
