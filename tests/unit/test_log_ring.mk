# Console log ring (hv/log_ring.c): host unit test.
UNIT_TESTS += test_log_ring
test_log_ring_SRCS := hv/log_ring.c
