/* The policy monitor; see monitor.h. */
#include "gpu/policy/monitor.h"
#include "gpu/policy/params.h"
#include "gpu/hw/gpu_hw.h"
#include "mini/string.h"

int mon_init(struct mon *m, const struct mon_params *p, uint64_t now)
{
	memset(m, 0, sizeof(*m));
	if (p)
		m->p = *p;
	m->p.idle_ns = or_default(m->p.idle_ns, MON_IDLE_NS);
	m->p.window_ns = or_default(m->p.window_ns, MON_WINDOW_NS);
	m->p.bucket_ns = or_default(m->p.bucket_ns, MON_BUCKET_NS);
	m->p.nr_cpus = (uint32_t)or_default(m->p.nr_cpus, 1);
	if (m->p.window_ns % m->p.bucket_ns ||
	    m->p.window_ns / m->p.bucket_ns > MON_MAX_BUCKETS)
		return -GPU_EINVAL;
	m->nr_buckets = (uint32_t)(m->p.window_ns / m->p.bucket_ns);
	m->period_start = now;
	for (uint32_t i = 0; i <= MON_MAX_BUCKETS; i++)
		m->comp_tag[i] = UINT64_MAX;
	return 0;
}

static struct mon_vgpu *get(struct mon *m, uint32_t id)
{
	return id < MON_MAX_VGPUS && m->v[id].present ? &m->v[id] : NULL;
}

int mon_add(struct mon *m, uint32_t id, uint64_t now)
{
	struct mon_vgpu *v;

	if (id >= MON_MAX_VGPUS || m->v[id].present)
		return -GPU_EINVAL;
	v = &m->v[id];
	memset(v, 0, sizeof(*v));
	v->present = true;
	v->last_active_ns = now;
	v->first_bucket = now / m->p.bucket_ns;
	/* Tags start past any bucket a stale write could name. */
	for (uint32_t i = 0; i <= MON_MAX_BUCKETS; i++)
		v->tag[i] = UINT64_MAX;
	return 0;
}

void mon_remove(struct mon *m, uint32_t id)
{
	if (!get(m, id))
		return;
	m->v[id].present = false;
	/* It no longer competes anywhere. */
	for (uint32_t i = 0; i <= MON_MAX_BUCKETS; i++)
		m->comp_tag[i] = UINT64_MAX;
}

void mon_submit(struct mon *m, uint32_t id, uint64_t now)
{
	struct mon_vgpu *v = get(m, id);

	if (v && now > v->last_active_ns)
		v->last_active_ns = now;
}

static void add_busy(struct mon *m, struct mon_vgpu *v, uint64_t bucket,
		     uint64_t ns)
{
	uint32_t i = (uint32_t)(bucket % (m->nr_buckets + 1));

	if (v->tag[i] != UINT64_MAX && v->tag[i] > bucket)
		return; /* older than the ring holds */
	if (v->tag[i] != bucket) {
		v->tag[i] = bucket;
		v->busy[i] = 0;
	}
	v->busy[i] += ns;
	m->comp_tag[i] = UINT64_MAX; /* N of this bucket may have changed */
}

void mon_gpu_busy(struct mon *m, uint32_t id, uint64_t start, uint64_t end)
{
	struct mon_vgpu *v = get(m, id);
	uint64_t bn = m->p.bucket_ns;

	if (!v || end <= start)
		return;
	/* Only the last window can matter: skip anything older. */
	if (end - start > m->p.window_ns + bn)
		start = end - m->p.window_ns - bn;
	while (start < end) {
		uint64_t b = start / bn, stop = (b + 1) * bn;

		if (stop > end)
			stop = end;
		add_busy(m, v, b, stop - start);
		start = stop;
	}
	if (end > v->last_active_ns)
		v->last_active_ns = end;
}

void mon_gm(struct mon *m, uint32_t id, uint64_t requested, uint64_t used,
	    uint64_t size)
{
	struct mon_vgpu *v = get(m, id);

	if (!v)
		return;
	v->gm_requested = requested;
	v->gm_used = used;
	v->gm_size = size;
}

void mon_evicted(struct mon *m, uint32_t id, uint64_t evictions)
{
	struct mon_vgpu *v = get(m, id);

	if (v)
		v->evictions += evictions;
}

void mon_copy(struct mon *m, uint32_t id, uint64_t entries, uint64_t cycles)
{
	struct mon_vgpu *v = get(m, id);

	if (v) {
		v->copied += entries;
		v->copy_cycles += cycles;
		v->switches_in++;
	}
	m->p_copied += entries;
	m->p_cycles += cycles;
	m->copied += entries;
	m->copy_cycles += cycles;
}

void mon_steal(struct mon *m, uint64_t steal_ns, uint64_t other_ns)
{
	uint64_t total = steal_ns + other_ns;

	/* A term of equation 2: w / (w + s), at most 100%. */
	if (total >= steal_ns && total)
		m->p_w += steal_ns * 1000 / total;
	m->p_vcpus++;
}

/* The vGPU `id` and the buckets of its window up to `now`: the last
 * *count full ones before *cur (no more than the ring holds, none from
 * before it existed); NULL when it has none yet. */
static const struct mon_vgpu *window(const struct mon *m, uint32_t id,
				     uint64_t now, uint64_t *cur,
				     uint64_t *count)
{
	const struct mon_vgpu *v =
		id < MON_MAX_VGPUS && m->v[id].present ? &m->v[id] : NULL;

	*cur = now / m->p.bucket_ns;
	if (!v || *cur <= v->first_bucket)
		return NULL;
	*count = *cur - v->first_bucket;
	if (*count > m->nr_buckets)
		*count = m->nr_buckets;
	return v;
}

uint32_t mon_util(const struct mon *m, uint32_t id, uint64_t now)
{
	uint64_t cur, count, sum = 0, u;
	const struct mon_vgpu *v = window(m, id, now, &cur, &count);

	if (!v)
		return 0;
	for (uint64_t b = cur - count; b < cur; b++) {
		uint32_t i = (uint32_t)(b % (m->nr_buckets + 1));

		if (v->tag[i] == b)
			sum += v->busy[i];
	}
	u = sum * 1000 / (count * m->p.bucket_ns);
	return (uint32_t)(u > 1000 ? 1000 : u);
}

/* Busy time of v in bucket b, 0 when the ring holds none for it. */
static uint64_t busy_in(const struct mon *m, const struct mon_vgpu *v,
			uint64_t b)
{
	uint32_t i = (uint32_t)(b % (m->nr_buckets + 1));

	return v->present && v->tag[i] == b ? v->busy[i] : 0;
}

/* vGPUs that used at least `min` ns of bucket b: counted once, then
 * kept until a write into b or a removal drops it. */
static uint32_t competing(struct mon *m, uint64_t b, uint64_t min)
{
	uint32_t i = (uint32_t)(b % (m->nr_buckets + 1)), n = 0;

	if (m->comp_tag[i] == b && m->comp_min[i] == min)
		return m->comp_n[i];
	for (uint32_t id = 0; id < MON_MAX_VGPUS; id++) {
		uint64_t t = busy_in(m, &m->v[id], b);

		n += t && t >= min;
	}
	m->share_visits += MON_MAX_VGPUS;
	m->comp_tag[i] = b;
	m->comp_min[i] = min;
	m->comp_n[i] = n;
	return n;
}

uint32_t mon_share(struct mon *m, uint32_t id, uint64_t now,
		   uint32_t active_min)
{
	uint64_t bn = m->p.bucket_ns, cur, count, sum = 0;
	uint64_t min = bn * active_min / 1000;
	const struct mon_vgpu *v = window(m, id, now, &cur, &count);

	if (!v)
		return 0;
	for (uint64_t b = cur - count; b < cur; b++) {
		uint64_t mine = busy_in(m, v, b), n, s;

		m->share_visits++;
		if (!mine)
			continue;
		n = competing(m, b, min);
		/* Its share is bn / n; under active_min it is not one of
		 * the n, and counts as one more. */
		n += mine < min;
		s = mine * n * 1000 / bn;
		sum += s > 1000 ? 1000 : s;
	}
	/* Over the whole window even while it is younger (mon_util is
	 * not): seconds before it existed count as idle, so a policy never
	 * acts on a second or two of history. */
	return (uint32_t)(sum / m->nr_buckets);
}

bool mon_is_idle(const struct mon *m, uint32_t id, uint64_t now)
{
	const struct mon_vgpu *v =
		id < MON_MAX_VGPUS && m->v[id].present ? &m->v[id] : NULL;

	return v && now >= v->last_active_ns &&
	       now - v->last_active_ns >= m->p.idle_ns;
}

uint32_t mon_poll(struct mon *m, uint64_t now, struct mon_event *ev,
		  uint32_t max)
{
	uint32_t n = 0;

	for (uint32_t id = 0; id < MON_MAX_VGPUS; id++) {
		struct mon_vgpu *v = &m->v[id];
		bool idle;

		if (!v->present)
			continue;
		idle = mon_is_idle(m, id, now);
		if (idle == v->idle)
			continue;
		/* A transition beyond max is reported at the next poll. */
		if (n == max)
			break;
		v->idle = idle;
		ev[n].vgpu = (uint16_t)id;
		ev[n].kind = idle ? MON_BECAME_IDLE : MON_BECAME_ACTIVE;
		n++;
	}
	return n;
}

void mon_period(struct mon *m, uint64_t now, struct mon_period *out)
{
	uint64_t t = now > m->period_start ? now - m->period_start : 0;
	uint64_t tc = m->p.cycles_per_us ? t * m->p.cycles_per_us / 1000 : t;
	uint64_t denom = tc * m->p.nr_cpus, r;

	memset(out, 0, sizeof(*out));
	out->t_ns = t;
	out->copied = m->p_copied;
	out->copy_cycles = m->p_cycles;
	r = denom ? m->p_cycles * 1000 / denom : 0;
	out->rcopy_permille = r > 1000 ? 1000 : r;
	out->w_permille = m->p_w;
	out->vcpus = m->p_vcpus;
	m->p_copied = m->p_cycles = m->p_w = 0;
	m->p_vcpus = 0;
	m->period_start = now;
}
