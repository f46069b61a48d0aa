# Guests built by this repo: the test guest (guest-shim/testguest), a flat
# 64-bit image linked at guest-physical 0x100000 (linker/testguest.lds),
# started by hv/vm/loader_raw64.c. It shares libc-mini's formatting and
# string code, compiled a third time: freestanding, not position-independent.

GUEST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding \
	-fno-builtin -fno-stack-protector -fno-pic -fno-pie -mno-red-zone \
	-mgeneral-regs-only -mcmodel=small -fno-asynchronous-unwind-tables \
	-I. -Ilibc-mini/include
TESTGUEST_SRCS := $(wildcard guest-shim/testguest/*.c) $(wildcard guest-shim/vmrpc/*.c) libc-mini/printf.c \
	libc-mini/string.c
TESTGUEST_OBJS := $(patsubst %.c,$(BUILD)/guest/%.o,$(TESTGUEST_SRCS)) \
	$(BUILD)/guest/guest-shim/testguest/entry.o
TESTGUEST_ELF := $(BUILD)/guest/testguest.elf
TESTGUEST_BIN := $(BUILD)/testguest.bin

.PHONY: guest
guest: $(TESTGUEST_BIN)

$(BUILD)/guest/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  GUESTCC $<"
	$(Q)$(EFI_CC) $(GUEST_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/guest/guest-shim/testguest/entry.o: guest-shim/testguest/entry.asm guest-shim/testguest/gpr_frame.inc | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	$(Q)nasm -f elf64 -o $@ $<

$(TESTGUEST_ELF): $(TESTGUEST_OBJS) linker/testguest.lds
	@echo "  LD      $@"
	$(Q)ld -nostdlib -static -z noexecstack --no-warn-rwx-segments -T linker/testguest.lds -o $@ $(TESTGUEST_OBJS)

$(TESTGUEST_BIN): $(TESTGUEST_ELF)
	@echo "  BIN     $@"
	$(Q)objcopy -O binary $< $@

-include $(TESTGUEST_OBJS:.o=.d)
