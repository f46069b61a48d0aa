# GM placement and ballooning study (issue 7): tools/eval/balloon drives
# gpu/gballoon (gBalloon's loop), gpu/dymgpu (DymGPU's triggers),
# gpu/policy (the monitor, non-contiguous slots) and gpu/gscale's copy path
# over the Gen9 model, every policy on the same traces.
EVAL_STUDIES += balloon

BALLOON_EVAL := $(BUILD)/host/eval/balloon-eval
# The pure policies only: the study has no mediator, so gBalloon's and
# DymGPU's parts that run on it (gballoon_live.c, dymgpu_attach.c,
# dymgpu_move.c) are not linked.
BALLOON_EVAL_POLICIES := gpu/gballoon/balloon_policy.c gpu/gballoon/gballoon_adjust.c \
	gpu/dymgpu/dymgpu_live.c gpu/dymgpu/dymgpu_place.c gpu/dymgpu/dymgpu_trigger.c
BALLOON_EVAL_SRCS := $(wildcard tools/eval/balloon/*.c) tools/eval/common/evcommon.c tools/eval/common/evmodel.c \
	$(wildcard gpu/gscale/*.c) $(wildcard gpu/policy/*.c) $(BALLOON_EVAL_POLICIES) \
	$(wildcard gpu/hw/*.c) $(wildcard gpu/model/*.c)

$(BALLOON_EVAL): $(BALLOON_EVAL_SRCS) $(wildcard tools/eval/balloon/*.h tools/eval/common/*.h) $(HOST_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -DHOST_BUILD \
		-I. -Ilibc-mini/include -o $@ $(BALLOON_EVAL_SRCS) -lm

eval-balloon: $(BALLOON_EVAL)
	@mkdir -p $(EVAL_DIR)/balloon
	$(BALLOON_EVAL) $(EVAL_DIR)/balloon
	gnuplot -e "dir='$(EVAL_DIR)/balloon'" tools/eval/balloon/plots.gp
	@echo "eval-balloon: $(EVAL_DIR)/balloon/balloon.md"
