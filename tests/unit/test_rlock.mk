# The owner-recursive spinlock (hv/cpu/rlock.c, rlock.h): nesting, its
# counters, a bad drop trapping, two threads as two CPUs: host unit test.
UNIT_TESTS += test_rlock
test_rlock_SRCS := hv/cpu/rlock.c
