# Host builds: cmocka unit tests and libFuzzer targets.
#
# A unit test is tests/unit/<name>.c plus tests/unit/<name>.mk, which says
#     UNIT_TESTS += <name>
#     <name>_SRCS := libc-mini/string.c ...      (code under test)
#     <name>_CFLAGS := -DLM_TEST_PREFIX          (optional)
# A fuzz target is tests/fuzz/<name>.c plus tests/fuzz/<name>.mk, the same way
# with FUZZ_TARGETS. Both see -I. -Ilibc-mini/include and -DHOST_BUILD.

HOST_CC      ?= gcc
FUZZ_CC      ?= clang
HOST_CFLAGS  := -std=gnu11 -g -O1 -Wall -Wextra -Werror -DHOST_BUILD \
	-I. -Ilibc-mini/include -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined
HOST_LDLIBS  := -lcmocka
FUZZ_CFLAGS  := -std=gnu11 -g -O1 -Wall -Wextra -DHOST_BUILD -DFUZZING \
	-I. -Ilibc-mini/include -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined \
	-fsanitize-coverage-ignorelist=tests/fuzz/coverage-ignore.txt

# Headers are few; rebuilding every host binary when one changes is cheap.
HOST_HDRS := $(shell find boot hv gpu libc-mini guest-shim -name '*.h' 2>/dev/null)

# The GPU side a mediator test links: the mediator (every area), the
# research systems, the virtual monitor, the shared policy model and the
# hardware layer (a test adds the model or its own gpu_hw). One list, so a
# file moving between the GPU side's folders touches no test.
GPU_SIDE_SRCS := $(wildcard gpu/vgpu/*.c gpu/vgpu/*/*.c gpu/gscale/mediator/*.c) \
	$(wildcard gpu/display/*.c gpu/ghyvi/*.c gpu/policy/*.c gpu/gballoon/*.c) \
	$(wildcard gpu/dymgpu/*.c gpu/gscale/*.c gpu/hw/*.c)

UNIT_TESTS   :=
FUZZ_TARGETS :=
include $(wildcard tests/unit/*.mk)
include $(wildcard tests/fuzz/*.mk)

UNIT_BINS := $(addprefix $(BUILD)/host/unit/,$(UNIT_TESTS))
FUZZ_BINS := $(addprefix $(BUILD)/host/fuzz/,$(FUZZ_TARGETS))

# Every source a test lists is compiled once into an object shared by all
# the tests that list it ($(BUILD)/host/obj/unit/, .../fuzz/): the mediator's
# ~100 files are listed by ~70 tests, and compiling them per binary was most
# of make test's host build. A test that sets <name>_CFLAGS may change how
# its sources compile (LM_TEST_PREFIX), so it keeps building from source.
HOST_OBJ := $(BUILD)/host/obj

$(HOST_OBJ)/unit/%.o: %.c $(HOST_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -c -o $@ $<

$(HOST_OBJ)/fuzz/%.o: %.c $(HOST_HDRS) tests/fuzz/coverage-ignore.txt | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

# host_inputs KIND NAME: what NAME links, objects when it has no _CFLAGS.
host_inputs = $(if $(strip $($(2)_CFLAGS)),$($(2)_SRCS),$(patsubst %.c,$(HOST_OBJ)/$(1)/%.o,$($(2)_SRCS)))

define unit_rule
$(BUILD)/host/unit/$(1): tests/unit/$(1).c $$(call host_inputs,unit,$(1)) $$(wildcard tests/unit/*.h tests/harness/*.h tests/world/*.h) $$(HOST_HDRS) | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	@echo "  HOSTLD  $$@"
	$(Q)$$(HOST_CC) $$(HOST_CFLAGS) $$($(1)_CFLAGS) -o $$@ tests/unit/$(1).c $$(call host_inputs,unit,$(1)) $$(HOST_LDLIBS)
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_rule,$(t))))

define fuzz_rule
$(BUILD)/host/fuzz/$(1): tests/fuzz/$(1).c $$(call host_inputs,fuzz,$(1)) $$(wildcard tests/fuzz/*_common.c) tests/fuzz/coverage-ignore.txt $$(HOST_HDRS) | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	@echo "  FUZZLD  $$@"
	$(Q)$$(FUZZ_CC) $$(FUZZ_CFLAGS) $$($(1)_CFLAGS) -o $$@ tests/fuzz/$(1).c $$(call host_inputs,fuzz,$(1))
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rule,$(t))))


.PHONY: unit-build
unit-build: $(UNIT_BINS)
fuzz-build: $(FUZZ_BINS)

# Runs every unit test binary; each prints cmocka's summary. The tally at the
# end counts binaries.
unit: $(UNIT_BINS)
	@tools/run-tests unit $(UNIT_BINS)

# Each fuzz target runs for FUZZ_SECONDS from its checked-in seed corpus
# (tests/fuzz/corpus/<name>/, if any) in a scratch copy, FUZZ_JOBS targets
# at a time (one core each): the whole run takes about
# ceil(targets / FUZZ_JOBS) * FUZZ_SECONDS. It ends with a table per target
# (executions, exec/s, coverage, corpus, findings), also in
# build/fuzz-table.md.
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
fuzz: $(FUZZ_BINS)
	@tests/fuzz/campaign.sh $(FUZZ_SECONDS) $(FUZZ_JOBS) $(FUZZ_BINS)
