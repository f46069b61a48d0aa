# The guest channel's checking core (hv/vm/vmrpc_ring.c).
UNIT_TESTS += test_vmrpc_ring
test_vmrpc_ring_SRCS := hv/vm/vmrpc_ring.c
