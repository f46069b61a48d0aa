# DymGPU live: busy vGPUs apart whatever the creation order, hysteresis
# against a rotating busy set, pinned guests, on traces with the monitor.
UNIT_TESTS += test_policy_dymgpu_live
test_policy_dymgpu_live_SRCS := gpu/dymgpu/dymgpu_live.c gpu/policy/monitor.c
