# Console log ring (hv/console/log_ring.c): host unit test.
UNIT_TESTS += test_log_ring
test_log_ring_SRCS := hv/console/log_ring.c
