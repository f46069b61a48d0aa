# The Linux guest: Debian 12's stock kernel and a busybox initramfs, fetched
# with apt-get download into $(LINUX_GUEST) (cached: the .debs stay) by
# tools/fetch-linux-guest. Nothing comes from anywhere but Debian's archive.
LINUX_GUEST := $(BUILD)/linux-guest
LINUX_GUEST_FILES := $(LINUX_GUEST)/vmlinuz $(LINUX_GUEST)/initramfs.cpio

$(LINUX_GUEST)/vmlinuz: tools/fetch-linux-guest | $(DEPS_STAMP)
	@tools/fetch-linux-guest $(LINUX_GUEST)

# The initramfs changes with its /init; the kernel download is not redone.
$(LINUX_GUEST)/initramfs.cpio: tools/mkinitramfs tools/linux-guest-init $(LINUX_GUEST)/vmlinuz
	@tools/mkinitramfs $(LINUX_GUEST)/busybox tools/linux-guest-init $@

# Bad inputs for the loader's refusal case (tests/emu/cases/linux-bad-bochs):
# the kernel cut in half, and an initrd bigger than its VM can hold.
LINUX_BAD_FILES := $(LINUX_GUEST)/vmlinuz-truncated $(LINUX_GUEST)/initrd-huge.img
LINUX_GUEST_FILES += $(LINUX_BAD_FILES)

$(LINUX_GUEST)/vmlinuz-truncated: $(LINUX_GUEST)/vmlinuz
	@head -c $$(( $$(stat -c %s $<) / 2 )) $< > $@

$(LINUX_GUEST)/initrd-huge.img: $(LINUX_GUEST)/vmlinuz
	@truncate -s 20M $@

.PHONY: linux-guest
linux-guest: $(LINUX_GUEST_FILES)

# The i915 variant (docs/linux-i915.md): the same kernel's i915.ko and its
# dependencies from the same .deb, loaded by tools/linux-i915-init.
# `make linux-i915` builds it; tests/emu/linux-i915/ boots it on a vGPU.
LINUX_I915 := $(LINUX_GUEST)/initramfs-i915.cpio

$(LINUX_I915): tools/mkinitramfs-i915 tools/mkinitramfs tools/linux-i915-init $(LINUX_GUEST)/vmlinuz $(DRM_CLIENT)
	@tools/mkinitramfs-i915 $(firstword $(wildcard $(LINUX_GUEST)/debs/linux-image-*.deb)) \
		$(LINUX_GUEST)/busybox tools/linux-i915-init $@ \
		$(DRM_CLIENT)=bin/g9hv-drm-client

# make test boots it (tests/emu/cases/linux-i915-bochs).
LINUX_GUEST_FILES += $(LINUX_I915)

.PHONY: linux-i915
linux-i915: $(LINUX_I915)

# The IGT variant (tests/igt/README.md): the i915 initramfs plus Debian's
# IGT programs named in tests/igt/programs and the libraries they load
# (tools/fetch-igt: apt-get download into $(IGT_DIR), cached), run by the
# /init step `igt`. tests/emu/cases/linux-igt-bochs boots it.
IGT_DIR := $(LINUX_GUEST)/igt
LINUX_IGT := $(LINUX_GUEST)/initramfs-igt.cpio

# It also carries Mesa's Vulkan driver for Intel (ANV) and the guest program
# that submits through it (guest-shim/vk-fill), run by the /init step `vk`:
# tools/fetch-anv downloads mesa-vulkan-drivers, libvulkan1, libvulkan-dev
# and their library packages into $(ANV_DIR) (cached) and names ANV, its ICD
# json, the loader and their libraries; most of those libraries are IGT's
# too and go in once (tools/mkinitramfs).
ANV_DIR := $(LINUX_GUEST)/anv
VK_FILL := $(BUILD)/vk-fill/g9hv-vk-fill

$(ANV_DIR).files: tools/fetch-anv tools/fetch-igt | $(DEPS_STAMP)
	@tools/fetch-anv $(ANV_DIR) > $@.tmp && mv $@.tmp $@

# Built on the host against libvulkan-dev's headers and libvulkan.so from
# the unpacked packages, linked dynamically against the loader.
$(VK_FILL): guest-shim/vk-fill/vk_fill.c $(ANV_DIR).files
	@mkdir -p $(dir $@)
	$(Q)gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I$(ANV_DIR)/root/usr/include \
		-o $@ $< -L$(ANV_DIR)/root/usr/lib/x86_64-linux-gnu -lvulkan

.PHONY: vk-fill
vk-fill: $(VK_FILL)

$(LINUX_IGT): tools/fetch-igt tests/igt/programs $(LINUX_I915) $(ANV_DIR).files $(VK_FILL)
	@tools/fetch-igt $(IGT_DIR) tests/igt/programs > $(IGT_DIR).files
	@tools/mkinitramfs-i915 $(firstword $(wildcard $(LINUX_GUEST)/debs/linux-image-*.deb)) \
		$(LINUX_GUEST)/busybox tools/linux-i915-init $@ \
		$(DRM_CLIENT)=bin/g9hv-drm-client tests/igt/programs=etc/igt/programs \
		$$(cat $(IGT_DIR).files) $(VK_FILL)=bin/g9hv-vk-fill $$(cat $(ANV_DIR).files)

LINUX_GUEST_FILES += $(LINUX_IGT)

.PHONY: linux-igt
linux-igt: $(LINUX_IGT)

# The Mesa variant (tests/igt/README.md "OpenGL through iris"): the IGT
# initramfs above (IGT's programs, ANV, vk-fill) plus Debian's iris (the
# Gallium megadriver of libgl1-mesa-dri), Mesa's EGL and GBM, GLVND's
# libEGL/libGLESv2 and guest-shim/gl-frame, run by the /init step `gl`.
# tools/fetch-mesa downloads them into $(MESA_DIR) (cached); libLLVM (117 MB,
# llvmpipe's) is replaced by the stand-in tools/mkllvm-stub makes from the
# megadriver's own symbols. Libraries IGT or ANV carry already go in once.
# make test boots it in tests/emu/cases/linux-i915-bochs (steps igt, vk, gl
# in one VM); the two-VM IGT case keeps the smaller initramfs-igt.cpio.
# `make emu-mesa` (tests/emu/mesa/) boots it with the batch trace on.
MESA_DIR := $(LINUX_GUEST)/mesa
GL_FRAME := $(BUILD)/gl-frame/g9hv-gl-frame
LLVM_STUB := $(BUILD)/gl-frame/libLLVM-15.so.1
LINUX_MESA := $(LINUX_GUEST)/initramfs-mesa.cpio

$(MESA_DIR)/.fetched: tools/fetch-mesa tools/fetch-igt | $(DEPS_STAMP)
	@tools/fetch-mesa $(MESA_DIR) && touch $@

$(LLVM_STUB): tools/mkllvm-stub $(MESA_DIR)/.fetched
	@mkdir -p $(dir $@)
	@tools/mkllvm-stub $(MESA_DIR)/root/usr/lib/x86_64-linux-gnu/dri/iris_dri.so \
		$(BUILD)/gl-frame/llvm-stub.c $(BUILD)/gl-frame/llvm-stub.map
	$(Q)gcc -shared -fPIC -O1 -Wall -Wl,-soname,libLLVM-15.so.1 \
		-Wl,--version-script=$(BUILD)/gl-frame/llvm-stub.map \
		-o $@ $(BUILD)/gl-frame/llvm-stub.c

$(MESA_DIR).files: $(LLVM_STUB)
	@tools/fetch-mesa $(MESA_DIR) --llvm=$(LLVM_STUB) > $@.tmp && mv $@.tmp $@

# Built on the host against libegl-dev's and libgles-dev's headers and
# GLVND's libEGL.so/libGLESv2.so from the unpacked packages.
$(GL_FRAME): guest-shim/gl-frame/gl_frame.c $(MESA_DIR)/.fetched
	@mkdir -p $(dir $@)
	$(Q)gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I$(MESA_DIR)/root/usr/include \
		-o $@ $< -L$(MESA_DIR)/root/usr/lib/x86_64-linux-gnu \
		-Wl,-rpath-link,$(MESA_DIR)/root/usr/lib/x86_64-linux-gnu -lEGL -lGLESv2

.PHONY: gl-frame linux-mesa
gl-frame: $(GL_FRAME)

# Intel's compute runtime (docs/opencl.md): tools/fetch-opencl downloads
# intel-opencl-icd (NEO), the ICD loader, clinfo and the compiler packages
# into $(OPENCL_DIR) (cached) and names what the guest loads: NEO without
# its compiler (IGC, clang and LLVM 14 are 280 MB). The kernel of
# guest-shim/cl-run is compiled here, by that release's ocloc run from the
# unpacked packages, for Skylake; the guest program loads the binary. The
# step `cl` of /init runs clinfo and the program.
OPENCL_DIR := $(LINUX_GUEST)/opencl
OPENCL_LIBS := $(OPENCL_DIR)/root/usr/lib/x86_64-linux-gnu
CL_RUN := $(BUILD)/cl-run/g9hv-cl-run
CL_FILL := $(BUILD)/cl-run/cl-fill
$(OPENCL_DIR).files: tools/fetch-opencl tools/fetch-igt | $(DEPS_STAMP)
	@tools/fetch-opencl $(OPENCL_DIR) > $@.tmp && mv $@.tmp $@
$(CL_RUN): guest-shim/cl-run/cl_run.c $(OPENCL_DIR).files
	@mkdir -p $(dir $@)
	$(Q)gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I$(OPENCL_DIR)/root/usr/include \
		-o $@ $< $(OPENCL_LIBS)/libOpenCL.so.1
$(CL_FILL): guest-shim/cl-run/fill.cl $(OPENCL_DIR).files
	@mkdir -p $(dir $@)
	$(Q)LD_LIBRARY_PATH=$(OPENCL_LIBS):$(OPENCL_DIR)/root/usr/lib/llvm-14/lib \
		$(OPENCL_DIR)/root/usr/bin/ocloc compile -q -file $< -device skl \
		-out_dir $(dir $@) -output $(notdir $@) -output_no_suffix
CL_FILES = $(CL_RUN)=bin/g9hv-cl-run $(CL_FILL)=etc/g9hv/cl-fill.bin \
	$$(cat $(OPENCL_DIR).files)
.PHONY: cl-run
cl-run: $(CL_RUN) $(CL_FILL)
$(LINUX_MESA): $(LINUX_IGT) $(MESA_DIR).files $(GL_FRAME) $(CL_RUN) $(CL_FILL)
	@tools/mkinitramfs-i915 $(firstword $(wildcard $(LINUX_GUEST)/debs/linux-image-*.deb)) \
		$(LINUX_GUEST)/busybox tools/linux-i915-init $@ \
		$(DRM_CLIENT)=bin/g9hv-drm-client tests/igt/programs=etc/igt/programs \
		$$(cat $(IGT_DIR).files) $(VK_FILL)=bin/g9hv-vk-fill $$(cat $(ANV_DIR).files) \
		$(GL_FRAME)=bin/g9hv-gl-frame $$(cat $(MESA_DIR).files) $(CL_FILES)

LINUX_GUEST_FILES += $(LINUX_MESA)

linux-mesa: $(LINUX_MESA)
# The compute variant: the i915 initramfs plus the OpenCL runtime, clinfo
# and guest-shim/cl-run alone (small, so it loads fast). `make emu-cl`
# (tests/emu/cl/) boots it with the batch trace on, for the fixture of the
# compute batches.
LINUX_CL := $(LINUX_GUEST)/initramfs-cl.cpio
$(LINUX_CL): $(LINUX_I915) $(CL_RUN) $(CL_FILL)
	@tools/mkinitramfs-i915 $(firstword $(wildcard $(LINUX_GUEST)/debs/linux-image-*.deb)) \
		$(LINUX_GUEST)/busybox tools/linux-i915-init $@ \
		$(DRM_CLIENT)=bin/g9hv-drm-client $(CL_FILES)
.PHONY: linux-cl
linux-cl: $(LINUX_CL)

# The display variant (docs/display.md "modetest"): the i915 initramfs plus
# Debian's modetest (libdrm-tests) and the libraries it loads
# (tools/fetch-modetest: apt-get download into $(MODETEST_DIR), cached),
# run by the /init step `modetest`. tests/emu/cases/linux-display-bochs
# boots it.
MODETEST_DIR := $(LINUX_GUEST)/modetest
LINUX_DISPLAY := $(LINUX_GUEST)/initramfs-display.cpio

$(MODETEST_DIR).files: tools/fetch-modetest tools/fetch-igt | $(DEPS_STAMP)
	@tools/fetch-modetest $(MODETEST_DIR) > $@.tmp && mv $@.tmp $@

$(LINUX_DISPLAY): $(LINUX_I915) $(MODETEST_DIR).files
	@tools/mkinitramfs-i915 $(firstword $(wildcard $(LINUX_GUEST)/debs/linux-image-*.deb)) \
		$(LINUX_GUEST)/busybox tools/linux-i915-init $@ \
		$(DRM_CLIENT)=bin/g9hv-drm-client $$(cat $(MODETEST_DIR).files)

LINUX_GUEST_FILES += $(LINUX_DISPLAY)

.PHONY: linux-display
linux-display: $(LINUX_DISPLAY)

# The virtio console variant (docs/linux-guests.md "A virtio console"): the
# same /init plus the virtio console's modules from the same .deb, loaded
# by /init under console=hvc0. tests/emu/cases/linux-virtio-bochs boots it.
LINUX_VIRTIO := $(LINUX_GUEST)/initramfs-virtio.cpio

$(LINUX_VIRTIO): tools/mkinitramfs-virtio tools/mkinitramfs-i915 tools/mkinitramfs tools/linux-guest-init $(LINUX_GUEST)/vmlinuz
	@tools/mkinitramfs-virtio $(firstword $(wildcard $(LINUX_GUEST)/debs/linux-image-*.deb)) \
		$(LINUX_GUEST)/busybox tools/linux-guest-init $@

LINUX_GUEST_FILES += $(LINUX_VIRTIO)

.PHONY: linux-virtio
linux-virtio: $(LINUX_VIRTIO)
