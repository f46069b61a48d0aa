# The fuzz_vgpu_gscale fuzz target's world is back to its freshly built state after
# every input (issue 13); the target's sources, hence = (tests/fuzz/ is
# included later).
UNIT_TESTS += test_fuzz_restore_gscale
test_fuzz_restore_gscale_SRCS = $(fuzz_vgpu_gscale_SRCS)
test_fuzz_restore_gscale_CFLAGS := -Wno-attributes
$(BUILD)/host/unit/test_fuzz_restore_gscale: tests/fuzz/fuzz_vgpu_gscale.c tests/fuzz/fuzz_vgpu_common.c tests/unit/fuzz_restore_fake.h tests/harness/seed_dir.h
