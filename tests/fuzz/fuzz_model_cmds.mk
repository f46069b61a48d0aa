# Arbitrary ring and batch contents through the Gen9 model's command
# streamer: no crash, no out-of-bounds access, bounded work per poll.
FUZZ_TARGETS += fuzz_model_cmds
fuzz_model_cmds_SRCS := $(wildcard gpu/model/*.c) gpu/hw/pci_ids.c
