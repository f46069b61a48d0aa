# The iGPU's allowed pages (hv/vtd/vtd_policy.c) over real VT-d tables.
UNIT_TESTS += test_vtd_policy
test_vtd_policy_SRCS := hv/vtd/vtd_policy.c hv/vtd/vtd_tables.c tests/harness/fake_pages.c
