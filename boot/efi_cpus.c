/* What only the firmware knows about the CPUs, taken before boot services
 * go: the logical CPUs of UEFI's MP services protocol (PI spec, volume 2,
 * EFI_MP_SERVICES_PROTOCOL) and pages below 1 MiB for the APs' real-mode
 * start. The hypervisor starts the APs itself after ExitBootServices
 * (hv/smp.c, docs/smp.md); nothing here runs code on them. */
#include "boot/efi_util.h"

/* GNU-EFI has no header for the protocol: its GUID and the two calls we
 * make, in the PI spec's order of the table. */
#define MP_SERVICES_GUID                                                      \
	{ 0x3fdda605, 0xa76e, 0x4f46,                                         \
	  { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }
#define PROCESSOR_ENABLED_BIT 0x2u
/* SIPI vectors reach 0x00000-0xFF000, but 0xA0000 up is video memory and
 * ROM: the code must sit in conventional memory. */
#define TRAMPOLINE_MAX_ADDR 0x9ffffull

struct mp_cpu_location {
	UINT32 package, core, thread;
};

struct mp_processor_info {
	UINT64 processor_id; /* the local APIC id */
	UINT32 status_flag;
	struct mp_cpu_location location;
	/* PI 1.7's extended location, written only when asked for (bit 24
	 * of the processor number, never set here); room for it anyway, in
	 * case a firmware writes the newer, longer struct regardless. */
	UINT32 location2[6];
};

struct mp_services;
typedef EFI_STATUS(EFIAPI *mp_get_number_fn)(struct mp_services *self,
					       UINTN *nr, UINTN *nr_enabled);
typedef EFI_STATUS(EFIAPI *mp_get_info_fn)(struct mp_services *self, UINTN n,
					     struct mp_processor_info *info);

struct mp_services {
	mp_get_number_fn get_number_of_processors;
	mp_get_info_fn get_processor_info;
	/* StartupAllAPs, StartupThisAP, SwitchBSP, EnableDisableAP,
	 * WhoAmI follow; unused */
};

static EFI_GUID mp_guid = MP_SERVICES_GUID;

static void add_cpu(struct boot_info *bi, uint32_t apic_id)
{
	if (bi->nr_fw_cpus == BOOT_MAX_CPUS) {
		bi->fw_cpus_dropped++;
		return;
	}
	bi->fw_cpu_apic_id[bi->nr_fw_cpus++] = apic_id;
}

/* Only enabled CPUs are listed: a disabled one is one the firmware itself
 * took out (it failed its self-test, or setup turned it off). */
static void collect_mp_cpus(struct boot_info *bi)
{
	struct mp_services *mp;
	UINTN nr, nr_enabled;

	if (EFI_ERROR(efi_bs->LocateProtocol(&mp_guid, NULL, (void **)&mp)) ||
	    EFI_ERROR(mp->get_number_of_processors(mp, &nr, &nr_enabled)))
		return;
	for (UINTN i = 0; i < nr; i++) {
		struct mp_processor_info info;

		if (!EFI_ERROR(mp->get_processor_info(mp, i, &info)) &&
		    (info.status_flag & PROCESSOR_ENABLED_BIT))
			add_cpu(bi, (uint32_t)info.processor_id);
	}
}

/* Loader data, so the final memory map says the pages are ours and the
 * page allocator (which starts at 1 MiB anyway) never hands them out. */
static void reserve_trampoline(struct boot_info *bi)
{
	EFI_PHYSICAL_ADDRESS addr = TRAMPOLINE_MAX_ADDR;

	if (!EFI_ERROR(efi_bs->AllocatePages(AllocateMaxAddress, EfiLoaderData,
					     BOOT_AP_TRAMPOLINE_PAGES,
					     &addr)))
		bi->ap_trampoline = addr;
}

void efi_collect_cpus(struct boot_info *bi)
{
	collect_mp_cpus(bi);
	reserve_trampoline(bi);
}
