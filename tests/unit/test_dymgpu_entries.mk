# DymGPU live placement vs gScale's placement in GGTT entries, on the
# model: never more on adversarial rotations and bursts.
UNIT_TESTS += test_dymgpu_entries
test_dymgpu_entries_SRCS := $(wildcard gpu/gscale/*.c) gpu/dymgpu/dymgpu_live.c \
	gpu/policy/monitor.c $(wildcard gpu/model/*.c) gpu/hw/pci_ids.c \
	tests/harness/model_harness.c
