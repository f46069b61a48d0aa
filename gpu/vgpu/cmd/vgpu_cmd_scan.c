/* The command scanner: audits every command a workload will execute,
 * before it reaches the hardware (the submission flow, docs/architecture.md
 * "2.–5."; GVT-g's scanner: gvt-facts §6),
 * and makes what it audited the only thing that can run.
 *
 * Nothing the GPU runs stays guest-writable after the check:
 *  - the ring segment head..tail is already copied into the vGPU's shadow
 *    ring (vgpu_workload.c) and scanned there;
 *  - every batch, of every level and both address spaces, is copied into
 *    the vGPU's shadow batch pool (hypervisor-owned GM, outside every
 *    guest GGTT range, never in a shadow PPGTT, never in EPT) while it is
 *    scanned, and each MI_BATCH_BUFFER_START that reaches it (in the ring
 *    copy or in the calling batch's copy) is patched to the copy, GGTT
 *    address space. A copy is a run of pool pages: where the next command
 *    would not fit a page with room for one more MI_BATCH_BUFFER_START
 *    left, that command moves to a new page and the old one ends with a
 *    chain to it. So a copy grows a page at a time wherever the pool has
 *    one, and a first-level copy and the second-level ones it calls share
 *    the pool without a fixed split (vgpu_own_gm.c). GVT-g shadows
 *    batches the same way (cmd_parser.c perform_bb_shadow) but submits
 *    the guest's own pages for PPGTT ones; here a guest rewriting its
 *    batch after submission changes nothing.
 * A copy is fetched by the GPU through the GGTT, i.e. as a privileged
 * batch on Gen9, so a copy of a non-privileged (PPGTT) batch is made to
 * mean what the hardware would do with the original: GGTT and
 * store-index selectors cleared (ignored without privilege), privileged
 * commands turned into MI_NOOPs (the hardware no-ops them), and any batch
 * it starts is non-privileged too. Register commands are held to the
 * allow-list (vgpu_cmd_tables.c) at every level. That also closes the
 * gap of real Gen9 blitters, which ignore batch privilege
 * (CVE-2019-0155): every BCS batch is scanned and runs as the audited copy.
 *
 * Lengths, address fields, alignment and access sizes come from the
 * shared table gpu/hw/gen9_cmd_table.h, the one the model executes with.
 * Bounded: SCAN_MAX_CMDS commands beyond the ring segment's own (those
 * are bounded by its length), SCAN_MAX_BATCHES batch starts, the
 * VM's shadow batch budget, two batch levels - a chain of batches is
 * never followed forever. A loop is found by starts, whatever the size
 * of its body: a chain back to a batch already started at that level
 * since the level was entered. The only way out of such a loop is a
 * MI_CONDITIONAL_BATCH_BUFFER_END on the way (predicated and offset
 * starts are refused). With one, the loop is made in the copies: the
 * chain jumps to the copy of the batch it named, which was scanned from
 * that very address, so the GPU loops over checked bytes only (IGT's
 * spinner; docs/gpu-spinner.md). Without one only the guest's CPU can
 * end it, by rewriting one of its commands (gem_busy): a first-level
 * user loop is then made the same way and its guest pages watched while
 * it is on the GPU (vgpu_bb_watch.c mirrors a MI_BATCH_BUFFER_END
 * written over a command into the copy, nothing else); any other such
 * loop, or one beyond the vGPU's watch slots, counts as more starts
 * than SCAN_MAX_BATCHES at once, before its body is copied again. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/cmd/cmd.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/hw/gen9_cmd_table.h"
#include "gpu/display/vdisp_plane.h"
#include "mini/stdio.h"
#include "mini/string.h"

enum src_kind { SRC_RING, SRC_BB };

struct scan_src {
	enum src_kind kind;
	bool ppgtt; /* batch: the guest's is non-privileged (PPGTT) */
	uint64_t addr; /* batch: graphics address of the current command */
	uint64_t start; /* batch: where it began */
	uint32_t pos, left; /* ring: byte offset in the shadow ring, bytes */
	/* batch: its copy's current pool page holds the source bytes from
	 * seg_src on, at seg_off; copied: source bytes copied so far (the
	 * copy reads ahead, never past the page). */
	int32_t page;
	uint32_t seg_src, seg_off, copied;
	/* batch: bytes the engine runs from start, ending it without a
	 * MI_BATCH_BUFFER_END (an indirect context batch); 0: to its end */
	uint32_t limit;
};

struct scanner {
	struct vgpu *v;
	struct vgpu_engine *e;
	struct workload *w;
	scan_page_fn page; /* the copies' pages */
	struct scan_result *res;
	uint64_t root_gpa; /* guest PML4 for PPGTT batches */
	struct scan_src lvl[SCAN_BB_LEVELS + 1];
	int depth;
	uint64_t cache_page, cache_gpa; /* last PPGTT page translated */
	bool cache_valid;
	/* The ring's last MI_BATCH_BUFFER_START: ring bytes before it, the
	 * events raised by then, and whether its batch is a user one. */
	uint32_t top_cut, top_events;
	bool top_ppgtt;
	/* Free room after the last finished copy (page -1: none): the next
	 * copy starts there, so many small batches share a page. */
	int32_t tail_page;
	uint32_t tail_off;
	/* v->scan_seen[seen_base[l] .. nseen): batches started at level l
	 * since it was entered. */
	uint32_t nseen, seen_base[SCAN_BB_LEVELS + 1];
	/* MI_CONDITIONAL_BATCH_BUFFER_ENDs that can end their batch (Compare
	 * Semaphore set) scanned so far: a loop needs one in its body. */
	uint32_t cond_exits;
	/* Runs of user batch copies recorded (v->scan_segs, vgpu_bb_watch.c)
	 * so a loop with no conditional end can be watched; seg_break: a
	 * copy began since the last; segs_lost: the list overflowed. */
	uint32_t nsegs;
	bool seg_break, segs_lost;
	uint64_t hdr_page, hdr_gpa; /* last page a header was found in */
	bool hdr_valid;
	/* Pipe A's plane 1 after the MI_DISPLAY_FLIPs scanned so far; made
	 * the vGPU's once the whole workload passed (flip_commit). */
	struct vdisp_plane_regs flip;
	bool flip_pending;
};

_Static_assert(sizeof(((struct vgpu *)0)->scan_seen) ==
		       SCAN_MAX_BATCHES * sizeof(struct scan_seen),
	       "one entry per batch start");

/* A refusal inside a user batch is that batch's fault, as a hang or a
 * page fault of it would be on the hardware: the ring up to its batch
 * start may run (the request's init breadcrumb marks it started), and
 * i915 then fails just that request. Out of shadow space is ours, not
 * the batch's: it keeps the workload waiting instead (-GPU_ENOSPC). A
 * request larger than the VM's whole budget can never run (-GPU_E2BIG):
 * it fails like any other refused user batch. */
static void note_user_fault(struct scanner *s, int err)
{
	struct scan_result *r = s->res;

	if (s->depth == 0 || !s->top_ppgtt || !s->top_cut || err == -GPU_ENOSPC)
		return;
	r->user_fault = true;
	r->cut_len = s->top_cut;
	r->cut_events = s->top_events;
}

/* The guest's ring offset of shadow ring position pos: the segment was
 * copied from the guest's head to the shadow ring's s_head, after a
 * MI_NOOP pad when the guest's head was not qword-aligned
 * (vgpu_workload.c queue_ring). */
static uint64_t guest_ring_off(const struct scanner *s, uint32_t pos)
{
	const struct workload *w = s->w;
	uint32_t ssize = vgpu_sring_size(s->e);
	uint32_t pad = w->head % 8 ? 4 : 0;
	uint32_t done = (pos - w->s_head + ssize) % ssize;

	if (!w->ring_size)
		return pos;
	done = done >= pad ? done - pad : 0;
	return (w->head + done) % w->ring_size;
}

static int reject(struct scanner *s, int err, uint32_t hdr, uint64_t addr,
		  const char *why)
{
	const struct scan_src *src = &s->lvl[s->depth];

	s->res->reason = err;
	s->res->bad_header = hdr;
	s->res->bad_addr = addr;
	s->res->bad_kind = SCAN_BAD_ADDR;
	s->res->cmd_at = src->kind == SRC_BB ? src->addr
					     : guest_ring_off(s, src->pos);
	s->res->cmd_level = s->depth;
	s->res->why = why;
	note_user_fault(s, err);
	return err;
}

/* A refusal over what the command named that is not a graphics address:
 * the log must not call a register offset an address. */
static int reject_kind(struct scanner *s, int err, uint32_t hdr,
		       enum scan_bad_kind kind, uint64_t what, const char *why)
{
	int ret = reject(s, err, hdr, what, why);

	s->res->bad_kind = kind;
	return ret;
}

const char *vgpu_scan_where(const struct scan_result *r, char *buf, size_t n)
{
	static const char *const level[] = { "ring offset", "batch",
					     "second-level batch" };
	static const char *const kind[] = {
		[SCAN_BAD_ADDR] = "address",
		[SCAN_BAD_REG] = "register",
		[SCAN_BAD_INDEX] = "status page offset",
	};
	int lv = r->cmd_level >= 0 && r->cmd_level <= SCAN_BB_LEVELS
			 ? r->cmd_level
			 : 0;
	unsigned int kd = (unsigned int)r->bad_kind <= SCAN_BAD_INDEX
				  ? (unsigned int)r->bad_kind
				  : SCAN_BAD_ADDR;
	int k = snprintf(buf, n, "header 0x%08x, %s 0x%llx", r->bad_header,
			 level[lv], (unsigned long long)r->cmd_at);

	if ((r->bad_addr || kd != SCAN_BAD_ADDR) && k >= 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, ", %s 0x%llx", kind[kd],
			 (unsigned long long)r->bad_addr);
	return buf;
}

/* ---- copying and reading commands --------------------------------------- */

static int ppgtt_read(struct scanner *s, uint64_t addr, void *buf, uint32_t len)
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
	return vgpu_read_gpa(s->v, s->cache_gpa | (addr & 0xfff), buf, len);
}

/* Make sure the copy of a batch reaches `upto` bytes, in steps of
 * SCAN_COPY_STEP bytes (never across a source page nor past the copy's
 * page): a small batch costs a small copy, a large one few calls. */
#define SCAN_COPY_STEP 256u

static uint8_t *copy_at(struct scanner *s, const struct scan_src *src,
			uint32_t off)
{
	return vgpu_sbb_va(s->v, src->page) + src->seg_off + (off - src->seg_src);
}

static int copy_upto(struct scanner *s, struct scan_src *src, uint32_t upto)
{
	uint32_t page_end = src->seg_src + VGPU_PAGE - src->seg_off;

	if (upto > SCAN_MAX_BATCH_BYTES)
		return -GPU_E2BIG;
	if (upto > page_end) /* fit_command() moves commands first */
		return -GPU_ERANGE;
	while (src->copied < upto) {
		uint64_t ga = src->start + src->copied;
		uint32_t chunk = VGPU_PAGE - (uint32_t)(ga & 0xfff);
		int ret;

		if (chunk > page_end - src->copied)
			chunk = page_end - src->copied;
		if (chunk > upto - src->copied + SCAN_COPY_STEP - 4)
			chunk = (upto - src->copied + SCAN_COPY_STEP - 1) &
				~(SCAN_COPY_STEP - 1);
		if (src->ppgtt)
			ret = ppgtt_read(s, ga, copy_at(s, src, src->copied), chunk);
		else
			ret = vgpu_gm_rw(s->v, ga, copy_at(s, src, src->copied),
					 chunk, false);
		if (ret)
			return ret;
		src->copied += chunk;
		s->res->bb_bytes_copied += chunk;
	}
	return 0;
}

/* A page of the pool for a new copy: the free room after the last
 * finished copy if it is worth it and of the same privilege (a page holds
 * user or privileged copies, never both: a hang is charged by the page the
 * engine stopped in), else a page of its own. */
static int copy_begin(struct scanner *s, struct scan_src *src, bool user)
{
	int32_t page;

	src->seg_src = src->copied = 0;
	if (s->tail_page >= 0 && s->tail_off + SCAN_COPY_STEP <= VGPU_PAGE &&
	    s->v->sbb.pg[s->tail_page].user == user) {
		src->page = s->tail_page;
		src->seg_off = s->tail_off;
		s->tail_page = -1;
		return 0;
	}
	page = s->page(s->v, s->w, user);
	if (page < 0)
		return page;
	src->page = page;
	src->seg_off = 0;
	return 0;
}

/* The current command of a batch, `dwords` long, must fit its copy's page
 * with room for a MI_BATCH_BUFFER_START after it. If not, it and what was
 * read ahead move to a new page and the old one chains there (GGTT, the
 * level unchanged: a chain replaces the current batch at its level). A
 * command longer than a page can fit none (only 16-bit-length media and
 * GPGPU commands are): refused, or it would be skipped over unfetched and
 * leave the copy's position past its page. */
static int fit_command(struct scanner *s, uint32_t dwords)
{
	struct scan_src *src = &s->lvl[s->depth];
	uint32_t o = (uint32_t)(src->addr - src->start);
	uint32_t at = src->seg_off + (o - src->seg_src);
	uint32_t jump[3] = { MI_BATCH_BUFFER_START_GEN8, 0, 0 };
	uint8_t *old;
	int32_t page;
	int ret;

	if (at + 4 * dwords + VGPU_SBB_JUMP <= VGPU_PAGE)
		return 0;
	if (4 * dwords + VGPU_SBB_JUMP > VGPU_PAGE)
		return -GPU_ERANGE;
	/* Commands skipped by their length were never read: the copy can
	 * stand before o. Bring it to o, so the old page holds every byte
	 * up to the jump and the new page starts where the copy stands. */
	ret = copy_upto(s, src, o);
	if (ret)
		return ret;
	page = s->page(s->v, s->w, src->ppgtt);
	if (page < 0)
		return page;
	old = copy_at(s, src, o);
	if (src->copied > o)
		memcpy(vgpu_sbb_va(s->v, page), old, src->copied - o);
	jump[1] = vgpu_sbb_gm(s->v, page);
	memcpy(old, jump, sizeof(jump));
	src->page = page;
	src->seg_src = o;
	src->seg_off = 0;
	return 0;
}

static const char *pool_why(int err)
{
	return err == -GPU_E2BIG ? "batches larger than the VM's shadow batch budget"
	       : err == -GPU_ERANGE ? "command longer than a shadow pool page"
	       : err == -GPU_ENOSPC ? "shadow batch pool full"
				    : "no host memory for a shadow batch";
}

/* Where dword i of the current command is in hypervisor memory: the
 * shadow ring or the batch's copy (copied first if needed). */
static int locate(struct scanner *s, uint32_t i, uint8_t **at)
{
	struct scan_src *src = &s->lvl[s->depth];
	uint32_t off;
	int ret;

	if (src->kind == SRC_RING) {
		if (4 * i >= src->left)
			return -GPU_ERANGE; /* command runs past the tail */
		off = (src->pos + 4 * i) % vgpu_sring_size(s->e);
		*at = vgpu_sring_at(s->v, s->e, off); /* one dword */
		return 0;
	}
	off = (uint32_t)(src->addr - src->start) + 4 * i;
	ret = copy_upto(s, src, off + 4);
	if (ret)
		return ret;
	*at = copy_at(s, src, off);
	return 0;
}

/* Dword i of the command at the current position of the current level. */
static int fetch(struct scanner *s, uint32_t i, uint32_t *val)
{
	const struct scan_src *src = &s->lvl[s->depth];
	uint8_t *at;
	int ret;

	/* The common case without locate's call: a ring dword before the
	 * wrap of a ring at rest (one buffer, e->sr_first < 0); the same
	 * bound against the tail (issue 31: ~30 instructions a dword). */
	if (src->kind == SRC_RING && 4 * i < src->left && s->e->sr_first < 0 &&
	    src->pos + 4 * i < vgpu_sring_size(s->e)) {
		memcpy(val, s->e->sring.va + src->pos + 4 * i, 4);
		return 0;
	}
	ret = locate(s, i, &at);

	if (!ret)
		memcpy(val, at, 4);
	return ret;
}

/* Rewrite dword i of the current command in the copy that will run. */
static void patch(struct scanner *s, uint32_t i, uint32_t val)
{
	uint8_t *at;

	if (!locate(s, i, &at)) /* always found: it was fetched before */
		memcpy(at, &val, 4);
}

static void advance(struct scanner *s, uint32_t dwords)
{
	struct scan_src *src = &s->lvl[s->depth];

	if (src->kind == SRC_RING) {
		src->pos = (src->pos + 4 * dwords) % vgpu_sring_size(s->e);
		src->left -= 4 * dwords;
	} else {
		src->addr += 4ull * dwords;
	}
}

/* Runs without privilege on Gen9 (a PPGTT batch or anything it started). */
static bool nonpriv(const struct scanner *s)
{
	const struct scan_src *src = &s->lvl[s->depth];

	return src->kind == SRC_BB && src->ppgtt;
}

/* ---- audits ------------------------------------------------------------- */

static int check_gm(struct scanner *s, uint32_t hdr, uint64_t addr,
		    uint64_t len)
{
	if (vgpu_gm_valid(s->v, addr, len))
		return 0;
	return reject(s, -GPU_EPERM, hdr, addr, "GGTT address outside the vGPU");
}

/* A register operand in a non-privileged batch that the allow-list
 * refuses: Gen9 drops such an access (a user batch's LRI to a register
 * outside the FORCE_TO_NONPRIV whitelist does nothing) and i915 relies on
 * it; refusing the workload instead would fail a request i915 replays
 * (it never started) until the vGPU is failed for good - a guest user
 * process could take its VM's GPU down. The copy names the engine's own
 * RING_NOPID instead (harmless to write or read; i915's filler for unused
 * whitelist slots), so neither backend acts on the original register -
 * not even the blitter, whose hardware checks nothing (CVE-2019-0155). */
static void neutralize_reg(struct scanner *s, uint32_t i, uint32_t reg)
{
	uint32_t nopid = RING_NOPID(gen9_engine_mmio_base(s->e->id));

	patch(s, i, nopid);
	if (s->v->stats.scan_regs_neutralized++ == 0)
		vgpu_warn(s->v, "%s: register 0x%x in a non-privileged batch: "
			  "not allowed there, dropped as Gen9 does (further "
			  "ones counted)", gen9_engine_name(s->e->id), reg);
}

/* A write from a non-privileged batch reaches on Gen9 only the registers
 * the command streamer lets user batches load (gen9_nonpriv_fixed_reg)
 * and those the guest's i915 named in the engine's FORCE_TO_NONPRIV
 * slots (vreg: GVT's list only, vgpu_execlist.c); the hardware drops the
 * rest. The copy runs privileged, so the scanner drops them itself
 * (docs/i915-command-path.md "Registers from user batches"). */
static bool nonpriv_write_reaches(struct scanner *s, uint32_t reg)
{
	uint32_t base = gen9_engine_mmio_base(s->e->id);
	unsigned int k;

	if (gen9_nonpriv_fixed_reg(base, reg))
		return true;
	for (k = 0; k < 12; k++)
		if (gen9_nonpriv_slot_allows(vreg(s->v, RING_FORCE_TO_NONPRIV(base, k)),
					     reg, true))
			return true;
	return false;
}

/* Register operand at dword i of the current command. */
static int check_reg(struct scanner *s, uint32_t hdr, uint32_t i,
		     uint32_t reg, uint32_t need)
{
	if ((cmd_reg_access(s->e->id, reg & MI_LRI_REG_MASK) & need) == need &&
	    !(reg & ~MI_LRI_REG_MASK) &&
	    (!(need & CMD_REG_W) || !nonpriv(s) || nonpriv_write_reaches(s, reg)))
		return 0;
	if (nonpriv(s)) {
		neutralize_reg(s, i, reg);
		return 0;
	}
	return reject_kind(s, -GPU_EPERM, hdr, SCAN_BAD_REG, reg,
			   "register not allowed");
}

/* In the copy of a non-privileged batch: the selectors the hardware
 * ignores there are cleared, so the privileged copy means the same. */
static void strip_selectors(struct scanner *s, const struct gen9_mem_ref *r,
			    uint32_t *dw)
{
	if (r->ggtt) {
		dw[r->asi_dw] &= ~r->asi_bit;
		patch(s, r->asi_dw, dw[r->asi_dw]);
	}
	if (r->index) {
		/* MI_FLUSH_DW: DW0 bit 21; PIPE_CONTROL: DW1 bit 21 */
		uint32_t i = instr_client(dw[0]) == INSTR_MI_CLIENT ? 0 : 1;

		dw[i] &= ~(1u << 21);
		patch(s, i, dw[i]);
	}
	if (r->ggtt || r->index)
		s->v->stats.scan_ggtt_cleared++;
}

/* The memory operand of a command, decoded by the shared table: a GGTT
 * access must stay inside the vGPU's GM; an index-mode store lands in the
 * running context's per-process status page - here the vGPU's own shadow
 * context, never copied back to the guest - and must stay in that page
 * (GVT's index_mode rule). PPGTT accesses go through the shadow PPGTT. */
static int audit_mem(struct scanner *s, uint32_t hdr, uint32_t len)
{
	uint32_t dw[GEN9_CMD_MAX_DECODE] = { 0 };
	uint32_t i, n = len < GEN9_CMD_MAX_DECODE ? len : GEN9_CMD_MAX_DECODE;
	struct gen9_mem_ref r;
	int ret;

	dw[0] = hdr;
	for (i = 1; i < n; i++) {
		ret = fetch(s, i, &dw[i]);
		if (ret)
			return ret;
	}
	if (!gen9_cmd_mem_ref(dw, len, s->e->id, &r))
		return 0;
	if (nonpriv(s)) {
		strip_selectors(s, &r, dw);
		return 0;
	}
	if (r.index)
		return r.index_off + r.size <= VGPU_PAGE ? 0 :
			reject_kind(s, -GPU_EPERM, hdr, SCAN_BAD_INDEX,
				    r.index_off,
				    "store index outside the status page");
	return r.ggtt ? check_gm(s, hdr, r.addr, r.size) : 0;
}

static int audit_sdi(struct scanner *s, uint32_t hdr, uint32_t len)
{
	if (len < 4)
		return reject(s, -GPU_EINVAL, hdr, 0, "short store");
	return audit_mem(s, hdr, len);
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
			ret = check_reg(s, hdr, i, reg, CMD_REG_W);
		if (ret)
			return ret;
	}
	return 0;
}

/* SRM (reg -> memory) and LRM (memory -> reg): 4 dwords, GVT's fixed form. */
static int audit_reg_mem(struct scanner *s, uint32_t hdr, uint32_t len,
			 uint32_t need)
{
	uint32_t reg;
	int ret;

	if (len != 4)
		return reject(s, -GPU_EINVAL, hdr, 0, "bad SRM/LRM length");
	ret = fetch(s, 1, &reg);
	if (!ret)
		ret = check_reg(s, hdr, 1, reg, need);
	return ret ? ret : audit_mem(s, hdr, len);
}

static int audit_lrr(struct scanner *s, uint32_t hdr, uint32_t len)
{
	uint32_t src, dst;
	int ret;

	if (len != 3)
		return reject(s, -GPU_EINVAL, hdr, 0, "bad LRR length");
	ret = fetch(s, 1, &src);
	if (!ret)
		ret = check_reg(s, hdr, 1, src, CMD_REG_R);
	if (!ret)
		ret = fetch(s, 2, &dst);
	if (!ret)
		ret = check_reg(s, hdr, 2, dst, CMD_REG_W);
	return ret;
}

static int audit_flush_dw(struct scanner *s, uint32_t hdr, uint32_t len)
{
	if (len < 4 || len > 5)
		return reject(s, -GPU_EINVAL, hdr, 0, "bad MI_FLUSH_DW length");
	if (hdr & MI_FLUSH_DW_NOTIFY)
		s->res->events |= GT_FLUSH_DW_NOTIFY_INTERRUPT;
	return audit_mem(s, hdr, len);
}

/* MI_COPY_MEM_MEM: GVT refuses it in what it scans (cmd_handler_mi_op_2e:
 * unexpected_cmd), i.e. the ring and privileged batches, and so do we.
 * Mesa emits it in non-privileged batches (query results), which GVT does
 * not scan; there the hardware ignores both GGTT selectors, so the copy
 * keeps that meaning: selectors cleared, both addresses through the
 * shadow PPGTT. */
static int audit_copy_mem(struct scanner *s, uint32_t hdr, uint32_t len)
{
	uint32_t sel = MI_COPY_MEM_SRC_GGTT | MI_COPY_MEM_DST_GGTT;

	if (len != 5)
		return reject(s, -GPU_EINVAL, hdr, 0, "bad MI_COPY_MEM_MEM length");
	if (!nonpriv(s))
		return reject(s, -GPU_EPERM, hdr, 0, "MI_COPY_MEM_MEM in a privileged buffer");
	if (hdr & sel) {
		patch(s, 0, hdr & ~sel);
		s->v->stats.scan_ggtt_cleared++;
	}
	return 0;
}

static int audit_atomic(struct scanner *s, uint32_t hdr, uint32_t len)
{
	if (len < 3)
		return reject(s, -GPU_EINVAL, hdr, 0, "short MI_ATOMIC");
	return audit_mem(s, hdr, len);
}

static int audit_pipe_control(struct scanner *s, uint32_t hdr, uint32_t len)
{
	uint32_t flags, reg;
	int ret;

	if (len < 5 || len > 6)
		return reject(s, -GPU_EINVAL, hdr, 0, "bad PIPE_CONTROL length");
	ret = fetch(s, 1, &flags);
	if (ret)
		return ret;
	if (flags & PIPE_CONTROL_NOTIFY)
		s->res->events |= GT_RENDER_PIPECTL_NOTIFY_INTERRUPT;
	if (flags & PIPE_CONTROL_MMIO_WRITE) {
		ret = fetch(s, 2, &reg);
		return ret ? ret : check_reg(s, hdr, 2, reg, CMD_REG_W);
	}
	return audit_mem(s, hdr, len);
}

/* A privileged command in a non-privileged batch: the hardware no-ops it,
 * so its copy becomes MI_NOOPs. */
static int noop_command(struct scanner *s, uint32_t len)
{
	uint32_t i, last, hdr;
	int ret = fetch(s, len - 1, &last); /* the whole command is copied */

	if (ret)
		return ret;
	/* Except a flip: the guest's user process cannot show a surface
	 * (issue 29's hostile guest), and its request fails, not a no-op. */
	if (!fetch(s, 0, &hdr) && instr_client(hdr) == INSTR_MI_CLIENT &&
	    MI_OPCODE(hdr) == MI_OP_DISPLAY_FLIP) {
		s->v->stats.cmd_flips_refused++;
		return reject(s, -GPU_EPERM, hdr, 0,
			      "MI_DISPLAY_FLIP in a user batch");
	}
	for (i = 0; i < len; i++)
		patch(s, i, MI_NOOP);
	s->v->stats.scan_priv_nooped++;
	return 0;
}

/* ---- batch buffers ------------------------------------------------------ */

/* A batch copy is final (ended or chained away at the command at its
 * current position, `len` dwords): what follows in its page is free for
 * the next copy. */
static void copy_done(struct scanner *s, const struct scan_src *src,
		      uint32_t len)
{
	uint32_t end = (uint32_t)(src->addr - src->start) + 4 * len;

	s->tail_page = src->page;
	s->tail_off = (src->seg_off + (end - src->seg_src) + 63) & ~63u;
}

/* A batch started at `level`; entered: from the ring or by a call, which
 * forgets what that level started before. Returns its entry; *again when
 * the target was started at this level since it was entered (a loop),
 * else the entry is new (NULL only if the list were full, which the
 * start count prevents) and the caller fills in its copy. */
static struct scan_seen *seen_start(struct scanner *s, int level,
				    bool entered, uint64_t target, bool ppgtt,
				    bool *again)
{
	/* target is dword aligned: bits 0-1 say privilege and level */
	uint64_t key = target | (ppgtt ? 1 : 0) | (level == 2 ? 2 : 0);
	struct scan_seen *seen = s->v->scan_seen;
	uint32_t i;

	*again = false;
	if (entered)
		s->nseen = s->seen_base[level] = level == 1 ? 0 : s->nseen;
	for (i = s->seen_base[level]; i < s->nseen; i++) {
		if (seen[i].key == key) {
			*again = true;
			return &seen[i];
		}
	}
	if (s->nseen >= SCAN_MAX_BATCHES)
		return NULL;
	seen[s->nseen].key = key;
	seen[s->nseen].gm = 0;
	seen[s->nseen].exits = s->cond_exits;
	seen[s->nseen].segs = s->nsegs;
	return &seen[s->nseen++];
}

/* A loop with no conditional end: only the guest's CPU can end it, by
 * writing MI_BATCH_BUFFER_END over one of its commands (gem_busy). It
 * runs while the guest pages of its body are watched (vgpu_bb_watch.c):
 * a user batch at the first level only, so that an end mirrored into
 * any copy of the body returns to something scanned (the ring after
 * the batch start, or a first-level copy after its call). A kernel
 * batch never loops; a second-level loop's end would return into a
 * first-level copy scanned only up to the call. Beyond the vGPU's
 * watch slots, refused as before: only its request fails. */
static int watch_loop(struct scanner *s, uint32_t hdr, uint64_t target,
		      const struct scan_seen *at)
{
	if (s->depth != 1 || !nonpriv(s) || s->segs_lost)
		return reject(s, -GPU_E2BIG, hdr, target,
			      "too many batch starts (the chain loops)");
	if (bbw_commit(s->v, s->w, at->segs, s->nsegs)) {
		s->v->stats.loops_watch_full++;
		return reject(s, -GPU_E2BIG, hdr, target,
			      "loop with no conditional end: too many batch pages to watch");
	}
	s->v->stats.loops_watched++;
	return 0;
}

/* A chain back to a batch this level started before (`at`). Everything
 * the GPU can run from there on was scanned since, from that very
 * address: the copy `at` names begins there, and each chain on the way
 * went to a copy of its own. So the chain may jump to that copy and the
 * GPU loop over checked bytes, which no guest write reaches. It ends
 * only through a MI_CONDITIONAL_BATCH_BUFFER_END scanned on the way,
 * which on Gen9 ends every batch level and returns to the ring after
 * its batch start: the scan goes on there (what follows the loop at
 * this level or below can never run). With no such exit the loop is
 * endless, a hang by construction: refused, failing only a user
 * batch's request. A loop running for seconds is bounded like any long
 * batch (time slice, hang timeout: vgpu_sched.c). */
static int loop_back(struct scanner *s, uint32_t hdr, uint32_t len,
		     uint64_t target, const struct scan_seen *at)
{
	int ret = 0;

	if (s->cond_exits == at->exits)
		ret = watch_loop(s, hdr, target, at);
	if (ret)
		return ret;
	s->seg_break = true;
	copy_done(s, &s->lvl[s->depth], len);
	patch(s, 0, hdr & ~MI_BATCH_PPGTT);
	patch(s, 1, at->gm);
	patch(s, 2, 0);
	s->depth = 0;
	s->v->stats.scan_loops++;
	return 1;
}

static int bb_start(struct scanner *s, uint32_t hdr, uint32_t len)
{
	bool second = hdr & MI_BATCH_SECOND_LEVEL;
	struct scan_src *cur = &s->lvl[s->depth], *next, copy;
	struct scan_seen *seen;
	bool again;
	/* Privilege is never raised: a batch a PPGTT batch starts is
	 * non-privileged whatever its address-space bit says (as the model
	 * runs it). */
	bool ppgtt = (hdr & MI_BATCH_PPGTT) || nonpriv(s);
	uint32_t lo, hi;
	int level = cur->kind == SRC_RING || second ? s->depth + 1 : s->depth;
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
	target = gen9_addr48(lo & ~3u, hi);
	if (cur->kind == SRC_BB && !cur->ppgtt)
		return reject(s, -GPU_ENOTSUP, hdr, target, "batch start in a privileged batch");
	if (level > SCAN_BB_LEVELS)
		return reject(s, -GPU_EPERM, hdr, target, "batch nesting too deep");
	if (!ppgtt && !vgpu_gm_valid(s->v, target, 4))
		return reject(s, -GPU_EPERM, hdr, target, "batch outside the vGPU");
	if (cur->kind == SRC_RING) {
		/* A loop's body lies within one entry from the ring: runs
		 * recorded before it are never needed again. */
		s->nsegs = 0;
		s->segs_lost = false;
	}
	seen = seen_start(s, level, level > s->depth, target, ppgtt, &again);
	if (again)
		return loop_back(s, hdr, len, target, seen);
	if (level == s->depth) /* a chain: the current batch ends here */
		copy_done(s, cur, len);
	if (cur->kind == SRC_RING) {
		s->top_cut = s->w->s_len - cur->left;
		s->top_events = s->res->events;
		s->top_ppgtt = ppgtt;
	}
	memset(&copy, 0, sizeof(copy));
	s->seg_break = true;
	ret = copy_begin(s, &copy, ppgtt);
	if (ret)
		return reject(s, ret, hdr, target, pool_why(ret));
	/* Run the copy: GGTT address space, its address in the pool. */
	patch(s, 0, hdr & ~MI_BATCH_PPGTT);
	patch(s, 1, vgpu_sbb_gm(s->v, copy.page) + copy.seg_off);
	patch(s, 2, 0);
	if (seen)
		seen->gm = vgpu_sbb_gm(s->v, copy.page) + copy.seg_off;
	if (level > s->depth) {
		/* A call: the caller resumes after this command. */
		advance(s, len);
		s->depth++;
	}
	next = &s->lvl[s->depth];
	*next = copy;
	next->kind = SRC_BB;
	next->ppgtt = ppgtt;
	next->addr = next->start = target;
	/* The context's PPGTT alone exceeds the shadow budget: its shadow is
	 * partial, so its user batches fail as a hang of them would
	 * (vgpu_ppgtt.c). */
	if (ppgtt && s->depth == 1 && MM(s->v, s->w->mm).over_budget)
		return reject(s, -GPU_E2BIG, hdr, target,
			      "PPGTT exceeds the shadow page-table budget");
	return 1; /* position already updated */
}

static int bb_end(struct scanner *s, uint32_t hdr)
{
	struct scan_src *cur = &s->lvl[s->depth];

	if (cur->kind == SRC_RING)
		return reject(s, -GPU_EINVAL, hdr, 0, "batch end in the ring");
	/* The engine runs an indirect context batch for its size: i915
	 * puts no end in it (gt/intel_lrc.c), and what one would mean
	 * there is not ours to guess. */
	if (cur->limit)
		return reject(s, -GPU_EINVAL, hdr, 0,
			      "batch end in a sized batch");
	copy_done(s, cur, 1);
	s->depth--;
	return 1;
}

/* MI_CONDITIONAL_BATCH_BUFFER_END: GVT refuses it (unexpected_cmd); IGT's
 * spinner ends with it. It reads one dword (a qword in compare mask
 * mode), audited like any read: through the shadow PPGTT in a user
 * batch (a GGTT selector cleared, as Gen9 ignores it there), inside the
 * vGPU's GM when a privileged batch asks for the GGTT. Either way the
 * batch goes on or ends: both were scanned (what follows, and the ring
 * after the batch start). In the ring it means nothing on Gen9: refused,
 * as MI_BATCH_BUFFER_END there. */
static int audit_cond_bb_end(struct scanner *s, uint32_t hdr, uint32_t len)
{
	if (s->lvl[s->depth].kind == SRC_RING)
		return reject(s, -GPU_EINVAL, hdr, 0, "conditional batch end in the ring");
	if (len != 4)
		return reject(s, -GPU_EINVAL, hdr, 0,
			      "bad MI_CONDITIONAL_BATCH_BUFFER_END length");
	if (hdr & MI_COND_BB_END_COMPARE)
		s->cond_exits++;
	return audit_mem(s, hdr, len);
}

/* ---- display flips ------------------------------------------------------ */

#define PIPE_A_PLANE_1 0x70180u /* PLANE_CTL_1_A; the others follow */
#define PLANE_STRIDE_OFF 0x08u
#define PLANE_POS_OFF 0x0cu
#define PLANE_SIZE_OFF 0x10u
#define PLANE_SURF_OFF 0x1cu
#define PLANE_OFFSET_OFF 0x24u

/* Pipe A's plane 1 as the flips before this one in the workload leave
 * it, or as the guest last programmed it. */
static struct vdisp_plane_regs flip_base(const struct scanner *s)
{
	struct vdisp_plane_regs r = {
		vreg(s->v, PIPE_A_PLANE_1), vreg(s->v, PIPE_A_PLANE_1 + PLANE_STRIDE_OFF),
		vreg(s->v, PIPE_A_PLANE_1 + PLANE_POS_OFF),
		vreg(s->v, PIPE_A_PLANE_1 + PLANE_SIZE_OFF),
		vreg(s->v, PIPE_A_PLANE_1 + PLANE_OFFSET_OFF),
		vreg(s->v, PIPE_A_PLANE_1 + PLANE_SURF_OFF),
	};

	return s->flip_pending ? s->flip : r;
}

/* What the plane would scan after the flip, checked as a PLANE_SURF
 * write's is (shape, then every byte inside the vGPU's GM); a plane
 * that is off names one page, its surface's. */
static int flip_check(const struct scanner *s, const struct vdisp_plane_regs *r)
{
	static const struct vdisp_gm anywhere = { 0, ~0ull };
	struct vdisp_plane pl;
	int err = vdisp_plane_validate(r, &anywhere, 1, &pl);

	if (err == VDISP_PLANE_OFF)
		return vgpu_gm_valid(s->v, r->surf & PLANE_SURF_ADDR_MASK, 4096)
			       ? VDISP_PLANE_OK : VDISP_PLANE_OUTSIDE_GM;
	if (err)
		return err;
	return vgpu_gm_valid(s->v, pl.surf, vdisp_plane_extent(&pl))
		       ? VDISP_PLANE_OK : VDISP_PLANE_OUTSIDE_GM;
}

static int flip_refused(struct scanner *s, uint32_t hdr, uint64_t surf,
			const char *why)
{
	s->v->stats.cmd_flips_refused++;
	return reject(s, -GPU_EPERM, hdr, surf, why);
}

/* MI_DISPLAY_FLIP in the ring or a privileged batch (docs/display.md,
 * "Flips from the ring"), as GVT-g emulates it (cmd_parser.c
 * cmd_handler_mi_display_flip): decoded, checked, and never run by the
 * GPU - its copy becomes MI_NOOPs. Only pipe A's plane 1 is accepted:
 * the virtual monitor's. */
static int audit_display_flip(struct scanner *s, uint32_t hdr, uint32_t len)
{
	struct vdisp_plane_regs r = flip_base(s);
	uint32_t dw1, dw2, i;
	struct vdisp_flip f;
	int err;

	if (len != MI_FLIP_DWORDS)
		return flip_refused(s, hdr, 0, "MI_DISPLAY_FLIP not 3 dwords long");
	/* A context's workaround batch runs at every restore, not once. */
	if (s->res->wa)
		return flip_refused(s, hdr, 0, "MI_DISPLAY_FLIP in a workaround batch");
	err = fetch(s, 1, &dw1);
	if (!err)
		err = fetch(s, 2, &dw2);
	if (err)
		return err;
	err = vdisp_flip_decode(hdr, dw1, dw2, &f);
	if (!err && (f.pipe || f.plane))
		return flip_refused(s, hdr, 0,
				    "MI_DISPLAY_FLIP for a plane other than pipe A's plane 1");
	if (!err)
		err = vdisp_flip_apply(&f, &r);
	if (err)
		return flip_refused(s, hdr, 0, vdisp_flip_why(err));
	err = flip_check(s, &r);
	if (err)
		return flip_refused(s, hdr, f.surf, vdisp_plane_why(err));
	for (i = 0; i < len; i++)
		patch(s, i, MI_NOOP);
	s->flip = r;
	s->flip_pending = true;
	return 0;
}

/* The workload passed: its last flip is the vGPU's, written through the
 * register table as i915's MMIO flip writes it (stride, control, then
 * the surface, which arms the plane to latch at the next vblank with its
 * flip-done event and PIPE_FLIPCOUNT). */
static void flip_commit(struct scanner *s)
{
	if (!s->flip_pending)
		return;
	vgpu_reg_write32(s->v, PIPE_A_PLANE_1 + PLANE_STRIDE_OFF, s->flip.stride);
	vgpu_reg_write32(s->v, PIPE_A_PLANE_1, s->flip.ctl);
	vgpu_reg_write32(s->v, PIPE_A_PLANE_1 + PLANE_SURF_OFF, s->flip.surf);
	s->v->stats.cmd_flips++;
}

/* ---- classification ----------------------------------------------------- */

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
	case MI_OP_MATH:
	case MI_OP_SET_APPID:
		return 0;
	case MI_OP_URB_ATOMIC_ALLOC:
	case MI_OP_URB_CLEAR:
		/* the context's own URB; render only (GVT: R_RCS) */
		return s->e->id == GEN9_RCS0 ? 0 :
			reject(s, -GPU_EPERM, hdr, 0, "URB command off the render engine");
	case MI_OP_COPY_MEM_MEM:
		return audit_copy_mem(s, hdr, len);
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
	case MI_OP_CONDITIONAL_BATCH_BUFFER_END:
		return audit_cond_bb_end(s, hdr, len);
	case MI_OP_SEMAPHORE_WAIT:
		/* i915 waits on other engines' breadcrumbs with it (as GVT,
		 * the address is audited); a wait nobody ends is a hang,
		 * bounded by the slice and hang timers (vgpu_sched.c). */
		if (len < 4)
			return reject(s, -GPU_EINVAL, hdr, 0,
				      "short MI_SEMAPHORE_WAIT");
		return audit_mem(s, hdr, len);
	case MI_OP_BATCH_BUFFER_START:
		return bb_start(s, hdr, len);
	case MI_OP_DISPLAY_FLIP:
		return audit_display_flip(s, hdr, len);
	default:
		/* What GVT refuses (unexpected_cmd): store-index, MI_UPDATE_GTT, perf reports, CLFLUSH;
		 * MI_WAIT_FOR_EVENT (no display event is waited for); MI_SET_CONTEXT
		 * (legacy ring contexts, not execlists); the resource
		 * streamer's and URB memory commands (MI_RS_*,
		 * MI_LOAD/STORE_URB_MEM: memory operands GVT does not audit,
		 * the resource streamer is not modelled); semaphore signals
		 * (they wake other engines' waits). */
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

/* Record where the current command's header is, in the guest page and
 * in the copy, for a loop that may need watching. User batches only:
 * they are all such a loop can run (watch_loop). The header was just
 * read, so its page translates (the read's own translation is reused
 * when it is still the last one). */
static void note_header(struct scanner *s)
{
	const struct scan_src *src = &s->lvl[s->depth];
	uint64_t page = src->addr & ~0xfffull;
	uint32_t o = (uint32_t)(src->addr - src->start);
	int32_t at = (int32_t)(src->seg_off + (o - src->seg_src));
	uint32_t in = (uint32_t)(src->addr & 0xfff);

	if (!src->ppgtt || s->segs_lost)
		return;
	if (!s->hdr_valid || s->hdr_page != page) {
		if (s->cache_valid && s->cache_page == page)
			s->hdr_gpa = s->cache_gpa;
		else if (vgpu_ppgtt_gva_to_gpa(s->v, s->root_gpa, page,
						&s->hdr_gpa)) {
			s->segs_lost = true;
			return;
		}
		s->hdr_page = page;
		s->hdr_valid = true;
	}
	if (!bbw_note(s->v, &s->nsegs, s->seg_break, s->hdr_gpa >> 12,
		      src->page, at - (int32_t)in, in / 4))
		s->segs_lost = true;
	s->seg_break = false;
}

/* What the command is, for the counters: MI, 3D (the render pipe's
 * subtypes 3, 0 and 1), media/GPGPU (subtype 2 on RCS), MFX/VEBOX (the
 * video engines' client 3) and 2D. */
static uint64_t *cmd_class(struct scanner *s, uint32_t hdr)
{
	struct vgpu_stats *st = &s->v->stats;

	switch (instr_client(hdr)) {
	case INSTR_MI_CLIENT:
		return &st->scan_mi;
	case INSTR_BC_CLIENT:
		return &st->scan_2d;
	default:
		if (s->e->id != GEN9_RCS0)
			return &st->scan_video;
		return GFXPIPE_SUBTYPE(hdr) == 2 ? &st->scan_media : &st->scan_3d;
	}
}

/* vgpu_trace=batches: the command's dwords as read, 8 a line, each line
 * "vgpu-cmd ENGINE LEVEL KIND ADDR +K: DW..." (KIND u: a user (PPGTT)
 * batch, p: a privileged one, r: the ring, ADDR its address / ring
 * offset; K the dword index of the line's first); tools/vgpu-cmds2fixture
 * makes a host replay fixture of them. A dword the scanner cannot read
 * ends the dump (the scan refuses the command itself). */
static void trace_cmd(struct scanner *s, uint32_t len)
{
	const struct scan_src *src = &s->lvl[s->depth];
	char line[120];
	uint32_t i, val;
	int n = 0;

	for (i = 0; i < len; i++) {
		if (fetch(s, i, &val))
			break;
		if (i % 8 == 0)
			n = snprintf(line, sizeof(line), "vgpu-cmd %d %d %c %llx +%u:",
				     s->e->id, s->depth,
				     src->kind == SRC_RING ? 'r' : src->ppgtt ? 'u' : 'p',
				     (unsigned long long)(src->kind == SRC_RING ?
							  src->pos : src->addr), i);
		n += snprintf(line + n, sizeof(line) - n, " %08x", val);
		if (i % 8 == 7 || i + 1 == len)
			vgpu_info(s->v, "%s", line);
	}
}

static int scan_one(struct scanner *s)
{
	uint32_t hdr, len;
	int ret;

	if (s->lvl[s->depth].kind == SRC_BB) {
		ret = fit_command(s, 1);
		if (ret)
			return reject(s, ret, 0, s->lvl[s->depth].addr, pool_why(ret));
	}
	ret = fetch(s, 0, &hdr);
	if (ret)
		return reject(s, ret, 0, s->lvl[s->depth].addr, "cannot read command");
	len = gen9_cmd_length_engine(hdr, s->e->id);
	if (!len)
		return reject(s, -GPU_EINVAL, hdr, 0, "undecodable command");
	if (s->lvl[s->depth].kind == SRC_BB) {
		ret = fit_command(s, len);
		if (ret)
			return reject(s, ret, hdr, s->lvl[s->depth].addr, pool_why(ret));
		note_header(s);
	}
	if (s->lvl[s->depth].kind == SRC_RING && 4 * len > s->lvl[0].left)
		return reject(s, -GPU_EINVAL, hdr, 0, "command runs past the tail");
	if (s->lvl[s->depth].limit &&
	    s->lvl[s->depth].addr - s->lvl[s->depth].start + 4ull * len >
		    s->lvl[s->depth].limit)
		return reject(s, -GPU_EINVAL, hdr, 0,
			      "command runs past the batch's size");
	(*cmd_class(s, hdr))++;
	s->v->stats.scan_bytes += 4ull * len;
	if (s->v->scan_trace)
		trace_cmd(s, len);
	if (nonpriv(s) && (gen9_cmd_flags(hdr) & GEN9_CMD_PRIV)) {
		ret = noop_command(s, len);
		if (ret)
			return s->res->reason ? ret : reject(s, ret, hdr, 0, "cannot read command");
		advance(s, len);
		return 0;
	}
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

/* A scanner for workload w of v on engine e, reporting into res, starting
 * at the first level (the ring, or what stands in for it). */
static void scanner_init(struct scanner *s, struct vgpu *v,
			 struct vgpu_engine *e, struct workload *w,
			 struct scan_result *res)
{
	memset(s, 0, sizeof(*s));
	memset(res, 0, sizeof(*res));
	s->v = v;
	s->e = e;
	s->w = w;
	s->res = res;
	s->root_gpa = MM(v, w->mm).root_gpa;
	s->lvl[0].kind = SRC_RING;
}

int vgpu_scan_workload(struct vgpu *v, struct vgpu_engine *e,
		       struct workload *w, scan_page_fn page,
		       struct scan_result *res)
{
	struct scanner s;
	uint32_t max_cmds;
	int ret = 0;

	scanner_init(&s, v, e, w, res);
	s.page = page;
	s.tail_page = -1;
	s.lvl[0].pos = w->s_head;
	s.lvl[0].left = w->s_len;
	/* The ring segment's own commands are bounded by its length (a grown
	 * shadow ring holds up to 2 MiB: 512 Ki MI_NOOPs a guest may
	 * legitimately queue); the cap bounds what batches add to them. */
	max_cmds = SCAN_MAX_CMDS + w->s_len / 4;
	while (s.depth > 0 || s.lvl[0].left) {
		if (res->cmds++ >= max_cmds) {
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
	else
		flip_commit(&s);
	return ret;
}

/* ---- the render context's workaround batches ---------------------------- */

/* One workaround batch at GGTT address addr: `limit` bytes (indirect
 * context) or to its MI_BATCH_BUFFER_END (per-context). Scanned like a
 * batch the kernel's ring starts, at level 1 and privileged: it is the
 * kernel's own (i915 builds it once per engine, gt/intel_lrc.c
 * lrc_init_wa_ctx), but every address and register in it is audited as
 * in any other batch, and a batch start in it is refused (a privileged
 * batch never chains, bb_start). The copy starts on a page of its own:
 * the image's pointers hold no low address bits (per-context) or the
 * size (indirect), and an indirect batch - at most 63 cachelines - then
 * fits one page with room to spare, so it never chains and the engine
 * runs exactly the copied bytes. */
static int wa_batch(struct scanner *s, uint64_t addr, uint32_t limit,
		    uint32_t *gm)
{
	struct scan_src *src = &s->lvl[1];
	int ret;

	memset(src, 0, sizeof(*src));
	src->kind = SRC_BB;
	src->addr = src->start = addr;
	s->depth = 1;
	if (!vgpu_gm_valid(s->v, addr, limit ? limit : 4))
		return reject(s, -GPU_EPERM, 0, addr, "batch outside the vGPU");
	s->tail_page = -1;
	ret = copy_begin(s, src, false);
	if (ret)
		return reject(s, ret, 0, addr, pool_why(ret));
	src->limit = limit;
	*gm = vgpu_sbb_gm(s->v, src->page);
	while (s->depth && (!limit || src->addr - src->start < limit)) {
		if (s->res->cmds++ >= SCAN_MAX_CMDS)
			return reject(s, -GPU_E2BIG, 0, 0, "too many commands");
		ret = scan_one(s);
		if (ret)
			return ret;
	}
	/* Commands skipped by their length were never read: the engine
	 * runs all `limit` bytes, so all of them are copied. */
	ret = limit ? copy_upto(s, src, limit) : 0;
	if (ret)
		return reject(s, ret, 0, src->addr, "cannot read command");
	s->v->stats.wa_scanned++;
	return 0;
}

/* GVT-g does the same (docs/gvt-facts.md): shadow both batches and put
 * the shadows' addresses in the shadow context. Without them
 * (before: the pointers were zeroed) the workarounds i915 programs at
 * every render context restore never ran. */
int vgpu_scan_wa_ctx(struct vgpu *v, struct vgpu_engine *e,
		     struct workload *w, scan_page_fn page,
		     struct scan_result *res)
{
	uint32_t ictx_len = (w->wa_ictx & CTX_INDIRECT_SIZE_MASK) * 64;
	struct scanner s;
	int ret = 0;

	scanner_init(&s, v, e, w, res);
	s.page = page;
	if (ictx_len) {
		res->wa = "indirect context batch";
		ret = wa_batch(&s, w->wa_ictx & CTX_INDIRECT_ADDR_MASK,
			       ictx_len, &w->wa_ictx_gm);
	}
	if (!ret && (w->wa_per_ctx & CTX_PER_CTX_VALID)) {
		res->wa = "per-context batch";
		ret = wa_batch(&s, w->wa_per_ctx & CTX_PER_CTX_ADDR_MASK, 0,
			       &w->wa_per_gm);
	}
	v->stats.cmds_scanned += res->cmds;
	v->stats.wa_bytes += res->bb_bytes_copied;
	if (ret) {
		v->stats.cmds_rejected++;
		v->stats.wa_refused++;
		w->wa_ictx_gm = w->wa_per_gm = 0;
		return ret;
	}
	res->wa = NULL;
	return 0;
}

void vgpu_set_scan_trace(struct vgpu *v, bool on)
{
	v->scan_trace = on;
}
