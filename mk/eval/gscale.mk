# gScale study: tools/eval/gscale drives gpu/gscale over the Gen9 model.
EVAL_STUDIES += gscale

GSCALE_EVAL := $(BUILD)/host/eval/gscale-eval
# The mediator-level runs build on the unit tests' world (hypervisor
# double, model, mediator): tests/world/model_world.c.
GSCALE_EVAL_SRCS := $(wildcard tools/eval/gscale/*.c) tools/eval/common/evcommon.c tools/eval/common/evmodel.c \
	$(GPU_SIDE_SRCS) \
	$(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c tests/world/evguest.c

$(GSCALE_EVAL): $(GSCALE_EVAL_SRCS) $(wildcard tools/eval/gscale/*.h tools/eval/common/*.h) $(wildcard tests/world/*.h) $(HOST_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -DHOST_BUILD \
		-I. -Ilibc-mini/include -o $@ $(GSCALE_EVAL_SRCS) -lm

eval-gscale: $(GSCALE_EVAL)
	@mkdir -p $(EVAL_DIR)/gscale
	$(GSCALE_EVAL) $(EVAL_DIR)/gscale
	gnuplot -e "dir='$(EVAL_DIR)/gscale'" tools/eval/gscale/plots.gp
	@echo "eval-gscale: $(EVAL_DIR)/gscale/gscale.md"
