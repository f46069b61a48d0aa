# The guest library's side of a move: layouts from R_RANGES replies, re-basing by high offset.
UNIT_TESTS += test_vgpu_place_rebase
test_vgpu_place_rebase_SRCS := guest-shim/vmrpc/vmrpc_guest.c
