# bzImage setup header and Linux VM layout (hv/vm/bzimage.c): host unit test.
UNIT_TESTS += test_bzimage
test_bzimage_SRCS := hv/vm/bzimage.c
