# Where unpinned VMs run (hv/vm/sched_place.c): host unit test.
UNIT_TESTS += test_sched_place
test_sched_place_SRCS := hv/vm/sched_place.c
