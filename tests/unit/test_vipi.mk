UNIT_TESTS += test_vipi
test_vipi_SRCS := hv/vm/vipi_route.c hv/vm/vipi.c hv/vm/vlapic.c
