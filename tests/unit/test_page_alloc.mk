# Physical page allocator (hv/page_alloc.c): host unit test. (Not linked with
# tests/harness/fake_pages.c, which defines the same symbols.)
UNIT_TESTS += test_page_alloc
test_page_alloc_SRCS := hv/page_alloc.c
