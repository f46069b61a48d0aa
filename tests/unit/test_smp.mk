# SMP bring-up's pure parts: the plan from the firmware's CPU list and the
# trampoline's page (hv/cpu/smp_plan.c), the trampoline patching
# (hv/cpu/ap_tramp.c), the per-CPU area's layout (hv/cpu/percpu.c).
UNIT_TESTS += test_smp
test_smp_SRCS := hv/cpu/smp_plan.c hv/cpu/ap_tramp.c hv/cpu/percpu.c \
	tests/harness/fake_pages.c
