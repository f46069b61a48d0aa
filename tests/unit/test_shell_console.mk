# `console VM` for a VM on another CPU than the shell's
# (hv/shell/shell_console.c over the real vUART and device lock): host
# unit test.
UNIT_TESTS += test_shell_console
test_shell_console_SRCS := hv/shell/shell_console.c hv/shell/attach_keys.c \
	hv/vm/vuart.c hv/cpu/rlock.c
