# The VM's registry of whole devices (hv/vm/vdev.c) with the real range
# registry and PCI config space: host unit test.
UNIT_TESTS += test_vdev
test_vdev_SRCS := hv/vm/vdev.c hv/vm/mmio.c hv/vm/vpci.c
