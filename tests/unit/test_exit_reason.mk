UNIT_TESTS += test_exit_reason
test_exit_reason_SRCS := hv/vmx/exit_reason.c
