# The guest channel's checking core (hv/vm/vmrpc_ring.c): libFuzzer target.
FUZZ_TARGETS += fuzz_vmrpc
fuzz_vmrpc_SRCS := hv/vm/vmrpc_ring.c
