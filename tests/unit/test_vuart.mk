# The VM's 16550A (hv/vm/vuart.c): host unit test.
UNIT_TESTS += test_vuart
test_vuart_SRCS := hv/vm/vuart.c hv/cpu/rlock.c
