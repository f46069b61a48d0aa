# The virtqueue walk of the virtio console (hv/vm/virtq.c): host unit test.
UNIT_TESTS += test_virtq
test_virtq_SRCS := hv/vm/virtq.c
