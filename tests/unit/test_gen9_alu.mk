# MI_MATH's ALU (gpu/model/alu.c): every Gen9 opcode, CF and ZF.
UNIT_TESTS += test_gen9_alu
test_gen9_alu_SRCS := gpu/model/alu.c
