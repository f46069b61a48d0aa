UNIT_TESTS += test_mmio_emul
test_mmio_emul_SRCS := hv/vm/mmio_emul.c hv/vmx/insn_decode.c hv/vmx/insn_vec.c
