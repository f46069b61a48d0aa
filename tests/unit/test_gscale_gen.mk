# gScale's low GM generations and bounded predictive copy, against the model.
UNIT_TESTS += test_gscale_gen
test_gscale_gen_SRCS := $(wildcard gpu/gscale/*.c) \
	$(wildcard gpu/model/*.c) gpu/hw/pci_ids.c tests/harness/model_harness.c
