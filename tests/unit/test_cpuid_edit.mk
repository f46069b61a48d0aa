# CPUID as a VM sees it (hv/vm/cpuid_edit.c): pure edits of the host's answers.
UNIT_TESTS += test_cpuid_edit
test_cpuid_edit_SRCS := hv/vm/cpuid_edit.c
