UNIT_TESTS += test_vmx_caps
test_vmx_caps_SRCS := hv/vmx/vmx_caps.c
