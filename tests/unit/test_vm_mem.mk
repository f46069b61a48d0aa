UNIT_TESTS += test_vm_mem
test_vm_mem_SRCS := hv/vm/vm_mem.c hv/vm/vdev.c hv/vm/mmio.c hv/vmx/ept.c hv/cpu/rlock.c \
	tests/harness/fake_pages.c
