# The fuzz_ghyvi fuzz target's world is back to its freshly built state after
# every input (issue 13); the target's sources, hence = (tests/fuzz/ is
# included later).
UNIT_TESTS += test_fuzz_restore_ghyvi
test_fuzz_restore_ghyvi_SRCS = $(fuzz_ghyvi_SRCS)
test_fuzz_restore_ghyvi_CFLAGS := -Wno-attributes
$(BUILD)/host/unit/test_fuzz_restore_ghyvi: tests/fuzz/fuzz_ghyvi.c tests/fuzz/fuzz_vgpu_common.c tests/unit/fuzz_restore_fake.h tests/harness/seed_dir.h
