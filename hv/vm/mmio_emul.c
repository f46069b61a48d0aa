/* The memory side of MMIO emulation; see mmio_emul.h. */
#include "hv/vm/mmio_emul.h"
#include "hv/vmx/vmx_defs.h"

#include "mini/string.h"

#define PG		4096ull
#define PAGE_OF(a)	((a) & ~(PG - 1))
#define MAX_ACCESS	32u	/* a YMM move */

/* --- the guest's page walk (SDM Vol. 3A 4.5, 4.6) ------------------------ */

#define PTE_P		0x001ull
#define PTE_W		0x002ull
#define PTE_U		0x004ull
#define PTE_A		0x020ull
#define PTE_D		0x040ull
#define PTE_PS		0x080ull
#define PTE_ADDR	0x000ffffffffff000ull
#define PTE_XD		BIT64(63)
#define RFLAGS_AC_BIT	BIT64(18)

static int page_fault(struct emul_fault *f, uint64_t lin, uint32_t err)
{
	f->lin = lin;
	f->pf_err = err;
	return EMUL_PF;
}

static uint32_t access_bits(const struct emul_paging *pg, bool write)
{
	return (write ? EMUL_PF_W : 0) | (pg->cpl == 3 ? EMUL_PF_U : 0);
}

/* The rights the walk collected, against the access (SDM Vol. 3A 4.6):
 * 0 or a #PF error code. */
static uint32_t protection(const struct emul_paging *pg, bool write,
			   bool w_ok, bool u_ok)
{
	bool user = pg->cpl == 3;
	uint32_t err = EMUL_PF_P | access_bits(pg, write);

	if (user && !u_ok)
		return err;
	if (write && !w_ok && (user || (pg->cr0 & CR0_WP)))
		return err;
	if (!user && u_ok && (pg->cr4 & CR4_SMAP) &&
	    !(pg->rflags & RFLAGS_AC_BIT))
		return err;
	return 0;
}

/* Accessed on every entry used, dirty on the leaf of a write. */
static int mark(const struct emul_paging *pg, uint64_t at, uint64_t e,
		uint64_t bits)
{
	if ((e & bits) == bits)
		return 0;
	return pg->pte_write(pg->ctx, at, e | bits);
}

static bool is_leaf(int level, uint64_t e)
{
	return level == 0 || ((level == 1 || level == 2) && (e & PTE_PS));
}

/* Bits that must be 0 in a present entry at this level (SDM Vol. 3A
 * 4.5.4, Figure 4-11): the address above MAXPHYADDR, XD without NXE, PS
 * in a PML4E, and a large page's address bits below its size. */
static uint64_t reserved(const struct emul_paging *pg, int level, uint64_t e)
{
	unsigned phys = pg->maxphyaddr ? pg->maxphyaddr : 52;
	uint64_t r = ((1ull << 52) - 1) & ~((1ull << phys) - 1);

	if (!(pg->efer & EFER_NXE))
		r |= PTE_XD;
	if (level == 3)
		r |= PTE_PS;
	else if (level > 0 && (e & PTE_PS))	/* bits 12 (PAT) up to size */
		r |= ((1ull << (12 + 9 * level)) - 1) & ~0x1fffull;
	return r;
}

/* A walk in progress: the rights every level so far granted. */
struct walk {
	const struct emul_paging *pg;
	uint64_t lin;
	bool write, w_ok, u_ok;
	struct emul_fault *f;
};

static int outside(struct emul_fault *f)
{
	f->why = "a guest page table outside its RAM";
	return EMUL_STOP;
}

/* The leaf entry e at `at`, mapping `span` bytes: the rights checked,
 * then A (and D for a write) set, then the address. */
static int leaf(struct walk *w, uint64_t at, uint64_t e, uint64_t span,
		uint64_t *gpa)
{
	uint32_t err = protection(w->pg, w->write, w->w_ok, w->u_ok);

	if (err)
		return page_fault(w->f, w->lin, err);
	if (mark(w->pg, at, e, PTE_A | (w->write ? PTE_D : 0)))
		return outside(w->f);
	*gpa = (e & PTE_ADDR & ~(span - 1)) | (w->lin & (span - 1));
	return EMUL_OK;
}

int emul_walk(const struct emul_paging *pg, uint64_t lin, bool write,
	      uint64_t *gpa, struct emul_fault *f)
{
	struct walk w = { pg, lin, write, true, true, f };
	uint64_t table = pg->cr3 & PTE_ADDR, e = 0, at;

	if (!(pg->cr0 & CR0_PG)) {
		*gpa = lin;
		return EMUL_OK;
	}
	for (int level = 3; level >= 0; level--) {
		unsigned shift = 12 + 9 * (unsigned)level;

		at = table + ((lin >> shift) & 511) * 8;
		if (pg->pte_read(pg->ctx, at, &e))
			return outside(f);
		if (!(e & PTE_P))
			return page_fault(f, lin, access_bits(pg, write));
		if (e & reserved(pg, level, e))
			return page_fault(f, lin, EMUL_PF_P | EMUL_PF_RSVD |
					  access_bits(pg, write));
		w.w_ok = w.w_ok && (e & PTE_W);
		w.u_ok = w.u_ok && (e & PTE_U);
		if (is_leaf(level, e))
			return leaf(&w, at, e, 1ull << shift, gpa);
		if (mark(pg, at, e, PTE_A))
			return outside(f);
		table = e & PTE_ADDR;
	}
	return outside(f);	/* not reached: level 0 is a leaf */
}

/* --- one access, in page parts ------------------------------------------ */

/* A one-entry translation per direction for the exit's duration, like the
 * CPU's TLB: the guest cannot change its tables in between. */
struct tlb {
	uint64_t lin_pg, gpa_pg;
	bool valid;
};

struct emul {
	const struct emul_ops *ops;
	void *ctx;
	struct emul_fault *f;
	struct tlb tlb[2];	/* [write] */
	const struct emul_known *known;	/* reads only; or NULL */
};

struct part {
	uint64_t gpa;
	unsigned off, n;	/* bytes [off, off + n) of the access */
	int route;		/* enum emul_part */
};

static int xlat(struct emul *e, uint64_t lin, bool write, uint64_t *gpa)
{
	struct tlb *t = &e->tlb[write];
	uint64_t g;
	int err;

	if (!write && e->known && PAGE_OF(lin) == PAGE_OF(e->known->lin_pg)) {
		*gpa = PAGE_OF(e->known->gpa_pg) | (lin & (PG - 1));
		return 0;
	}
	if (!t->valid || t->lin_pg != PAGE_OF(lin)) {
		err = e->ops->walk(e->ctx, lin, write, &g, e->f);
		if (err)
			return err;
		*t = (struct tlb){ PAGE_OF(lin), PAGE_OF(g), true };
	}
	*gpa = t->gpa_pg | (lin & (PG - 1));
	return 0;
}

/* Translate and route [lin, lin + n) (n <= 32: at most two pages). */
static int plan(struct emul *e, uint64_t lin, unsigned n, bool write,
		struct part p[2], unsigned *np)
{
	*np = 0;
	for (unsigned done = 0; done < n; (*np)++) {
		struct part *q = &p[*np];
		uint64_t at = lin + done;
		unsigned room = (unsigned)(PG - (at & (PG - 1)));
		int err;

		q->off = done;
		q->n = n - done < room ? n - done : room;
		err = xlat(e, at, write, &q->gpa);
		if (err)
			return err;
		q->route = e->ops->route(e->ctx, q->gpa, q->n, write, e->f);
		if (q->route < 0)
			return EMUL_STOP;
		done += q->n;
	}
	return EMUL_OK;
}

static void carry_out(struct emul *e, const struct part *p, unsigned np,
		      uint8_t *buf, bool write)
{
	for (unsigned i = 0; i < np; i++) {
		if (write)
			e->ops->write(e->ctx, p[i].gpa, buf + p[i].off,
				      p[i].n, (enum emul_part)p[i].route);
		else
			e->ops->read(e->ctx, p[i].gpa, buf + p[i].off, p[i].n,
				     (enum emul_part)p[i].route);
	}
}

static bool any_route(const struct part *p, unsigned np, int route)
{
	for (unsigned i = 0; i < np; i++)
		if (p[i].route == route)
			return true;
	return false;
}

static int stop(struct emul_fault *f, const char *why)
{
	f->why = why;
	return EMUL_STOP;
}

static const char native_part[] =
	"a part on a page mapped to memory other than the VM's RAM";

int emul_access(const struct emul_ops *ops, void *ctx, uint64_t lin,
		void *buf, unsigned n, bool write, struct emul_fault *f)
{
	return emul_access_known(ops, ctx, lin, buf, n, write, NULL, f);
}

int emul_access_known(const struct emul_ops *ops, void *ctx, uint64_t lin,
		      void *buf, unsigned n, bool write,
		      const struct emul_known *known, struct emul_fault *f)
{
	struct emul e = { .ops = ops, .ctx = ctx, .f = f, .known = known };
	struct part p[2];
	unsigned np;
	int err;

	if (n == 0 || n > MAX_ACCESS)
		return stop(f, "an access of impossible width");
	err = plan(&e, lin, n, write, p, &np);
	if (err)
		return err;
	if (any_route(p, np, EMUL_PART_NATIVE))
		return stop(f, native_part);
	carry_out(&e, p, np, buf, write);
	return EMUL_OK;
}

/* --- MOVS / STOS --------------------------------------------------------- */

uint64_t emul_string_lin(const struct mmio_insn *insn,
			 const struct guest_regs *regs,
			 const struct emul_string_env *env, bool write)
{
	uint64_t mask = gpr_size_mask(insn->addr_size);

	if (write)
		return env->dst_base + (regs->rdi & mask);
	return env->src_base + (regs->rsi & mask);
}

/* An element needs the emulator while one of its parts is a device or RAM
 * the CPU may not touch this way (write-protected); all of it plain RAM
 * and the CPU does it itself. */
static bool needs_emul(const struct part *p, unsigned np)
{
	for (unsigned i = 0; i < np; i++)
		if (p[i].route == EMUL_PART_DEV ||
		    p[i].route == EMUL_PART_RAM_WP)
			return true;
	return false;
}

/* The source and destination parts of the element at regs. */
struct elem {
	struct part s[2], d[2];
	unsigned ns, nd;
	uint8_t buf[8];
};

static int plan_elem(struct emul *e, const struct mmio_insn *insn,
		     const struct guest_regs *regs,
		     const struct emul_string_env *env, struct elem *el)
{
	int err = EMUL_OK;

	el->ns = 0;
	if (insn->kind == INSN_MOVS)
		err = plan(e, emul_string_lin(insn, regs, env, false),
			   insn->size, false, el->s, &el->ns);
	else
		memcpy(el->buf, &regs->rax, sizeof(el->buf));
	if (!err)
		err = plan(e, emul_string_lin(insn, regs, env, true),
			   insn->size, true, el->d, &el->nd);
	return err;
}

/* One element, unless it is all plain RAM after the first (*more false:
 * the chunk ends there and the CPU goes on). */
static int string_elem(struct emul *e, const struct mmio_insn *insn,
		       const struct guest_regs *regs,
		       const struct emul_string_env *env, bool first,
		       bool *more)
{
	struct elem el;
	bool native, emul;
	int err = plan_elem(e, insn, regs, env, &el);

	if (err)
		return err;
	native = any_route(el.s, el.ns, EMUL_PART_NATIVE) ||
		 any_route(el.d, el.nd, EMUL_PART_NATIVE);
	emul = needs_emul(el.s, el.ns) || needs_emul(el.d, el.nd);
	*more = first || (emul && !native);
	if (!*more)
		return EMUL_OK;
	if (native)
		return stop(e->f, native_part);
	carry_out(e, el.s, el.ns, el.buf, false);
	carry_out(e, el.d, el.nd, el.buf, true);
	return EMUL_OK;
}

static bool is_string(const struct mmio_insn *insn)
{
	return (insn->kind == INSN_MOVS || insn->kind == INSN_STOS) &&
	       insn->size >= 1 && insn->size <= 8 &&
	       (insn->addr_size == 2 || insn->addr_size == 4 ||
		insn->addr_size == 8);
}

int emul_string(const struct emul_ops *ops, void *ctx,
		const struct mmio_insn *insn, struct guest_regs *regs,
		const struct emul_string_env *env, bool *done,
		struct emul_fault *f)
{
	struct emul e = { .ops = ops, .ctx = ctx, .f = f };
	unsigned elems = 0;
	bool more;
	int err;

	*done = false;
	if (!is_string(insn))
		return stop(f, "not a string instruction");
	if (insn->rep && gpr_read(regs, GPR_RCX, insn->addr_size) == 0) {
		*done = true;
		return EMUL_OK;
	}
	for (;;) {
		err = string_elem(&e, insn, regs, env, elems == 0, &more);
		if (err || !more)
			return err;
		if (mmio_insn_string_step(insn, regs, env->df)) {
			*done = true;
			return EMUL_OK;
		}
		if (++elems == EMUL_STRING_MAX_ELEMS)
			return EMUL_OK;
	}
}
