/* gHyvi's correctness invariant, checked (test mode): the hardware never
 * runs a workload while a shadow entry differs from what the guest's table
 * says. vgpu_mm_prepare() calls the ppgtt_check hook (ghyvi_check) on the
 * tree it is about to hand to the GPU; when vgpu_ghyvi_params.verify is
 * set, ghyvi_verify_mm() walks it and a mismatch refuses the workload. It
 * re-derives every entry from guest memory with spt_expected() (the
 * translation spt_set would make, without side effects), so it checks
 * strict and relaxed tables alike. Half-written entries (post-shadow) must
 * be not-present. */
#include "gpu/ghyvi/ghyvi_priv.h"

static uint32_t verify_table(struct vgpu *v, int32_t idx, int depth)
{
	struct spt *s = &SPT(v, idx);
	uint32_t stamp = ghyvi_of(v)->vstamp;
	uint64_t base = s->gfn << 12;
	uint32_t bad = 0;
	unsigned int i;

	if (GS(v, idx)->vstamp == stamp || depth > SPT_PML4)
		return 0;
	GS(v, idx)->vstamp = stamp;
	if (s->dead) {
		/* Untracked: must map nothing. */
		for (i = 0; i < VGPU_PTES_PER_PAGE; i++)
			bad += s->shadow[i] != 0;
		return bad;
	}
	for (i = 0; i < VGPU_PTES_PER_PAGE; i++) {
		uint64_t g, want;

		if (s->post[i / 64] & (1ull << (i % 64))) {
			bad += s->shadow[i] != 0;
			continue;
		}
		if (vgpu_read_gpa(v, base + 8ull * i, &g, 8) ||
		    !spt_expected(v, idx, g, &want) || s->shadow[i] != want) {
			if (bad < 4)
				vgpu_err(v, "verify: gfn 0x%llx level %u entry %u: guest 0x%llx shadow 0x%llx",
					 (unsigned long long)s->gfn, s->level, i,
					 (unsigned long long)g,
					 (unsigned long long)s->shadow[i]);
			bad++;
		}
	}
	if (s->child)
		for (i = 0; i < VGPU_PTES_PER_PAGE; i++)
			if (s->child[i] != SPT_NONE)
				bad += verify_table(v, s->child[i], depth + 1);
	return bad;
}

uint32_t ghyvi_verify_mm(struct vgpu *v, int mm)
{
	uint32_t bad;

	const struct shadow_mm *m = vslab_get(&v->mms, mm);

	if (!m || !m->used || m->root == SPT_NONE)
		return 0;
	ghyvi_of(v)->vstamp++;
	v->stats.verify_runs++;
	bad = verify_table(v, MM(v, mm).root, 1);
	v->stats.verify_mismatch += bad;
	return bad;
}

int ghyvi_check(struct vgpu *v, void *state, int mm)
{
	const struct ghyvi *g = state;

	if (g->p.verify && ghyvi_verify_mm(v, mm)) {
		vgpu_err(v, "verify: shadow differs from guest tables; workload refused");
		return -GPU_EIO;
	}
	return 0;
}

/* Every root that is up to date (others are rebuilt before their use). */
uint32_t vgpu_ghyvi_verify(struct vgpu *v)
{
	uint32_t bad = 0;
	int i;

	if (!ghyvi_of(v))
		return 0;

	for (i = 0; i < vslab_end(&v->mms); i++) {
		const struct shadow_mm *m = vslab_get(&v->mms, i);

		if (m && m->used && m->gen == v->ppgtt_gen)
			bad += ghyvi_verify_mm(v, i);
	}
	return bad;
}
