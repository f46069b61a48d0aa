# When an idle CPU sleeps and for how long (hv/cpu/idle_plan.c): host unit test.
UNIT_TESTS += test_idle_plan
test_idle_plan_SRCS := hv/cpu/idle_plan.c
