/* The command streamer: executes MI commands and PIPE_CONTROL for real
 * (memory writes through the GGTT or the context's PPGTT, register loads,
 * interrupts, batch buffer nesting) and skips everything else by its
 * encoded length (gen9-facts §6). Lengths, addresses, alignment and access
 * sizes come from the shared command table (gpu/hw/gen9_cmd_table.h), the
 * one the mediator's scanner uses.
 *
 * Privilege (Gen9): the ring and batches started with the GGTT address
 * space are privileged; PPGTT batches are not, and neither is anything
 * they start (a chained or second-level batch cannot raise privilege). In
 * a non-privileged batch the GGTT / store-index selectors are ignored (the
 * access goes through the PPGTT), privileged commands are no-ops, and
 * register loads reach only the general-purpose registers and the
 * registers named in the engine's FORCE_TO_NONPRIV slots; others are
 * dropped, as the hardware no-ops them (i915_cmd_parser.c: "some
 * generations of the hardware will noop these commands in unsecure
 * batches"). The model applies this on every engine, the blitter
 * included, i.e. the PRM's rule, not the weaker behaviour of real Gen9
 * blitters (CVE-2019-0155), which the scanner covers. */
#include "gpu/model/alu.h"
#include "gpu/model/model_internal.h"
#include "gpu/hw/gen9_cmd_table.h"

static bool cs_privileged(const struct gen9_model_engine *e)
{
	return e->level == 0 || !e->bb_ppgtt[e->level];
}

/* May the command streamer reach register reg now? */
static bool cs_reg_allowed(struct cs_cmd *c, uint32_t reg, bool write)
{
	struct gen9_model_engine *e = c->e;
	unsigned int i;

	if (cs_privileged(e) || gen9_nonpriv_fixed_reg(e->base, reg))
		return true;
	if (!write)
		return true; /* reads are not privileged */
	for (i = 0; i < 12; i++)
		if (gen9_nonpriv_slot_allows(mreg(c->m, RING_FORCE_TO_NONPRIV(e->base, i)),
					      reg, write))
			return true;
	e->stats.priv_dropped++;
	return false;
}

static void cs_reg_write(struct cs_cmd *c, uint32_t reg, uint32_t val)
{
	reg &= MI_LRI_REG_MASK;
	if (cs_reg_allowed(c, reg, true))
		gen9_model_write32(c->m, reg, val);
}

/* Fetch dword i of the current command. */
int cs_fetch(struct cs_cmd *c, uint32_t i, uint32_t *v)
{
	struct gen9_model_engine *e = c->e;

	if (e->level)
		return model_gpu_rw(c->m, e, e->bb_addr[e->level] + 4ull * i,
				    !e->bb_ppgtt[e->level], v, 4, false);
	return model_gpu_rw(c->m, e,
			    (uint64_t)e->ctx.ring_start +
				    (e->ctx.ring_head + 4 * i) %
					    model_ring_size(&e->ctx),
			    true, v, 4, false);
}

/* Dwords lo, hi at i, i+1 as a 48-bit address with low bits cleared. */
static int fetch_addr(struct cs_cmd *c, uint32_t i, uint64_t align,
		      uint64_t *addr)
{
	uint32_t lo, hi;

	if (cs_fetch(c, i, &lo) || cs_fetch(c, i + 1, &hi))
		return -GPU_EFAULT;
	*addr = (((uint64_t)hi << 32) | lo) & GEN9_GENMASK_ULL(47, 0) &
		~(align - 1);
	return 0;
}

static enum cs_result mem_write(struct cs_cmd *c, uint64_t addr, bool ggtt,
				const void *buf, size_t len)
{
	if (model_gpu_rw(c->m, c->e, addr, ggtt, (void *)buf, len, true))
		return CS_FAULT;
	return CS_NEXT;
}

/* Address of a "store data index" write: an offset in the status page. */
static uint64_t hwsp_addr(struct cs_cmd *c, uint32_t offset, bool per_process)
{
	uint64_t base = per_process
				? c->e->ctx.lrca
				: mreg(c->m, RING_HWS_PGA(c->e->base)) &
					  GEN8_CTX_LRCA_MASK;

	return base + (offset & 0xffc);
}

/* The memory operand of the current command, from the shared table, with
 * the privilege rules applied: where it goes and through which table. */
struct cs_ref {
	struct gen9_mem_ref r;
	uint32_t dw[GEN9_CMD_MAX_DECODE];
	bool ggtt;
};

static int cs_mem_ref(struct cs_cmd *c, struct cs_ref *ref)
{
	uint32_t i, n = c->len < GEN9_CMD_MAX_DECODE ? c->len : GEN9_CMD_MAX_DECODE;

	for (i = 0; i < GEN9_CMD_MAX_DECODE; i++)
		ref->dw[i] = 0;
	ref->dw[0] = c->dw0;
	for (i = 1; i < n; i++)
		if (cs_fetch(c, i, &ref->dw[i]))
			return -GPU_EFAULT;
	if (!gen9_cmd_mem_ref(ref->dw, c->len, c->e->id, &ref->r))
		return 1; /* no memory access */
	if (!cs_privileged(c->e) && (ref->r.ggtt || ref->r.index)) {
		c->e->stats.ggtt_ignored++;
		ref->r.ggtt = ref->r.index = false;
	}
	ref->ggtt = ref->r.ggtt;
	if (ref->r.index) {
		/* Store-index writes land in the running context's
		 * per-process status page (LRCA page 0). */
		ref->r.addr = hwsp_addr(c, ref->r.index_off, true);
		ref->ggtt = true;
	}
	return 0;
}

static enum cs_result invalid(struct cs_cmd *c)
{
	c->e->fault.kind = GEN9_MODEL_FAULT_INSTRUCTION;
	c->e->fault.header = c->dw0;
	return CS_FAULT;
}

static enum cs_result mi_batch_start(struct cs_cmd *c)
{
	struct gen9_model_engine *e = c->e;
	bool second = c->dw0 & MI_BATCH_SECOND_LEVEL;
	bool was_priv = cs_privileged(e);
	uint64_t addr;

	if (c->len < 3)
		return invalid(c);
	if (fetch_addr(c, 1, 4, &addr))
		return CS_FAULT;
	if (e->level == 0) {
		/* The ring resumes after this command on BB_END. */
		e->ctx.ring_head = (e->ctx.ring_head + 4 * c->len) %
				   model_ring_size(&e->ctx);
		mreg_set(c->m, RING_HEAD(e->base), e->ctx.ring_head);
		e->level = 1;
	} else if (second) {
		if (e->level >= GEN9_MODEL_BB_LEVELS)
			return invalid(c);
		e->bb_addr[e->level] += 4ull * c->len;
		e->level++;
	}
	/* else: chained batch, replaces the current level */
	e->bb_addr[e->level] = addr;
	/* Privilege is never raised: a batch started from a non-privileged
	 * one is non-privileged whatever its address-space bit says. */
	e->bb_ppgtt[e->level] = (c->dw0 & MI_BATCH_PPGTT) || !was_priv;
	e->stats.batches++;
	mreg_set(c->m, RING_BBADDR(e->base), (uint32_t)addr);
	mreg_set(c->m, RING_BBADDR_UDW(e->base), (uint32_t)(addr >> 32));
	mreg_set(c->m, RING_BBSTATE(e->base),
		 e->bb_ppgtt[e->level] ? RING_BB_PPGTT : 0);
	return CS_JUMPED;
}

static enum cs_result mi_batch_end(struct cs_cmd *c)
{
	struct gen9_model_engine *e = c->e;

	if (e->level == 0) /* meaningless in the ring: ignore */
		return CS_NEXT;
	e->level--; /* the lower level was advanced when the batch began */
	return CS_JUMPED;
}

/* MI_CONDITIONAL_BATCH_BUFFER_END (Gen9): with Compare Semaphore set, the
 * batch goes on while the dword at Compare Address (in mask mode the
 * qword's mask AND data) is greater than the inline Compare Data, and
 * ends otherwise; clear, the command does nothing. Ending a second-level
 * batch ends its first-level parent too (Intel's Gen9 command reference,
 * transcribed in docs/gpu-spinner.md): back to the ring after its batch
 * start, which was stepped over when the batch began. The address goes
 * through the same privilege rules as every other read. */
static enum cs_result mi_cond_batch_end(struct cs_cmd *c)
{
	struct gen9_model_engine *e = c->e;
	struct cs_ref ref;
	uint32_t mem[2] = { 0, 0 }, val;

	if (c->len < 4)
		return invalid(c);
	if (e->level == 0 || !(c->dw0 & MI_COND_BB_END_COMPARE))
		return CS_NEXT;
	if (cs_mem_ref(c, &ref) ||
	    model_gpu_rw(c->m, e, ref.r.addr, ref.ggtt, mem, ref.r.size, false))
		return CS_FAULT;
	val = ref.r.size == 8 ? mem[0] & mem[1] : mem[0];
	if (val > ref.dw[1])
		return CS_NEXT;
	e->stats.cond_ends++;
	e->level = 0;
	return CS_JUMPED;
}

static enum cs_result mi_store_data_imm(struct cs_cmd *c)
{
	struct cs_ref ref;
	uint32_t i;

	if (c->len < 4)
		return invalid(c);
	if (cs_mem_ref(c, &ref))
		return CS_FAULT;
	/* Data dwords follow the address: one, two (qword) or more. */
	for (i = 3; i < c->len; i++) {
		uint32_t v;

		if (cs_fetch(c, i, &v) ||
		    mem_write(c, ref.r.addr + 4ull * (i - 3), ref.ggtt, &v, 4) != CS_NEXT)
			return CS_FAULT;
	}
	return CS_NEXT;
}

static enum cs_result mi_store_data_index(struct cs_cmd *c)
{
	uint32_t off, i;

	if (c->len < 3 || cs_fetch(c, 1, &off))
		return c->len < 3 ? invalid(c) : CS_FAULT;
	for (i = 2; i < c->len; i++) {
		uint32_t v;
		uint64_t a = hwsp_addr(c, off + 4 * (i - 2), c->dw0 & (1u << 21));

		if (cs_fetch(c, i, &v) || mem_write(c, a, true, &v, 4) != CS_NEXT)
			return CS_FAULT;
	}
	return CS_NEXT;
}

/* Register loads go through the normal MMIO write path, so they have the
 * same side effects as a CPU write (masked registers, ELSP, IRQ ...). */
static enum cs_result mi_lri(struct cs_cmd *c)
{
	uint32_t i;

	for (i = 1; i + 1 < c->len; i += 2) {
		uint32_t reg, val;

		if (cs_fetch(c, i, &reg) || cs_fetch(c, i + 1, &val))
			return CS_FAULT;
		cs_reg_write(c, reg, val);
	}
	return CS_NEXT;
}

static enum cs_result mi_srm(struct cs_cmd *c)
{
	struct cs_ref ref;
	uint32_t val;

	if (c->len < 4)
		return invalid(c);
	if (cs_mem_ref(c, &ref))
		return CS_FAULT;
	val = gen9_model_read32(c->m, ref.dw[1] & MI_LRI_REG_MASK);
	return mem_write(c, ref.r.addr, ref.ggtt, &val, 4);
}

static enum cs_result mi_lrm(struct cs_cmd *c)
{
	struct cs_ref ref;
	uint32_t val;

	if (c->len < 4)
		return invalid(c);
	if (cs_mem_ref(c, &ref) ||
	    model_gpu_rw(c->m, c->e, ref.r.addr, ref.ggtt, &val, 4, false))
		return CS_FAULT;
	cs_reg_write(c, ref.dw[1], val);
	return CS_NEXT;
}

static enum cs_result mi_lrr(struct cs_cmd *c)
{
	uint32_t src, dst;

	if (c->len < 3)
		return invalid(c);
	if (cs_fetch(c, 1, &src) || cs_fetch(c, 2, &dst))
		return CS_FAULT;
	cs_reg_write(c, dst, gen9_model_read32(c->m, src & MI_LRI_REG_MASK));
	return CS_NEXT;
}

/* Post-sync write of MI_FLUSH_DW: op 1 stores the immediate data (dword or
 * qword by length), op 3 the timestamp. */
static enum cs_result mi_flush_dw(struct cs_cmd *c)
{
	uint32_t op = (c->dw0 & MI_FLUSH_DW_OP_MASK) >> MI_FLUSH_DW_OP_SHIFT;
	enum cs_result r = CS_NEXT;
	struct cs_ref ref;
	uint64_t ts;
	int ret;

	ret = cs_mem_ref(c, &ref);
	if (ret < 0)
		return CS_FAULT;
	if (!ret) {
		if (op == 3) {
			ts = model_timestamp(c->m);
			r = mem_write(c, ref.r.addr, ref.ggtt, &ts, 8);
		} else if (op == 1) {
			/* Immediate data: DW3 (and DW4 for a qword). */
			r = mem_write(c, ref.r.addr, ref.ggtt, &ref.dw[3],
				      ref.r.size);
		}
		if (r != CS_NEXT)
			return r;
	}
	if (c->dw0 & MI_FLUSH_DW_NOTIFY)
		model_irq_engine(c->m, c->e, GT_FLUSH_DW_NOTIFY_INTERRUPT);
	return CS_NEXT;
}

static bool sem_compare(uint32_t op, uint32_t mem, uint32_t data)
{
	switch (op) {
	case 0: return mem > data;
	case 1: return mem >= data;
	case 2: return mem < data;
	case 3: return mem <= data;
	case 4: return mem == data;
	case 5: return mem != data;
	default: return true;
	}
}

/* Both poll and signal modes are treated as polling: re-evaluated every
 * poll until true. */
static enum cs_result mi_semaphore_wait(struct cs_cmd *c)
{
	struct cs_ref ref;
	uint32_t mem;

	if (c->len < 4)
		return invalid(c);
	if (cs_mem_ref(c, &ref) ||
	    model_gpu_rw(c->m, c->e, ref.r.addr, ref.ggtt, &mem, 4, false))
		return CS_FAULT;
	if (sem_compare((c->dw0 >> 12) & 7, mem, ref.dw[1])) {
		c->e->waiting = false;
		return CS_NEXT;
	}
	c->e->waiting = true;
	return CS_STALL;
}

/* MI_COPY_MEM_MEM: one dword from DW3-4 to DW1-2; each side's GGTT
 * selector honoured only with privilege. */
static enum cs_result mi_copy_mem_mem(struct cs_cmd *c)
{
	bool priv = cs_privileged(c->e);
	bool sg = priv && (c->dw0 & MI_COPY_MEM_SRC_GGTT);
	bool dg = priv && (c->dw0 & MI_COPY_MEM_DST_GGTT);
	uint64_t dst, src;
	uint32_t v;

	if (c->len < 5)
		return invalid(c);
	if (!priv && (c->dw0 & (MI_COPY_MEM_SRC_GGTT | MI_COPY_MEM_DST_GGTT)))
		c->e->stats.ggtt_ignored++;
	if (fetch_addr(c, 1, 4, &dst) || fetch_addr(c, 3, 4, &src) ||
	    model_gpu_rw(c->m, c->e, src, sg, &v, 4, false))
		return CS_FAULT;
	return mem_write(c, dst, dg, &v, 4);
}

/* MI_MATH (gpu/model/alu.h): the instructions after the header run in
 * order on the engine's CS_GPRs; the length comes from the header like
 * any command's. SRCA, SRCB, ACCU and the flags start clear in every
 * command: they are in no context image (gpu/hw/gen9_ctx_image.h), so a
 * program cannot keep them across commands, and i915 and Mesa always load
 * before they compute. An instruction Gen9 does not define changes
 * nothing and is counted. GPRs are per-context state any batch may
 * write (gen9_nonpriv_fixed_reg), so privilege does not apply. */
static enum cs_result mi_math(struct cs_cmd *c)
{
	uint32_t base = c->e->base, i, lo, hi;
	struct gen9_alu a = { { 0 }, 0, 0, 0, false, false };

	for (i = 0; i < GEN9_ALU_GPRS; i++)
		a.gpr[i] = ((uint64_t)mreg(c->m, GEN9_CS_GPR(base, i) + 4) << 32) |
			   mreg(c->m, GEN9_CS_GPR(base, i));
	for (i = 1; i < c->len; i++) {
		uint32_t instr;

		if (cs_fetch(c, i, &instr))
			return CS_FAULT;
		if (!gen9_alu_exec(&a, instr))
			c->e->stats.math_undefined++;
	}
	for (i = 0; i < GEN9_ALU_GPRS; i++) {
		lo = (uint32_t)a.gpr[i];
		hi = (uint32_t)(a.gpr[i] >> 32);
		if (mreg(c->m, GEN9_CS_GPR(base, i)) != lo)
			mreg_set(c->m, GEN9_CS_GPR(base, i), lo);
		if (mreg(c->m, GEN9_CS_GPR(base, i) + 4) != hi)
			mreg_set(c->m, GEN9_CS_GPR(base, i) + 4, hi);
	}
	return CS_NEXT;
}

static enum cs_result mi_execute(struct cs_cmd *c)
{
	switch (MI_OPCODE(c->dw0)) {
	case MI_OP_ARB_CHECK:
		return CS_ARB;
	case MI_OP_ARB_ON_OFF:
		c->e->arb_off = !(c->dw0 & MI_ARB_ENABLE);
		return CS_NEXT;
	case MI_OP_NOOP:
	case MI_OP_WAIT_FOR_EVENT: /* no display events: nothing to wait on */
		return CS_NEXT;
	case MI_OP_USER_INTERRUPT:
		model_irq_engine(c->m, c->e, GT_RENDER_USER_INTERRUPT);
		return CS_NEXT;
	case MI_OP_BATCH_BUFFER_END:
		return mi_batch_end(c);
	case MI_OP_BATCH_BUFFER_START:
		return mi_batch_start(c);
	case MI_OP_CONDITIONAL_BATCH_BUFFER_END:
		return mi_cond_batch_end(c);
	case MI_OP_STORE_DATA_IMM:
		return mi_store_data_imm(c);
	case MI_OP_STORE_DATA_INDEX:
		return mi_store_data_index(c);
	case MI_OP_LOAD_REGISTER_IMM:
		return mi_lri(c);
	case MI_OP_STORE_REGISTER_MEM:
		return mi_srm(c);
	case MI_OP_LOAD_REGISTER_MEM:
		return mi_lrm(c);
	case MI_OP_LOAD_REGISTER_REG:
		return mi_lrr(c);
	case MI_OP_FLUSH_DW:
		return mi_flush_dw(c);
	case MI_OP_SEMAPHORE_WAIT:
		return mi_semaphore_wait(c);
	case MI_OP_COPY_MEM_MEM:
		return mi_copy_mem_mem(c);
	case MI_OP_MATH:
		return mi_math(c);
	default:
		c->e->stats.skipped++;
		return CS_NEXT;
	}
}

static bool is_pipe_control(uint32_t dw0)
{
	return GFXPIPE_SUBTYPE(dw0) == 3 && GFXPIPE_OPCODE(dw0) == 2 &&
	       GFXPIPE_SUBOPCODE(dw0) == 0;
}

/* PIPE_CONTROL post-sync operation and notify (gen9-facts §6.2). */
static enum cs_result pipe_control(struct cs_cmd *c)
{
	struct cs_ref ref;
	uint32_t flags, op;
	uint64_t val;
	int ret;

	if (c->len < 4)
		return invalid(c);
	ret = cs_mem_ref(c, &ref);
	if (ret < 0)
		return CS_FAULT;
	flags = ref.dw[1];
	op = (flags & PIPE_CONTROL_WRITE_MASK) >> 14;
	if (op == 1 && (flags & PIPE_CONTROL_MMIO_WRITE) && c->len > 4) {
		cs_reg_write(c, ref.dw[2], ref.dw[4]);
	} else if (!ret) {
		/* Depth count: nothing is rendered, so zero samples. */
		val = op == 1 ? ((uint64_t)ref.dw[5] << 32 | ref.dw[4])
		      : op == 3 ? model_timestamp(c->m) : 0;
		if (mem_write(c, ref.r.addr, ref.ggtt, &val, ref.r.size) != CS_NEXT)
			return CS_FAULT;
	}
	if (flags & PIPE_CONTROL_NOTIFY)
		model_irq_engine(c->m, c->e, GT_RENDER_PIPECTL_NOTIFY_INTERRUPT);
	return CS_NEXT;
}

enum cs_result cs_execute(struct cs_cmd *c)
{
	if (!cs_privileged(c->e) && (gen9_cmd_flags(c->dw0) & GEN9_CMD_PRIV)) {
		c->e->stats.priv_dropped++;
		return CS_NEXT;
	}
	switch (instr_client(c->dw0)) {
	case INSTR_MI_CLIENT:
		return mi_execute(c);
	case INSTR_BC_CLIENT:
		if (c->e->id != GEN9_BCS0)
			return invalid(c);
		return cs_blit(c);
	case INSTR_RC_CLIENT:
		if (c->e->id == GEN9_RCS0 && is_pipe_control(c->dw0))
			return pipe_control(c);
		/* 3D / media state, MFX, VEBOX: parsed by length only. */
		c->e->stats.skipped++;
		return CS_NEXT;
	default:
		return invalid(c);
	}
}
