UNIT_TESTS += test_guest_state_check
test_guest_state_check_SRCS := hv/vm/guest_state_check.c
