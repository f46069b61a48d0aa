/* Workload profiles: the papers' classes reduced to what the GGTT sees -
 * when a vGPU has work (it is then scheduled and switched to) and how many
 * of its GGTT entries the guest rewrites. Deterministic, so every policy
 * replays the same trace. */
#include "tools/eval/gscale/eval.h"

const char *const profile_names[P_COUNT] = {
	[P_3D] = "3d", [P_VALLEY] = "valley", [P_2D] = "2d",
	[P_IDLE] = "idle", [P_CPU] = "cpu",
};

#define SLICES_PER_S (1000 / SLICE_MS)

bool profile_busy(enum profile p, int vm, int slice)
{
	switch (p) {
	case P_3D:
	case P_VALLEY:
		return true; /* a game or benchmark renders all the time */
	case P_2D:
		/* a desktop: short bursts, about one slice in five */
		return (slice + vm * 7) % 5 == 0;
	default:
		return false;
	}
}

/* Per-mille of the vGPU's GM whose entries the guest writes this slice.
 * 3D: a steady trickle of new objects (0.2% per slice). Valley: 18 scenes
 * of about 0.55 s each; each new scene binds 1/18 more of the GM. 2D: a
 * little on each burst. */
uint32_t profile_writes_permille(enum profile p, int slice)
{
	int scene_len = SIM_SECONDS * SLICES_PER_S / 18;

	switch (p) {
	case P_3D:
		return 2;
	case P_VALLEY:
		return slice % scene_len == 0 ? 1000 / 18 : 1;
	case P_2D:
		return 1;
	default:
		return 0;
	}
}
