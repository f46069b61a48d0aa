# `make eval`: the trace-driven evaluation of the papers' memory policies.
# Each study is a host program under tools/eval/ that drives the real gpu/
# code (mediator + Gen9 model) and writes CSV, Markdown tables and PNG plots
# into build/eval/<study>/. A study registers itself in mk/eval/<study>.mk:
#     EVAL_STUDIES += gscale
#     eval-gscale: ...recipe...
# so studies can be added without editing this file.

EVAL_DIR := $(BUILD)/eval
EVAL_STUDIES :=
include $(wildcard mk/eval/*.mk)

.PHONY: eval $(addprefix eval-,$(EVAL_STUDIES))
eval: $(addprefix eval-,$(EVAL_STUDIES))
	@echo "eval: results in $(EVAL_DIR)/ ($(EVAL_STUDIES))"
