# The Gen9 model's command streamer: every command's effect in memory,
# batch nesting, GGTT/PPGTT translation and faults, blits, bounded loops.
UNIT_TESTS += test_gen9_model_cmds
test_gen9_model_cmds_SRCS := $(wildcard gpu/model/*.c) gpu/hw/pci_ids.c \
	tests/harness/model_harness.c
