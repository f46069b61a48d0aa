# The real-mode state a STARTUP IPI starts an AP in (hv/vm/vcpu_sipi.c).
UNIT_TESTS += test_vcpu_sipi
test_vcpu_sipi_SRCS := hv/vm/vcpu_sipi.c
