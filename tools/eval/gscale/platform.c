/* The evaluated platform: a Gen9 model with a 4 GiB GGTT and a 256 MiB
 * aperture, and the GM layout of gVirt/gScale on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "tools/eval/gscale/eval.h"

/* gScale's layout (gScale paper, figure 9): the host keeps the first
 * 128 MiB of the aperture and 384 MiB of high GM; a fence memory pool of
 * 32 MiB follows the host's low part; guests share the rest of the
 * aperture (96 MiB) and the rest of high GM, cut into slots. */
struct gscale_params layout(bool sharing, bool predictive)
{
	return (struct gscale_params){
		.low = { MIB(128 + 32), MIB(256 - 128 - 32) },
		.high = { MIB(256 + 384), MIB(4096 - 256 - 384) },
		.slot_entries = MIB(SLOT_MIB),
		.slot_sharing = sharing,
		.predictive = predictive,
	};
}

