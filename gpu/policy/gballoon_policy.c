/* gBalloon's f(W, R_copy) and its choice of whom to shrink; see
 * gballoon_policy.h. */
#include "gpu/policy/gballoon_policy.h"
#include "gpu/policy/params.h"

uint32_t gballoon_f(const struct gballoon_params *p, uint32_t nr_vms,
		    uint64_t w_permille, uint64_t rcopy_permille)
{
	uint64_t w_max = or_default(p->w_max_permille,
				    1000u * (nr_vms ? nr_vms : 1));
	uint64_t r_max = or_default(p->rcopy_max_permille, 1000);
	uint64_t fw = w_permille * 1000 / w_max;
	uint64_t fr = rcopy_permille * 1000 / r_max;

	/* Each term is capped at 1.0: beyond the calibrated maximum the
	 * platform is simply saturated. */
	return (uint32_t)((fw > 1000 ? 1000 : fw) + (fr > 1000 ? 1000 : fr));
}

enum gballoon_band gballoon_band_of(const struct gballoon_params *p,
				    uint32_t f)
{
	if (f >= or_default(p->high, GBALLOON_HIGH))
		return GBALLOON_OVERLOADED;
	if (f >= or_default(p->low, GBALLOON_LOW))
		return GBALLOON_BUSY;
	return GBALLOON_CALM;
}

int gballoon_pick_victim(const struct gballoon_vgpu *v, uint32_t n)
{
	int best = -1;

	for (uint32_t i = 0; i < n; i++) {
		if (!v[i].granted)
			continue;
		if (best < 0 || v[i].slots > v[best].slots ||
		    (v[i].slots == v[best].slots &&
		     v[i].used_permille < v[best].used_permille))
			best = (int)i;
	}
	return best;
}
