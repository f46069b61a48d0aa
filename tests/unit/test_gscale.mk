# gScale's shared-GM mechanism against the Gen9 model (GGTT, aperture, GPU).
UNIT_TESTS += test_gscale
test_gscale_SRCS := gpu/gscale/gscale.c gpu/gscale/gscale_copy.c gpu/gscale/gscale_gen.c gpu/gscale/gscale_predict.c \
	$(wildcard gpu/model/*.c) gpu/hw/pci_ids.c tests/harness/model_harness.c
