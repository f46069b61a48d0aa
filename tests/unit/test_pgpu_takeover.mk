# The takeover sequence (gpu/hw/pgpu_takeover.c) recorded register by
# register against the model and compared with i915's documented order.
UNIT_TESTS += test_pgpu_takeover
test_pgpu_takeover_SRCS := gpu/hw/pgpu_takeover.c gpu/hw/pgpu.c \
	gpu/hw/pgpu_engine.c gpu/hw/pgpu_irq.c gpu/hw/pci_ids.c \
	$(wildcard gpu/model/*.c) tests/harness/model_harness.c
