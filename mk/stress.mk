# The mediator's concurrency stress test under ThreadSanitizer
# (tests/stress/stress_mediator.c, docs/smp.md "Mediator concurrency"):
# its own objects, built with -fsanitize=thread (ASan, which the unit tests
# use, cannot be combined with it). guest_i915.c is built with its calls
# into the mediator and into guest memory renamed to the test's locked
# entries (tests/stress/stress_guest.h). `make stress` builds and runs it;
# make test runs it with the host tests.
STRESS_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -DHOST_BUILD \
	-I. -Ilibc-mini/include -fno-omit-frame-pointer -fsanitize=thread
STRESS_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c \
	tests/world/model_world.c hv/gpu/gpu_entry.c hv/gpu/gpu_lock.c \
	hv/cpu/rlock.c
STRESS_RENAMES := -Dvgpu_mmio_read=st_mmio_read -Dvgpu_mmio_write=st_mmio_write \
	-Dvgpu_cfg_read=st_cfg_read -Dvgpu_cfg_write=st_cfg_write \
	-Dgvt_poll=st_gvt_poll -Dgvt_posted=st_gvt_posted \
	-Dfake_hv_guest_read=st_guest_read -Dfake_hv_guest_write=st_guest_write \
	-Dfake_hv_guest_store=st_guest_store
STRESS_OBJ := $(BUILD)/host/obj/tsan
STRESS_OBJS := $(patsubst %.c,$(STRESS_OBJ)/%.o,$(STRESS_SRCS)) \
	$(STRESS_OBJ)/stress_guest_i915.o
STRESS_BIN := $(BUILD)/host/stress/stress_mediator

$(STRESS_OBJ)/%.o: %.c $(HOST_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  TSANCC  $@"
	$(Q)$(HOST_CC) $(STRESS_CFLAGS) -c -o $@ $<

$(STRESS_OBJ)/stress_guest_i915.o: tests/harness/guest_i915.c $(HOST_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  TSANCC  $@"
	$(Q)$(HOST_CC) $(STRESS_CFLAGS) $(STRESS_RENAMES) -c -o $@ $<

$(STRESS_BIN): tests/stress/stress_mediator.c $(STRESS_OBJS) $(wildcard tests/stress/*.h tests/harness/*.h tests/world/*.h) $(HOST_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  TSANLD  $@"
	$(Q)$(HOST_CC) $(STRESS_CFLAGS) -o $@ tests/stress/stress_mediator.c $(STRESS_OBJS) -lpthread

.PHONY: stress stress-build
stress-build: $(STRESS_BIN)
# halt_on_error: the first report fails the run (exit 66), as a failed check does.
stress: $(STRESS_BIN)
	@TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
		tools/run-tests unit $(STRESS_BIN) $(STRESS_VM_BIN)

# Two vCPUs of one VM on two CPUs (tests/stress/stress_vm_devices.c): the
# VM's device lock over its vUART, sibling IPIs through the mailbox.
STRESS_VM_SRCS := hv/vm/vuart.c hv/vm/vipi.c hv/vm/vipi_route.c \
	hv/vm/vlapic.c hv/vm/vm_mailbox.c hv/cpu/xcpu.c hv/cpu/rlock.c
STRESS_VM_BIN := $(BUILD)/host/stress/stress_vm_devices

$(STRESS_VM_BIN): tests/stress/stress_vm_devices.c $(patsubst %.c,$(STRESS_OBJ)/%.o,$(STRESS_VM_SRCS)) $(HOST_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  TSANLD  $@"
	$(Q)$(HOST_CC) $(STRESS_CFLAGS) -o $@ tests/stress/stress_vm_devices.c $(patsubst %.c,$(STRESS_OBJ)/%.o,$(STRESS_VM_SRCS)) -lpthread
stress-build: $(STRESS_VM_BIN)
stress: $(STRESS_VM_BIN)
