# gScale's predictive gate: total work with prediction within its stated
# bound of the work without, on adversarial patterns, against the model.
UNIT_TESTS += test_gscale_predict
test_gscale_predict_SRCS := $(wildcard gpu/gscale/*.c) \
	$(wildcard gpu/model/*.c) gpu/hw/pci_ids.c tests/harness/model_harness.c
