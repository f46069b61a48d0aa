/* The hardware smoke test (pgpu_smoke.h): the runner, the output, and the
 * steps that need no engine: identity and fuses, stolen memory,
 * forcewake, GGTT, aperture and fence detiling. Engine steps are in
 * pgpu_smoke_engines.c. */
#include <stdarg.h>

#include "gpu/hw/pgpu_smoke_priv.h"
#include "gpu/hw/gen9_tiling.h"
#include "mini/stdio.h"
#include "mini/string.h"

/* Fuse registers as i915's gen9_sseu_info_init reads them (intel_sseu.c),
 * and the gen10+ fuse mirror the smoke test prints raw. */
#define GEN8_F2_S_ENA_SHIFT 25
#define GEN8_F2_S_ENA_MASK (0x7u << GEN8_F2_S_ENA_SHIFT)
#define GEN9_F2_SS_DIS_SHIFT 20
#define GEN9_F2_SS_DIS_MASK (0xfu << GEN9_F2_SS_DIS_SHIFT)
#define GEN10_MIRROR_FUSE3 0x9118
#define GEN9_MAX_SLICES 3
#define GEN9_MAX_SUBSLICES 4 /* SKL; Broxton has 3 */
#define GEN9_EUS_PER_SUBSLICE 8

static const char *const verdicts[] = { "PASS", "FAIL", "SKIP" };

/* Set bits of an EU_DISABLE byte (no libgcc on the machine). */
static uint32_t bits8(uint32_t v)
{
	uint32_t n = 0;

	for (v &= 0xff; v; v &= v - 1)
		n++;
	return n;
}

void smoke_say(struct smoke *s, int verdict, const char *name, uint64_t us,
	       const char *fmt, ...)
{
	char detail[160], line[240];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "gpu-smoke: %s  %-16s %7llu us  %s",
		 verdicts[verdict], name, (unsigned long long)us, detail);
	s->env->line(s->env->ctx, line);
	if (verdict == SMOKE_PASS)
		s->r->pass++;
	else if (verdict == SMOKE_FAIL)
		s->r->fail++;
	else
		s->r->skip++;
}

uint64_t smoke_now(const struct smoke *s)
{
	return s->env->now_us(s->env->ctx);
}

int smoke_buf(struct smoke *s, unsigned int n, bool gtt, struct smoke_buf *b)
{
	memset(b, 0, sizeof(*b));
	if (s->nr_allocs == SMOKE_MAX_ALLOCS ||
	    (gtt && s->gm_end - s->gm_next < n * GEN9_PAGE_SIZE))
		return -GPU_ENOSPC;
	b->va = s->env->alloc(s->env->ctx, n, &b->hpa);
	if (!b->va)
		return -GPU_ENOMEM;
	b->pages = n;
	s->allocs[s->nr_allocs++] = *b;
	if (!gtt)
		return 0;
	b->gm = s->gm_next;
	s->gm_next += n * GEN9_PAGE_SIZE;
	for (unsigned int i = 0; i < n; i++)
		pgpu_ggtt_write(s->p, (b->gm >> GEN9_PAGE_SHIFT) + i,
				gen8_ggtt_pte_encode(b->hpa + i * 4096ull));
	pgpu_ggtt_flush(s->p);
	return 0;
}

const char *pgpu_skl_stepping(uint8_t revision)
{
	/* i915 intel_step.c skl_revids; 0-5 are pre-production parts that
	 * older kernels still named. */
	static const char *const step[] = { "A0", "B0", "C0", "D0", "E0",
					    "F0", "G0", "H0", "?", "J0", "I1" };

	return revision < sizeof(step) / sizeof(step[0]) ? step[revision] : "?";
}

/* ---- identity, fuses, stolen memory ----------------------------------- */

static void step_identity(struct smoke *s)
{
	struct gpu_hw *hw = s->p->hw;
	const struct gpu_hw_info *i = &hw->info;
	uint32_t fuse2 = gpu_hw_read32(hw, GEN8_FUSE2);
	uint32_t slices = (fuse2 & GEN8_F2_S_ENA_MASK) >> GEN8_F2_S_ENA_SHIFT;
	uint32_t ss = ~((fuse2 & GEN9_F2_SS_DIS_MASK) >> GEN9_F2_SS_DIS_SHIFT) &
		      ((1u << GEN9_MAX_SUBSLICES) - 1);
	uint32_t eus = 0, nss = 0, eu_dis[GEN9_MAX_SLICES] = { 0 };

	for (int sl = 0; sl < GEN9_MAX_SLICES; sl++) {
		if (!(slices & BIT(sl)))
			continue;
		eu_dis[sl] = gpu_hw_read32(hw, GEN9_EU_DISABLE(sl));
		for (int k = 0; k < GEN9_MAX_SUBSLICES; k++) {
			if (!(ss & BIT(k)))
				continue;
			nss++;
			eus += GEN9_EUS_PER_SUBSLICE -
			       bits8(eu_dis[sl] >> (8 * k));
		}
	}
	smoke_say(s, SMOKE_PASS, "identity", 0, "%04x:%04x rev %02x (stepping "
		  "%s), %s %s", i->vendor_id, i->device_id, i->revision,
		  pgpu_skl_stepping(i->revision), gen9_gt_name(i->gt),
		  gen9_device_desc(i->device_id));
	smoke_say(s, slices && eus ? SMOKE_PASS : SMOKE_FAIL, "fuses", 0,
		  "FUSE2 %08x: slice mask %x, subslice mask %x (%u in all), "
		  "EUs %u; "
		  "EU_DISABLE %08x %08x %08x; MIRROR_FUSE3 %08x (gen10+ "
		  "field, raw)", fuse2, slices, ss, nss, eus, eu_dis[0],
		  eu_dis[1], eu_dis[2], gpu_hw_read32(hw, GEN10_MIRROR_FUSE3));
}

static void step_stolen(struct smoke *s)
{
	const struct gpu_hw_info *i = &s->p->hw->info;
	uint32_t dsm = gpu_hw_read32(s->p->hw, GEN6_DSMBASE);
	bool ok = i->stolen_size && (dsm & GEN9_BDSM_MASK) == i->stolen_base;

	smoke_say(s, ok ? SMOKE_PASS : SMOKE_FAIL, "stolen", 0,
		  "GGC %04x: GGTT %llu MiB of GM (%u entries), stolen %llu MiB "
		  "at BDSM %llx; DSMBASE %08x%s", i->ggc,
		  (unsigned long long)(i->ggtt_size >> 20), i->ggtt_entries, (unsigned long long)(i->stolen_size >> 20),
		  (unsigned long long)i->stolen_base, dsm,
		  !i->stolen_size ? " - no stolen memory: set DVMT "
		  "pre-allocated in the firmware" : ok ? "" :
		  " - DOES NOT MATCH BDSM");
}

/* ---- forcewake --------------------------------------------------------- */

static void step_forcewake(struct smoke *s)
{
	static const struct {
		const char *name;
		uint32_t ack;
	} dom[GEN9_FW_DOMAINS] = {
		[GEN9_FW_RENDER] = { "forcewake render", FORCEWAKE_ACK_RENDER_GEN9 },
		[GEN9_FW_GT] = { "forcewake gt", FORCEWAKE_ACK_GT_GEN9 },
		[GEN9_FW_MEDIA] = { "forcewake media", FORCEWAKE_ACK_MEDIA_GEN9 },
	};

	for (int d = 0; d < GEN9_FW_DOMAINS; d++) {
		uint64_t t0 = smoke_now(s);
		int ret = pgpu_forcewake_get(s->p, BIT(d));
		uint32_t ack = gpu_hw_read32(s->p->hw, dom[d].ack);
		uint64_t us = smoke_now(s) - t0;

		if (!ret && (ack & FORCEWAKE_KERNEL))
			s->fw_acked |= BIT(d);
		smoke_say(s, s->fw_acked & BIT(d) ? SMOKE_PASS : SMOKE_FAIL,
			  dom[d].name, us, "ack register %06x = %08x%s",
			  dom[d].ack, ack, ret ? " (no ack in 50 ms, nor after "
			  "i915's fallback kick)" : "");
	}
}

/* ---- GGTT, aperture, fences -------------------------------------------- */

static void step_ggtt(struct smoke *s)
{
	uint64_t t0 = smoke_now(s), want, got;
	int ret = smoke_buf(s, 1, true, &s->target);

	if (ret) {
		smoke_say(s, SMOKE_FAIL, "ggtt", 0, "no page (%d)", ret);
		return;
	}
	want = gen8_ggtt_pte_encode(s->target.hpa);
	got = pgpu_ggtt_read(s->p, s->target.gm >> GEN9_PAGE_SHIFT);
	smoke_say(s, got == want ? SMOKE_PASS : SMOKE_FAIL, "ggtt",
		  smoke_now(s) - t0, "PTE %u = %016llx (wrote %016llx)",
		  s->target.gm >> GEN9_PAGE_SHIFT, (unsigned long long)got,
		  (unsigned long long)want);
}

static void step_aperture(struct smoke *s)
{
	static const uint8_t pat[8] = { 0x11, 0x22, 0x33, 0x44,
					0x55, 0x66, 0x77, 0x88 };
	struct smoke_buf b;
	uint8_t back[8] = { 0 };
	uint64_t t0 = smoke_now(s);
	int ret = smoke_buf(s, 1, true, &b);

	if (!ret)
		ret = gpu_hw_aperture_rw(s->p->hw, b.gm + 0x100, (void *)pat,
					 sizeof(pat), true);
	if (ret == -GPU_ENODEV) {
		smoke_say(s, SMOKE_SKIP, "aperture", 0, "no aperture mapped");
		return;
	}
	if (!ret)
		ret = gpu_hw_aperture_rw(s->p->hw, b.gm + 0x100, back,
					 sizeof(back), false);
	smoke_say(s, !ret && !memcmp(b.va + 0x100, pat, 8) &&
			     !memcmp(back, pat, 8) ? SMOKE_PASS : SMOKE_FAIL,
		  "aperture", smoke_now(s) - t0, "GM %x: memory %02x%02x.., "
		  "read back %02x%02x.. (%d)", b.gm + 0x100, b.va[0x100],
		  b.va[0x101], back[0], back[1], ret);
}

/* Write through a fenced aperture range at linear offsets, check the
 * memory behind it holds each value where the tiling puts it. */
static void step_fence(struct smoke *s, bool tiling_y)
{
	/* X: 2 tiles per row (stride 1024); Y: 2 tiles per row (stride
	 * 256). Points chosen off the tile origin. */
	static const uint32_t pts[3][2] = { { 40, 3 }, { 200, 5 }, { 20, 7 } };
	uint32_t stride = tiling_y ? 256 : 1024, fence = s->p->hw->info.num_fences - 1;
	const char *name = tiling_y ? "fence Y detile" : "fence X detile";
	uint64_t t0 = smoke_now(s);
	struct smoke_buf b;
	int ret = smoke_buf(s, 2, true, &b), bad = 0;

	if (!ret)
		ret = pgpu_fence_write(s->p, fence,
				       pgpu_fence_encode(b.gm, 2 * GEN9_PAGE_SIZE,
							 stride, tiling_y));
	for (int k = 0; !ret && k < 3; k++) {
		uint32_t x = pts[k][0] + (tiling_y ? 0 : 512 * (k & 1));
		uint32_t lin = pts[k][1] * stride + x;
		uint32_t v = 0xd1ce0000u | lin, *mem;

		ret = gpu_hw_aperture_rw(s->p->hw, b.gm + lin, &v, 4, true);
		mem = (uint32_t *)(b.va + gen9_tiled_offset(lin, stride,
							    tiling_y));
		if (!ret && *mem != v)
			bad++;
	}
	pgpu_fence_write(s->p, fence, 0);
	if (ret == -GPU_ENODEV) {
		smoke_say(s, SMOKE_SKIP, name, 0, "no aperture mapped");
		return;
	}
	smoke_say(s, !ret && !bad ? SMOKE_PASS : SMOKE_FAIL, name,
		  smoke_now(s) - t0, "fence %u, stride %u: %d of 3 values "
		  "where the %c tiling puts them (%d)", fence, stride, 3 - bad,
		  tiling_y ? 'Y' : 'X', ret);
}

/* ---- the run ------------------------------------------------------------ */

static void cleanup(struct smoke *s)
{
	uint32_t first = s->env->ggtt_first;

	pgpu_forcewake_put(s->p, s->fw_acked);
	for (uint32_t i = 0; i < PGPU_SMOKE_GGTT_PAGES; i++)
		pgpu_ggtt_write(s->p, first + i, 0);
	pgpu_ggtt_flush(s->p);
	for (unsigned int k = 0; k < s->nr_allocs; k++)
		s->env->free(s->env->ctx, s->allocs[k].va, s->allocs[k].pages);
}

int pgpu_smoke_run(struct pgpu *p, const struct pgpu_smoke_env *env,
		   struct pgpu_smoke_result *r)
{
	static struct smoke s; /* a few hundred bytes: off the stack */
	char line[200];

	memset(&s, 0, sizeof(s));
	memset(r, 0, sizeof(*r));
	s.p = p;
	s.env = env;
	s.r = r;
	s.gm_next = env->ggtt_first << GEN9_PAGE_SHIFT;
	s.gm_end = s.gm_next + PGPU_SMOKE_GGTT_PAGES * GEN9_PAGE_SIZE;
	s.next_ctx_id = 0x5e00;
	env->line(env->ctx, "gpu-smoke: hardware smoke test (hv.cfg "
		  "gpu_smoke=yes): one line per step, PASS / FAIL / SKIP");
	step_identity(&s);
	step_stolen(&s);
	step_forcewake(&s);
	step_ggtt(&s);
	step_aperture(&s);
	step_fence(&s, false);
	step_fence(&s, true);
	smoke_engines(&s);
	smoke_blit(&s);
	smoke_msi(&s);
	smoke_reset(&s);
	cleanup(&s);
	snprintf(line, sizeof(line), "gpu-smoke: %u PASS, %u FAIL, %u SKIP%s",
		 r->pass, r->fail, r->skip, r->fail ? ": send this whole log "
		 "and the list in docs/hardware.md (\"When it fails\")" : "");
	env->line(env->ctx, line);
	return r->fail ? -GPU_EIO : 0;
}
