UNIT_TESTS += test_libc_stdlib
test_libc_stdlib_SRCS := libc-mini/stdlib.c
test_libc_stdlib_CFLAGS := -DLM_TEST_PREFIX
