UNIT_TESTS += test_ept
test_ept_SRCS := hv/vmx/ept.c tests/harness/fake_pages.c
