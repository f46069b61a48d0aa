# Debian packages the build and tests need. `make deps` installs what is
# missing (apt-get as root, or through sudo) and records a stamp so later runs
# do not even ask dpkg. Every other target depends on the stamp.
DEB_PACKAGES := build-essential gnu-efi nasm clang libclang-rt-14-dev \
	libcmocka-dev qemu-system-x86 ovmf bochs bochsbios vgabios bochs-sdl \
	mtools dosfstools fdisk gnuplot-nox python3 git valgrind

DEPS_STAMP := $(BUILD)/.deps-$(shell echo $(DEB_PACKAGES) | cksum | cut -d' ' -f1)

deps: $(DEPS_STAMP)

$(DEPS_STAMP):
	@mkdir -p $(BUILD)
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "deps: installing Debian packages:" $$missing; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 1; \
	fi
	@touch $@
