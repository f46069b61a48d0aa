/* The policy monitor: what DymGPU's "monitor" (DymGPU paper §III-A)
 * and gBalloon's profiler (gBalloon paper §3.2) collect, per vGPU and
 * for the host, so placement and ballooning can decide.
 *
 * Per vGPU: GM requested and used (GGTT entries), active or idle (no
 * submission for idle_ns, 20 s by default), GPU utilization averaged over
 * a window (20 s by default, sampled in 1 s buckets as DymGPU does), GGTT
 * entries copied into it at switches and the cycles that took.
 * Host, per policy period: R_copy (gBalloon equation 1: copy cycles / (t x
 * N CPUs)) and W (equation 2: the sum over every vCPU of its steal share),
 * which the caller feeds from the hypervisor scheduler.
 *
 * Pure and integer-only (the hypervisor has no FPU state of its own): time
 * is passed in (ns), every rate is in thousandths (permille), no globals;
 * the caller owns the struct (about 60 KiB). */
#ifndef GPU_POLICY_MONITOR_H
#define GPU_POLICY_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#define MON_MAX_VGPUS 128
#define MON_MAX_BUCKETS 32
#define MON_IDLE_NS 20000000000ull	/* DymGPU: idle after 20 s */
#define MON_WINDOW_NS 20000000000ull	/* DymGPU: utilization over 20 s */
#define MON_BUCKET_NS 1000000000ull	/* ... sampled every second */

struct mon_params {
	uint64_t idle_ns;	/* 0: MON_IDLE_NS */
	uint64_t window_ns;	/* 0: MON_WINDOW_NS; at most
				 * MON_MAX_BUCKETS buckets */
	uint64_t bucket_ns;	/* 0: MON_BUCKET_NS */
	uint32_t nr_cpus;	/* N of equation 1; 0: 1 */
	uint32_t cycles_per_us;	/* rate of the copy cycles fed in (TSC MHz);
				 * 0: copy "cycles" are nanoseconds */
};

struct mon_vgpu {
	bool present;
	bool idle;		/* as of the last mon_poll */
	uint64_t last_active_ns;	/* last submission (or creation) */
	uint64_t gm_requested;	/* GGTT entries its guest asks for */
	uint64_t gm_used;	/* GGTT entries it has bound */
	uint64_t gm_size;	/* GGTT entries it has been given */
	uint64_t evictions;	/* guest-reported evictions for lack of GM */
	uint64_t copied;	/* GGTT entries copied in at its switches */
	uint64_t copy_cycles;
	uint64_t switches_in;
	/* GPU busy time per bucket; tag = bucket number it belongs to. One
	 * more than the window: the current bucket fills while the window's
	 * complete ones are still read. */
	uint64_t busy[MON_MAX_BUCKETS + 1];
	uint64_t tag[MON_MAX_BUCKETS + 1];
	uint64_t first_bucket;	/* bucket it was created in */
};

/* One policy period's host-wide inputs (see mon_period). */
struct mon_period {
	uint64_t t_ns;		/* the period's length */
	uint64_t copied;	/* GGTT entries copied at switches */
	uint64_t copy_cycles;
	uint64_t rcopy_permille;	/* equation 1, 0..1000 */
	uint64_t w_permille;	/* equation 2, 0..1000 per vCPU */
	uint32_t vcpus;		/* vCPU samples that made up W */
};

enum mon_event_kind { MON_BECAME_IDLE, MON_BECAME_ACTIVE };
struct mon_event {
	uint16_t vgpu;
	uint8_t kind;		/* enum mon_event_kind */
};

struct mon {
	struct mon_params p;
	uint32_t nr_buckets;
	uint64_t period_start;
	uint64_t p_copied, p_cycles, p_w;
	uint32_t p_vcpus;
	uint64_t copied, copy_cycles;	/* since mon_init */
	/* mon_share's N per bucket (ring slot, tag = bucket), for the
	 * threshold comp_min (ns): counted over every vGPU once when first
	 * asked, dropped by any busy time written into that bucket and by a
	 * vGPU's removal, so a share costs O(buckets), not O(vGPUs x
	 * buckets) (issue 31). */
	uint64_t comp_tag[MON_MAX_BUCKETS + 1];
	uint64_t comp_min[MON_MAX_BUCKETS + 1];
	uint32_t comp_n[MON_MAX_BUCKETS + 1];
	/* Work done by mon_share: buckets read plus vGPUs visited to count
	 * N (tests/unit/test_policy_monitor.c counts it). */
	uint64_t share_visits;
	struct mon_vgpu v[MON_MAX_VGPUS];
};

/* -GPU_EINVAL when the window needs more than MON_MAX_BUCKETS buckets or
 * is not a whole number of them. */
int mon_init(struct mon *m, const struct mon_params *p, uint64_t now);

/* A vGPU appears (active from now) or goes. -GPU_EINVAL for a bad id or
 * one already present. */
int mon_add(struct mon *m, uint32_t id, uint64_t now);
void mon_remove(struct mon *m, uint32_t id);

/* The guest submitted work (makes it active). */
void mon_submit(struct mon *m, uint32_t id, uint64_t now);
/* The vGPU owned the GPU and had work on it from start to end. */
void mon_gpu_busy(struct mon *m, uint32_t id, uint64_t start, uint64_t end);
/* GM: what the guest asks for, what it has bound, what it has. */
void mon_gm(struct mon *m, uint32_t id, uint64_t requested, uint64_t used,
	    uint64_t size);
void mon_evicted(struct mon *m, uint32_t id, uint64_t evictions);
/* A switch into id copied `entries` GGTT entries in `cycles`. */
void mon_copy(struct mon *m, uint32_t id, uint64_t entries, uint64_t cycles);
/* Equation 2, one term: vCPU j of some VM waited steal_ns runnable and
 * spent other_ns elsewhere (running, blocked) during this period. */
void mon_steal(struct mon *m, uint64_t steal_ns, uint64_t other_ns);

/* Average GPU utilization of id over the window (the last complete
 * buckets; fewer while it is younger than the window), permille. */
uint32_t mon_util(const struct mon *m, uint32_t id, uint64_t now);
/* Utilization relative to the fair share, permille of it, averaged over
 * the whole window (unlike mon_util, a vGPU younger than the window is
 * idle before it existed: no decision rests on a second of history): in
 * each bucket, the N vGPUs that used at
 * least active_min permille of it would each get 1/N of the GPU if they
 * all competed; id's busy time there is compared with that share, at most
 * 1000 (its whole share) per bucket. 1000: it used its fair share of the
 * GPU in every second of the window; a busy set that rotates faster than
 * the window reads low here, because it competes only in the seconds it
 * is busy, which a plain average (mon_util) cannot tell apart from
 * competing all the time at a lower rate. O(buckets) per call, plus
 * O(MON_MAX_VGPUS) per bucket once (or again after a write into it): the
 * count of competitors is kept (struct mon's comp_*), hence not const. */
uint32_t mon_share(struct mon *m, uint32_t id, uint64_t now,
		   uint32_t active_min);
/* Idle: no submission for idle_ns. */
bool mon_is_idle(const struct mon *m, uint32_t id, uint64_t now);
/* Re-classifies every vGPU; writes the transitions since the last poll
 * (at most max) and returns how many there were. */
uint32_t mon_poll(struct mon *m, uint64_t now, struct mon_event *ev,
		  uint32_t max);

/* Closes the policy period that started at the last call (or mon_init):
 * R_copy = copy cycles / (t x N), W = sum of the vCPU steal shares fed
 * since; then starts the next period at now. */
void mon_period(struct mon *m, uint64_t now, struct mon_period *out);

#endif
