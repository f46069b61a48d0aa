# gBalloon's policy loop: f(W, R_copy), the bands' actions, the request
# queue, Algorithm 1 and set appliers.
UNIT_TESTS += test_policy_balloon
test_policy_balloon_SRCS := gpu/gballoon/balloon_policy.c gpu/policy/ncslots.c \
	gpu/policy/slots.c gpu/gballoon/gballoon_adjust.c
