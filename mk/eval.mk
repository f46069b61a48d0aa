# `make eval`: the trace-driven evaluation of the papers' memory policies.
# Each study is a host program under tools/eval/ that drives the real gpu/
# code (mediator + Gen9 model) and writes CSV, Markdown tables, PNG plots
# and its claim rows (claims.csv) into build/eval/<study>/. A study
# registers itself in mk/eval/<study>.mk:
#     EVAL_STUDIES += gscale
#     eval-gscale: ...recipe...
# so studies can be added without editing this file. `make eval` runs them
# one after the other (the copy-path timings want the machine to
# themselves), prints the claims table (tools/eval/claims.sh) and copies
# the tables and plots of this run to docs/eval/results/.

EVAL_DIR := $(BUILD)/eval
EVAL_DOCS := docs/eval/results
EVAL_STUDIES :=
include $(sort $(wildcard mk/eval/*.mk))

.PHONY: eval eval-claims $(addprefix eval-,$(EVAL_STUDIES))
eval:
	@start=$$(date +%s); \
	for s in $(EVAL_STUDIES); do \
		t0=$$(date +%s); \
		$(MAKE) --no-print-directory eval-$$s || exit 1; \
		echo "eval: $$s took $$(( $$(date +%s) - t0 )) s"; \
	done; \
	$(MAKE) --no-print-directory eval-claims && \
	echo "eval: $(EVAL_STUDIES) in $$(( $$(date +%s) - start )) s; results in $(EVAL_DIR)/, copied to $(EVAL_DOCS)/"

eval-claims:
	@tools/eval/claims.sh $(EVAL_DIR)
	@mkdir -p $(EVAL_DOCS)
	@cp $(EVAL_DIR)/claims.md $(EVAL_DOCS)/claims.md
	@if [ -f $(BUILD)/bench/exits.md ]; then cp $(BUILD)/bench/exits.md $(EVAL_DOCS)/exits.md; fi
	@for s in $(EVAL_STUDIES); do \
		cp $(EVAL_DIR)/$$s/$$s.md $(EVAL_DOCS)/$$s.md; \
		for p in $(EVAL_DIR)/$$s/*.png; do [ -e "$$p" ] && cp "$$p" $(EVAL_DOCS)/; done; \
	done; true
