# Disk images and emulator runs.
#  make image  - USB-ready GPT disk image (build/g9hv.img) with the default hv.cfg
#  make run    - the main job: build, boot in Bochs (VT-x), console on this terminal
#  make run-linux - the same with a Linux VM, the console attached to it
#  make run-qemu - the same in QEMU: KVM with nested VT-x where the host has
#                 it (VMs run), else TCG (no VT-x: no VMs, just the shell)
#  make run-usb  - make run-qemu with the image on an emulated USB stick
#  make qemu / make bochs - boot build/g9hv.img headless in one emulator
#  make qemu-usb - make qemu from the emulated USB stick
#  make emu    - the emulator test cases (tests/emu/)

IMAGE := $(BUILD)/g9hv.img

image: $(IMAGE)

# No hv.cfg on the image: the built-in one (boot/default-hv.cfg) starts two
# test-guest VMs from \testguest.bin.
$(IMAGE): $(EFI_APP) $(TESTGUEST_BIN) tools/mkimage
	tools/mkimage $@ $(EFI_APP) "" $(TESTGUEST_BIN)

# Bochs: it emulates VT-x with EPT, so the VMs run (QEMU here is TCG only).
run: $(IMAGE)
	@tools/run-interactive bochs $(IMAGE) $(RUN_SECONDS)

# Debian's kernel with the console attached (tools/run-linux.cfg); its
# boot takes about 2 minutes of Bochs before the guest's shell prompts.
LINUX_IMAGE := $(BUILD)/g9hv-linux.img
$(LINUX_IMAGE): $(EFI_APP) $(TESTGUEST_BIN) $(LINUX_GUEST)/vmlinuz \
		$(LINUX_GUEST)/initramfs.cpio tools/mkimage tools/run-linux.cfg
	tools/mkimage $@ $(EFI_APP) tools/run-linux.cfg $(LINUX_GUEST)/vmlinuz \
		$(LINUX_GUEST)/initramfs.cpio $(TESTGUEST_BIN)

run-linux: $(LINUX_IMAGE)
	@tools/run-interactive bochs $(LINUX_IMAGE) $(RUN_SECONDS)

run-qemu: $(IMAGE)
	@tools/run-interactive qemu $(IMAGE) $(RUN_SECONDS)

# The stick as users boot it: xHCI + usb-storage, OVMF's removable-media boot.
run-usb: $(IMAGE)
	@QEMU_DISK=usb tools/run-interactive qemu $(IMAGE) $(RUN_SECONDS)

qemu: $(IMAGE)
	QEMU_ACCEL=auto tools/run-qemu $(IMAGE) $(BUILD)/qemu-run $(RUN_SECONDS); \
	echo "console output: $(BUILD)/qemu-run/console.log"

qemu-usb: $(IMAGE)
	QEMU_ACCEL=auto QEMU_DISK=usb tools/run-qemu $(IMAGE) $(BUILD)/qemu-run $(RUN_SECONDS); \
	echo "console output: $(BUILD)/qemu-run/console.log"

bochs: $(IMAGE)
	tools/run-bochs $(IMAGE) $(BUILD)/bochs-run $(RUN_SECONDS); \
	echo "console output: $(BUILD)/bochs-run/console.log"

# Reads the framebuffer console's text off a QEMU screen dump, with the
# console's own font (the fbcon-qemu case's check).
FBCHECK := $(BUILD)/host/fbcheck
$(FBCHECK): tools/fbcheck.c hv/console/fbcon_font.c hv/console/fbcon_font.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)gcc -O2 -Wall -Wextra -Werror -I. -o $@ tools/fbcheck.c hv/console/fbcon_font.c

# Every case is its own target, so `make -j2 emu` runs two at once (each
# emulator is one busy thread; the cases share nothing but the EFI binary
# and guest images they read). Cases start longest first, by the timeout
# each case allows (the Linux boots take minutes), so the lanes end
# together instead of one Linux boot running alone at the end.
EMU_ORDER := $(shell for d in tests/emu/cases/*/; do \
	echo "$$(cat $${d}timeout 2>/dev/null || echo 0) $$(basename $$d)"; \
	done | sort -k1,1nr -k2,2 | cut -d' ' -f2)
EMU_INPUTS := $(EFI_APP) $(TESTGUEST_BIN) $(LINUX_GUEST_FILES) $(FBCHECK)

emu: $(addprefix emu-case-,$(EMU_ORDER))

emu-case-%: $(EMU_INPUTS)
	@tools/run-tests emu $(EFI_APP) $(BUILD)/emu tests/emu/cases/$*/

# Tests of the tools themselves (shell scripts under tests/tools/), recorded
# with the unit tests; test_check_includes.sh also holds the tree to its
# include rules (tools/check-includes), test_check_citations.sh to citing
# only files it holds (tools/check-citations).
TOOL_TESTS := $(wildcard tests/tools/test_*.sh)
tool-tests:
	@tools/run-tests unit $(TOOL_TESTS)

# The host's tests as one lane of `make test`: one after another (one fuzz
# target at a time: FUZZ_JOBS=1), while the emulator cases fill the other
# core.
host-tests:
	@$(MAKE) --no-print-directory -k unit stress tool-tests fuzz

# Two lanes: the machine CI gives us has two cores.
TEST_JOBS ?= 2

test: deps
	@rm -f $(BUILD)/test-results
	@$(MAKE) --no-print-directory efi guest
	@# Unit and fuzz binaries link shared objects (mk/host.mk), built on
	@# both cores. The guest images stay serial above (their fetches share
	@# apt's lock).
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) unit-build fuzz-build
	@$(MAKE) --no-print-directory $(EMU_INPUTS)
	@$(MAKE) --no-print-directory -k -j$(TEST_JOBS) --output-sync=target \
		host-tests emu FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) FUZZ_JOBS=1; \
	tools/run-tests summary $(BUILD)/test-results

# Exit-path baseline: the test guest times CPUID, I/O, MSR, MMIO and
# hypercall round trips in Bochs; the table lands in build/bench/exits.md.
# bench-host (no Bochs, callgrind on the host): shadow PPGTT memory and
# rebuild cost (build/bench/shadow.md), context-switch costs of the model
# and of the mediator's MMIO switch list (build/bench/switch.md).
# bench-linux: one Linux boot with issue 31's hot-path switches off, one
# with the defaults, same binary, side by side (build/bench/linux.md).
# bench-compare: BENCH_BASE (default 31b2d51, issue 31's build) built from
# a git archive under build/bench/compare/base, and the exit bench's strict
# boot, one Linux boot and the empty-i915-request host bench run with it
# and with this tree's binary: build/bench/compare/compare.md, base / head
# / ratio (tools/bench-compare).
.PHONY: bench bench-host bench-linux bench-compare run-usb qemu-usb tool-tests host-tests
bench: $(EFI_APP) $(TESTGUEST_BIN) bench-host bench-linux bench-compare
	@tools/bench-exits $(EFI_APP) $(TESTGUEST_BIN) $(BUILD)/bench

bench-compare: $(EFI_APP) $(TESTGUEST_BIN) $(LINUX_GUEST)/vmlinuz $(LINUX_GUEST)/initramfs.cpio | $(DEPS_STAMP)
	@tools/bench-compare $(EFI_APP) $(TESTGUEST_BIN) $(LINUX_GUEST)/vmlinuz \
		$(LINUX_GUEST)/initramfs.cpio $(BUILD)/bench/compare
	@cp $(BUILD)/bench/compare/compare.md $(BUILD)/bench/compare.md

bench-linux: $(EFI_APP) $(LINUX_GUEST)/vmlinuz $(LINUX_GUEST)/initramfs.cpio
	@tools/bench-linux $(EFI_APP) $(LINUX_GUEST)/vmlinuz \
		$(LINUX_GUEST)/initramfs.cpio $(BUILD)/bench/linux

bench-host: | $(DEPS_STAMP)
	@tools/bench-host $(BUILD)/bench

# Mesa's iris in a Linux guest (tests/emu/mesa/, tests/igt/README.md): a
# Linux boot of its own, so not in make test's emu lanes.
.PHONY: emu-mesa
emu-mesa: $(EFI_APP) $(LINUX_GUEST)/vmlinuz $(LINUX_MESA)
	@tools/run-tests emu $(EFI_APP) $(BUILD)/emu tests/emu/mesa/linux-mesa-bochs/
# Intel's compute runtime in a Linux guest (tests/emu/cl/, docs/opencl.md):
# the fixture run of the compute batches, a Linux boot of its own, so not
# in make test's emu lanes (linux-i915-bochs runs the same step).
.PHONY: emu-cl
emu-cl: $(EFI_APP) $(LINUX_GUEST)/vmlinuz $(LINUX_CL)
	@tools/run-tests emu $(EFI_APP) $(BUILD)/emu tests/emu/cl/linux-cl-bochs/

# The README's pictures (docs/img/linux-fbcon.png, linux-modetest.png;
# docs/display.md "The README picture"): linux-display-bochs dumps the
# box's screen with a Linux VM's fbcon and with modetest's bars
# (`screen dump`: run-length blocks on the 0xE9 port) and its check
# decodes them with tools/console2png; this runs the case and copies them.
.PHONY: readme-picture
readme-picture: $(EFI_APP) $(LINUX_GUEST)/vmlinuz $(LINUX_DISPLAY)
	@tools/run-tests emu $(EFI_APP) $(BUILD)/emu tests/emu/cases/linux-display-bochs/
	@mkdir -p docs/img
	@cp $(BUILD)/emu/linux-display-bochs/png/box-1.png docs/img/linux-fbcon.png
	@cp $(BUILD)/emu/linux-display-bochs/png/box-2.png docs/img/linux-modetest.png
