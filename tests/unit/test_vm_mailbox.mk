# Interrupt mailboxes and EPT flushes for VMs on other CPUs, and the kick.
UNIT_TESTS += test_vm_mailbox
test_vm_mailbox_SRCS := hv/vm/vm_mailbox.c hv/cpu/xcpu.c
