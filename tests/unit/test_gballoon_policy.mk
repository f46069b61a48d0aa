# gBalloon's runtime policy: f(W, R_copy), bands, whom to shrink.
UNIT_TESTS += test_gballoon_policy
test_gballoon_policy_SRCS := gpu/policy/gballoon_policy.c
