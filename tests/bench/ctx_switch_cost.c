/* ctx_switch_cost [SWITCHES [ENGINE]]: the Gen9 model's cost of a context
 * switch. On each engine (or only ENGINE: 0 RCS, 1 BCS, 2 VCS, 3 VECS) two
 * contexts (restore allowed, so the whole image is
 * loaded) take turns, SWITCHES times (default 1000): each turn is one ELSP
 * submission of a ring holding two MI_NOOPs, run to completion - one
 * context load and one save. tools/ctx-switch-cost runs it under
 * callgrind, counting only gen9_model_write32 and gen9_model_poll (the
 * ELSP write loads the context, the poll runs it and saves it), to give
 * instructions per switch; it prints the image dwords the model moved per
 * switch (stats.ctx_image_dwords, 0 where the model has no such counter). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/harness/model_harness.h"

static const enum gen9_engine_id engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0,
					       GEN9_VECS0 };

#ifndef CTX_IMAGE_DWORDS
#define CTX_IMAGE_DWORDS(e) 0
#endif

static struct harness H;

int main(int argc, char **argv)
{
	int switches = argc > 1 ? atoi(argv[1]) : 1000;
	int only = argc > 2 ? atoi(argv[2]) : -1;
	unsigned int k;

	if (h_init(&H, NULL)) {
		fprintf(stderr, "harness\n");
		return 1;
	}
	for (k = 0; k < sizeof(engines) / sizeof(engines[0]); k++) {
		enum gen9_engine_id id = engines[k];
		struct h_ctx c[2];
		int i;
		unsigned long long before;

		if (only >= 0 && (int)k != only)
			continue;
		h_engine_start(&H, id);
		h_ctx_create(&H, &c[0], id, 0, 1);
		h_ctx_create(&H, &c[1], id, 0, 2);
		before = (unsigned long long)CTX_IMAGE_DWORDS(&H.m.engine[id]);
		for (i = 0; i < switches; i++) {
			struct h_ctx *x = &c[i & 1];

			h_emit(&H, x, MI_NOOP);
			h_emit(&H, x, MI_NOOP);
			h_ctx_commit(&H, x);
			h_elsp(&H, id, h_desc(x), 0);
			h_run(&H, 1);
		}
		printf("%s switches %d cmds %llu ctx_switches %llu image_dwords_per_switch %llu\n",
		       gen9_engine_name(id), switches,
		       (unsigned long long)H.m.engine[id].stats.cmds,
		       (unsigned long long)H.m.engine[id].stats.ctx_switches,
		       switches ? ((unsigned long long)CTX_IMAGE_DWORDS(&H.m.engine[id]) -
				   before) / (unsigned long long)switches : 0ull);
	}
	h_fini(&H);
	return 0;
}
