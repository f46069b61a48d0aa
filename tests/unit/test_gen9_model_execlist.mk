# The Gen9 model's execlists: ELSP, context load/save, CSB + HWSP mirror.
UNIT_TESTS += test_gen9_model_execlist
test_gen9_model_execlist_SRCS := $(wildcard gpu/model/*.c) gpu/hw/pci_ids.c \
	tests/harness/model_harness.c
