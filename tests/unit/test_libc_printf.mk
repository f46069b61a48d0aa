UNIT_TESTS += test_libc_printf
test_libc_printf_SRCS := libc-mini/printf.c libc-mini/string.c
test_libc_printf_CFLAGS := -DLM_TEST_PREFIX
