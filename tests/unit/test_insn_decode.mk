UNIT_TESTS += test_insn_decode
test_insn_decode_SRCS := hv/vmx/insn_decode.c hv/vmx/insn_vec.c
