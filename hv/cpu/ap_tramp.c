/* Installing and patching the AP trampoline (hv/cpu/ap_tramp.h). Pure but
 * for the atomics: host-tested by test_ap_tramp. */
#include "hv/cpu/ap_tramp.h"
#include "hv/hv_errno.h"
#include "mini/string.h"

#define PAGE 4096u
#define EFER_LMA (1ull << 10)
#define CR4_VMXE (1ull << 13)

static struct ap_tramp_data *data(void *dst)
{
	return (struct ap_tramp_data *)((uint8_t *)dst + AP_TRAMP_DATA_OFF);
}

static int check(uint64_t pa, const void *blob, size_t len)
{
	struct ap_tramp_data d;

	if ((pa & (PAGE - 1)) || pa + AP_TRAMP_PAGES * PAGE > AP_TRAMP_LIMIT)
		return -HV_EINVAL;
	if (len > PAGE || len < AP_TRAMP_DATA_OFF + sizeof(d))
		return -HV_EINVAL;
	memcpy(&d, (const uint8_t *)blob + AP_TRAMP_DATA_OFF, sizeof(d));
	if (d.magic != AP_TRAMP_MAGIC || d.version != AP_TRAMP_VERSION ||
	    d.pm32_off >= len || d.lm64_off >= len)
		return -HV_EINVAL;
	return 0;
}

int ap_tramp_install(void *dst, uint64_t pa, const void *blob, size_t len,
		     const void *pml4, const struct ap_tramp_regs *r)
{
	struct ap_tramp_data *d = data(dst);
	int err = check(pa, blob, len);

	if (err)
		return err;
	memset(dst, 0, AP_TRAMP_PAGES * PAGE);
	memcpy(dst, blob, len);
	memcpy((uint8_t *)dst + PAGE, pml4, PAGE);
	d->gdtr_limit = sizeof(d->gdt) - 1;
	d->gdtr_base = (uint32_t)(pa + AP_TRAMP_DATA_OFF +
				  offsetof(struct ap_tramp_data, gdt));
	d->jmp32_off = (uint32_t)(pa + d->pm32_off);
	d->jmp32_sel = AP_TRAMP_SEL_CODE32;
	d->jmp64_off = (uint32_t)(pa + d->lm64_off);
	d->jmp64_sel = AP_TRAMP_SEL_CODE64;
	d->cr3_low = (uint32_t)(pa + PAGE);
	d->efer = r->efer & ~EFER_LMA;
	d->cr3 = r->cr3;
	d->cr0 = r->cr0;
	d->cr4 = r->cr4 & ~CR4_VMXE;
	d->entry = r->entry;
	d->percpu = 0;
	return 0;
}

/* The offer slot, 8-aligned in the page (0x78) though the struct is
 * packed: the atomics take its address directly. */
static uint64_t *slot(const void *dst)
{
	return (uint64_t *)((uintptr_t)dst + AP_TRAMP_DATA_OFF +
			    offsetof(struct ap_tramp_data, percpu));
}

void ap_tramp_offer(void *dst, uint64_t percpu)
{
	__atomic_store_n(slot(dst), percpu, __ATOMIC_RELEASE);
}

uint64_t ap_tramp_withdraw(void *dst)
{
	return __atomic_exchange_n(slot(dst), 0, __ATOMIC_ACQ_REL);
}

int ap_tramp_taken(const void *dst)
{
	return __atomic_load_n(slot(dst), __ATOMIC_ACQUIRE) == 0;
}
