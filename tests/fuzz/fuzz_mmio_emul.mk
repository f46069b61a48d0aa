FUZZ_TARGETS += fuzz_mmio_emul
fuzz_mmio_emul_SRCS := hv/vm/mmio_emul.c hv/vmx/insn_decode.c hv/vmx/insn_vec.c
