# Disk images and emulator runs.
#  make image  - USB-ready GPT disk image (build/g9hv.img) with the default hv.cfg
#  make run    - the main job: build, boot in an emulator, console on this terminal
#  make qemu / make bochs - boot build/g9hv.img headless in one emulator
#  make emu    - the emulator test cases (tests/emu/)

IMAGE := $(BUILD)/g9hv.img

image: $(IMAGE)

$(IMAGE): $(EFI_APP) tools/mkimage
	tools/mkimage $@ $(EFI_APP)

run: $(IMAGE)
	@tools/run-interactive qemu $(IMAGE) $(RUN_SECONDS)

qemu: $(IMAGE)
	tools/run-qemu $(IMAGE) $(BUILD)/qemu-run $(RUN_SECONDS); \
	echo "console output: $(BUILD)/qemu-run/console.log"

bochs: $(IMAGE)
	tools/run-bochs $(IMAGE) $(BUILD)/bochs-run $(RUN_SECONDS); \
	echo "console output: $(BUILD)/bochs-run/console.log"

emu: $(EFI_APP)
	@tools/run-tests emu $(EFI_APP) $(BUILD)/emu tests/emu/cases/*/

test: deps
	@rm -f $(BUILD)/test-results
	@$(MAKE) --no-print-directory efi unit-build fuzz-build
	@$(MAKE) --no-print-directory -k unit fuzz emu; \
	tools/run-tests summary $(BUILD)/test-results
