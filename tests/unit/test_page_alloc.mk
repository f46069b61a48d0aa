# Physical page allocator (hv/mm/page_alloc.c): host unit test. (Not linked with
# tests/harness/fake_pages.c, which defines the same symbols.)
UNIT_TESTS += test_page_alloc
test_page_alloc_SRCS := hv/mm/page_alloc.c
