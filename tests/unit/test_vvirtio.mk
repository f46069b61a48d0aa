# The virtio console device (hv/vm/vvirtio.c) with its queue walk, the real
# device registry and PCI config space: host unit test.
UNIT_TESTS += test_vvirtio
test_vvirtio_SRCS := hv/vm/vvirtio.c hv/vm/virtq.c hv/vm/vdev.c hv/vm/mmio.c hv/vm/vpci.c
