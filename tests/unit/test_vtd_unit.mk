# Programming a VT-d unit (enable order, invalidation by register and by
# queue, timeouts) and reading its fault records, against a fake unit.
UNIT_TESTS += test_vtd_unit
test_vtd_unit_SRCS := hv/vtd/vtd_unit.c hv/vtd/vtd_inval.c hv/vtd/vtd_fault.c \
	tests/harness/fake_pages.c
