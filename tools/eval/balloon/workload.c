/* Workloads and scenarios: the papers' benchmarks reduced to what GM
 * placement sees (see README.md for where each number comes from), and
 * the papers' experiment mixes. Deterministic functions of (VM, time). */
#include <string.h>

#include "tools/eval/balloon/bal.h"

/* busy: share of 16 ms slices with GPU work (DymGPU §IV-B classes:
 * Lightsmark low, Firefox-asteroids medium, Urbanterror high utilization;
 * 2D desktops submit little). gm: high-GM working set; gBalloon §4.1 says
 * only Valley needs more than 384 MiB. cpu: the VM's CPU demand. */
const struct bench_info benches[B_COUNT] = {
	[B_NONE] = { "idle", C_IDLE, 0, 16, 50 },
	[B_VALLEY] = { "valley", C_VALLEY, 950, 0, 600 },
	[B_LIGHTSMARK] = { "lightsmark", C_3D, 350, 250, 500 },
	[B_OPENARENA] = { "openarena", C_3D, 800, 320, 700 },
	[B_NEXUIZ] = { "nexuiz", C_3D, 850, 340, 700 },
	[B_URBANTERROR] = { "urbanterror", C_3D, 900, 360, 900 },
	[B_GNOME] = { "gnome", C_2D, 150, 120, 300 },
	[B_MIDORI] = { "midori", C_2D, 200, 160, 400 },
	[B_FFAST] = { "firefox-ast", C_2D, 550, 200, 500 },
	[B_FFSCR] = { "firefox-scr", C_2D, 400, 180, 400 },
};

/* Valley's 18 scenes, in slots of GM needed (gBalloon figure 9: a sharp
 * rise to 9 slots, then one slot every few scenes up to 13 = 832 MiB). */
static const uint8_t valley_slots[18] = { 9,  9,  10, 10, 10, 11, 11, 11, 11,
					  12, 12, 12, 12, 13, 13, 13, 13, 13 };

enum bench wl_bench(const struct vm_spec *v, double t, int *phase)
{
	for (int i = 0; i < v->nphases; i++)
		if (t >= v->ph[i].start_s && t < v->ph[i].start_s + v->ph[i].len_s) {
			if (phase)
				*phase = i;
			return v->ph[i].b;
		}
	if (phase)
		*phase = -1;
	return B_NONE;
}

uint32_t wl_demand_mib(const struct vm_spec *v, double t)
{
	int ph;
	enum bench b = wl_bench(v, t, &ph);

	if (b == B_VALLEY) {
		int scene = (int)((t - v->ph[ph].start_s) / v->valley_scene_s);

		if (scene > 17)
			scene = 17;
		/* A little under the slot boundary: k slots suffice. */
		return valley_slots[scene] * SLOT_MIB - 16;
	}
	return benches[b].gm_mib;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

bool wl_busy(const struct vm_spec *v, int vm, double t)
{
	enum bench b = wl_bench(v, t, NULL);
	uint64_t slice = (uint64_t)(t * 1e9 / SLICE_NS);

	if (b == B_NONE)
		return false;
	return mix((uint64_t)vm << 40 ^ slice) % 1000 < benches[b].busy_permille;
}

uint32_t wl_cpu(const struct vm_spec *v, double t)
{
	enum bench b = wl_bench(v, t, NULL);

	return b != B_NONE && v->cpu_millis ? v->cpu_millis
					    : benches[b].cpu_millis;
}

static double phase_len(enum bench b)
{
	switch (benches[b].cls) {
	case C_VALLEY:
		return 60;
	case C_3D:
		return 45;
	default:
		return 30;
	}
}

static void sequence(struct vm_spec *v, const enum bench *b, int n)
{
	double t = 0;

	memset(v, 0, sizeof(*v));
	v->nphases = n;
	v->valley_scene_s = 60.0 / 18;
	for (int i = 0; i < n; i++) {
		v->ph[i] = (struct phase){ b[i], t, phase_len(b[i]) };
		t += v->ph[i].len_s;
	}
}

/* gBalloon Table 2: each of 15 VMs runs three benchmarks in turn. */
void scen_table2(struct scenario *s)
{
	static const enum bench t2[15][3] = {
		{ B_GNOME, B_OPENARENA, B_VALLEY },
		{ B_VALLEY, B_FFAST, B_URBANTERROR },
		{ B_MIDORI, B_VALLEY, B_NEXUIZ },
		{ B_VALLEY, B_FFSCR, B_URBANTERROR },
		{ B_VALLEY, B_FFSCR, B_LIGHTSMARK },
		{ B_LIGHTSMARK, B_GNOME, B_VALLEY },
		{ B_GNOME, B_VALLEY, B_OPENARENA },
		{ B_URBANTERROR, B_VALLEY, B_FFSCR },
		{ B_MIDORI, B_NEXUIZ, B_VALLEY },
		{ B_VALLEY, B_LIGHTSMARK, B_FFSCR },
		{ B_GNOME, B_OPENARENA, B_VALLEY },
		{ B_NEXUIZ, B_FFAST, B_VALLEY },
		{ B_VALLEY, B_OPENARENA, B_FFAST },
		{ B_MIDORI, B_VALLEY, B_LIGHTSMARK },
		{ B_VALLEY, B_NEXUIZ, B_FFAST },
	};
	double end = 0;

	memset(s, 0, sizeof(*s));
	s->name = "table2";
	s->title = "gBalloon Table 2: 15 VMs, three benchmarks each";
	s->n = 15;
	for (int i = 0; i < 15; i++) {
		sequence(&s->vm[i], t2[i], 3);
		if (s->vm[i].ph[2].start_s + s->vm[i].ph[2].len_s > end)
			end = s->vm[i].ph[2].start_s + s->vm[i].ph[2].len_s;
	}
	/* After the last benchmark: long enough for the idle triggers. */
	s->end_s = end + 25;
}

/* DymGPU Table II: 15 VMs of Lightsmark (low utilization), Firefox-
 * asteroids (medium), Urbanterror (high), 60 s. */
void scen_dym_set(struct scenario *s, int set)
{
	static const int counts[5][3] = {
		{ 11, 2, 2 }, { 2, 2, 11 }, { 3, 6, 6 }, { 6, 3, 6 }, { 6, 6, 3 },
	};
	static const enum bench kind[3] = { B_LIGHTSMARK, B_FFAST,
					    B_URBANTERROR };
	static const char *const names[5] = { "dym-set1", "dym-set2",
					      "dym-set3", "dym-set4",
					      "dym-set5" };
	int vm = 0;

	memset(s, 0, sizeof(*s));
	s->name = names[set - 1];
	s->title = "DymGPU Table II set";
	s->n = 15;
	for (int k = 0; k < 3; k++)
		for (int c = 0; c < counts[set - 1][k]; c++, vm++) {
			s->vm[vm].nphases = 1;
			s->vm[vm].ph[0] = (struct phase){ kind[k], 0, 60 };
		}
	s->end_s = 60;
}

/* gBalloon figure 9: one VM runs Valley's 18 scenes (10 s each). */
void scen_valley_growth(struct scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->name = "valley-growth";
	s->title = "gBalloon figure 9: Valley's 18 scenes in one VM";
	s->n = 1;
	s->vm[0].nphases = 1;
	s->vm[0].ph[0] = (struct phase){ B_VALLEY, 0, 180 };
	s->vm[0].valley_scene_s = 10;
	s->end_s = 180;
}

/* gBalloon figure 5: n VMs all running Valley. */
void scen_valley_n(struct scenario *s, int n)
{
	static const char *const names[] = { "valley-3", "valley-6",
					     "valley-9", "valley-12",
					     "valley-15" };

	memset(s, 0, sizeof(*s));
	s->name = names[n / 3 - 1];
	s->title = "gBalloon figure 5: n VMs running Valley";
	s->n = n;
	for (int i = 0; i < n; i++) {
		s->vm[i].nphases = 1;
		s->vm[i].ph[0] = (struct phase){ B_VALLEY, 0, 60 };
		s->vm[i].valley_scene_s = 60.0 / 18;
	}
	s->end_s = 60;
}

/* The worst cases for alpha and beta: 15 VMs of Valley at its largest
 * (the most copying), or of Urbanterror (the most CPU). */
void scen_calibrate(struct scenario *s, bool cpu)
{
	scen_valley_n(s, 15);
	s->name = cpu ? "calibration-cpu" : "calibration-copy";
	for (int i = 0; i < 15; i++) {
		s->vm[i].valley_scene_s = 1; /* last scene from 17 s on */
		if (cpu)
			s->vm[i].ph[0].b = B_URBANTERROR;
	}
	s->end_s = 20;
}
