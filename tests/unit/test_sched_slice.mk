UNIT_TESTS += test_sched_slice
test_sched_slice_SRCS := hv/vm/sched_slice.c
