# The fuzz_vgpu_mmio fuzz target's world is back to its freshly built state after
# every input (issue 13); the target's sources, hence = (tests/fuzz/ is
# included later).
UNIT_TESTS += test_fuzz_restore_mmio
test_fuzz_restore_mmio_SRCS = $(fuzz_vgpu_mmio_SRCS)
test_fuzz_restore_mmio_CFLAGS := -Wno-attributes
$(BUILD)/host/unit/test_fuzz_restore_mmio: tests/fuzz/fuzz_vgpu_mmio.c tests/fuzz/fuzz_vgpu_common.c tests/unit/fuzz_restore_fake.h tests/harness/seed_dir.h
