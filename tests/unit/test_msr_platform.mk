# Platform MSRs as KVM answers them, checked against the CPUID a VM sees
# (hv/vm/msr_platform.c, hv/vm/cpuid_edit.c).
UNIT_TESTS += test_msr_platform
test_msr_platform_SRCS := hv/vm/msr_platform.c hv/vm/cpuid_edit.c
