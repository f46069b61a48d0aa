# Top-level build. Two worlds share the sources:
#  - on the machine: BOOTX64.EFI (boot/ + hv/ + gpu/ + libc-mini/), freestanding,
#    -Wall -Wextra -Werror, linked with GNU-EFI's crt0 and our linker script;
#  - on the host: cmocka unit tests and libFuzzer targets, under ASan/UBSan.
# Each unit test / fuzz target declares its own sources in a small .mk file
# next to it (tests/unit/*.mk, tests/fuzz/*.mk), so adding one never means
# editing this file.

VERSION    := 0.1.0
BUILD      := build
BUILD_ID   := $(shell git describe --always --dirty 2>/dev/null || echo nogit)
RUN_SECONDS ?= 120
# `make fuzz` digs for FUZZ_SECONDS per target; `make test` bounds each to
# TEST_FUZZ_SECONDS so CI stays short.
FUZZ_SECONDS ?= 600
TEST_FUZZ_SECONDS ?= 30
# V=1 prints the full compiler command lines.
Q := $(if $(filter 1,$(V)),,@)

.DEFAULT_GOAL := all
.PHONY: all deps efi image run run-qemu qemu bochs test unit fuzz fuzz-build emu eval clean

include mk/deps.mk
include mk/efi.mk
include mk/host.mk
include mk/stress.mk
include mk/guest.mk
include mk/drm-client.mk
include mk/linux-guest.mk
include mk/emu.mk
include mk/eval.mk

all: efi guest unit-build

clean:
	rm -rf $(BUILD)
