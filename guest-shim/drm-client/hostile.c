/* Hostile mode: what a Linux guest can try against the mediator from user
 * space with the stock i915 (issue 15), each attack reported as
 *   REFUSED   the request failed (or i915 refused it) and nothing landed;
 *   CONTAINED it ran, and what it aimed at outside its reach stayed
 *             untouched (the hardware's own rules applied);
 *   BREACH    it reached something it must not.
 * Every attack runs on a fresh DRM fd (its own i915 context: a context
 * i915 bans after a reset does not hide the next attack).
 *
 * a) lri-priv: a user batch loads privileged registers with
 *    MI_LOAD_REGISTER_IMM (fence 0 and the engine's RING_HWS_PGA), then
 *    stores a marker. i915 runs RCS user batches unparsed on Gen9, so the
 *    mediator's scanner sees it and drops the loads as the hardware does
 *    (CONTAINED: the request completes, the marker is written, fence 0 is
 *    unchanged); on BCS i915's own command parser judges first.
 * b) ggtt-store: a user batch stores with MI_STORE_DATA_IMM and
 *    MI_STORE_REGISTER_MEM with the GGTT bit set, aimed at a graphics
 *    address outside this vGPU's GM. Gen9 ignores the bit in a
 *    non-privileged batch: the store goes through the PPGTT, where this
 *    process has its own buffer softpinned at the same address - so
 *    CONTAINED means the values are found in its own buffer.
 * c) ggtt-pte: as root, BAR0 through /dev/mem, one GGTT entry of
 *    this vGPU's own high GM pointed at a guest-physical address far
 *    outside the VM's RAM; the entry must read back unchanged (the
 *    mediator drops it and logs it) and is restored if not.
 * d) endless / endless400 / nest3 (RCS): a user batch that jumps to
 *    itself forever (a 12-byte body, and a 400-byte one: a loop is a loop
 *    whatever its body, not a shadow batch too small for it), and one
 *    that starts a third batch level (Gen9 nests two). The
 *    mediator will not run either; it must fail just that request as a
 *    hang of it would (REFUSED: the fence reports -EIO after i915's
 *    engine reset) - a request still busy after 5 s, or one that
 *    completes, is a BREACH. The vGPU must not be reset for it (the
 *    case's expect checks the mediator's counters).
 * e) hang (RCS): a user batch that really hangs the engine, waiting on a
 *    semaphore in its own buffer that nobody signals. The mediator's hang
 *    timeout resets the engine and the vGPU (one fault), i915 resets its
 *    engine and fails just that request: REFUSED with -EIO, as in d).
 * f) ctx-storm: one process creates 96 GEM contexts (with full PPGTT each
 *    is a PPGTT i915 announces to the mediator), runs a store on each and
 *    destroys them, twice. The mediator's shadow PPGTTs come from a
 *    per-VM budget (docs/shadow-ppgtt.md): past it idle ones are evicted
 *    and rebuilt, never the guest's fault. CONTAINED: every store landed
 *    and nothing failed; anything else is a BREACH. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guest-shim/drm-client/bar0.h"
#include "guest-shim/drm-client/gem.h"
#include "guest-shim/drm-client/i915_uapi.h"
#include "guest-shim/drm-client/modes.h"

/* Gen9 encodings (i915 intel_gpu_commands.h facts). */
#define MI_LRI(n) ((0x22u << 23) | (2 * (n) - 1))
#define MI_SDI_QW ((0x20u << 23) | 2) /* MI_STORE_DWORD_IMM, 4 dwords */
#define MI_SRM ((0x24u << 23) | 2)    /* MI_STORE_REGISTER_MEM, 4 dwords */
#define MI_USE_GGTT (1u << 22)
#define MI_BBE (0x0au << 23)
#define FENCE0_LO 0x100000u /* FENCE_REG_GEN6_LO(0) */
#define HWS_PGA 0x80u       /* RING_HWS_PGA(base) = base + 0x80 */
#define CS_GPR0 0x600u      /* base + 0x600: a user-loadable register */
#define MARKER 0x4d41524bu
#define BAD_FENCE 0x0badf001u
#define BAD_GPA 0x7f0000000ull /* 31.75 GiB: no VM here has RAM there */

struct target {
	const char *name;
	unsigned int flag;
	uint32_t base; /* the engine's MMIO base */
};

static const struct target targets[] = {
	{ "rcs", I915_EXEC_RENDER, 0x2000 },
	{ "bcs", I915_EXEC_BLT, 0x22000 },
};

struct gm {
	int known;
	uint64_t low_base, low_size, high_base, high_size;
};

static int breaches;

static void verdict(const char *attack, const char *eng, const char *what,
		    const char *fmt_detail)
{
	if (!strcmp(what, "BREACH"))
		breaches++;
	printf("hostile: %s%s%s: %s (%s)\n", attack, eng ? " " : "", eng ? eng : "",
	       what, fmt_detail);
}

/* A request's outcome as i915 reports it to user space. */
static const char *status_text(int st, char *buf, size_t n)
{
	if (st == 1)
		snprintf(buf, n, "request completed");
	else if (st == 0)
		snprintf(buf, n, "request still busy after 5 s");
	else
		snprintf(buf, n, "request failed with %d (%s)", st, strerror(-st));
	return buf;
}

static int open_dev(const char *dev)
{
	int fd = open(dev, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		printf("hostile: open %s: %s\n", dev, strerror(errno));
	return fd;
}

/* ---- a) privileged registers through LRI ---------------------------------- */

static void lri_priv(const char *dev, const struct target *t, const struct bar0 *b)
{
	struct bo batch = { 0 }, mark = { 0 };
	struct bo *objs[2] = { &mark, &batch };
	uint32_t fence_before = 0, fence_after = 0, *p;
	char st_buf[80], d[240];
	int fd = open_dev(dev), fence = -1, st;

	if (fd < 0)
		return;
	if (bo_create(fd, &batch, VA_BATCH) || bo_create(fd, &mark, VA_TARGET) ||
	    cpu_domain(fd, &batch, 1) || cpu_domain(fd, &mark, 1)) {
		verdict("lri-priv", t->name, "BREACH", "no buffers: attack not run");
		goto out;
	}
	printf("hostile: lri-priv %s: LRI fence 0 and RING_HWS_PGA from a user batch\n",
	       t->name);
	p = batch.map;
	*p++ = MI_LRI(2);
	*p++ = FENCE0_LO;
	*p++ = BAD_FENCE;
	*p++ = t->base + HWS_PGA;
	*p++ = 0x1000;
	*p++ = MI_SDI_QW;
	*p++ = (uint32_t)mark.va;
	*p++ = (uint32_t)(mark.va >> 32);
	*p++ = MARKER;
	*p++ = MI_BBE;
	mark.map[0] = 0;
	if (b->p)
		fence_before = bar0_r32(b, FENCE0_LO);
	if (gem_exec(fd, t->flag, objs, 2, 0, 40, &fence)) {
		snprintf(d, sizeof(d), "i915 refused the execbuffer2: %s", strerror(errno));
		verdict("lri-priv", t->name, "REFUSED", d);
		goto out;
	}
	st = fence_status(fence);
	close(fence);
	wait_bo(fd, &mark);
	cpu_domain(fd, &mark, 0);
	if (b->p)
		fence_after = bar0_r32(b, FENCE0_LO);
	snprintf(d, sizeof(d), "%s, marker %s, fence 0 0x%08x -> 0x%08x",
		 status_text(st, st_buf, sizeof(st_buf)),
		 mark.map[0] == MARKER ? "written" : "not written", fence_before,
		 fence_after);
	if (b->p && fence_after == BAD_FENCE && fence_before != BAD_FENCE)
		verdict("lri-priv", t->name, "BREACH", d);
	else if (st < 0 && mark.map[0] != MARKER)
		verdict("lri-priv", t->name, "REFUSED", d);
	else if (st == 1 && mark.map[0] == MARKER)
		verdict("lri-priv", t->name, "CONTAINED", d);
	else
		verdict("lri-priv", t->name, "BREACH", d);
out:
	bo_destroy(fd, &batch);
	bo_destroy(fd, &mark);
	close(fd);
}

/* ---- b) GGTT-bit stores at someone else's graphics memory ------------------ */

/* A graphics address outside this vGPU's GM: just below its low GM (the
 * host's or another vGPU's), else just above its high GM. */
static uint64_t foreign_gm(const struct gm *g)
{
	if (!g->known)
		return 0x10000;
	if (g->low_base >= 0x10000)
		return g->low_base - 0x10000;
	return g->high_base + g->high_size;
}

static void ggtt_store(const char *dev, const struct target *t, const struct gm *g)
{
	struct bo batch = { 0 }, own = { 0 };
	struct bo *objs[2] = { &own, &batch };
	uint64_t addr = foreign_gm(g);
	uint32_t *p, v1 = 0x5d1a0000u | (t->base >> 12), v2 = 0x52a00000u | (t->base >> 12);
	char st_buf[80], d[240];
	int fd = open_dev(dev), fence = -1, st, landed;

	if (fd < 0)
		return;
	if (bo_create(fd, &batch, VA_BATCH) || bo_create(fd, &own, addr) ||
	    cpu_domain(fd, &batch, 1) || cpu_domain(fd, &own, 1)) {
		verdict("ggtt-store", t->name, "BREACH", "no buffers: attack not run");
		goto out;
	}
	p = batch.map;
	*p++ = MI_SDI_QW | MI_USE_GGTT;
	*p++ = (uint32_t)addr;
	*p++ = (uint32_t)(addr >> 32);
	*p++ = v1;
	*p++ = MI_LRI(1);
	*p++ = t->base + CS_GPR0;
	*p++ = v2;
	*p++ = MI_SRM | MI_USE_GGTT;
	*p++ = t->base + CS_GPR0;
	*p++ = (uint32_t)(addr + 4);
	*p++ = (uint32_t)((addr + 4) >> 32);
	*p++ = MI_BBE;
	own.map[0] = own.map[1] = 0;
	if (gem_exec(fd, t->flag, objs, 2, 0, 48, &fence)) {
		snprintf(d, sizeof(d), "GGTT 0x%llx: i915 refused the execbuffer2: %s",
			 (unsigned long long)addr, strerror(errno));
		verdict("ggtt-store", t->name, "REFUSED", d);
		goto out;
	}
	st = fence_status(fence);
	close(fence);
	wait_bo(fd, &own);
	cpu_domain(fd, &own, 0);
	landed = (own.map[0] == v1) + (own.map[1] == v2);
	snprintf(d, sizeof(d), "GGTT 0x%llx: %s, %d of 2 stores found in this process's "
		 "own buffer at PPGTT 0x%llx", (unsigned long long)addr,
		 status_text(st, st_buf, sizeof(st_buf)), landed,
		 (unsigned long long)addr);
	if (st == 1 && landed == 2)
		verdict("ggtt-store", t->name, "CONTAINED", d);
	else if (st < 0 && landed == 0)
		verdict("ggtt-store", t->name, "REFUSED", d);
	else
		verdict("ggtt-store", t->name, "BREACH", d);
out:
	bo_destroy(fd, &batch);
	bo_destroy(fd, &own);
	close(fd);
}

/* ---- d) batches the mediator will not run --------------------------------- */

#define MI_BBS ((0x31u << 23) | 1 | (1u << 8)) /* MI_BATCH_BUFFER_START, PPGTT */
#define MI_BBS_2ND (1u << 22)                   /* second-level batch */
/* MI_SEMAPHORE_WAIT, poll mode, "memory == data": 4 dwords */
#define MI_SEM_WAIT_EQ ((0x1cu << 23) | 2 | (1u << 15) | (4u << 12))

/* The batch buffer holds three batches 0x1000 apart: A at the start. */
static void fill_bad_batch(const char *what, struct bo *batch)
{
	uint32_t *p = batch->map;
	uint64_t b2 = batch->va + 0x1000, b3 = batch->va + 0x2000;

	if (!strcmp(what, "hang")) { /* the dword at b3 stays 0 */
		p[0] = MI_SEM_WAIT_EQ;
		p[1] = 1;
		p[2] = (uint32_t)b3;
		p[3] = (uint32_t)(b3 >> 32);
		p[4] = MI_BBE;
		batch->map[0x2000 / 4] = 0;
		return;
	}
	if (!strcmp(what, "endless")) {
		p[0] = MI_BBS;
		p[1] = (uint32_t)batch->va;
		p[2] = (uint32_t)(batch->va >> 32);
		return;
	}
	if (!strcmp(what, "endless400")) { /* 97 MI_NOOPs, then the jump */
		memset(p, 0, 97 * 4);
		p[97] = MI_BBS;
		p[98] = (uint32_t)batch->va;
		p[99] = (uint32_t)(batch->va >> 32);
		return;
	}
	p[0] = MI_BBS | MI_BBS_2ND;
	p[1] = (uint32_t)b2;
	p[2] = (uint32_t)(b2 >> 32);
	p[3] = MI_BBE;
	p = batch->map + 0x1000 / 4;
	p[0] = MI_BBS | MI_BBS_2ND;
	p[1] = (uint32_t)b3;
	p[2] = (uint32_t)(b3 >> 32);
	p[3] = MI_BBE;
	p = batch->map + 0x2000 / 4;
	p[0] = MI_BBE;
}

static void bad_batch(const char *dev, const char *what)
{
	struct bo batch = { 0 };
	struct bo *objs[1] = { &batch };
	char st_buf[80], d[200];
	int fd = open_dev(dev), fence = -1, st;

	if (fd < 0)
		return;
	if (bo_create(fd, &batch, VA_BATCH) || cpu_domain(fd, &batch, 1)) {
		verdict(what, "rcs", "BREACH", "no buffers: attack not run");
		goto out;
	}
	printf("hostile: %s rcs: %s\n", what,
	       !strcmp(what, "endless") ? "a user batch that jumps to itself" :
	       !strcmp(what, "endless400") ? "a 400-byte user batch that jumps to itself" :
	       !strcmp(what, "hang") ? "a user batch waiting on a semaphore nobody signals" :
				       "a user batch three levels deep");
	fill_bad_batch(what, &batch);
	if (gem_exec(fd, I915_EXEC_RENDER, objs, 1, 0, BO_SIZE, &fence)) {
		snprintf(d, sizeof(d), "i915 refused the execbuffer2: %s", strerror(errno));
		verdict(what, "rcs", "REFUSED", d);
		goto out;
	}
	st = fence_status(fence);
	close(fence);
	status_text(st, st_buf, sizeof(st_buf));
	verdict(what, "rcs", st < 0 ? "REFUSED" : "BREACH", st_buf);
out:
	bo_destroy(fd, &batch);
	close(fd);
}

/* ---- c) a GGTT entry naming memory outside the VM ------------------------- */

static void ggtt_pte(const struct bar0 *b, const struct gm *g)
{
	uint32_t index;
	uint64_t orig, bad = BAD_GPA | 1, back;
	char d[200];

	if (!b->p || !g->known) {
		verdict("ggtt-pte", NULL, "BREACH", "BAR0 not mapped: attack not run");
		return;
	}
	index = (uint32_t)((g->high_base + g->high_size) >> 12) - 1;
	orig = bar0_pte_r(b, index);
	bar0_pte_w(b, index, bad);
	back = bar0_pte_r(b, index);
	snprintf(d, sizeof(d), "entry %u: wrote 0x%llx, reads 0x%llx, was 0x%llx", index,
		 (unsigned long long)bad, (unsigned long long)back,
		 (unsigned long long)orig);
	if (back == bad) {
		bar0_pte_w(b, index, orig);
		verdict("ggtt-pte", NULL, "BREACH", d);
	} else if (back == orig) {
		verdict("ggtt-pte", NULL, "REFUSED", d);
	} else {
		verdict("ggtt-pte", NULL, "BREACH", d);
	}
}

static void read_gm(const struct bar0 *b, struct gm *g)
{
	memset(g, 0, sizeof(*g));
	if (!b->p)
		return;
	g->low_base = bar0_r32(b, PV_MAPPABLE_BASE);
	g->low_size = bar0_r32(b, PV_MAPPABLE_SIZE);
	g->high_base = bar0_r32(b, PV_NONMAPPABLE_BASE);
	g->high_size = bar0_r32(b, PV_NONMAPPABLE_SIZE);
	g->known = g->high_size != 0;
	printf("hostile: this vGPU's GM (PVINFO): low 0x%llx+0x%llx, high 0x%llx+0x%llx\n",
	       (unsigned long long)g->low_base, (unsigned long long)g->low_size,
	       (unsigned long long)g->high_base, (unsigned long long)g->high_size);
}

/* ---- f) a context-creation storm ------------------------------------------ */

#define STORM_CTX 96u
#define STORM_ROUNDS 2u
#define STORM_BB 32u /* bytes of each context's batch */

static int ctx_exec(int fd, uint32_t ctx, struct bo *target, struct bo *batch,
		    uint32_t i)
{
	struct drm_i915_gem_exec_object2 o[2];
	struct drm_i915_gem_execbuffer2 eb;

	memset(o, 0, sizeof(o));
	memset(&eb, 0, sizeof(eb));
	o[0].handle = target->handle;
	o[0].offset = target->va;
	o[0].flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE;
	o[1].handle = batch->handle;
	o[1].offset = batch->va;
	o[1].flags = EXEC_OBJECT_PINNED;
	eb.buffers_ptr = (uint64_t)(uintptr_t)o;
	eb.buffer_count = 2;
	eb.batch_start_offset = i * STORM_BB;
	eb.batch_len = STORM_BB;
	eb.flags = I915_EXEC_RENDER | I915_EXEC_NO_RELOC;
	eb.rsvd1 = ctx; /* i915_execbuffer2_set_context_id */
	return xioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
}

/* One round: STORM_CTX contexts, a store each (context i stores
 * MARKER ^ i in dword i), all destroyed; how many stores landed. */
static uint32_t storm_round(int fd, struct bo *target, struct bo *batch,
			    uint32_t *made)
{
	struct drm_i915_gem_context_create cc;
	struct drm_i915_gem_context_destroy cd;
	uint32_t ids[STORM_CTX], i, n = 0, found = 0;

	memset(target->map, 0, STORM_CTX * 4);
	for (i = 0; i < STORM_CTX; i++) {
		memset(&cc, 0, sizeof(cc));
		if (xioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_CREATE, &cc))
			break;
		ids[n++] = cc.ctx_id;
		if (ctx_exec(fd, cc.ctx_id, target, batch, i))
			break;
	}
	*made += n;
	if (wait_bo(fd, target) || cpu_domain(fd, target, 0))
		n = 0;
	for (i = 0; i < n; i++)
		found += target->map[i] == (MARKER ^ i);
	for (i = 0; i < n; i++) {
		memset(&cd, 0, sizeof(cd));
		cd.ctx_id = ids[i];
		xioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, &cd);
	}
	return found;
}

static void ctx_storm(const char *dev)
{
	struct bo target = { 0 }, batch = { 0 };
	uint32_t i, found = 0, made = 0, r;
	char d[160];
	int fd = open_dev(dev);

	if (fd < 0)
		return;
	if (bo_create(fd, &target, VA_TARGET) || bo_create(fd, &batch, VA_BATCH) ||
	    cpu_domain(fd, &batch, 1)) {
		verdict("ctx-storm", "rcs", "BREACH", "no buffers: attack not run");
		goto out;
	}
	printf("hostile: ctx-storm rcs: %u contexts with their own PPGTT, "
	       "a store each, destroyed, %u times\n", STORM_CTX, STORM_ROUNDS);
	for (i = 0; i < STORM_CTX; i++) {
		uint32_t *b = batch.map + i * STORM_BB / 4;
		uint64_t va = target.va + 4ull * i;

		b[0] = MI_SDI_QW;
		b[1] = (uint32_t)va;
		b[2] = (uint32_t)(va >> 32);
		b[3] = MARKER ^ i;
		b[4] = MI_BBE;
		b[5] = b[6] = b[7] = 0;
	}
	for (r = 0; r < STORM_ROUNDS; r++)
		found += storm_round(fd, &target, &batch, &made);
	snprintf(d, sizeof(d), "%u contexts created, %u of %u stores found",
		 made, found, STORM_CTX * STORM_ROUNDS);
	verdict("ctx-storm", "rcs",
		found == STORM_CTX * STORM_ROUNDS ? "CONTAINED" : "BREACH", d);
out:
	bo_destroy(fd, &batch);
	bo_destroy(fd, &target);
	close(fd);
}

int dc_hostile(const char *dev)
{
	struct bar0 b;
	struct gm g;
	unsigned int k;
	int r = bar0_map(&b);

	if (r)
		printf("hostile: cannot map BAR0 through /dev/mem: %s\n", strerror(-r));
	read_gm(&b, &g);
	for (k = 0; k < sizeof(targets) / sizeof(targets[0]); k++)
		lri_priv(dev, &targets[k], &b);
	for (k = 0; k < sizeof(targets) / sizeof(targets[0]); k++)
		ggtt_store(dev, &targets[k], &g);
	ggtt_pte(&b, &g);
	bad_batch(dev, "endless");
	bad_batch(dev, "endless400");
	bad_batch(dev, "nest3");
	bad_batch(dev, "hang");
	ctx_storm(dev);
	bar0_unmap(&b);
	printf("hostile: %s\n", breaches ? "BREACH" : "all refused or contained");
	return breaches != 0;
}
