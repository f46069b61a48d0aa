# Serial console line editor (hv/line_edit.c): host unit test.
UNIT_TESTS += test_line_edit
test_line_edit_SRCS := hv/line_edit.c
