# The Gen9 model's register lookup table (issue 31): the same registers
# known as the list it replaced, over all of BAR0's registers.
UNIT_TESTS += test_gen9_model_regmap
test_gen9_model_regmap_SRCS := $(wildcard gpu/model/*.c) gpu/hw/pci_ids.c \
	tests/harness/model_harness.c
