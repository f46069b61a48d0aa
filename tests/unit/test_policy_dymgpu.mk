# DymGPU's placement manager: create/destroy/idle/periodic triggers, moves.
UNIT_TESTS += test_policy_dymgpu
test_policy_dymgpu_SRCS := gpu/dymgpu/dymgpu_trigger.c gpu/policy/slots.c \
	gpu/dymgpu/dymgpu_place.c
