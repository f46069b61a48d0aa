# The on-machine image: BOOTX64.EFI = boot/ + hv/ + gpu/ + libc-mini/.
#
# GNU-EFI supplies the headers, crt0 (the PE entry that relocates the image and
# calls efi_main) and libgnuefi (the relocation routine). We do not link
# libefi: libc-mini provides what it would, and one implementation of memcpy is
# easier to trust than two.

EFI_CC      := gcc
EFI_INC     := /usr/include/efi
EFI_LIB     := /usr/lib
EFI_CFLAGS  := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-ffreestanding -fno-builtin -fno-stack-protector -fno-strict-aliasing \
	-fpic -fshort-wchar -mno-red-zone -maccumulate-outgoing-args \
	-fno-asynchronous-unwind-tables \
	-DGNU_EFI_USE_MS_ABI -DHV_VERSION=\"$(VERSION)\" \
	-I. -Ilibc-mini/include -I$(EFI_INC) -I$(EFI_INC)/x86_64
# hv/ and gpu/ run after ExitBootServices with no FPU/SSE state of their own
# to save across VM exits: keep the compiler off the vector registers there.
EFI_CFLAGS_NOSSE := -mgeneral-regs-only
EFI_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic -T linker/efi_x86_64.lds \
	--no-undefined
NASMFLAGS   := -f elf64 -g

EFI_C_SRCS   := $(wildcard boot/*.c hv/*.c hv/*/*.c gpu/*.c gpu/*/*.c gpu/*/*/*.c libc-mini/*.c)
EFI_ASM_SRCS := $(wildcard boot/*.asm hv/*.asm hv/*/*.asm)
EFI_OBJS := $(patsubst %.c,$(BUILD)/efi/%.o,$(EFI_C_SRCS)) \
	    $(patsubst %.asm,$(BUILD)/efi/%.o,$(EFI_ASM_SRCS)) \
	    $(BUILD)/efi/build_id.o $(BUILD)/efi/default_cfg.o
EFI_SO   := $(BUILD)/efi/hv.so
EFI_APP  := $(BUILD)/BOOTX64.EFI

efi: $(EFI_APP)

$(BUILD)/efi/boot/%.o: boot/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(EFI_CC) $(EFI_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/efi/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(EFI_CC) $(EFI_CFLAGS) $(EFI_CFLAGS_NOSSE) -MMD -MP -c -o $@ $<

$(BUILD)/efi/%.o: %.asm $(wildcard hv/*/*.inc) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	$(Q)nasm $(NASMFLAGS) -o $@ $<

# The build id changes with every commit; only this one object depends on it.
$(BUILD)/efi/build_id.c: FORCE
	@mkdir -p $(dir $@)
	@echo 'const char hv_build_id[] = "$(BUILD_ID)";' > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
$(BUILD)/efi/build_id.o: $(BUILD)/efi/build_id.c
	$(Q)$(EFI_CC) $(EFI_CFLAGS) -c -o $@ $<
.PHONY: FORCE

# The configuration used when the boot volume carries no hv.cfg.
$(BUILD)/efi/default_cfg.c: boot/default-hv.cfg tools/bin2c
	@mkdir -p $(dir $@)
	$(Q)tools/bin2c $< default_hv_cfg > $@
$(BUILD)/efi/default_cfg.o: $(BUILD)/efi/default_cfg.c
	$(Q)$(EFI_CC) $(EFI_CFLAGS) -c -o $@ $<

$(EFI_SO): $(EFI_OBJS) linker/efi_x86_64.lds
	@echo "  LD      $@"
	$(Q)ld $(EFI_LDFLAGS) -o $@ $(EFI_LIB)/crt0-efi-x86_64.o $(EFI_OBJS) $(EFI_LIB)/libgnuefi.a

$(EFI_APP): $(EFI_SO)
	@echo "  EFI     $@"
	$(Q)objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
		-j .rela -j .rel.* -j .rela.* -j .reloc --target efi-app-x86_64 \
		--subsystem=10 $< $@

-include $(EFI_OBJS:.o=.d)
