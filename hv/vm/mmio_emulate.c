/* The instruction behind an MMIO exit, emulated on the running VM; see
 * mmio_access.h. */
#include "hv/console/console.h"
#include "hv/hv_errno.h"
#include "hv/vm/mmio_access.h"
#include "hv/vm/mmio_edge.h"
#include "hv/vm/mmio_vec.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mem.h"
#include "hv/vmx/insn_decode.h"
#include "hv/vmx/vmx_insn.h"

#include "mini/string.h"

#define AR_L	(1u << 13)	/* CS access rights: 64-bit code */
#define AR_DB	(1u << 14)
#define EXC_PF	14

/* One MMIO exit: what the CPU said and what the decoder made of it. */
struct mmio_exit {
	struct vm *vm;
	const struct mmio_region *reg;
	uint64_t gpa, qual, gla;
	bool write;
	enum insn_mode mode;
	uint8_t bytes[INSN_MAX_LEN];
	size_t len;
	int err;
	struct mmio_insn insn;
	struct emul_known known;	/* known()'s answer */
};

static enum insn_mode guest_mode(void)
{
	uint64_t ar = vmread(VMCS_GUEST_CS_AR);

	if ((vmread(VMCS_GUEST_IA32_EFER) & EFER_LMA) && (ar & AR_L))
		return INSN_MODE_64;
	return (ar & AR_DB) ? INSN_MODE_32 : INSN_MODE_16;
}

/* Up to 15 bytes at the guest's RIP; fewer when the code ends at a page
 * with nothing mapped after it (the decoder then asks for more if the
 * instruction really continues). */
static size_t fetch_insn(struct vm *vm, uint8_t *buf)
{
	uint64_t rip = vmread(VMCS_GUEST_RIP) + vmread(VMCS_GUEST_CS_BASE);
	size_t first = 4096 - (rip & 4095);

	if (first > INSN_MAX_LEN)
		first = INSN_MAX_LEN;
	if (vm_read_gva(vm, rip, buf, first))
		return 0;
	if (first < INSN_MAX_LEN &&
	    !vm_read_gva(vm, rip + first, buf + first, INSN_MAX_LEN - first))
		return INSN_MAX_LEN;
	return first;
}

/* --- outcomes ------------------------------------------------------------- */

static void hex_bytes(const uint8_t *b, size_t n, char *out, size_t room)
{
	static const char digit[] = "0123456789abcdef";
	size_t at = 0;

	for (size_t i = 0; i < n && at + 4 <= room; i++) {
		if (i)
			out[at++] = ' ';
		out[at++] = digit[b[i] >> 4];
		out[at++] = digit[b[i] & 15];
	}
	out[at] = '\0';
}

/* Not emulated: the VM stops, saying what, where, the bytes and why. */
static enum exit_action cannot_emulate(struct mmio_exit *e, const char *why)
{
	char hex[3 * INSN_MAX_LEN + 1];

	/* The instruction's own bytes once decoded, else all fetched. */
	hex_bytes(e->bytes, e->insn.len ? e->insn.len : e->len, hex,
		  sizeof(hex));
	e->vm->stats.events[VM_EV_MMIO_UNEMULATED]++;
	vm_dump_regs(e->vm);
	vm_stop(e->vm, "cannot emulate %s of %s at %llx (instruction %s, "
		"decode %d): %s", mmio_access_name(e->qual), e->reg->name,
		(unsigned long long)e->gpa, hex, e->err, why);
	return EXIT_STOP;
}

static void set_guest_cr2(uint64_t v)
{
	/* The guest's CR2 is live in the CPU for its whole exit
	 * (cpu_state_switch.c switches it only between VMs). */
	__asm__ volatile("mov %0, %%cr2" : : "r"(v));
}

static enum exit_action page_fault(struct mmio_exit *e,
				   const struct emul_fault *f)
{
	vm_event(e->vm, VM_EV_MMIO_FAULT, "%s of MMIO at rip %llx reaches "
		 "linear %llx: #PF (error %x) injected",
		 mmio_insn_kind_name(e->insn.kind),
		 (unsigned long long)vmread(VMCS_GUEST_RIP),
		 (unsigned long long)f->lin, f->pf_err);
	set_guest_cr2(f->lin);
	vcpu_inject_exception(e->vm, EXC_PF, true, f->pf_err);
	return EXIT_RESUME;
}

static enum exit_action failed(struct mmio_exit *e, int rc,
			       const struct emul_fault *f)
{
	if (rc == EMUL_PF)
		return page_fault(e, f);
	return cannot_emulate(e, f->why ? f->why : "not emulated");
}

/* RSP lives in the VMCS, not in the exit's register frame. */
static void done(bool advance, const struct mmio_exit *e)
{
	vmwrite(VMCS_GUEST_RSP, vm_vcpu(e->vm)->regs.rsp);
	if (advance)
		vmwrite(VMCS_GUEST_RIP, vmread(VMCS_GUEST_RIP) + e->insn.len);
}

/* --- addresses ------------------------------------------------------------ */

static const uint32_t seg_base_field[] = {
	[INSN_SEG_ES] = VMCS_GUEST_ES_BASE, [INSN_SEG_CS] = VMCS_GUEST_CS_BASE,
	[INSN_SEG_SS] = VMCS_GUEST_SS_BASE, [INSN_SEG_DS] = VMCS_GUEST_DS_BASE,
	[INSN_SEG_FS] = VMCS_GUEST_FS_BASE, [INSN_SEG_GS] = VMCS_GUEST_GS_BASE,
};

/* In 64-bit mode only FS and GS have a base (SDM Vol. 1 3.3.7.1). */
static uint64_t seg_base(enum insn_mode mode, unsigned seg)
{
	if (seg > INSN_SEG_GS || (mode == INSN_MODE_64 && seg < INSN_SEG_FS))
		return 0;
	return vmread(seg_base_field[seg]);
}

/* The segment a ModRM access uses: the override, else SS for an rSP or
 * rBP base, else DS. */
static unsigned data_seg(const struct mmio_insn *insn)
{
	if (insn->seg != INSN_SEG_NONE)
		return insn->seg;
	if (insn->base == GPR_RSP || insn->base == GPR_RBP)
		return INSN_SEG_SS;
	return INSN_SEG_DS;
}

/* Linear address of the instruction's access, if the decode can say
 * (not for 16-bit addressing). */
static bool insn_linear(const struct mmio_exit *e, uint64_t *lin)
{
	const struct guest_regs *r = &vm_vcpu(e->vm)->regs;

	if (!mmio_insn_ea(&e->insn, r, vmread(VMCS_GUEST_RIP) + e->insn.len,
			  lin))
		return false;
	*lin += seg_base(e->mode, data_seg(&e->insn));
	if (e->mode != INSN_MODE_64)
		*lin &= 0xffffffffull;
	return true;
}

static bool gla_in(const struct mmio_exit *e, uint64_t lin, unsigned n)
{
	return (e->qual & EPT_QUAL_GLA_VALID) && e->gla >= lin &&
	       e->gla - lin < n;
}

/* The CPU's translation of the exit's own page, when it gave one (not
 * for a fault on a paging-structure access). */
static const struct emul_known *known(struct mmio_exit *e)
{
	const uint64_t both = EPT_QUAL_GLA_VALID | EPT_QUAL_GLA_TRANSLATED;

	if ((e->qual & both) != both)
		return NULL;
	e->known = (struct emul_known){ e->gla, e->gpa };
	return &e->known;
}

/* Where a single access starts; NULL, or why it cannot be emulated. When
 * the decode gives no address (16-bit addressing) the exit's linear
 * address must be the whole access, on one page. */
static const char *single_lin(const struct mmio_exit *e, uint64_t *lin)
{
	struct mmio_access a = { e->qual, e->gla, e->gpa, e->insn.size,
				 false, 0 };

	if (insn_linear(e, lin))
		return gla_in(e, *lin, e->insn.size) ? NULL :
		       "the decoded access is not the one that exited";
	if (!(e->qual & EPT_QUAL_GLA_VALID))
		return "an access without a linear address";
	*lin = e->gla;
	return mmio_span_problem(&a, e->reg->gpa, e->reg->size);
}

/* --- the accesses ---------------------------------------------------------- */

static bool is_vec(const struct mmio_insn *insn)
{
	return insn->kind == INSN_VEC_LOAD || insn->kind == INSN_VEC_STORE;
}

static void store_bytes(const struct mmio_exit *e, uint8_t *buf)
{
	uint64_t v;

	if (is_vec(&e->insn)) {
		mmio_vec_store_bytes(&e->insn, buf);
		return;
	}
	v = mmio_insn_store_value(&e->insn, &vm_vcpu(e->vm)->regs);
	memcpy(buf, &v, sizeof(v));
}

static void complete_load(struct mmio_exit *e, const uint8_t *buf)
{
	uint64_t v = 0;

	if (is_vec(&e->insn)) {
		mmio_vec_complete_load(&e->insn, buf);
		return;
	}
	memcpy(&v, buf, e->insn.size);
	mmio_insn_complete_load(&e->insn, &vm_vcpu(e->vm)->regs, v);
}

static enum exit_action emulate_single(struct mmio_exit *e)
{
	uint8_t buf[INSN_VEC_BYTES] = { 0 };
	struct emul_fault f = { 0 };
	const char *why;
	uint64_t lin;
	int rc;

	why = single_lin(e, &lin);
	if (why)
		return cannot_emulate(e, why);
	/* What the CPU checks before touching memory comes first. */
	if (mmio_vec_fault(e->vm, &e->insn, lin))
		return EXIT_RESUME;
	if (e->insn.vex)
		return cannot_emulate(e, "a VEX (AVX) form: guests have no "
				      "AVX state here");
	if (e->write)
		store_bytes(e, buf);
	rc = emul_access_known(&mmio_vm_ops, e->vm, lin, buf, e->insn.size,
			       e->write, known(e), &f);
	if (rc)
		return failed(e, rc, &f);
	if (!e->write)
		complete_load(e, buf);
	done(true, e);
	return EXIT_RESUME;
}

/* MOVS/STOS: the exit must be the first element's source or destination;
 * a bounded chunk, RIP kept while elements are left. */
static enum exit_action emulate_string(struct mmio_exit *e)
{
	struct guest_regs *r = &vm_vcpu(e->vm)->regs;
	struct emul_string_env env = {
		.src_base = seg_base(e->mode, e->insn.seg == INSN_SEG_NONE ?
				     INSN_SEG_DS : e->insn.seg),
		.dst_base = seg_base(e->mode, INSN_SEG_ES),
		.df = (vmread(VMCS_GUEST_RFLAGS) & RFLAGS_DF) != 0,
	};
	struct emul_fault f = { 0 };
	bool finished;
	int rc;

	if (!gla_in(e, emul_string_lin(&e->insn, r, &env, e->write),
		    e->insn.size))
		return cannot_emulate(e, "a string access that is not its "
				      "next element's");
	rc = emul_string(&mmio_vm_ops, e->vm, &e->insn, r, &env, &finished,
			 &f);
	if (rc)
		return failed(e, rc, &f);
	done(finished, e);
	return EXIT_RESUME;
}

enum exit_action mmio_emulate(struct vm *vm, const struct mmio_region *reg,
			      uint64_t gpa, uint64_t qual)
{
	struct mmio_exit e = {
		.vm = vm, .reg = reg, .gpa = gpa, .qual = qual,
		.gla = vmread(VMCS_GUEST_LINEAR_ADDRESS),
		.write = (qual & EPT_QUAL_WRITE) != 0, .mode = guest_mode(),
	};

	e.len = fetch_insn(vm, e.bytes);
	if (qual & EPT_QUAL_FETCH)
		return cannot_emulate(&e, "code executed from MMIO");
	e.err = e.len ? insn_decode(e.bytes, e.len, e.mode, &e.insn)
		      : -HV_EFAULT;
	if (e.err)
		return cannot_emulate(&e, e.err == -HV_ENOTSUP ?
				      "not a move the emulator knows" :
				      "no instruction that can make this "
				      "access");
	/* The decode must agree with what the CPU saw. */
	if (!(mmio_insn_access(&e.insn) &
	      (e.write ? MMIO_ACCESS_WRITE : MMIO_ACCESS_READ)))
		return cannot_emulate(&e, "the instruction does not access "
				      "memory that way");
	vm_vcpu(vm)->regs.rsp = vmread(VMCS_GUEST_RSP);
	if (e.insn.kind == INSN_MOVS || e.insn.kind == INSN_STOS)
		return emulate_string(&e);
	return emulate_single(&e);
}
