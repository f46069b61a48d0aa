# Serial console line editor (hv/console/line_edit.c): host unit test.
UNIT_TESTS += test_line_edit
test_line_edit_SRCS := hv/console/line_edit.c
