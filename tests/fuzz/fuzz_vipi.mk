FUZZ_TARGETS += fuzz_vipi
fuzz_vipi_SRCS := hv/vm/vipi_route.c hv/vm/vlapic.c
