# VT-d root/context/second-level tables (hv/vtd/vtd_tables.c) and fault
# record decoding.
UNIT_TESTS += test_vtd
test_vtd_SRCS := hv/vtd/vtd_tables.c hv/vtd/vtd_fault.c tests/harness/fake_pages.c
