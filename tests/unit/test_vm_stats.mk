# A VM's accounting at a restart (hv/vm/vm_stats.c): host unit test.
UNIT_TESTS += test_vm_stats
test_vm_stats_SRCS := hv/vm/vm_stats.c
