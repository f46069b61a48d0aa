/* libFuzzer target for the hv.cfg parser (boot/config.c).
 *
 * hv.cfg is written by people and read before anything else runs, so the
 * parser must survive any bytes. Beyond "no crash, no out-of-bounds read"
 * (ASan/UBSan) this checks after every input that the result is one the boot
 * code may trust without re-checking: a valid VM satisfies every documented
 * constraint, every string is terminated, every error points into the file. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/config.h"

#define MiB (1ull << 20)

static struct hv_config cfg, again;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			__builtin_trap();                                      \
	} while (0)

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static bool valid_name(const char *s)
{
	size_t i, n = strlen(s);

	if (n < 1 || n > HVCFG_NAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
			return false;
	return strcmp(s, "global") != 0;
}

static bool valid_path(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n > HVCFG_PATH_MAX || (s[0] != '\\' && s[0] != '/'))
		return false;
	for (i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return false;
	return true;
}

static bool valid_gm(uint64_t gm)
{
	return gm >= HVCFG_GM_MIN && gm <= HVCFG_GM_MAX && gm % MiB == 0;
}

static void check_vm(const struct hvcfg_vm *vm, unsigned idx)
{
	unsigned j;

	CHECK(terminated(vm->name, sizeof(vm->name)));
	CHECK(terminated(vm->kernel, sizeof(vm->kernel)));
	CHECK(terminated(vm->ramdisk, sizeof(vm->ramdisk)));
	CHECK(terminated(vm->cmdline, sizeof(vm->cmdline)));
	CHECK(valid_name(vm->name));
	CHECK(vm->line >= 1);
	for (j = 0; j < idx; j++)
		CHECK(strcmp(cfg.vms[j].name, vm->name) != 0);
	CHECK(vm->valid == (vm->nr_errors == 0));
	/* "no vGPU" is one state even in an invalid VM */
	if (!vm->has_vgpu)
		CHECK(!vm->vgpu_low_gm && !vm->vgpu_high_gm && !vm->fences);
	if (!vm->valid)
		return;

	CHECK(vm->memory >= HVCFG_MEM_MIN && vm->memory <= HVCFG_MEM_MAX);
	CHECK(vm->memory % HVCFG_MEM_ALIGN == 0);
	CHECK(valid_path(vm->kernel));
	CHECK(!vm->ramdisk[0] || valid_path(vm->ramdisk));
	if (vm->has_vgpu) {
		CHECK(valid_gm(vm->vgpu_low_gm));
		CHECK(valid_gm(vm->vgpu_high_gm));
		CHECK(vm->fences <= HVCFG_FENCES_MAX);
	}
}

/* What the parser counts as lines: one per '\n', plus an unterminated
 * last one. */
static long count_lines(const uint8_t *data, size_t size)
{
	long n = 0;
	size_t i;

	for (i = 0; i < size; i++)
		n += data[i] == '\n';
	return n + (size && data[size - 1] != '\n');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size heap copy: ASan then catches a read past len. */
	char *text = malloc(size ? size : 1);
	unsigned total, i, vm_errors = 0;
	long lines = count_lines(data, size);
	char buf[64];

	memcpy(text, data, size);
	total = hvcfg_parse(&cfg, text, size);

	CHECK(total == cfg.nr_errors + cfg.errors_dropped);
	CHECK(cfg.nr_errors <= HVCFG_MAX_ERRORS);
	CHECK(cfg.errors_dropped == 0 || cfg.nr_errors == HVCFG_MAX_ERRORS);
	CHECK(cfg.nr_vms <= HVCFG_MAX_VMS);

	CHECK(terminated(cfg.default_vm, sizeof(cfg.default_vm)));
	CHECK(!cfg.default_vm[0] || hvcfg_find_vm(&cfg, cfg.default_vm));
	CHECK(terminated(cfg.display_owner, sizeof(cfg.display_owner)));
	CHECK(!cfg.display_owner[0] ||
	      hvcfg_find_vm(&cfg, cfg.display_owner));
	CHECK(cfg.console && !(cfg.console & ~(unsigned)(HVCFG_CONSOLE_COM1 |
							 HVCFG_CONSOLE_E9)));
	CHECK(cfg.slice_ms >= HVCFG_SLICE_MS_MIN &&
	      cfg.slice_ms <= HVCFG_SLICE_MS_MAX);
	CHECK(cfg.test_exit <= HVCFG_EXIT_SHELL);
	CHECK(cfg.selftest <= HVCFG_SELFTEST_UD);
	CHECK(cfg.vtd <= HVCFG_VTD_OFF);
	CHECK(cfg.vtd_selftest <= HVCFG_VTD_SELFTEST_EDU);

	for (i = 0; i < cfg.nr_vms; i++) {
		check_vm(&cfg.vms[i], i);
		CHECK(hvcfg_find_vm(&cfg, cfg.vms[i].name) == &cfg.vms[i]);
		vm_errors += cfg.vms[i].nr_errors;
	}
	CHECK(vm_errors <= total);

	for (i = 0; i < cfg.nr_errors; i++) {
		const struct hvcfg_error *e = &cfg.errors[i];

		CHECK(e->line >= 1 && e->line <= lines);
		CHECK(i == 0 || cfg.errors[i - 1].line <= e->line);
		CHECK(terminated(e->section, sizeof(e->section)));
		CHECK(terminated(e->reason, sizeof(e->reason)));
		CHECK(e->reason[0]);
		/* small buffer on purpose: truncation must be safe */
		CHECK(hvcfg_format_error(&cfg, i, buf, sizeof(buf)) > 0);
		CHECK(terminated(buf, sizeof(buf)));
	}
	CHECK(hvcfg_format_error(&cfg, cfg.nr_errors, buf, sizeof(buf)) == -1);

	/* Deterministic: no state survives between parses. */
	CHECK(hvcfg_parse(&again, text, size) == total);
	CHECK(memcmp(&cfg, &again, sizeof(cfg)) == 0);

	free(text);
	return 0;
}
