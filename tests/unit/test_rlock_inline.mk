# The owner-recursive spinlock's inline fast path (hv/cpu/rlock.h), with
# counting stand-ins for its out-of-line half: host unit test.
UNIT_TESTS += test_rlock_inline
test_rlock_inline_SRCS :=
