FUZZ_TARGETS += fuzz_guest_state
fuzz_guest_state_SRCS := hv/vm/guest_state_check.c hv/vmx/vmx_caps.c
