# Non-contiguous slot sets ("ours"): minimal shared slots against
# exhaustive search, set expansion and reduction.
UNIT_TESTS += test_policy_ncslots
test_policy_ncslots_SRCS := gpu/policy/ncslots.c gpu/policy/slots.c \
	gpu/dymgpu/dymgpu_place.c
