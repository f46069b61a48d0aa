FUZZ_TARGETS += fuzz_insn_decode
fuzz_insn_decode_SRCS := hv/vmx/insn_decode.c hv/vmx/insn_vec.c hv/vm/mmio_edge.c
