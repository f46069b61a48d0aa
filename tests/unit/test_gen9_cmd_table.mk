# The shared command table (gpu/hw/gen9_cmd_table.h): lengths and memory
# operands, checked against facts from Mesa's gen9.xml and i915.
UNIT_TESTS += test_gen9_cmd_table
test_gen9_cmd_table_SRCS :=
