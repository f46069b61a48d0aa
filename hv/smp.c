/* SMP bring-up (docs/smp.md): the firmware's CPU list to a plan
 * (hv/cpu/smp_plan.c), the trampoline below 1 MiB (hv/cpu/ap_tramp.c), per
 * AP a per-CPU area with its tables and a VMXON region, INIT-SIPI-SIPI and
 * the bounded wait (hv/cpu/smp_boot.c), VMXON on the AP (hv/vmx/vmx.c),
 * then the console line. Only CPUs that checked in are counted or named. */
#include "hv/smp.h"
#include "hv/console/console.h"
#include "hv/cpu/ap_tramp.h"
#include "hv/cpu/cpu.h"
#include "hv/cpu/host_lapic.h"
#include "hv/cpu/smp_boot.h"
#include "hv/cpu/smp_plan.h"
#include "hv/cpu/x86.h"
#include "hv/hv.h"
#include "hv/mm/mem.h"
#include "hv/platform/tsc.h"
#include "hv/vm/sched_place.h"
#include "hv/vmx/vmx.h"

#define MSR_EFER 0xc0000080u
#define CR3_ADDR_MASK 0x000ffffffffff000ull

_Static_assert(BOOT_AP_TRAMPOLINE_PAGES == AP_TRAMP_PAGES,
	       "the loader reserves what the trampoline needs");

extern const uint8_t ap_tramp_start[], ap_tramp_end[];

struct cpu_list {
	const uint32_t *ids;
	uint32_t n, dropped;
	const char *source;
};

static struct percpu *up[SMP_MAX_CPUS];
static unsigned nr_up, nr_vmx;

unsigned smp_nr_up(void) { return nr_up; }
struct percpu *smp_cpu(unsigned i) { return i < nr_up ? up[i] : NULL; }

/* The MADT where there is one; else UEFI's MP services (OVMF in Bochs
 * publishes no ACPI tables). */
static struct cpu_list firmware_cpus(const struct boot_info *bi)
{
	const struct acpi_info *ai = &hv_platform.acpi;

	if (hv_platform.has_acpi && ai->has_madt && ai->nr_cpu_ids)
		return (struct cpu_list){ ai->cpu_apic_id, ai->nr_cpu_ids,
					  ai->cpus_dropped, "in the MADT" };
	if (bi->nr_fw_cpus)
		return (struct cpu_list){ bi->fw_cpu_apic_id, bi->nr_fw_cpus,
					  bi->fw_cpus_dropped,
					  "in UEFI's MP services (no MADT)" };
	return (struct cpu_list){ NULL, 0, 0,
				  "listed by the firmware (no MADT, no MP "
				  "services)" };
}

/* The AP's work before it parks: VMX root operation, if it can. */
static void ap_vmx_on(struct percpu *p)
{
	struct vtx_verdict v = vtx_detect();

	if (v.state == VTX_ABSENT)
		p->work_status = VMX_AP_NO_VMX;
	else if (v.state == VTX_DISABLED_BY_FW)
		p->work_status = VMX_AP_FW_DISABLED;
	else
		p->work_status = vmx_ap_enable(p->vmxon_region);
	if (p->work_status != VMX_AP_ON)
		p->vm_placed = 0;	/* it parks; the BSP refuses its VMs */
}

static void *install_trampoline(const struct boot_info *bi, uint64_t *pa)
{
	uint64_t base = bi->ap_trampoline;
	struct ap_tramp_regs r = {
		.cr0 = read_cr0(), .cr3 = read_cr3(), .cr4 = read_cr4(),
		.efer = rdmsr(MSR_EFER),
		.entry = (uint64_t)(uintptr_t)smp_ap_entry,
	};

	if (!base)
		base = smp_find_trampoline(bi->mem, bi->nr_mem, AP_TRAMP_PAGES);
	if (!base) {
		kprintf("smp: no free pages below 640 KiB for the APs' start "
			"code: APs not started\n");
		return NULL;
	}
	if (ap_tramp_install(hv_va(base), base, ap_tramp_start,
			     (size_t)(ap_tramp_end - ap_tramp_start),
			     hv_va(read_cr3() & CR3_ADDR_MASK), &r)) {
		kprintf("smp: the AP trampoline does not fit at %llx: APs not "
			"started\n", (unsigned long long)base);
		return NULL;
	}
	*pa = base;
	return hv_va(base);
}

/* What the AP did after checking in; it is counted as up either way. */
static void report_ap_work(struct percpu *p, bool vmx)
{
	if (smp_wait_parked(p)) {
		kprintf("smp: CPU %u (LAPIC ID %u): up, but its VMX set-up "
			"never finished\n", p->index, p->seen_apic_id);
		return;
	}
	if (p->seen_apic_id != p->apic_id)
		kprintf("smp: CPU %u: started as LAPIC ID %u, its LAPIC says "
			"%u\n", p->index, p->apic_id, p->seen_apic_id);
	if (!vmx)
		return;
	if (p->work_status == VMX_AP_ON)
		nr_vmx++;
	else
		kprintf("smp: CPU %u (LAPIC ID %u): %s: parked without VMX\n",
			p->index, p->seen_apic_id,
			vmx_ap_status_name(p->work_status));
}

/* The CPUs hv.cfg's startable VMs are pinned to (cpus=), and how many
 * more APs to ready for the VMs without cpus= (sched_place.h). */
static uint64_t placed_cpus;
static unsigned shared_wanted;

/* An AP with VMX takes VMs: those pinned to it, or, while more are
 * wanted, the unpinned ones (it is then one of the shared CPUs). */
static bool takes_vms(struct percpu *p)
{
	if (!p->ap_work || p->index >= 64)
		return false;
	if (placed_cpus >> p->index & 1)
		return true;
	if (!shared_wanted)
		return false;
	shared_wanted--;
	p->vm_shared = 1;
	return true;
}

static struct percpu *prepare_ap(uint32_t apic_id, bool vmx)
{
	struct percpu *p = percpu_alloc(nr_up, apic_id);

	if (!p)
		return NULL;
	cpu_tables_build(p);
	if (vmx) {
		p->vmxon_region = page_alloc();
		p->ap_work = p->vmxon_region ? ap_vmx_on : NULL;
		p->vm_placed = takes_vms(p);
	}
	return p;
}

static unsigned cfg_unpinned(const struct hv_config *cfg)
{
	unsigned n = 0;

	for (unsigned i = 0; i < cfg->nr_vms; i++)
		n += cfg->vms[i].valid && !cfg->vms[i].cpus;
	return n;
}

static uint64_t cfg_placed_cpus(const struct hv_config *cfg)
{
	uint64_t m = 0;

	for (unsigned i = 0; i < cfg->nr_vms; i++)
		if (cfg->vms[i].valid)
			m |= cfg->vms[i].cpus;
	return m;
}

const char *smp_cpu_refuses_vms(unsigned i)
{
	struct percpu *p = smp_cpu(i);

	if (!p)
		return "which did not come up";
	if (!p->vm_placed ||
	    __atomic_load_n(&p->state, __ATOMIC_ACQUIRE) != PERCPU_PARKED)
		return "which is up without VMX";
	return NULL;
}

bool smp_cpu_shared(unsigned i)
{
	const struct percpu *p = smp_cpu(i);

	return i == 0 || (p && p->vm_shared && !smp_cpu_refuses_vms(i));
}

void smp_run_on_aps(void (*run)(struct percpu *p))
{
	for (unsigned i = 1; i < nr_up; i++)
		if (up[i]->vm_placed)
			__atomic_store_n(&up[i]->run, run, __ATOMIC_RELEASE);
}

bool smp_aps_idle(void)
{
	for (unsigned i = 1; i < nr_up; i++)
		if (__atomic_load_n(&up[i]->busy, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

static void start_one(void *tramp, uint64_t tramp_pa, uint32_t apic_id,
		      bool vmx)
{
	struct percpu *p = prepare_ap(apic_id, vmx);
	enum smp_start s;

	if (!p) {
		kprintf("smp: LAPIC ID %u: no memory for its per-CPU area: "
			"not started\n", apic_id);
		return;
	}
	s = smp_start_ap(tramp, tramp_pa, p);
	if (s != SMP_START_UP) {
		kprintf("smp: LAPIC ID %u: %s: skipped\n", apic_id,
			smp_start_name(s));
		/* A stuck AP may still use its area: only an untaken one
		 * goes back. */
		if (s != SMP_START_STUCK) {
			if (p->vmxon_region)
				page_free(p->vmxon_region);
			page_free_contig(p, PERCPU_PAGES);
		}
		return;
	}
	up[nr_up++] = p;
	report_ap_work(p, vmx && p->ap_work);
}

static void print_skips(const struct smp_plan *plan, const struct cpu_list *l)
{
	for (uint32_t i = 0; i < plan->nr_skipped; i++)
		kprintf("smp: LAPIC ID %u: %s: not started\n",
			plan->skipped[i].apic_id,
			smp_skip_name(plan->skipped[i].why));
	if (l->dropped || plan->skipped_dropped)
		kprintf("smp: %u more CPUs listed than kept: not started\n",
			l->dropped + plan->skipped_dropped);
	if (l->n && !plan->bsp_listed)
		kprintf("smp: the BSP's LAPIC ID %u is not in the list\n",
			plan->bsp_apic_id);
}

static void print_summary(const struct cpu_list *l)
{
	uint32_t listed = l->n + l->dropped;

	if (l->n)
		kprintf("smp: %u CPU%s %s, ", listed, listed == 1 ? "" : "s",
			l->source);
	else
		kprintf("smp: no CPUs %s, ", l->source);
	kprintf("%u up (LAPIC ID%s", nr_up, nr_up == 1 ? "" : "s");
	for (unsigned i = 0; i < nr_up; i++)
		kprintf(" %u", up[i]->seen_apic_id);
	kprintf("), VMX on %u\n", nr_vmx);
}

static void start_bsp(void)
{
	struct percpu *bsp = this_cpu();

	lapic_init();	/* software-enabled: the ICR sends from here */
	bsp->apic_id = bsp->seen_apic_id = lapic_id();
	up[nr_up++] = bsp;
	if (vtx_usable(&hv_platform.vtx) && !vmx_enable())
		nr_vmx++;
	if (!tsc_hz())
		tsc_calibrate();
}

/* selftest=smp-ghost: an AP with an id above every listed one (within the
 * xAPIC range), which no CPU answers to. */
static void add_ghost(struct smp_plan *plan, const struct cpu_list *l)
{
	uint32_t id = plan->bsp_apic_id;

	for (uint32_t i = 0; i < l->n; i++)
		if (l->ids[i] > id)
			id = l->ids[i];
	if (id + 1 > SMP_XAPIC_MAX_ID || plan->nr_aps + 1 >= SMP_MAX_CPUS)
		return;
	kprintf("smp: selftest: also starting LAPIC ID %u, which no CPU "
		"has\n", id + 1);
	plan->ap_apic_id[plan->nr_aps++] = id + 1;
}

void smp_boot(const struct boot_info *bi)
{
	struct cpu_list l = firmware_cpus(bi);
	static struct smp_plan plan;
	uint64_t tramp_pa = 0;
	void *tramp = NULL;

	start_bsp();
	console_smp_begin();	/* an AP may print (an exception, its VMs) */
	placed_cpus = cfg_placed_cpus(bi->cfg);
	shared_wanted = sched_place_aps_wanted(cfg_unpinned(bi->cfg),
					       bi->cfg->spread);
	smp_plan_build(l.ids, l.n, up[0]->apic_id, lapic_is_x2apic(), &plan);
	print_skips(&plan, &l);
	if (bi->cfg->selftest == HVCFG_SELFTEST_SMP_GHOST)
		add_ghost(&plan, &l);
	if (plan.nr_aps)
		tramp = install_trampoline(bi, &tramp_pa);
	for (uint32_t i = 0; tramp && i < plan.nr_aps; i++)
		start_one(tramp, tramp_pa, plan.ap_apic_id[i], vmx_cpu.on);
	print_summary(&l);
}
