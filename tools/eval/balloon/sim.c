/* One policy over one scenario: the mediator's round robin of 16 ms slices
 * over the vGPUs with work (idle ones skipped), the GGTT copy at every
 * switch (counted by a slot-level ownership model and, in lockstep, done
 * by the real gpu/gscale code, which must agree), the guests' GM demand
 * (evictions, requests), the monitor, and the policy's own loop (gBalloon
 * every 0.5 s, DymGPU on events and every 20 s). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/eval/balloon/bal.h"

const char *const policy_names[POL_COUNT] = {
	[POL_GVIRT384] = "gvirt-384",	[POL_GVIRT1024] = "gvirt-1024",
	[POL_GSCALE] = "gscale",	[POL_DYM_SIZE] = "dymgpu-size",
	[POL_DYM_UTIL] = "dymgpu-util", [POL_GBALLOON] = "gballoon",
	[POL_OURS] = "ours",
};

#define NO_OWNER 0xffff
#define POLICY_PERIOD_S 0.5
#define POLL_S 1.0

struct sim {
	const struct scenario *s;
	enum policy pol;
	struct series *ser;
	struct run_result *out;
	int n;
	double t;			/* seconds */
	bool sets;			/* ours: ncs layout is the truth */
	struct slot_layout lay;
	struct ncs_layout nl;		/* always the current sets */
	struct gsd gsd;
	struct mon mon;
	struct bpol bp;
	struct bpol_decision dec;
	struct bpol_view view;
	struct dym dym;
	struct dym_result dres;
	uint32_t floor[MAX_VMS];
	/* The ramp gBalloon's guarantee allows (balloon_policy.h): slots a
	 * VM may still be short of gVirt-1024's min(demand, 1024 MiB), one
	 * fewer every period, plus what the demand last rose by. */
	uint32_t ramp[MAX_VMS], ramp_target[MAX_VMS];
	uint64_t used[MAX_VMS];
	uint32_t util[MAX_VMS];
	uint16_t owner[M_SLOTS];
	int low_owner, cur;
	double period_copy_ns;
	double sigma;			/* CPU: share of runnable time waited */
	double sigma0;			/* ... had the copies taken no CPU */
	const bool *busy;		/* VMs with work in this slice */
	double shared_time;
	uint64_t w_seen, r_seen;
	uint64_t next_replace;		/* ours: ns */
};

static uint64_t ns_of(double t)
{
	return (uint64_t)llround(t * 1e9);
}

static bool ballooning(enum policy p)
{
	return p == POL_GBALLOON || p == POL_OURS;
}

static uint32_t static_size(enum policy p, int vm)
{
	static const uint32_t mix[3] = { 6, 11, 16 }; /* 384/704/1024 MiB */

	switch (p) {
	case POL_GVIRT1024:
		return 16;
	case POL_GSCALE:
	case POL_DYM_SIZE:
	case POL_DYM_UTIL:
		return mix[vm % 3]; /* DymGPU's 1:1:1 mix */
	default:
		return 6; /* gVirt-384; gBalloon and ours start at 384 */
	}
}

static uint32_t slots_of(const struct sim *m, int vm)
{
	return ncs_count(&m->nl.set[vm]);
}

static void die(const char *what)
{
	fprintf(stderr, "balloon-eval: %s\n", what);
	exit(1);
}

/* ---- the copy: slot model + the real code ------------------------------ */

/* Copies every slot of vm not holding its entries (and its low GM). */
static void model_copy(struct sim *m, int vm, uint64_t *high, uint64_t *low)
{
	*high = *low = 0;
	for (uint32_t x = 0; x < M_SLOTS; x++)
		if (ncs_has(&m->nl.set[vm], x) && m->owner[x] != vm) {
			m->owner[x] = (uint16_t)vm;
			*high += SE;
		}
	if (m->low_owner != vm) {
		m->low_owner = vm;
		*low = LOW_E;
	}
}

/* The copy's wall time, split over the VMs with work now: in a round
 * robin each of them waits that share of it. */
static void charge_copy_wait(struct sim *m, double ns)
{
	int nbusy = 0, ph;

	for (int vm = 0; vm < m->n; vm++)
		nbusy += m->busy[vm];
	for (int vm = 0; vm < m->n && nbusy; vm++) {
		if (!m->busy[vm])
			continue;
		wl_bench(&m->s->vm[vm], m->t, &ph);
		if (ph >= 0)
			m->out->vm[vm].phase_copy_ms[ph] += ns / 1e6 / nbusy;
	}
}

static void account_copy(struct sim *m, int vm, uint64_t high, uint64_t low,
			 bool resize)
{
	double ns = (double)(high + low) * HW_NS_PER_ENTRY;

	charge_copy_wait(m, ns);

	if (resize) {
		m->out->resize_copied += high + low;
	} else {
		m->out->high_copied += high;
		m->out->low_copied += low;
		m->out->hw_copy_ms += ns / 1e6;
	}
	m->period_copy_ns += ns;
	m->t += ns / 1e9; /* the switch waits for the copy */
	mon_copy(&m->mon, (uint32_t)vm, high + low,
		 (uint64_t)(ns * HW_CYCLES_PER_US / 1000));
}

static void do_switch(struct sim *m, int vm)
{
	uint64_t high, low, real;

	model_copy(m, vm, &high, &low);
	real = gsd_switch(&m->gsd, vm);
	if (real != high) {
		fprintf(stderr, "t=%.3f vm %d: model %llu, gscale %llu\n", m->t,
			vm, (unsigned long long)high, (unsigned long long)real);
		die("slot model and gpu/gscale disagree");
	}
	m->out->real_high_copied += real;
	account_copy(m, vm, high, low, false);
	m->out->switches++;
	m->cur = vm;
}

/* vm's slots changed to `set`: it loses every high entry it had resident
 * (gscale scrubs a resized range), and if it owns the engine its new
 * range is copied in at once. */
static void set_slots(struct sim *m, int vm, const struct ncs_set *set)
{
	uint32_t runs;

	for (uint32_t x = 0; x < M_SLOTS; x++)
		if (m->owner[x] == vm)
			m->owner[x] = NO_OWNER;
	m->nl.set[vm] = *set;
	if (gsd_set(&m->gsd, vm, set))
		die("gsd_set failed");
	runs = ncs_runs(set, M_SLOTS, NULL, 0);
	if (runs > m->out->max_runs)
		m->out->max_runs = runs;
	if (m->cur == vm) {
		uint64_t high, low, real, t0 = m->gsd.ticks;

		model_copy(m, vm, &high, &low);
		real = gsd_switch(&m->gsd, vm);
		if (real != high)
			die("slot model and gpu/gscale disagree (resize)");
		m->out->real_high_copied += real;
		m->out->resize_ticks += (double)(m->gsd.ticks - t0);
		account_copy(m, vm, high, low, true);
	}
	if (slots_of(m, vm) > m->out->vm[vm].max_slots)
		m->out->vm[vm].max_slots = slots_of(m, vm);
}

static struct ncs_set run_set(uint32_t first, uint32_t n)
{
	struct ncs_set s;

	memset(&s, 0, sizeof(s));
	for (uint32_t x = first; x < first + n; x++)
		ncs_add(&s, x);
	return s;
}

/* The contiguous layout changed: push the differences. */
static void sync_contig(struct sim *m)
{
	for (int vm = 0; vm < m->n; vm++) {
		struct ncs_set s = run_set(m->lay.p[vm], m->lay.s[vm]);

		if (memcmp(&s, &m->nl.set[vm], sizeof(s)))
			set_slots(m, vm, &s);
	}
}

/* ---- creation ---------------------------------------------------------- */

static void create_all(struct sim *m)
{
	uint32_t sizes[MAX_VMS], total = 0;

	m->lay.m = m->nl.m = M_SLOTS;
	m->lay.n = m->nl.n = (uint32_t)m->n;
	for (int vm = 0; vm < m->n; vm++) {
		sizes[vm] = static_size(m->pol, vm);
		total += sizes[vm];
		if (total <= M_SLOTS)
			m->out->fit_unshared = vm + 1;
		m->floor[vm] = sizes[vm];
		m->ramp_target[vm] = sizes[vm];
		if (mon_add(&m->mon, (uint32_t)vm, 0))
			die("mon_add");
	}
	m->out->fits_unshared = total <= M_SLOTS;
	switch (m->pol) {
	case POL_OURS:
		m->sets = true;
		if (ncs_place(&m->nl, sizes, NULL) < 0)
			die("ncs_place");
		for (int vm = 0; vm < m->n; vm++) {
			struct ncs_set s = m->nl.set[vm];

			memset(&m->nl.set[vm], 0, sizeof(s));
			set_slots(m, vm, &s);
		}
		break;
	case POL_DYM_SIZE:
	case POL_DYM_UTIL: {
		struct dym_params p = {
			.mode = m->pol == POL_DYM_SIZE ? DYM_BY_SIZE : DYM_BY_UTIL,
			.m = M_SLOTS,
			.slot_entries = SE,
		};

		if (dym_init(&m->dym, &p, 0))
			die("dym_init");
		for (int vm = 0; vm < m->n; vm++)
			if (dym_create(&m->dym, (uint32_t)vm, sizes[vm], 0,
				       &m->dres))
				die("dym_create");
		m->lay = *dym_layout(&m->dym);
		m->lay.n = (uint32_t)m->n;
		sync_contig(m);
		break;
	}
	default:
		/* gScale's own placement at creation, in VM order. */
		for (int vm = 0; vm < m->n; vm++) {
			int first = gsd_add_auto(&m->gsd, vm, sizes[vm]);

			if (first < 0)
				die("gscale_vgpu_add");
			m->lay.p[vm] = (uint32_t)first;
			m->lay.s[vm] = sizes[vm];
			m->nl.set[vm] = run_set((uint32_t)first, sizes[vm]);
			m->out->vm[vm].max_slots = sizes[vm];
			if (m->out->max_runs < 1)
				m->out->max_runs = 1;
		}
	}
}

/* ---- the periodic parts ------------------------------------------------ */

/* The fair-share CPU model: the VMs' CPU demand on HOST_CPUS minus the
 * share of a CPU the copying took (copy_s seconds of every period_s); every
 * runnable vCPU waits the same share sigma of its runnable time. */
static double cpu_sigma(const struct sim *m, double copy_s, double period_s)
{
	double demand = 0, cap;

	for (int vm = 0; vm < m->n; vm++)
		demand += wl_cpu(&m->s->vm[vm], m->t) / 1000.0;
	cap = HOST_CPUS - copy_s / period_s;
	return demand > cap ? 1 - cap / demand : 0;
}

/* Equation 2 from the CPU model. The same sigma slows every VM's
 * rendering until the next period (run_slice): the score pays for the
 * CPU contention that drives gBalloon's decisions. */
static void feed_steal(struct sim *m, double period_s)
{
	double sigma = cpu_sigma(m, m->period_copy_ns / 1e9, period_s);

	m->sigma = sigma;
	m->sigma0 = cpu_sigma(m, 0, period_s);
	for (int vm = 0; vm < m->n; vm++) {
		double r = wl_cpu(&m->s->vm[vm], m->t) / 1000.0 / VCPUS_PER_VM;

		for (int j = 0; j < VCPUS_PER_VM; j++) {
			double w = sigma * r * period_s * 1e9;

			mon_steal(&m->mon, (uint64_t)w,
				  (uint64_t)(period_s * 1e9 - w));
		}
	}
}

static void used_now(struct sim *m)
{
	for (int vm = 0; vm < m->n; vm++) {
		uint64_t d = MIB(wl_demand_mib(&m->s->vm[vm], m->t));
		uint64_t have = (uint64_t)slots_of(m, vm) * SE;

		m->used[vm] = d < have ? d : have;
		mon_gm(&m->mon, (uint32_t)vm, d, m->used[vm], have);
	}
}

static void balloon_tick(struct sim *m, struct mon_period *pe)
{
	uint64_t now = ns_of(m->t);
	uint32_t approved = 0, shrunk = 0;

	if (m->sets)
		bpol_view_nc(&m->view, &m->nl, m->floor, m->used, SE);
	else
		bpol_view_contig(&m->view, &m->lay, m->floor, m->used, SE);
	if (bpol_evaluate(&m->bp, now, pe->w_permille, pe->rcopy_permille,
			  &m->view, &m->dec) != 1)
		return;
	m->out->decisions++;
	m->out->band[m->dec.band]++;
	if (m->sets) {
		struct ncs_layout before = m->nl;

		bpol_apply_nc(&m->nl, &m->dec, m->util);
		for (int vm = 0; vm < m->n; vm++)
			if (memcmp(&before.set[vm], &m->nl.set[vm],
				   sizeof(before.set[vm]))) {
				struct ncs_set s = m->nl.set[vm];

				m->nl.set[vm] = before.set[vm];
				set_slots(m, vm, &s);
			}
	} else {
		bpol_apply_contig(&m->lay, &m->dec);
		sync_contig(m);
	}
	for (uint32_t i = 0; i < m->dec.nr; i++) {
		const struct bpol_action *a = &m->dec.act[i];

		if (a->kind == BPOL_APPROVE && !a->err) {
			approved += a->slots;
			m->out->vm[a->vgpu].granted += a->slots;
		} else if (a->kind == BPOL_SHRINK && !a->err) {
			shrunk += a->slots;
			m->out->vm[a->vgpu].taken += a->slots;
		} else if (a->kind == BPOL_REJECT) {
			m->out->rejected++;
		}
	}
	m->out->approved += approved;
	m->out->shrunk += shrunk;
	if (m->ser && m->ser->decisions)
		fprintf(m->ser->decisions, "%.2f %.3f %d %u %u\n", m->t,
			m->dec.f / 1000.0, m->dec.band, approved, shrunk);
}

static void dym_result(struct sim *m, const struct dym_result *r)
{
	if (!r->replaced || !r->nr)
		return;
	m->out->replacements++;
	m->out->moves += r->nr;
	m->out->moved_entries += r->entries;
	for (uint32_t i = 0; m->ser && m->ser->moves && i < r->nr; i++)
		fprintf(m->ser->moves, "%.2f %u %u %u %u %llu\n", m->t,
			r->mv[i].vgpu, r->mv[i].from, r->mv[i].to,
			r->mv[i].slots, (unsigned long long)r->mv[i].entries);
	m->lay = *dym_layout(&m->dym);
	m->lay.n = (uint32_t)m->n;
	sync_contig(m);
}

/* Ours, every 20 s: the copy-aware set placement with the measured
 * loads, taken if it saves at least 10% of the expected copies (moving
 * costs each moved guest one copy of its slots). Loads: GPU utilization
 * over 20 s relative to the busiest vGPU's - in a round robin the
 * busiest has work at nearly every turn. */
static void ours_replace(struct sim *m)
{
	static struct ncs_layout cand;
	uint32_t u[MAX_VMS], sizes[MAX_VMS], top = 1;
	uint64_t now_cost, new_cost;
	bool moved = false;

	for (int vm = 0; vm < m->n; vm++)
		top = m->util[vm] > top ? m->util[vm] : top;
	for (int vm = 0; vm < m->n; vm++) {
		u[vm] = (uint32_t)((uint64_t)m->util[vm] * 1000 / top);
		sizes[vm] = slots_of(m, vm);
	}
	cand.m = M_SLOTS;
	cand.n = (uint32_t)m->n;
	if (ncs_place_cost(&cand, sizes, u) < 0)
		die("ncs_place_cost");
	now_cost = ncs_cost(&m->nl, u);
	new_cost = ncs_cost(&cand, u);
	if (new_cost * 10 > now_cost * 9)
		return;
	for (int vm = 0; vm < m->n; vm++) {
		if (!memcmp(&cand.set[vm], &m->nl.set[vm], sizeof(cand.set[vm])))
			continue;
		m->out->moves++;
		m->out->moved_entries += m->used[vm];
		if (m->ser && m->ser->moves)
			fprintf(m->ser->moves, "%.2f %d - - %u %llu\n", m->t,
				vm, ncs_count(&cand.set[vm]),
				(unsigned long long)m->used[vm]);
		set_slots(m, vm, &cand.set[vm]);
		moved = true;
	}
	m->out->replacements += moved;
}

static void poll_tick(struct sim *m)
{
	uint64_t now = ns_of(m->t);
	struct mon_event ev[MAX_VMS];
	uint32_t nev = mon_poll(&m->mon, now, ev, MAX_VMS);

	for (int vm = 0; vm < m->n; vm++)
		m->util[vm] = mon_util(&m->mon, (uint32_t)vm, now);
	if (m->pol == POL_OURS && now >= m->next_replace) {
		m->next_replace += DYM_PERIOD_NS;
		ours_replace(m);
	}
	if (m->pol != POL_DYM_SIZE && m->pol != POL_DYM_UTIL)
		return;
	for (int vm = 0; vm < m->n; vm++) {
		dym_set_util(&m->dym, (uint32_t)vm, m->util[vm]);
		dym_set_used(&m->dym, (uint32_t)vm, m->used[vm]);
	}
	for (uint32_t i = 0; i < nev; i++) {
		if (dym_set_idle(&m->dym, ev[i].vgpu,
				 ev[i].kind == MON_BECAME_IDLE, now, &m->dres))
			die("dym_set_idle");
		dym_result(m, &m->dres);
	}
	if (dym_tick(&m->dym, now, &m->dres) == 1)
		dym_result(m, &m->dres);
}

/* gVirt-1024's GM for demand, in slots. */
static uint32_t target_1024(double demand_mib)
{
	uint32_t t = (uint32_t)((demand_mib + SLOT_MIB - 1) / SLOT_MIB);

	return t < 16 ? t : 16;
}

/* The demand rose: the ramp may take what it rose by, and a period more
 * (the request waits for the next 0.5 s evaluation). */
static void ramp_see(struct sim *m, int vm, double demand_mib)
{
	uint32_t t = target_1024(demand_mib);

	if (t > m->ramp_target[vm])
		m->ramp[vm] += t - m->ramp_target[vm] + 1;
	m->ramp_target[vm] = t;
}

/* Every period the allowed shortfall shrinks by a slot. */
static void ramp_period(struct sim *m)
{
	for (int vm = 0; vm < m->n; vm++)
		m->ramp[vm] -= m->ramp[vm] > 0;
}

static void period_tick(struct sim *m, const struct calib *cal)
{
	struct mon_period pe;
	uint32_t shared;

	(void)cal;
	used_now(m);
	feed_steal(m, POLICY_PERIOD_S);
	mon_period(&m->mon, ns_of(m->t), &pe);
	m->period_copy_ns = 0;
	if (m->t > 2 && pe.w_permille > m->w_seen)
		m->w_seen = pe.w_permille;
	if (m->t > 2 && pe.rcopy_permille > m->r_seen)
		m->r_seen = pe.rcopy_permille;
	shared = ncs_shared(&m->nl);
	m->shared_time += shared * POLICY_PERIOD_S;
	if (shared > m->out->shared_max)
		m->out->shared_max = shared;
	if (ballooning(m->pol))
		balloon_tick(m, &pe);
	ramp_period(m);
	if (m->t >= m->s->end_s)
		return; /* the last tick of the run: no series point */
	if (m->ser && m->ser->slots)
		for (int vm = 0; vm < m->n; vm++)
			fprintf(m->ser->slots, "%.2f %d %u %.2f\n", m->t, vm,
				slots_of(m, vm),
				wl_demand_mib(&m->s->vm[vm], m->t) /
					(double)SLOT_MIB);
	if (m->ser && m->ser->shared)
		fprintf(m->ser->shared, "%.2f %u\n", m->t, shared);
}

/* ---- the run ----------------------------------------------------------- */

static void run_slice(struct sim *m, int vm)
{
	const struct vm_spec *v = &m->s->vm[vm];
	struct vm_result *r = &m->out->vm[vm];
	double demand = wl_demand_mib(v, m->t);
	double have = (double)slots_of(m, vm) * SLOT_MIB;
	/* GM short: the share that fits; CPU short: the share it gets. */
	double gm = demand > have ? have / demand : 1;
	double eff = gm * (1 - m->sigma);
	double ms = SLICE_NS / 1e6;
	double ramp_have, cap, gm1024;
	int phase;

	/* What the ramp may lack: at most m->ramp slots short of
	 * gVirt-1024; a slice short beyond that is not credited. */
	ramp_see(m, vm, demand);
	ramp_have = have + (double)m->ramp[vm] * SLOT_MIB;
	cap = demand > 1024 ? 1024 : demand;
	gm1024 = demand > 0 ? (ramp_have < cap ? ramp_have : cap) / demand : 1;
	wl_bench(v, m->t, &phase);
	r->busy_slices++;
	r->useful_ms += ms * eff;
	if (phase >= 0) {
		r->phase_useful_ms[phase] += ms * eff;
		if (gm1024 > gm)
			r->phase_short_ms[phase] += ms * (gm1024 - gm) *
						    (1 - m->sigma);
		r->phase_copy_ms[phase] += ms * gm * (m->sigma - m->sigma0);
	}
	if (demand > have) {
		/* The guest evicts objects to make room (i915's shrinker),
		 * and a cooperating guest asks for a slot more. */
		r->evictions++;
		r->evicted_mib += demand - have;
		mon_evicted(&m->mon, (uint32_t)vm, 1);
		if (ballooning(m->pol) && !bpol_pending(&m->bp, (uint32_t)vm)) {
			if (m->sets)
				bpol_view_nc(&m->view, &m->nl, m->floor,
					     m->used, SE);
			else
				bpol_view_contig(&m->view, &m->lay, m->floor,
						 m->used, SE);
			r->requests++;
			bpol_request(&m->bp, &m->view, (uint32_t)vm, 1,
				     ns_of(m->t));
		}
	}
	mon_gpu_busy(&m->mon, (uint32_t)vm, ns_of(m->t),
		     ns_of(m->t) + SLICE_NS);
	m->t += SLICE_NS / 1e9;
}

int run_policy(const struct scenario *s, enum policy pol,
	       const struct calib *cal, struct series *ser,
	       struct run_result *out)
{
	struct sim *m = calloc(1, sizeof(*m));
	struct mon_params mp = { .nr_cpus = HOST_CPUS,
				 .cycles_per_us = HW_CYCLES_PER_US };
	struct bpol_params bpp = { .vcpus = (uint32_t)s->n * VCPUS_PER_VM,
				   .nr_cpus = HOST_CPUS,
				   .w_max = cal ? cal->w_max : 0,
				   .rcopy_max = cal ? cal->rcopy_max : 0,
				   .guarantee_entries =
					   cal ? cal->guarantee_entries : 0 };
	double next_period = POLICY_PERIOD_S, next_poll = POLL_S;
	bool busy[MAX_VMS] = { false };

	if (!m)
		return -1;
	memset(out, 0, sizeof(*out));
	out->pol = pol;
	m->s = s;
	m->pol = pol;
	m->ser = ser;
	m->out = out;
	m->n = s->n;
	m->cur = -1;
	m->low_owner = -1;
	m->next_replace = DYM_PERIOD_NS;
	for (uint32_t x = 0; x < M_SLOTS; x++)
		m->owner[x] = NO_OWNER;
	if (gsd_init(&m->gsd) || mon_init(&m->mon, &mp, 0) ||
	    bpol_init(&m->bp, &bpp, 0))
		die("init");
	create_all(m);
	m->sigma = m->sigma0 = cpu_sigma(m, 0, POLICY_PERIOD_S);
	m->busy = busy;
	while (m->t < s->end_s) {
		int vm;

		for (int i = 0; i < m->n; i++) {
			busy[i] = wl_busy(&s->vm[i], i, m->t);
			if (busy[i])
				mon_submit(&m->mon, (uint32_t)i, ns_of(m->t));
		}
		vm = ev_next_busy(busy, m->n, m->cur < 0 ? m->n - 1 : m->cur);
		if (vm < 0) {
			m->t += SLICE_NS / 1e9; /* nobody has work */
		} else {
			if (vm != m->cur)
				do_switch(m, vm);
			run_slice(m, vm);
		}
		while (m->t >= next_poll) {
			poll_tick(m);
			next_poll += POLL_S;
		}
		while (m->t >= next_period) {
			period_tick(m, cal);
			next_period += POLICY_PERIOD_S;
		}
	}
	out->wall_s = m->t;
	out->shared_avg = m->shared_time / (m->t > 0 ? m->t : 1);
	out->measured_ticks = (double)m->gsd.ticks - out->resize_ticks;
	/* Ours: remove the stubs' low chunks from the measured time. */
	if (m->gsd.all_copied) {
		double share = (double)(out->high_copied + out->low_copied +
					out->resize_copied) /
			       (double)m->gsd.all_copied;

		out->measured_ticks *= share;
		out->resize_ticks *= share;
	}
	for (int vm = 0; vm < m->n; vm++) {
		out->evictions += out->vm[vm].evictions;
		out->evicted_mib += out->vm[vm].evicted_mib;
		out->vm[vm].final_slots = slots_of(m, vm);
	}
	out->w_seen = m->w_seen;
	out->r_seen = m->r_seen;
	gsd_fini(&m->gsd);
	free(m);
	return 0;
}

/* The largest W and R_copy of a period in the two worst cases, at
 * gVirt-1024 (the most sharing). */
void calibrate(struct calib *cal)
{
	static struct scenario s;
	static struct run_result r;

	cal->w_max = cal->rcopy_max = 1;
	for (int cpu = 0; cpu < 2; cpu++) {
		scen_calibrate(&s, cpu);
		run_policy(&s, POL_GVIRT1024, NULL, NULL, &r);
		if (r.w_seen > cal->w_max)
			cal->w_max = r.w_seen;
		if (r.r_seen > cal->rcopy_max)
			cal->rcopy_max = r.r_seen;
	}
}
