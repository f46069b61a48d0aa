/* The command streamer: executes MI commands and PIPE_CONTROL for real
 * (memory writes through the GGTT or the context's PPGTT, register loads,
 * interrupts, batch buffer nesting) and skips everything else by its
 * encoded length (gen9.md §6). */
#include "gpu/model/model_internal.h"

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
	e->bb_ppgtt[e->level] = c->dw0 & MI_BATCH_PPGTT;
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

static enum cs_result mi_store_data_imm(struct cs_cmd *c)
{
	bool ggtt = c->dw0 & MI_SDI_GGTT;
	uint64_t addr;
	uint32_t i;

	if (c->len < 4)
		return invalid(c);
	if (fetch_addr(c, 1, 4, &addr))
		return CS_FAULT;
	/* Data dwords follow the address: one, two (qword) or more. */
	for (i = 3; i < c->len; i++) {
		uint32_t v;

		if (cs_fetch(c, i, &v) ||
		    mem_write(c, addr + 4ull * (i - 3), ggtt, &v, 4) != CS_NEXT)
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
		gen9_model_write32(c->m, reg & MI_LRI_REG_MASK, val);
	}
	return CS_NEXT;
}

static enum cs_result mi_srm(struct cs_cmd *c)
{
	uint32_t reg, val;
	uint64_t addr;

	if (c->len < 4)
		return invalid(c);
	if (cs_fetch(c, 1, &reg) || fetch_addr(c, 2, 4, &addr))
		return CS_FAULT;
	val = gen9_model_read32(c->m, reg & MI_LRI_REG_MASK);
	return mem_write(c, addr, c->dw0 & MI_SRM_LRM_GLOBAL_GTT, &val, 4);
}

static enum cs_result mi_lrm(struct cs_cmd *c)
{
	uint32_t reg, val;
	uint64_t addr;

	if (c->len < 4)
		return invalid(c);
	if (cs_fetch(c, 1, &reg) || fetch_addr(c, 2, 4, &addr) ||
	    model_gpu_rw(c->m, c->e, addr, c->dw0 & MI_SRM_LRM_GLOBAL_GTT, &val,
			 4, false))
		return CS_FAULT;
	gen9_model_write32(c->m, reg & MI_LRI_REG_MASK, val);
	return CS_NEXT;
}

static enum cs_result mi_lrr(struct cs_cmd *c)
{
	uint32_t src, dst;

	if (c->len < 3)
		return invalid(c);
	if (cs_fetch(c, 1, &src) || cs_fetch(c, 2, &dst))
		return CS_FAULT;
	gen9_model_write32(c->m, dst & MI_LRI_REG_MASK,
			   gen9_model_read32(c->m, src & MI_LRI_REG_MASK));
	return CS_NEXT;
}

/* Post-sync write of MI_FLUSH_DW: op 1 stores the immediate data (dword or
 * qword by length), op 3 the timestamp. */
static enum cs_result mi_flush_dw(struct cs_cmd *c)
{
	uint32_t op = (c->dw0 & MI_FLUSH_DW_OP_MASK) >> MI_FLUSH_DW_OP_SHIFT;
	enum cs_result r = CS_NEXT;
	uint32_t dw1, data[2] = { 0, 0 };
	uint64_t addr, ts;
	bool ggtt;

	if (op && c->len >= 4) {
		if (cs_fetch(c, 1, &dw1) || fetch_addr(c, 1, 8, &addr))
			return CS_FAULT;
		ggtt = dw1 & MI_FLUSH_DW_USE_GTT;
		if (c->dw0 & MI_FLUSH_DW_STORE_INDEX) {
			addr = hwsp_addr(c, dw1 & 0xff8, false);
			ggtt = true;
		}
		if (op == 3) {
			ts = model_timestamp(c->m);
			r = mem_write(c, addr, ggtt, &ts, 8);
		} else if (op == 1) {
			if (cs_fetch(c, 3, &data[0]) ||
			    (c->len >= 5 && cs_fetch(c, 4, &data[1])))
				return CS_FAULT;
			r = mem_write(c, addr, ggtt, data, c->len >= 5 ? 8 : 4);
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
	uint32_t data, mem;
	uint64_t addr;

	if (c->len < 4)
		return invalid(c);
	if (cs_fetch(c, 1, &data) || fetch_addr(c, 2, 4, &addr) ||
	    model_gpu_rw(c->m, c->e, addr, c->dw0 & MI_SEMAPHORE_GLOBAL_GTT,
			 &mem, 4, false))
		return CS_FAULT;
	if (sem_compare((c->dw0 >> 12) & 7, mem, data)) {
		c->e->waiting = false;
		return CS_NEXT;
	}
	c->e->waiting = true;
	return CS_STALL;
}

static enum cs_result mi_execute(struct cs_cmd *c)
{
	switch (MI_OPCODE(c->dw0)) {
	case MI_OP_NOOP:
	case MI_OP_ARB_CHECK:
	case MI_OP_ARB_ON_OFF:
	case MI_OP_WAIT_FOR_EVENT: /* no display events: nothing to wait on */
		return CS_NEXT;
	case MI_OP_USER_INTERRUPT:
		model_irq_engine(c->m, c->e, GT_RENDER_USER_INTERRUPT);
		return CS_NEXT;
	case MI_OP_BATCH_BUFFER_END:
		return mi_batch_end(c);
	case MI_OP_BATCH_BUFFER_START:
		return mi_batch_start(c);
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

/* PIPE_CONTROL post-sync operation and notify (gen9.md §6.2). */
static enum cs_result pipe_control(struct cs_cmd *c)
{
	uint32_t flags, op, data[2] = { 0, 0 };
	uint64_t addr, val;
	bool ggtt;

	if (c->len < 4)
		return invalid(c);
	if (cs_fetch(c, 1, &flags) || fetch_addr(c, 2, 4, &addr))
		return CS_FAULT;
	op = (flags & PIPE_CONTROL_WRITE_MASK) >> 14;
	ggtt = flags & PIPE_CONTROL_GLOBAL_GTT_IVB;
	if (flags & PIPE_CONTROL_STORE_DATA_INDEX) {
		addr = hwsp_addr(c, (uint32_t)addr, false);
		ggtt = true;
	}
	if ((c->len > 4 && cs_fetch(c, 4, &data[0])) ||
	    (c->len > 5 && cs_fetch(c, 5, &data[1])))
		return CS_FAULT;
	if (op == 1 && (flags & PIPE_CONTROL_MMIO_WRITE)) {
		gen9_model_write32(c->m, (uint32_t)addr & MI_LRI_REG_MASK,
				   data[0]);
	} else if (op) {
		/* Depth count: nothing is rendered, so zero samples. */
		val = op == 1 ? ((uint64_t)data[1] << 32 | data[0])
		      : op == 3 ? model_timestamp(c->m) : 0;
		if (mem_write(c, addr, ggtt, &val,
			      op == 1 && c->len < 6 ? 4 : 8) != CS_NEXT)
			return CS_FAULT;
	}
	if (flags & PIPE_CONTROL_NOTIFY)
		model_irq_engine(c->m, c->e, GT_RENDER_PIPECTL_NOTIFY_INTERRUPT);
	return CS_NEXT;
}

enum cs_result cs_execute(struct cs_cmd *c)
{
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
