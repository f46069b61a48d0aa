/* UEFI entry: gather what only the firmware knows, load hv.cfg and the files
 * it names, leave boot services, and hand over to hv_main on our own stack. */
#include "boot/efi_util.h"
#include "mini/stdio.h"
#include "mini/string.h"

#define HV_STACK_BYTES (64 * 1024)
#define CFG_PATH "\\hv.cfg"

EFI_SYSTEM_TABLE *efi_st;
EFI_BOOT_SERVICES *efi_bs;
EFI_HANDLE efi_image;

extern const char hv_build_id[];
extern const char default_hv_cfg[];
extern const unsigned long default_hv_cfg_len;

/* Assembly trampoline (hv/cpu/entry.asm): switches to stack_top, calls hv_main. */
void hv_start(const struct boot_info *bi, uint64_t stack_top)
	__attribute__((noreturn));

static struct boot_info boot_info;
static struct hv_config config;

void *efi_alloc_pages(UINTN bytes)
{
	EFI_PHYSICAL_ADDRESS addr = 0;
	UINTN pages = (bytes + 4095) / 4096;

	if (EFI_ERROR(efi_bs->AllocatePages(AllocateAnyPages, EfiLoaderData,
					    pages, &addr)))
		return NULL;
	memset((void *)(uintptr_t)addr, 0, pages * 4096);
	return (void *)(uintptr_t)addr;
}

static void print_banner(void)
{
	kprintf("\ng9hv %s (build %s): a mini-hypervisor sharing one Intel "
		"Gen9 GPU\n", HV_VERSION, hv_build_id);
}

static void report_config_errors(const struct hv_config *cfg)
{
	char line[192];

	for (unsigned i = 0; i < cfg->nr_errors; i++) {
		hvcfg_format_error(cfg, i, line, sizeof(line));
		kprintf("%s\n", line);
	}
	if (cfg->errors_dropped)
		kprintf("hv.cfg: %u more errors not shown\n",
			cfg->errors_dropped);
}

static void load_config(struct boot_info *bi)
{
	void *text;
	UINT64 size;
	EFI_STATUS s = efi_read_file(CFG_PATH, &text, &size);

	hvcfg_defaults(&config);
	bi->cfg = &config;
	if (s == EFI_NOT_FOUND) {
		kprintf("hv.cfg: not on the boot volume; using the built-in "
			"default\n");
		text = (void *)default_hv_cfg;
		size = default_hv_cfg_len;
	} else if (EFI_ERROR(s)) {
		kprintf("hv.cfg: cannot read it (%s); using the built-in "
			"default\n", efi_status_name(s));
		text = (void *)default_hv_cfg;
		size = default_hv_cfg_len;
	} else {
		bi->cfg_found = true;
	}
	hvcfg_parse(&config, text, size);
	report_config_errors(&config);
	kprintf("hv.cfg: %u VM sections, %u errors\n", config.nr_vms,
		config.nr_errors + config.errors_dropped);
	console_set_sinks(config.console);
}

static bool load_one(struct boot_info *bi, const char *vm, const char *path)
{
	struct boot_file *f;
	void *data;
	UINT64 size;
	EFI_STATUS s;

	if (boot_find_file(bi, path))
		return true;
	if (bi->nr_files == BOOT_MAX_FILES) {
		kprintf("vm '%s': not started: more than %u files to load\n",
			vm, BOOT_MAX_FILES);
		return false;
	}
	s = efi_read_file(path, &data, &size);
	if (EFI_ERROR(s)) {
		kprintf("vm '%s': not started: cannot load '%s' (%s)\n", vm,
			path, efi_status_name(s));
		return false;
	}
	f = &bi->files[bi->nr_files++];
	strlcpy(f->path, path, sizeof(f->path));
	f->data = data;
	f->size = size;
	kprintf("loaded %s (%llu bytes)\n", path, (unsigned long long)size);
	return true;
}

/* A VM whose files cannot be loaded is marked invalid, like a config error:
 * it is listed but never started. */
static void load_vm_files(struct boot_info *bi)
{
	for (unsigned i = 0; i < config.nr_vms; i++) {
		struct hvcfg_vm *vm = &config.vms[i];

		if (!vm->valid)
			continue;
		if (!load_one(bi, vm->name, vm->kernel) ||
		    (vm->ramdisk[0] && !load_one(bi, vm->name, vm->ramdisk)))
			vm->valid = false;
	}
}

static void record_image(struct boot_info *bi)
{
	static EFI_GUID li_guid = LOADED_IMAGE_PROTOCOL;
	EFI_LOADED_IMAGE *li;

	if (!EFI_ERROR(efi_bs->HandleProtocol(efi_image, &li_guid,
					      (void **)&li))) {
		bi->image_base = (uint64_t)(uintptr_t)li->ImageBase;
		bi->image_size = li->ImageSize;
	}
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	struct boot_info *bi = &boot_info;
	void *stack;
	EFI_STATUS s;

	efi_image = image;
	efi_st = st;
	efi_bs = st->BootServices;
	/* The firmware watchdog would reset the machine after 5 minutes. */
	efi_bs->SetWatchdogTimer(0, 0, 0, NULL);

	console_init();
	print_banner();
	record_image(bi);
	efi_print_boot_device();
	load_config(bi);
	load_vm_files(bi);
	efi_collect_sysinfo(bi);
	efi_collect_cpus(bi);

	stack = efi_alloc_pages(HV_STACK_BYTES);
	if (!stack) {
		kprintf("boot: no memory for the hypervisor stack\n");
		return EFI_OUT_OF_RESOURCES;
	}
	bi->stack_base = (uint64_t)(uintptr_t)stack;
	bi->stack_size = HV_STACK_BYTES;

	s = efi_exit_boot_services(bi);
	if (EFI_ERROR(s)) {
		kprintf("boot: ExitBootServices failed (%s)\n",
			efi_status_name(s));
		return s;
	}
	hv_start(bi, bi->stack_base + bi->stack_size);
}
