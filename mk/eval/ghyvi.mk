# gHyvi study: tools/eval/ghyvi replays PTE-update traces through the real
# mediator (gpu/vgpu, strict vs the relaxed policies) over the unit tests'
# plain-memory hypervisor and fake GPU.
EVAL_STUDIES += ghyvi

GHYVI_EVAL := $(BUILD)/host/eval/ghyvi-eval
GHYVI_EVAL_SRCS := $(wildcard tools/eval/ghyvi/*.c) tools/eval/common/evcommon.c \
	$(GPU_SIDE_SRCS) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c

$(GHYVI_EVAL): $(GHYVI_EVAL_SRCS) $(wildcard tools/eval/ghyvi/*.h tools/eval/common/*.h) $(wildcard tests/world/*.h) $(HOST_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -DHOST_BUILD \
		-I. -Ilibc-mini/include -o $@ $(GHYVI_EVAL_SRCS) -lm

eval-ghyvi: $(GHYVI_EVAL)
	@mkdir -p $(EVAL_DIR)/ghyvi
	$(GHYVI_EVAL) $(EVAL_DIR)/ghyvi $(wildcard $(BUILD)/bench/exits.md)
	gnuplot -e "dir='$(EVAL_DIR)/ghyvi'" tools/eval/ghyvi/plots.gp
	@echo "eval-ghyvi: $(EVAL_DIR)/ghyvi/ghyvi.md"
