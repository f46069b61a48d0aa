UNIT_TESTS += test_libc_string
test_libc_string_SRCS := libc-mini/string.c
test_libc_string_CFLAGS := -DLM_TEST_PREFIX
