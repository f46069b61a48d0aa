# The differential fuzz target's per-input restore leaves its world as a
# freshly built one (issue 13: fast fuzzing without state leaking between
# inputs). It #includes the target, whose checks carry clang's
# no_sanitize("coverage"), an attribute gcc does not know; its sources are
# the target's, named in tests/fuzz/ (included after this file, hence =).
UNIT_TESTS += test_fuzz_restore
test_fuzz_restore_SRCS = $(fuzz_vgpu_diff_SRCS)
test_fuzz_restore_CFLAGS := -Wno-attributes
$(BUILD)/host/unit/test_fuzz_restore: tests/fuzz/fuzz_vgpu_diff.c tests/fuzz/fuzz_vgpu_common.c tests/harness/seed_dir.h
