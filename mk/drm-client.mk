# The guest DRM client (guest-shim/drm-client): a static x86-64 Linux
# program for the Linux guest's initramfs, built with the host's gcc and
# glibc (gcc -static), no libdrm. `make drm-client`.
DRM_CLIENT := $(BUILD)/drm-client/g9hv-drm-client
DRM_CLIENT_SRCS := $(addprefix guest-shim/drm-client/,drm_client.c batches.c gem.c nop.c hostile.c bar0.c)
DRM_CLIENT_HDRS := $(wildcard guest-shim/drm-client/*.h)

.PHONY: drm-client
drm-client: $(DRM_CLIENT)

$(DRM_CLIENT): $(DRM_CLIENT_SRCS) $(DRM_CLIENT_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I. -static -o $@ $(DRM_CLIENT_SRCS)
