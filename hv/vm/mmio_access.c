/* The running VM's memory as the MMIO emulator reaches it (mmio_emul.h):
 * its page walk, and every guest-physical part routed through its EPT and
 * device registry; see mmio_access.h. */
#include "hv/vm/mmio_access.h"
#include "hv/vm/mmio_edge.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mem.h"
#include "hv/vmx/vmx_insn.h"

#include "mini/string.h"
#include "mini/x86.h"

static int pte_read(void *ctx, uint64_t gpa, uint64_t *pte)
{
	return vm_read_gpa(ctx, gpa, pte, sizeof(*pte));
}

/* The accessed and dirty bits the CPU would set; a page table the vGPU
 * write-protected hears of it like any store the guest makes there. */
static int pte_write(void *ctx, uint64_t gpa, uint64_t pte)
{
	return vm_write_gpa(ctx, gpa, &pte, sizeof(pte));
}

/* The guest sees the CPU's own physical-address width (exit_cpuid.c
 * answers the extended leaves with the CPU's own values). */
static unsigned maxphyaddr(void)
{
	static unsigned bits;

	if (!bits)
		bits = cpuid(0x80000008u, 0).eax & 0xff;
	return bits;
}

static int walk(void *ctx, uint64_t lin, bool write, uint64_t *gpa,
		struct emul_fault *f)
{
	const struct emul_paging pg = {
		.cr0 = vmread(VMCS_GUEST_CR0), .cr3 = vmread(VMCS_GUEST_CR3),
		.cr4 = vmread(VMCS_GUEST_CR4),
		.rflags = vmread(VMCS_GUEST_RFLAGS),
		.efer = vmread(VMCS_GUEST_IA32_EFER), .cpl = vcpu_cpl(),
		.maxphyaddr = maxphyaddr(),
		.ctx = ctx, .pte_read = pte_read, .pte_write = pte_write,
	};

	return emul_walk(&pg, lin, write, gpa, f);
}

static int no_route(struct emul_fault *f, const char *why)
{
	f->why = why;
	return -1;
}

/* RAM the CPU may read (EPT R); without W a device write-protected it. */
static bool ram_part(struct vm *vm, uint64_t gpa, unsigned n,
		     const struct ept_xlat *x)
{
	return vm_ram_contains(&vm->ram_layout, gpa, n) && (x->perms & EPT_R);
}

static const struct mmio_region *device_at(struct vm *vm, uint64_t gpa)
{
	const struct mmio_region *reg = mmio_find(vm, gpa);

	if (reg)
		return reg;
	if (gpa >= MMIO_HOLE_BASE && gpa < MMIO_HOLE_END &&
	    !vm_ram_contains(&vm->ram_layout, gpa, 1))
		return &mmio_unclaimed;
	return NULL;
}

static int route(void *ctx, uint64_t gpa, unsigned n, bool write,
		 struct emul_fault *f)
{
	struct vm *vm = ctx;
	unsigned need = write ? EPT_W : EPT_R;
	const struct mmio_region *reg;
	struct ept_xlat x;
	bool mapped = !vm_ept_translate(vm, gpa, &x);

	if (mapped && ram_part(vm, gpa, n, &x))
		return (x.perms & need) == need ? EMUL_PART_RAM
						: EMUL_PART_RAM_WP;
	if (mapped && (x.perms & need) == need)
		return EMUL_PART_NATIVE;
	reg = device_at(vm, gpa);
	if (!reg)
		return no_route(f, "a part at a guest-physical address "
				"nothing decodes");
	if (reg->size && gpa - reg->gpa + n > reg->size)
		return no_route(f, "a part running past the end of the "
				"device");
	return EMUL_PART_DEV;
}

/* [gpa, gpa + n) to or from the device, lowest address first, in the
 * pieces a CPU's own moves could make (mmio_piece). */
static void dev_pieces(struct vm *vm, uint64_t gpa, uint8_t *buf, unsigned n,
		       bool write)
{
	const struct mmio_region *reg = device_at(vm, gpa);

	for (unsigned done = 0, k; reg && done < n; done += k) {
		uint64_t v = 0, off = gpa + done - reg->gpa;

		k = mmio_piece(gpa + done, n - done);
		if (write) {
			memcpy(&v, buf + done, k);
			reg->write(vm, off, k, v);
		} else {
			v = reg->read(vm, off, k);
			memcpy(buf + done, &v, k);
		}
	}
}

static void read_part(void *ctx, uint64_t gpa, void *buf, unsigned n,
		      enum emul_part part)
{
	if (part == EMUL_PART_DEV)
		dev_pieces(ctx, gpa, buf, n, false);
	else if (vm_read_gpa(ctx, gpa, buf, n))
		memset(buf, 0xff, n);	/* route() saw RAM: not reached */
}

static void write_part(void *ctx, uint64_t gpa, const void *buf, unsigned n,
		       enum emul_part part)
{
	if (part == EMUL_PART_DEV)
		dev_pieces(ctx, gpa, (uint8_t *)buf, n, true);
	else
		(void)vm_write_gpa(ctx, gpa, buf, n);
}

const struct emul_ops mmio_vm_ops = { walk, route, read_part, write_part };
