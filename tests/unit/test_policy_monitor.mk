# The policy monitor: idle detection, utilization windows, R_copy and W.
UNIT_TESTS += test_policy_monitor
test_policy_monitor_SRCS := gpu/policy/monitor.c
