# Firmware BAR placement for Linux VMs (hv/vm/vpci_fw.c): host unit test.
UNIT_TESTS += test_vpci_fw
test_vpci_fw_SRCS := hv/vm/vpci_fw.c
