/* Guest RAM, guest memory access and EPT maintenance; see vm_mem.h. */
#include "hv/vm/vm_mem.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mailbox.h"
#include "hv/vmx/vmx.h"
#include "hv/vmx/vmx_insn.h"
#include "mini/string.h"

#define PAGES_PER_2M 512u
#define PTE_P (1ull << 0)
#define PTE_PS (1ull << 7)
#define PTE_ADDR 0x000ffffffffff000ull

_Static_assert(VM_PCI_HOLE_BASE == MMIO_HOLE_BASE &&
	       VM_HIGH_RAM_BASE == MMIO_HOLE_END, "one PCI hole");

int vm_mem_map(struct vm *vm)
{
	const struct vm_ram_layout *l = &vm->ram_layout;
	uint64_t high = vm_ram_high_bytes(l);
	int err = ept_map(&vm->ept, 0, hv_pa(vm->ram), l->low_end, EPT_RWX,
			  MEMTYPE_WB);

	if (!err && high)
		err = ept_map(&vm->ept, VM_HIGH_RAM_BASE,
			      hv_pa(vm->ram) + l->low_end, high, EPT_RWX,
			      MEMTYPE_WB);
	return err;
}

int vm_mem_init(struct vm *vm, uint64_t bytes)
{
	uint64_t pages = bytes / PAGE_SIZE, head;
	uint8_t *alloc, *ram;
	int err;

	/* One run, 2 MiB aligned inside: EPT then needs one PD entry per
	 * 2 MiB of guest RAM. The slack before and after the aligned part
	 * goes back to the allocator as single pages. */
	alloc = page_alloc_contig(pages + PAGES_PER_2M - 1);
	if (!alloc)
		return -HV_ENOMEM;
	ram = hv_va((hv_pa(alloc) + EPT_PAGE_2M - 1) & ~(EPT_PAGE_2M - 1));
	head = (uint64_t)(ram - alloc) / PAGE_SIZE;
	for (uint64_t i = 0; i < head; i++)
		page_free(alloc + i * PAGE_SIZE);
	for (uint64_t i = head + pages; i < pages + PAGES_PER_2M - 1; i++)
		page_free(alloc + i * PAGE_SIZE);
	vm->ram = ram;
	vm->ram_alloc_pages = pages;
	vm->mem_bytes = bytes;
	vm_ram_layout_init(&vm->ram_layout, bytes, VM_PCI_HOLE_BASE);

	err = ept_init(&vm->ept);
	if (!err)
		err = vm_mem_map(vm);
	if (err)
		return err;
	vm->eptp = ept_eptp(&vm->ept, false);
	return 0;
}

void vm_mem_destroy(struct vm *vm)
{
	ept_destroy(&vm->ept);
	if (vm->ram)
		page_free_contig(vm->ram, vm->ram_alloc_pages);
	vm->ram = NULL;
}

/* Host pointer for [gpa, gpa+len) when all of it is RAM of this VM (below
 * the hole or above 4 GiB). RAM is one host run (vm_mem_init), but we go
 * through EPT so pages the mediator remapped or unmapped are honoured.
 * *perms: the page's EPT permissions. */
static void *gpa_ptr(struct vm *vm, uint64_t gpa, size_t len,
		     unsigned *perms)
{
	struct ept_xlat x;

	if (!vm_ram_contains(&vm->ram_layout, gpa, len))
		return NULL;
	if ((gpa & ~(PAGE_SIZE - 1)) != ((gpa + len - 1) & ~(PAGE_SIZE - 1)))
		return NULL;	/* callers split at page boundaries */
	if (ept_translate(&vm->ept, gpa, &x) || !(x.perms & EPT_R))
		return NULL;
	*perms = x.perms;
	return hv_va(x.hpa);
}

enum copy_kind { COPY_READ, COPY_WRITE, COPY_WRITE_DIRECT };

/* A page the guest cannot write (EPT without W, RAM with R) is one a
 * device write-protected to shadow it (the vGPU: a GPU page table): a
 * store the hypervisor makes there on the guest's behalf is reported to
 * the VM's devices (vdev.h page_write) exactly as the guest's own store
 * would be (exit_ept.c wp_write), or the shadow would go stale. A
 * device's own store (COPY_WRITE_DIRECT) is not: it would re-enter the
 * device that made it.
 *
 * copy_page is one page's part of a copy, at p (gpa's host address,
 * perms its EPT permissions). */
static void copy_page(struct vm *vm, uint64_t gpa, uint8_t *p, unsigned perms,
		      uint8_t *buf, size_t len, enum copy_kind kind)
{
	if (kind == COPY_READ) {
		memcpy(buf, p, len);
		return;
	}
	memcpy(p, buf, len);
	if (kind == COPY_WRITE && !(perms & EPT_W))
		vdev_page_write(vm, gpa, buf, len);
}

static int copy_gpa(struct vm *vm, uint64_t gpa, void *buf, size_t len,
		    enum copy_kind kind)
{
	unsigned perms = 0;
	uint8_t *p;

	if (!len)
		return 0;	/* as the page loops below: nothing to check */
	/* Within one page (a guest page-table entry, an instruction, most
	 * device copies): one EPT lookup checks and copies. */
	if (!((gpa ^ (gpa + len - 1)) & ~(uint64_t)(PAGE_SIZE - 1))) {
		p = gpa_ptr(vm, gpa, len, &perms);
		if (!p)
			return -HV_EFAULT;
		copy_page(vm, gpa, p, perms, buf, len, kind);
		return 0;
	}
	/* Check every page first: all or nothing. */
	for (size_t done = 0; done < len;) {
		size_t chunk = PAGE_SIZE - ((gpa + done) & (PAGE_SIZE - 1));

		if (chunk > len - done)
			chunk = len - done;
		if (!gpa_ptr(vm, gpa + done, chunk, &perms))
			return -HV_EFAULT;
		done += chunk;
	}
	for (size_t done = 0; done < len;) {
		size_t chunk = PAGE_SIZE - ((gpa + done) & (PAGE_SIZE - 1));

		if (chunk > len - done)
			chunk = len - done;
		p = gpa_ptr(vm, gpa + done, chunk, &perms);
		copy_page(vm, gpa + done, p, perms, (uint8_t *)buf + done,
			  chunk, kind);
		done += chunk;
	}
	return 0;
}

int vm_read_gpa(struct vm *vm, uint64_t gpa, void *buf, size_t len)
{
	return len ? copy_gpa(vm, gpa, buf, len, COPY_READ) : 0;
}

int vm_write_gpa(struct vm *vm, uint64_t gpa, const void *buf, size_t len)
{
	return len ? copy_gpa(vm, gpa, (void *)buf, len, COPY_WRITE) : 0;
}

int vm_write_gpa_direct(struct vm *vm, uint64_t gpa, const void *buf,
			size_t len)
{
	return len ? copy_gpa(vm, gpa, (void *)buf, len, COPY_WRITE_DIRECT)
		   : 0;
}

/* 4-level walk (SDM Vol. 3A 4.5). Permission bits are not checked: the
 * hypervisor reads on the guest's behalf only what the guest itself just
 * referenced (the instruction at RIP, a hypercall's buffer). */
int vm_gva_to_gpa(struct vm *vm, uint64_t gva, uint64_t *gpa)
{
	uint64_t table = vmread(VMCS_GUEST_CR3) & PTE_ADDR, e = 0;

	if (!(vmread(VMCS_GUEST_CR0) & CR0_PG)) {
		*gpa = gva;
		return 0;
	}
	for (int level = 3; level >= 0; level--) {
		unsigned shift = 12 + 9 * (unsigned)level;
		unsigned idx = (unsigned)(gva >> shift) & 511;

		if (vm_read_gpa(vm, table + idx * 8, &e, 8) || !(e & PTE_P))
			return -HV_EFAULT;
		if (level == 0 || ((level == 1 || level == 2) && (e & PTE_PS))) {
			uint64_t span = 1ull << shift;

			*gpa = (e & PTE_ADDR & ~(span - 1)) | (gva & (span - 1));
			return 0;
		}
		table = e & PTE_ADDR;
	}
	return -HV_EFAULT;
}

int vm_read_gva(struct vm *vm, uint64_t gva, void *buf, size_t len)
{
	while (len) {
		size_t chunk = PAGE_SIZE - (gva & (PAGE_SIZE - 1));
		uint64_t gpa;
		int err;

		if (chunk > len)
			chunk = len;
		err = vm_gva_to_gpa(vm, gva, &gpa);
		if (!err)
			err = vm_read_gpa(vm, gpa, buf, chunk);
		if (err)
			return err;
		gva += chunk;
		buf = (uint8_t *)buf + chunk;
		len -= chunk;
	}
	return 0;
}

/* Under the EPT lock: the edit's translations flushed on every CPU the
 * VM runs on (this one at once, the others through their mailboxes,
 * docs/smp.md); a CPU that left its guest flushes before it enters, so
 * an exit waiting for this lock does not hold the wait up. If one did
 * not leave its guest in time, the detached tables stay on the EPT's
 * list (and the flush still needed): freed by the next flush seen
 * through, or with the EPT at teardown. A VM not placed yet (being
 * created) has run nowhere: this CPU's INVEPT is all. */
static int flush(struct vm *vm, int err)
{
	if (ept_flush_needed(&vm->ept) && vmx_cpu.on) {
		if (vm->nr_cpus) {
			if (!vm_mailbox_ept_flush(vm))
				return err;
		} else {
			vmx_invept(vm->eptp);
		}
		ept_flush_done(&vm->ept);
	}
	return err;
}

static void ept_lock(struct vm *vm)
{
	rlock_take(&vm->ept_lock, this_cpu()->index);
}

static int ept_unlock(struct vm *vm, int err)
{
	rlock_drop(&vm->ept_lock, this_cpu()->index);
	return err;
}

int vm_ept_map(struct vm *vm, uint64_t gpa, uint64_t hpa, uint64_t size,
	       unsigned perms, unsigned memtype)
{
	ept_lock(vm);
	return ept_unlock(vm, flush(vm, ept_map(&vm->ept, gpa, hpa, size,
						perms, memtype)));
}

int vm_ept_unmap(struct vm *vm, uint64_t gpa, uint64_t size)
{
	ept_lock(vm);
	return ept_unlock(vm, flush(vm, ept_unmap(&vm->ept, gpa, size)));
}

int vm_ept_protect(struct vm *vm, uint64_t gpa, uint64_t size,
		   unsigned perms)
{
	ept_lock(vm);
	return ept_unlock(vm, flush(vm, ept_protect(&vm->ept, gpa, size,
						    perms)));
}

int vm_ept_translate(struct vm *vm, uint64_t gpa, struct ept_xlat *out)
{
	ept_lock(vm);
	return ept_unlock(vm, ept_translate(&vm->ept, gpa, out));
}
