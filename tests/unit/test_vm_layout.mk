# A VM's RAM around the PCI hole (hv/vm/vm_layout.h, header only).
UNIT_TESTS += test_vm_layout
test_vm_layout_SRCS :=
