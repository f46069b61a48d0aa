FUZZ_TARGETS += fuzz_bzimage
fuzz_bzimage_SRCS := hv/vm/bzimage.c
