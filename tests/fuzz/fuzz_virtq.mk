# The virtio console's virtqueue walk (hv/vm/virtq.c): libFuzzer target.
FUZZ_TARGETS += fuzz_virtq
fuzz_virtq_SRCS := hv/vm/virtq.c
