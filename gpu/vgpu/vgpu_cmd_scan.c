/* The command scanner: audits every command a workload will execute with
 * the privileges of the ring, before it reaches the hardware (design.md
 * data flow 4, gvt features §6).
 *
 * What it walks:
 *  - the ring segment head..tail, already copied into the vGPU's shadow
 *    ring, so what is checked is what runs (no time-of-check gap);
 *  - privileged (GGTT, "secure") batches started from the ring: copied into
 *    the vGPU's shadow batch area while being scanned, and the ring's
 *    MI_BATCH_BUFFER_START is patched to the copy;
 *  - non-privileged (PPGTT) batches and their chains / second-level
 *    batches, read in place through the guest's page tables. The hardware
 *    runs those without privilege and every address they use goes through
 *    the shadow PPGTT, so a later change by the guest cannot reach memory
 *    outside its VM (GVT does not scan them at all by default).
 * Rules: a command must be on the allow-list for its engine; register
 * commands reach only allow-listed registers (vgpu_cmd_tables.c); commands
 * that write memory through the GGTT must stay inside the vGPU's GM.
 * Bounded: SCAN_MAX_CMDS commands, SCAN_MAX_BATCHES batch starts,
 * SCAN_MAX_BATCH_BYTES per batch, two batch levels - a chain of batches
 * that loops forever is rejected, not followed forever. */
#include "gpu/vgpu/vgpu_priv.h"
#include "mini/string.h"

enum src_kind { SRC_RING, SRC_GGTT_BB, SRC_PPGTT_BB };

struct scan_src {
	enum src_kind kind;
	uint64_t addr; /* batch: graphics address of the current command */
	uint64_t start; /* batch: where it began */
	uint32_t pos, left; /* ring: byte offset in the shadow ring, bytes */
	uint32_t copy_off; /* GGTT batch: its copy in the shadow batch area */
	uint32_t copied; /* bytes of it copied so far */
};

struct scanner {
	struct vgpu *v;
	struct vgpu_engine *e;
	struct workload *w;
	struct scan_result *res;
	uint64_t root_gpa; /* guest PML4 for PPGTT batches */
	struct scan_src lvl[SCAN_BB_LEVELS + 1];
	int depth;
	uint64_t cache_page, cache_gpa; /* last PPGTT page translated */
	bool cache_valid;
};

static int reject(struct scanner *s, int err, uint32_t hdr, uint64_t addr,
		  const char *why)
{
	s->res->reason = err;
	s->res->bad_header = hdr;
	s->res->bad_addr = addr;
	s->res->why = why;
	return err;
}

/* ---- reading commands --------------------------------------------------- */

static int ppgtt_read32(struct scanner *s, uint64_t addr, uint32_t *val)
{
	uint64_t page = addr & ~0xfffull, gpa;
	int ret;

	if (!s->cache_valid || s->cache_page != page) {
		ret = vgpu_ppgtt_gva_to_gpa(s->v, s->root_gpa, page, &gpa);
		if (ret)
			return ret;
		s->cache_page = page;
		s->cache_gpa = gpa;
		s->cache_valid = true;
	}
	return vgpu_read_gpa(s->v, s->cache_gpa | (addr & 0xfff), val, 4);
}

/* Make sure the copy of a GGTT batch reaches `upto` bytes. */
static int ggtt_copy_upto(struct scanner *s, struct scan_src *src,
			  uint32_t upto)
{
	struct vgpu_engine *e = s->e;
	uint32_t room = e->sbb.pages * VGPU_PAGE - src->copy_off;

	if (upto > room || upto > SCAN_MAX_BATCH_BYTES)
		return -GPU_ENOSPC;
	while (src->copied < upto) {
		uint64_t ga = src->start + src->copied;
		uint32_t chunk = VGPU_PAGE - (uint32_t)(ga & 0xfff);
		int ret;

		if (chunk > room - src->copied)
			chunk = room - src->copied;
		ret = vgpu_gm_rw(s->v, ga, e->sbb.va + src->copy_off + src->copied,
				 chunk, false);
		if (ret)
			return ret;
		src->copied += chunk;
	}
	return 0;
}

/* Dword i of the command at the current position of the current level. */
static int fetch(struct scanner *s, uint32_t i, uint32_t *val)
{
	struct scan_src *src = &s->lvl[s->depth];
	uint32_t size = s->e->sring.pages * VGPU_PAGE;
	uint32_t off;
	int ret;

	switch (src->kind) {
	case SRC_RING:
		if (4 * i >= src->left)
			return -GPU_ERANGE; /* command runs past the tail */
		off = (src->pos + 4 * i) % size;
		memcpy(val, s->e->sring.va + off, 4);
		return 0;
	case SRC_GGTT_BB:
		off = (uint32_t)(src->addr - src->start) + 4 * i;
		ret = ggtt_copy_upto(s, src, off + 4);
		if (ret)
			return ret;
		memcpy(val, s->e->sbb.va + src->copy_off + off, 4);
		return 0;
	default:
		if (src->addr - src->start + 4 * i >= SCAN_MAX_BATCH_BYTES)
			return -GPU_E2BIG;
		return ppgtt_read32(s, src->addr + 4 * i, val);
	}
}

static void ring_patch(struct scanner *s, uint32_t i, uint32_t val)
{
	struct scan_src *src = &s->lvl[0];
	uint32_t off = (src->pos + 4 * i) % (s->e->sring.pages * VGPU_PAGE);

	memcpy(s->e->sring.va + off, &val, 4);
}

static void advance(struct scanner *s, uint32_t dwords)
{
	struct scan_src *src = &s->lvl[s->depth];

	if (src->kind == SRC_RING) {
		src->pos = (src->pos + 4 * dwords) %
			   (s->e->sring.pages * VGPU_PAGE);
		src->left -= 4 * dwords;
	} else {
		src->addr += 4ull * dwords;
	}
}

/* ---- audits --------------------------------------------------------------- */

static int check_gm(struct scanner *s, uint32_t hdr, uint64_t addr,
		    uint64_t len)
{
	if (vgpu_gm_valid(s->v, addr, len))
		return 0;
	return reject(s, -GPU_EPERM, hdr, addr, "GGTT address outside the vGPU");
}

static int check_reg(struct scanner *s, uint32_t hdr, uint32_t reg,
		     uint32_t need)
{
	if ((cmd_reg_access(s->e->id, reg & MI_LRI_REG_MASK) & need) == need &&
	    !(reg & ~MI_LRI_REG_MASK))
		return 0;
	return reject(s, -GPU_EPERM, hdr, reg, "register not allowed");
}

static uint64_t addr48(uint32_t lo, uint32_t hi)
{
	return ((uint64_t)(hi & 0xffff) << 32) | lo;
}

static int audit_sdi(struct scanner *s, uint32_t hdr, uint32_t len)
{
	uint32_t lo, hi;
	int ret;

	if (!(hdr & MI_SDI_GGTT))
		return 0;
	if (len < 4)
		return reject(s, -GPU_EINVAL, hdr, 0, "short store");
	ret = fetch(s, 1, &lo);
	if (!ret)
		ret = fetch(s, 2, &hi);
	if (ret)
		return ret;
	return check_gm(s, hdr, addr48(lo & ~3u, hi), 4ull * (len - 3));
}

static int audit_lri(struct scanner *s, uint32_t hdr, uint32_t len)
{
	uint32_t i, reg;
	int ret;

	if (!(len & 1) || len < 3)
		return reject(s, -GPU_EINVAL, hdr, 0, "bad LRI length");
	for (i = 1; i < len; i += 2) {
		ret = fetch(s, i, &reg);
		if (!ret)
			ret = check_reg(s, hdr, reg, CMD_REG_W);
		if (ret)
			return ret;
	}
	return 0;
}

/* SRM (reg -> memory) and LRM (memory -> reg): 4 dwords, GVT's fixed form. */
static int audit_reg_mem(struct scanner *s, uint32_t hdr, uint32_t len,
			 uint32_t need)
{
	uint32_t reg, lo, hi;
	int ret;

	if (len != 4)
		return reject(s, -GPU_EINVAL, hdr, 0, "bad SRM/LRM length");
	ret = fetch(s, 1, &reg);
	if (!ret)
		ret = check_reg(s, hdr, reg, need);
	if (!ret)
		ret = fetch(s, 2, &lo);
	if (!ret)
		ret = fetch(s, 3, &hi);
	if (ret || !(hdr & MI_SRM_LRM_GLOBAL_GTT))
		return ret;
	return check_gm(s, hdr, addr48(lo & ~3u, hi), 4);
}

static int audit_lrr(struct scanner *s, uint32_t hdr, uint32_t len)
{
	uint32_t src, dst;
	int ret;

	if (len != 3)
		return reject(s, -GPU_EINVAL, hdr, 0, "bad LRR length");
	ret = fetch(s, 1, &src);
	if (!ret)
		ret = check_reg(s, hdr, src, CMD_REG_R);
	if (!ret)
		ret = fetch(s, 2, &dst);
	if (!ret)
		ret = check_reg(s, hdr, dst, CMD_REG_W);
	return ret;
}

static int audit_flush_dw(struct scanner *s, uint32_t hdr, uint32_t len)
{
	uint32_t lo, hi;
	int ret;

	if (len < 4 || len > 5)
		return reject(s, -GPU_EINVAL, hdr, 0, "bad MI_FLUSH_DW length");
	if (hdr & MI_FLUSH_DW_NOTIFY)
		s->res->events |= GT_FLUSH_DW_NOTIFY_INTERRUPT;
	if (!(hdr & MI_FLUSH_DW_OP_MASK))
		return 0;
	if (hdr & MI_FLUSH_DW_STORE_INDEX)
		return reject(s, -GPU_EPERM, hdr, 0, "store-index writes the host status page");
	ret = fetch(s, 1, &lo);
	if (!ret)
		ret = fetch(s, 2, &hi);
	if (ret || !(lo & MI_FLUSH_DW_USE_GTT))
		return ret;
	return check_gm(s, hdr, addr48(lo & ~7u, hi), 8);
}

static int audit_atomic(struct scanner *s, uint32_t hdr, uint32_t len)
{
	uint32_t lo, hi;
	int ret;

	if (len < 3)
		return reject(s, -GPU_EINVAL, hdr, 0, "short MI_ATOMIC");
	if (!(hdr & (1u << 22)))
		return 0;
	ret = fetch(s, 1, &lo);
	if (!ret)
		ret = fetch(s, 2, &hi);
	return ret ? ret : check_gm(s, hdr, addr48(lo & ~3u, hi), 8);
}

static int audit_pipe_control(struct scanner *s, uint32_t hdr, uint32_t len)
{
	uint32_t flags, lo, hi;
	int ret;

	if (len < 5 || len > 6)
		return reject(s, -GPU_EINVAL, hdr, 0, "bad PIPE_CONTROL length");
	ret = fetch(s, 1, &flags);
	if (ret)
		return ret;
	if (flags & PIPE_CONTROL_NOTIFY)
		s->res->events |= GT_RENDER_PIPECTL_NOTIFY_INTERRUPT;
	if (flags & PIPE_CONTROL_STORE_DATA_INDEX)
		return reject(s, -GPU_EPERM, hdr, 0, "store-index writes the host status page");
	ret = fetch(s, 2, &lo);
	if (!ret)
		ret = fetch(s, 3, &hi);
	if (ret)
		return ret;
	if (flags & PIPE_CONTROL_MMIO_WRITE) {
		ret = check_reg(s, hdr, lo, CMD_REG_W);
		if (ret)
			return ret;
	}
	if ((flags & PIPE_CONTROL_WRITE_MASK) &&
	    (flags & PIPE_CONTROL_GLOBAL_GTT_IVB))
		return check_gm(s, hdr, addr48(lo & ~7u, hi), 8);
	return 0;
}

/* ---- batch buffers ---------------------------------------------------------- */

static int bb_start(struct scanner *s, uint32_t hdr, uint32_t len)
{
	bool ppgtt = hdr & MI_BATCH_PPGTT;
	bool second = hdr & MI_BATCH_SECOND_LEVEL;
	struct scan_src *cur = &s->lvl[s->depth], *next;
	uint32_t lo, hi, copy_off = 0;
	uint64_t target;
	int ret;

	if (len != 3)
		return reject(s, -GPU_EINVAL, hdr, 0, "bad MI_BATCH_BUFFER_START length");
	if (hdr & (MI_BATCH_RESOURCE_STREAMER | MI_BATCH_PREDICATE |
		   MI_BATCH_ADD_OFFSET))
		return reject(s, -GPU_ENOTSUP, hdr, 0, "batch start mode not supported");
	if (++s->res->batches > SCAN_MAX_BATCHES)
		return reject(s, -GPU_E2BIG, hdr, 0, "too many batch starts");
	ret = fetch(s, 1, &lo);
	if (!ret)
		ret = fetch(s, 2, &hi);
	if (ret)
		return ret;
	target = addr48(lo & ~3u, hi);
	if (cur->kind == SRC_GGTT_BB)
		return reject(s, -GPU_ENOTSUP, hdr, target, "batch start in a privileged batch");
	if (!ppgtt) {
		/* Privileged: only from the ring, run from our copy. */
		if (cur->kind != SRC_RING)
			return reject(s, -GPU_EPERM, hdr, target, "privileged batch from a batch");
		if (!vgpu_gm_valid(s->v, target, 4))
			return reject(s, -GPU_EPERM, hdr, target, "batch outside the vGPU");
		copy_off = (s->e->sbb_used + 63) & ~63u;
		ring_patch(s, 1, s->e->sbb.gm + copy_off);
		ring_patch(s, 2, 0);
	}
	if (cur->kind == SRC_RING || second) {
		/* A call: new level; the caller resumes after this command. */
		if (s->depth >= SCAN_BB_LEVELS)
			return reject(s, -GPU_EPERM, hdr, target, "batch nesting too deep");
		advance(s, len);
		next = &s->lvl[++s->depth];
	} else {
		next = cur; /* a chain replaces the current batch */
	}
	memset(next, 0, sizeof(*next));
	next->addr = next->start = target;
	next->kind = ppgtt ? SRC_PPGTT_BB : SRC_GGTT_BB;
	next->copy_off = copy_off;
	return 1; /* position already updated */
}

static int bb_end(struct scanner *s, uint32_t hdr)
{
	struct scan_src *cur = &s->lvl[s->depth];

	if (cur->kind == SRC_RING)
		return reject(s, -GPU_EINVAL, hdr, 0, "batch end in the ring");
	if (cur->kind == SRC_GGTT_BB) {
		uint32_t end = (uint32_t)(cur->addr - cur->start) + 4;

		s->e->sbb_used = cur->copy_off + end;
	}
	s->depth--;
	return 1;
}

/* ---- classification ------------------------------------------------------- */

static int mi_cmd(struct scanner *s, uint32_t hdr, uint32_t len)
{
	switch (MI_OPCODE(hdr)) {
	case MI_OP_NOOP:
	case 0x01: /* MI_SET_PREDICATE */
	case MI_OP_ARB_CHECK:
	case 0x07: /* MI_REPORT_HEAD */
	case MI_OP_ARB_ON_OFF:
	case 0x0b: /* MI_SUSPEND_FLUSH */
	case 0x0c: /* MI_PREDICATE */
	case 0x0d: /* MI_TOPOLOGY_FILTER */
	case 0x1a: /* MI_MATH */
		return 0;
	case MI_OP_USER_INTERRUPT:
		s->res->events |= GT_RENDER_USER_INTERRUPT;
		return 0;
	case MI_OP_BATCH_BUFFER_END:
		return bb_end(s, hdr);
	case MI_OP_STORE_DATA_IMM:
		return audit_sdi(s, hdr, len);
	case MI_OP_LOAD_REGISTER_IMM:
		return audit_lri(s, hdr, len);
	case MI_OP_STORE_REGISTER_MEM:
		return audit_reg_mem(s, hdr, len, CMD_REG_R);
	case MI_OP_LOAD_REGISTER_MEM:
		return audit_reg_mem(s, hdr, len, CMD_REG_W);
	case MI_OP_LOAD_REGISTER_REG:
		return audit_lrr(s, hdr, len);
	case MI_OP_FLUSH_DW:
		return audit_flush_dw(s, hdr, len);
	case 0x2f: /* MI_ATOMIC */
		return audit_atomic(s, hdr, len);
	case MI_OP_BATCH_BUFFER_START:
		return bb_start(s, hdr, len);
	default:
		/* MI_WAIT_FOR_EVENT, display flips, semaphores, store-index,
		 * MI_UPDATE_GTT, MI_SET_CONTEXT, perf reports, CLFLUSH,
		 * conditional batch end, resource-streamer commands ... */
		return reject(s, -GPU_EPERM, hdr, 0, "MI command not allowed");
	}
}

static int blt_cmd(struct scanner *s, uint32_t hdr)
{
	static const uint8_t ok[] = { 0x01, 0x11, 0x24, 0x40, 0x42, 0x43,
				      0x44, 0x50, 0x51, 0x53, 0x54, 0x55 };
	size_t i;

	if (s->e->id != GEN9_BCS0)
		return reject(s, -GPU_EPERM, hdr, 0, "2D command off the blitter");
	for (i = 0; i < sizeof(ok); i++)
		if (BLT_OPCODE(hdr) == ok[i])
			return 0;
	return reject(s, -GPU_EPERM, hdr, 0, "2D command not allowed");
}

static int rc_cmd(struct scanner *s, uint32_t hdr, uint32_t len)
{
	int id = s->e->id;

	if (id == GEN9_BCS0)
		return reject(s, -GPU_EPERM, hdr, 0, "3D command on the blitter");
	if (id == GEN9_RCS0 && GFXPIPE_SUBTYPE(hdr) == 3 &&
	    GFXPIPE_OPCODE(hdr) == 2 && GFXPIPE_SUBOPCODE(hdr) == 0)
		return audit_pipe_control(s, hdr, len);
	/* 3D/media state and MFX/VEBOX commands address memory through the
	 * context's PPGTT, which is shadowed: they are skipped by length. */
	return 0;
}

static int scan_one(struct scanner *s)
{
	uint32_t hdr, len;
	int ret;

	ret = fetch(s, 0, &hdr);
	if (ret)
		return reject(s, ret, 0, s->lvl[s->depth].addr, "cannot read command");
	len = gen9_cmd_length_engine(hdr, s->e->id);
	if (!len)
		return reject(s, -GPU_EINVAL, hdr, 0, "undecodable command");
	if (s->lvl[s->depth].kind == SRC_RING && 4 * len > s->lvl[0].left)
		return reject(s, -GPU_EINVAL, hdr, 0, "command runs past the tail");
	switch (instr_client(hdr)) {
	case INSTR_MI_CLIENT:
		ret = mi_cmd(s, hdr, len);
		break;
	case INSTR_BC_CLIENT:
		ret = blt_cmd(s, hdr);
		break;
	default:
		ret = rc_cmd(s, hdr, len);
		break;
	}
	if (ret < 0)
		return s->res->reason ? ret : reject(s, ret, hdr, 0, "cannot read command");
	if (ret == 0)
		advance(s, len);
	return 0;
}

int vgpu_scan_workload(struct vgpu *v, struct vgpu_engine *e,
		       struct workload *w, struct scan_result *res)
{
	struct scanner s;
	int ret = 0;

	memset(&s, 0, sizeof(s));
	memset(res, 0, sizeof(*res));
	s.v = v;
	s.e = e;
	s.w = w;
	s.res = res;
	s.root_gpa = v->mm[w->mm].root_gpa;
	s.lvl[0].kind = SRC_RING;
	s.lvl[0].pos = w->s_head;
	s.lvl[0].left = w->s_len;
	while (s.depth > 0 || s.lvl[0].left) {
		if (res->cmds++ >= SCAN_MAX_CMDS) {
			ret = reject(&s, -GPU_E2BIG, 0, 0, "too many commands");
			break;
		}
		ret = scan_one(&s);
		if (ret)
			break;
	}
	v->stats.cmds_scanned += res->cmds;
	v->stats.batches_scanned += res->batches;
	if (ret)
		v->stats.cmds_rejected++;
	return ret;
}
