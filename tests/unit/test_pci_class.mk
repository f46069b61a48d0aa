# PCI class names and the ECAM scan (hv/platform/pci.c): host unit test over a fake
# ECAM window in memory. The legacy 0xCF8/0xCFC path is never taken.
UNIT_TESTS += test_pci_class
test_pci_class_SRCS := hv/platform/pci.c
