# DymGPU placements and gBalloon's Algorithm 1 on the papers' examples.
UNIT_TESTS += test_policy_slots
test_policy_slots_SRCS := gpu/policy/slots.c gpu/gballoon/gballoon_adjust.c \
	gpu/dymgpu/dymgpu_place.c
