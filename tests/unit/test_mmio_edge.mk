UNIT_TESTS += test_mmio_edge
test_mmio_edge_SRCS := hv/vm/mmio_edge.c
