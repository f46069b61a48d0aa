/* Fuzz gHyvi's hybrid strict / relaxed PPGTT shadowing
 * (gpu/ghyvi/ghyvi_relax.c, ghyvi_verify.c and their hooks in vgpu_spt.c /
 * vgpu_ppgtt.c).
 *
 * The input drives the attacker guest of fuzz_vgpu_common.c: it builds a
 * 4-level PPGTT, then runs up to FZ_OPS guest-controlled operations on a
 * set of FZ_PAGES guest pages that may become page tables at any level (or
 * several levels at once), or data, or both:
 *
 *  - CPU stores of 1 to 4096 bytes, aligned or not, of present / cleared /
 *    2 MiB / out-of-RAM / garbage entries. A store goes to guest memory and,
 *    when the page is write-protected at that moment, is reported to
 *    vgpu_page_write() (fake_hv_guest_store: what the hypervisor's EPT
 *    handler does); a relaxed page takes plain stores. A store crossing a
 *    page boundary is one store per page, as the EPT handler sees it.
 *  - policy switches at run time: vgpu_ghyvi_set() with every policy (and
 *    invalid ones), arbitrary static_pages, relax_traps, relax_window_ns,
 *    cool_entries, cool_rounds, back-off on or off, ADAPTIVE's unit costs
 *    (any, so its rule takes every path); the verifier is always on.
 *  - pins (vgpu_ghyvi_pin, any address), PPGTT root create / destroy
 *    through PVINFO g2v notifications, time passing.
 *  - submissions: through ELSP (a context on RCS or BCS whose image names
 *    any of the pages as its PML4; the mediator reaches vgpu_mm_prepare at
 *    dispatch) and straight through vgpu_mm_prepare on a root.
 *
 * Invariants (abort() on violation):
 *  - the verifier never finds a shadow entry differing from the guest's
 *    tables at a submission (stats.verify_mismatch stays 0, a direct
 *    prepare never returns -GPU_EIO);
 *  - no shadow PTE maps outside the owning VM's memory and every shadow
 *    PDE names a shadow table (check_shadow, fuzz_vgpu_common.c), checked
 *    after every submission and policy switch; the whole common invariant
 *    (victim untouched, GGTT entries per owner) at the end;
 *  - gHyvi's bookkeeping: the relaxed list is exactly the relaxed tables,
 *    each has a snapshot and is unprotected; every live strict table is
 *    write-protected (else its stores would go unseen);
 *  - destroying the vGPU leaves no protection and no mediator page behind.
 *
 * Pages written by the guest driver without trapping (rings, context
 * images, status pages) are never offered as table targets, so that only
 * gHyvi decides which stores are seen.
 *
 * Seeds (tests/fuzz/corpus/fuzz_ghyvi): one named input per policy and
 * situation, plus regress-* and multilevel, which failed before the fixes
 * in vgpu_spt.c (a root created after an untrack sharing a table that still
 * led to the untracked one) and ghyvi_relax.c (a table born relaxed on a
 * frame being made strict). FZ_GHYVI_STATS=1 build/host/fuzz/fuzz_ghyvi
 * FILE prints what an input reached (traps, relaxes, reconstructions). */
#define FZ_RESTORE 1 /* the world built once, put back after each input */
#include "tests/fuzz/fuzz_vgpu_common.c"
#include "gpu/ghyvi/ghyvi_priv.h"
#include "gpu/hw/gen9_cmds.h"

#define FZ_PAGES 24 /* pg[0] = the guest's PML4, pg[1..] contiguous */
#define FZ_OPS 192
/* A submission verifies its whole tree (512 guest reads per table): about
 * this many tables verified per input keeps an input under ~50 ms. */
#define FZ_VERIFY_BUDGET 96u
#define FZ_VA 0x100000000ull
#define FZ_PS_2M (1ull << 7)
#define FZ_ADDR_MASK 0x00003ffffffff000ull

struct fz_ghyvi {
	uint64_t pg[FZ_PAGES];
	int ctx[2]; /* RCS, BCS */
	uint32_t crumb_gm; /* a GGTT page for breadcrumbs */
	uint32_t seq;
};

/* May one more submission run? Estimate: as big a tree as the last one. */
static bool fz_budget(uint32_t verified, uint32_t last)
{
	return verified + last < FZ_VERIFY_BUDGET;
}

/* Tables the last verification walked (ghyvi_verify.c stamps them). */
static uint32_t fz_verified_tables(struct fz_env *e)
{
	uint32_t n = 0;
	int32_t i;

	for (i = 0; i < vslab_end(&e->a->spts); i++) {
		const struct spt *s = vslab_get(&e->a->spts, i);

		n += s && s->level && GS(e->a, i)->vstamp == ghyvi_of(e->a)->vstamp;
	}
	return n + 1;
}

static void fz_check_ghyvi(struct fz_env *e)
{
	struct vgpu *v = e->a;
	uint32_t nrel = 0, n = 0;
	int32_t i;

	if (v->stats.verify_mismatch)
		fz_die("verifier: shadow differs from the guest's tables",
		       v->stats.verify_mismatch, v->stats.verify_runs);
	for (i = 0; i < vslab_end(&v->spts); i++) {
		struct spt *s = vslab_get(&v->spts, i);

		if (!s || !s->level)
			continue;
		if (s->relaxed) {
			nrel++;
			if (s->dead || !s->snap)
				fz_die("relaxed table dead or without snapshot",
				       s->gfn, s->dead);
			if (fake_hv_is_wp(&e->hv, v->vm, s->gfn << 12))
				fz_die("relaxed table still write-protected",
				       s->gfn, s->level);
		} else if (!s->dead &&
			   !fake_hv_is_wp(&e->hv, v->vm, s->gfn << 12)) {
			fz_die("strict table not write-protected", s->gfn,
			       s->level);
		}
	}
	for (i = ghyvi_of(v)->rhead; i != SPT_NONE && n <= (uint32_t)vslab_end(&v->spts);
	     i = GS(v, i)->rnext, n++)
		if (!SPT(v, i).relaxed)
			fz_die("non-relaxed table on the relaxed list", (uint64_t)i, 0);
	if (n != nrel || nrel != ghyvi_of(v)->nrelaxed || vgpu_ghyvi_relaxed(v) != nrel)
		fz_die("relaxed list / count mismatch", n, nrel);
}

/* A CPU store as the hypervisor handles it: one store per page, each to
 * guest memory, then to vgpu_page_write if that page is protected. */
static void fz_store(struct fz_env *e, uint64_t gpa, const uint8_t *buf,
		     size_t len)
{
	while (len) {
		size_t n = 4096 - (gpa & 0xfff);

		if (n > len)
			n = len;
		fake_hv_guest_store(&e->hv, 1, gpa, buf, n);
		gpa += n;
		buf += n;
		len -= n;
	}
}

/* A guest entry value of the kind the input asks for. */
static uint64_t fz_value(struct fz_ghyvi *s, uint8_t kind, uint64_t raw,
			 unsigned int step, uint64_t old)
{
	uint64_t flags = raw & 0xfff, page = s->pg[(raw >> 12 ^ step) % FZ_PAGES];

	switch (kind % 8) {
	case 0: /* cleared */
		return 0;
	case 1: /* another table / data page, any flags */
		return page | flags;
	case 2: /* present, 2 MiB (refused at PDE levels) */
		return page | flags | FZ_PS_2M | 1;
	case 3: /* outside the VM's RAM (but a plausible address) */
		return ((FZ_RAM + (raw & ~0xfffull)) & FZ_ADDR_MASK) | FZ_RAM |
		       flags | 1;
	case 4: /* garbage with bits above 45 (a data page reused) */
		return raw | 1ull << (46 + (step + (raw >> 20)) % 18) | 1;
	case 5: /* rewrite what is there */
		return old;
	case 6: /* the same value moved to the next page of the set */
		return (old & ~FZ_ADDR_MASK) |
		       s->pg[(step + (raw & 0xff)) % FZ_PAGES];
	default: /* what i915 writes */
		return page | 3;
	}
}

/* Store op: page, where, how wide, what. Values outside the page set (and
 * outside RAM for kind 3) never name a page written without trapping. */
static void fz_op_store(struct fz_env *e, struct fz_ghyvi *s, struct fz_in *in)
{
	uint32_t k = (uint32_t)fz_take(in, 1) % FZ_PAGES;
	uint32_t where = (uint32_t)fz_take(in, 2);
	uint8_t how = (uint8_t)fz_take(in, 1), kind = (uint8_t)fz_take(in, 1);
	uint64_t raw = fz_take(in, 8), base = s->pg[k];
	uint32_t idx = where % 512, off = idx * 8, len;
	static uint8_t buf[2 * 4096];
	unsigned int i;

	switch (how % 8) {
	case 0: case 1: case 2:
		len = 8; /* one whole entry */
		break;
	case 3: /* half an entry (a 32-bit kernel's store) */
		len = 4;
		off += how & 8 ? 4 : 0;
		break;
	case 4: /* 1, 2, 4 or 8 bytes anywhere */
		len = 1u << ((how >> 3) & 3);
		off = where % 4096 + ((where >> 12) & 7);
		off %= 4096;
		break;
	case 5: /* an SSE / AVX store: 16 or 32 bytes */
		len = how & 8 ? 32 : 16;
		off &= ~(len - 1);
		break;
	default: /* rep stos / movs: up to 512 entries, may cross the page */
		len = 8 * (1 + (uint32_t)(raw >> 52) % (how & 8 ? 512 : 32));
		break;
	}
	/* Only pages of the set (and the spare page after the last one) may
	 * be crossed into; the PML4 is followed by a status page. */
	if (k == 0 && off + len > 4096)
		len = 4096 - off;
	for (i = 0; i * 8 < off % 8 + len; i++) {
		uint64_t old, val;

		fake_hv_guest_read(&e->hv, 1, base + (off & ~7u) + 8ull * i, &old, 8);
		val = fz_value(s, kind, raw, i, old);
		memcpy(buf + 8 * i, &val, 8);
	}
	fz_store(e, base + off, buf + off % 8, len);
}

static void fz_op_policy(struct fz_env *e, struct fz_in *in)
{
	struct vgpu_ghyvi_params p, before, after;
	uint8_t pol = (uint8_t)fz_take(in, 1), f = (uint8_t)fz_take(in, 1);
	int ret;

	memset(&p, 0, sizeof(p));
	p.policy = (enum vgpu_ppgtt_policy)(pol % 7 == 6 ? pol : pol % 7);
	p.static_pages = (uint32_t)fz_take(in, f & 1 ? 4 : 1);
	p.relax_traps = (uint32_t)fz_take(in, f & 2 ? 4 : 1);
	p.relax_window_ns = f & 4 ? fz_take(in, 8) : fz_take(in, 1) * 100000ull;
	p.cool_entries = (uint32_t)fz_take(in, 1);
	p.cool_rounds = f & 8 ? GHYVI_NEVER : (uint32_t)fz_take(in, f & 16 ? 4 : 1);
	p.no_backoff = f & 32;
	if (f & 64) { /* ADAPTIVE's costs, any (0: default) */
		p.cost.trap = (uint32_t)fz_take(in, 2);
		p.cost.ept = (uint32_t)fz_take(in, 2);
		p.cost.snapshot = (uint32_t)fz_take(in, 2);
		p.cost.diff = (uint32_t)fz_take(in, 2);
		p.cost.entry = (uint32_t)fz_take(in, 2);
	}
	p.verify = true;
	vgpu_ghyvi_get(e->a, &before);
	ret = vgpu_ghyvi_set(e->a, &p);
	vgpu_ghyvi_get(e->a, &after);
	if ((uint32_t)p.policy >= VGPU_PPGTT_NR_POLICIES) {
		if (ret != -GPU_EINVAL || before.policy != after.policy ||
		    before.relax_traps != after.relax_traps)
			fz_die("invalid policy accepted", p.policy, (uint64_t)ret);
	} else if (ret || after.policy != p.policy || !after.verify) {
		fz_die("policy switch failed", p.policy, (uint64_t)ret);
	} else if (p.policy == VGPU_PPGTT_STRICT && vgpu_ghyvi_relaxed(e->a)) {
		fz_die("relaxed tables under the strict policy",
		       vgpu_ghyvi_relaxed(e->a), 0);
	}
	check_shadow(e, e->a);
}

static void fz_g2v(struct fz_env *e, uint64_t root, uint32_t what)
{
	struct guest_i915 *g = &e->ga;

	gi_mmio_write(g, VGT_PVINFO_PAGE + 0x838, (uint32_t)root, 4);
	gi_mmio_write(g, VGT_PVINFO_PAGE + 0x83c, (uint32_t)(root >> 32), 4);
	gi_mmio_write(g, VGT_PVINFO_PAGE + 0x818, what, 4);
}

/* Straight to vgpu_mm_prepare, as a dispatch does: the root held like a
 * workload holds it (released after, so the root cache may evict it) or
 * announced (g2v: kept); sometimes a root outside the VM's RAM. */
static void fz_op_prepare(struct fz_env *e, struct fz_ghyvi *s, struct fz_in *in)
{
	uint8_t b = (uint8_t)fz_take(in, 1);
	uint64_t root = b & 0x40 ? FZ_RAM + 4096ull * (b & 0x3f) :
				   s->pg[(b & 0x3f) % FZ_PAGES], shadow;
	int mm = vgpu_mm_get(e->a, root, b & 0x80), ret;

	if (mm < 0) {
		if (!(b & 0x40) && mm != -GPU_ENOSPC)
			fz_die("no shadow for a root in RAM", root, (uint64_t)mm);
		return; /* not RAM, or every slot held by announced roots */
	}
	if (b & 0x40)
		fz_die("shadowed a root outside RAM", root, 0);
	ret = vgpu_mm_prepare(e->a, mm, &shadow);
	if (ret == -GPU_EIO)
		fz_die("verifier refused a workload", root, 0);
	if (!ret && shadow != SPT(e->a, MM(e->a, mm).root).shadow_hpa)
		fz_die("prepared root is not the shadow root", shadow, 0);
	if (!(b & 0x80))
		vgpu_mm_put(e->a, mm);
	check_shadow(e, e->a);
}

/* Through ELSP: a breadcrumb (and maybe a PPGTT batch) on a context whose
 * image names the chosen root. */
static void fz_op_elsp(struct fz_env *e, struct fz_ghyvi *s, struct fz_in *in)
{
	struct guest_i915 *g = &e->ga;
	uint8_t b = (uint8_t)fz_take(in, 1);
	int c = s->ctx[b & 1];
	uint64_t root = s->pg[fz_take(in, 1) % FZ_PAGES];
	uint64_t st = g->ctx[c].lrca_gpa + LRC_STATE_OFFSET;

	if (vgpu_failed(e->a))
		return;
	gi_write32(g, st + CTX_PDP0_UDW * 4, (uint32_t)(root >> 32));
	gi_write32(g, st + CTX_PDP0_LDW * 4, (uint32_t)root);
	if (b & 2) /* a PPGTT batch on one of the data pages */
		gi_emit_bb_start(g, c, FZ_VA + 4096ull * ((b >> 2) & 3), true);
	gi_emit_breadcrumb(g, c, s->crumb_gm, ++s->seq);
	gi_submit(g, c, -1);
	fz_run(e, 2);
	check_shadow(e, e->a);
}

static void fz_op_misc(struct fz_env *e, struct fz_ghyvi *s, struct fz_in *in)
{
	uint8_t b = (uint8_t)fz_take(in, 1);
	uint64_t x = fz_take(in, 4);

	switch (b % 4) {
	case 0: { /* pin a page of the set, or anything */
		uint64_t gpa = b & 4 ? x << 12 : s->pg[x % FZ_PAGES] + (x >> 8) % 4096;
		int ret = vgpu_ghyvi_pin(e->a, gpa);

		if (ret && ret != -GPU_ENOSPC)
			fz_die("pin", gpa, (uint64_t)ret);
		break;
	}
	case 1: /* announce a root */
		fz_g2v(e, s->pg[x % FZ_PAGES], VGT_G2V_PPGTT_L4_CREATE);
		break;
	case 2: /* withdraw one */
		fz_g2v(e, s->pg[x % FZ_PAGES], VGT_G2V_PPGTT_L4_DESTROY);
		break;
	default: /* time passes (the relax window) */
		e->hv.now += x * (b & 4 ? 1000 : 1);
		fz_run(e, (b >> 3) & 3);
		break;
	}
}

static void fz_setup(struct fz_env *e, struct fz_ghyvi *s, struct fz_in *in)
{
	struct guest_i915 *g = &e->ga;
	uint64_t first, bb;
	uint32_t bbend[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	int i;

	s->ctx[0] = gi_ctx_create(g, GEN9_RCS0);
	s->ctx[1] = gi_ctx_create(g, GEN9_BCS0);
	s->crumb_gm = gi_gm_alloc(g, 4096, false);
	bb = gi_alloc_pages(g, 1);
	if (s->ctx[0] < 0 || s->ctx[1] < 0 || !s->crumb_gm || !bb)
		fz_die("attacker objects", 0, 0);
	gi_ggtt_bind(g, s->crumb_gm, bb, 1);
	/* The policy the PPGTT is built under. */
	if (in->n)
		fz_op_policy(e, in);
	/* pdp, pd, pt at first .. first + 2, data after them; one spare page
	 * at the end takes stores crossing out of the last page. */
	first = g->next_gpa;
	gi_ppgtt_map(g, FZ_VA, first + 3 * 4096, 4);
	if (g->next_gpa != first + 3 * 4096 || !gi_alloc_pages(g, FZ_PAGES - 3))
		fz_die("attacker page set", first, g->next_gpa);
	s->pg[0] = g->pml4_gpa;
	for (i = 1; i < FZ_PAGES; i++)
		s->pg[i] = first + 4096ull * (i - 1);
	/* The data pages start as batches that end at once. */
	for (i = 4; i < 8; i++)
		fake_hv_guest_write(&e->hv, 1, s->pg[i], bbend, sizeof(bbend));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fz_ghyvi s;
	struct fz_env *e = fz_env();
	struct fz_in in = { data, size };
	uint32_t ops = 0, verified = 0, last = 1;

	memset(&s, 0, sizeof(s));
	fz_input_begin(e);
	fz_setup(e, &s, &in);
	fz_check_ghyvi(e);
	while (in.n && ops++ < FZ_OPS) {
		uint8_t op = (uint8_t)fz_take(&in, 1);

		switch (op % 16) {
		default: /* 0..8: stores, most of the time */
			fz_op_store(e, &s, &in);
			break;
		case 9: case 10: /* submissions: each verifies a whole tree */
		case 11: case 12:
			if (!fz_budget(verified, last)) {
				fz_take(&in, op % 16 < 11 ? 1 : 2);
				break;
			}
			if (op % 16 < 11)
				fz_op_prepare(e, &s, &in);
			else
				fz_op_elsp(e, &s, &in);
			last = fz_verified_tables(e);
			verified += last;
			break;
		case 13:
			fz_op_policy(e, &in);
			break;
		case 14: case 15:
			fz_op_misc(e, &s, &in);
			break;
		}
		fz_check_ghyvi(e);
	}
	/* A last submission of the guest's own root sees everything. */
	{
		struct fz_in last = { (const uint8_t *)"\0", 1 };

		fz_op_prepare(e, &s, &last);
	}
	fz_run(e, 4);
	fz_check_ghyvi(e);
	if (getenv("FZ_GHYVI_STATS")) { /* what an input reached */
		const struct vgpu_stats *t = &e->a->stats;

		fprintf(stderr, "traps %llu relaxed %llu strict-again %llu late %llu "
			"recon %llu/%llu pages/%llu entries dropped %llu untracked %llu "
			"verify %llu (%u tables) workloads %llu/%llu failed %d\n",
			(unsigned long long)t->pte_traps,
			(unsigned long long)t->pte_relaxed,
			(unsigned long long)t->pte_strict_again,
			(unsigned long long)t->pte_late_traps,
			(unsigned long long)t->recon_runs,
			(unsigned long long)t->recon_pages,
			(unsigned long long)t->recon_entries,
			(unsigned long long)t->recon_dropped,
			(unsigned long long)t->spt_untracked,
			(unsigned long long)t->verify_runs, verified,
			(unsigned long long)t->workloads_done,
			(unsigned long long)t->workloads, vgpu_failed(e->a));
		fprintf(stderr, "last log: %s\n", e->hv.last_log);
	}
	fz_check(e);
	fz_input_end(e, data, size); /* destroying it leaks nothing (now and then) */
	return 0;
}
