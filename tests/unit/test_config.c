/* Unit tests of the hv.cfg parser (boot/config.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "boot/config.h"

#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define GiB (1ull << 30)

/* ~55 KiB: not on the test's stack. */
static struct hv_config cfg;

static unsigned parse(const char *text)
{
	return hvcfg_parse(&cfg, text, strlen(text));
}

/* Error i is on line, in section, and its reason contains what. */
static void check_error(unsigned i, int line, const char *section,
			const char *what)
{
	const struct hvcfg_error *e;

	assert_true(i < cfg.nr_errors);
	e = &cfg.errors[i];
	if (e->line != line || strcmp(e->section, section) ||
	    !strstr(e->reason, what))
		fail_msg("error %u: got line %d [%s] '%s', want line %d [%s] '...%s...'",
			 i, e->line, e->section, e->reason, line, section, what);
}

/* The one error of a config is on line, in section, about what. */
static void check_only_error(const char *text, int line, const char *section,
			     const char *what)
{
	if (parse(text) != 1) {
		print_error("config:\n%s\n", text);
		fail_msg("want 1 error, got %u (first: '%s')", cfg.nr_errors,
			 cfg.nr_errors ? cfg.errors[0].reason : "");
	}
	check_error(0, line, section, what);
}

static const struct hvcfg_vm *vm(const char *name)
{
	const struct hvcfg_vm *v = hvcfg_find_vm(&cfg, name);

	assert_non_null(v);
	return v;
}

/* A VM section that is fine as it is; tests append keys to it. */
#define VM1 "[vm1]\nmemory=64M\nkernel=\\tg.bin\n"

/* ---- whole configs ----------------------------------------------------- */

static const char full_config[] =
	"# hv.cfg for the lab box\n"
	"[global]\n"
	"default = linux\n"
	"console = com1,e9\n"
	"slice_ms = 20\n"
	"test_exit = vms\n"
	"selftest = ud\n"
	"\n"
	"[linux]\n"
	"memory = 512M\n"
	"kernel = \\guests\\vmlinuz\n"
	"ramdisk = \\guests\\initrd.img\n"
	"cmdline = console=ttyS0 root=/dev/ram0 i915.enable_guc=0\n"
	"vgpu_low_gm = 128M\n"
	"vgpu_high_gm = 384M\n"
	"fences = 8\n"
	"\n"
	"[test-guest_2]\n"
	"memory = 0x4000000\n"
	"kernel = /testguest.bin\n";

static void test_full_config(void **state)
{
	const struct hvcfg_vm *v;

	(void)state;
	assert_int_equal(parse(full_config), 0);
	assert_string_equal(cfg.default_vm, "linux");
	assert_int_equal(cfg.console, HVCFG_CONSOLE_COM1 | HVCFG_CONSOLE_E9);
	assert_int_equal(cfg.slice_ms, 20);
	assert_int_equal(cfg.test_exit, HVCFG_EXIT_VMS);
	assert_int_equal(cfg.selftest, HVCFG_SELFTEST_UD);
	assert_int_equal(cfg.nr_vms, 2);

	v = &cfg.vms[0];
	assert_string_equal(v->name, "linux");
	assert_int_equal(v->line, 9);
	assert_true(v->valid);
	assert_int_equal(v->nr_errors, 0);
	assert_int_equal(v->memory, 512 * MiB);
	assert_string_equal(v->kernel, "\\guests\\vmlinuz");
	assert_string_equal(v->ramdisk, "\\guests\\initrd.img");
	assert_string_equal(v->cmdline,
			    "console=ttyS0 root=/dev/ram0 i915.enable_guc=0");
	assert_true(v->has_vgpu);
	assert_int_equal(v->vgpu_low_gm, 128 * MiB);
	assert_int_equal(v->vgpu_high_gm, 384 * MiB);
	assert_int_equal(v->fences, 8);

	v = &cfg.vms[1];
	assert_string_equal(v->name, "test-guest_2");
	assert_int_equal(v->line, 18);
	assert_true(v->valid);
	assert_int_equal(v->memory, 64 * MiB);
	assert_string_equal(v->kernel, "/testguest.bin");
	assert_string_equal(v->ramdisk, "");
	assert_string_equal(v->cmdline, "");
	assert_false(v->has_vgpu);
	assert_int_equal(v->vgpu_low_gm, 0);
	assert_int_equal(v->vgpu_high_gm, 0);
	assert_int_equal(v->fences, 0);
}

static void test_defaults(void **state)
{
	(void)state;
	memset(&cfg, 0x5a, sizeof(cfg));
	hvcfg_defaults(&cfg);
	assert_string_equal(cfg.default_vm, "");
	assert_int_equal(cfg.console, HVCFG_CONSOLE_COM1);
	assert_int_equal(cfg.slice_ms, 10);
	assert_int_equal(cfg.slice_lone_ms, 100);
	assert_int_equal(cfg.slice_stretch_ms, 10);
	assert_int_equal(cfg.test_exit, HVCFG_EXIT_NO);
	assert_int_equal(cfg.selftest, HVCFG_SELFTEST_NONE);
	assert_int_equal(cfg.nr_vms, 0);
	assert_int_equal(cfg.nr_errors, 0);
	assert_int_equal(cfg.errors_dropped, 0);

	/* Empty files, and files of nothing, are valid: the shell boots. */
	assert_int_equal(hvcfg_parse(&cfg, "", 0), 0);
	assert_int_equal(parse("\n\n   \n\t\n# nothing\n"), 0);
	assert_int_equal(parse("[global]\n"), 0);
	assert_int_equal(cfg.nr_vms, 0);
	assert_int_equal(cfg.slice_ms, 10);
}

/* A second parse starts from scratch. */
static void test_parse_resets(void **state)
{
	(void)state;
	assert_int_equal(parse(full_config), 0);
	assert_int_equal(parse("[global]\nslice_ms=5\n"), 0);
	assert_int_equal(cfg.nr_vms, 0);
	assert_string_equal(cfg.default_vm, "");
	assert_int_equal(cfg.console, HVCFG_CONSOLE_COM1);
	assert_int_equal(cfg.slice_ms, 5);
}

/* ---- lexical ----------------------------------------------------------- */

static void test_comments(void **state)
{
	(void)state;
	assert_int_equal(parse("# a\n; b\n   # indented\n"
			       "[vm1] # trailing after a header\n"
			       "memory = 64M # trailing\n"
			       "kernel=\\a#b.bin\t; trailing after a tab\n"
			       "ramdisk=/r;d.img ;x\n"
			       "cmdline = a #b ;c  \n"),
			 0);
	assert_int_equal(vm("vm1")->memory, 64 * MiB);
	/* '#' / ';' not after whitespace belong to the value... */
	assert_string_equal(vm("vm1")->kernel, "\\a#b.bin");
	assert_string_equal(vm("vm1")->ramdisk, "/r;d.img");
	/* ...and cmdline keeps them all; only trailing blanks go. */
	assert_string_equal(vm("vm1")->cmdline, "a #b ;c");

	/* A comment right after '=' leaves nothing. */
	check_only_error(VM1 "ramdisk=#x\n", 4, "vm1", "ramdisk: empty value");
}

static void test_crlf_bom(void **state)
{
	(void)state;
	assert_int_equal(parse("\xef\xbb\xbf[global]\r\ndefault=vm1\r\n\r\n"
			       "[vm1]\r\nmemory=64M\r\nkernel=\\k\r\n"
			       "cmdline=quiet  \r\n"),
			 0);
	assert_string_equal(cfg.default_vm, "vm1");
	assert_string_equal(vm("vm1")->kernel, "\\k");
	assert_string_equal(vm("vm1")->cmdline, "quiet");
	assert_int_equal(vm("vm1")->line, 4);

	/* A BOM is only welcome at the start. */
	check_only_error("[global]\n\xef\xbb\xbfslice_ms=5\n", 2, "global",
			 "bad key name");
	/* The last line needs no newline. */
	assert_int_equal(parse("[vm1]\nkernel=\\k\nmemory=2M"), 0);
	assert_int_equal(vm("vm1")->memory, 2 * MiB);
}

/* The text is a length, not a C string: nothing past len is read (ASan
 * checks the bytes after the copy), and a NUL inside is an error. */
static void test_not_nul_terminated(void **state)
{
	static const char text[] = VM1 "cmdline=abc";
	size_t len = strlen(text);
	char *buf = malloc(len);

	(void)state;
	memcpy(buf, text, len);
	assert_int_equal(hvcfg_parse(&cfg, buf, len), 0);
	assert_string_equal(vm("vm1")->cmdline, "abc");
	assert_int_equal(hvcfg_parse(&cfg, buf, len - 2), 0);
	assert_string_equal(vm("vm1")->cmdline, "a");
	free(buf);

	assert_int_equal(hvcfg_parse(&cfg, VM1 "cmdline=a\0b\n", sizeof(VM1) + 11),
			 1);
	check_error(0, 4, "vm1", "NUL byte");
	assert_false(vm("vm1")->valid);
}

/* ---- values ------------------------------------------------------------ */

static uint64_t memory_of(const char *value)
{
	char text[256];

	snprintf(text, sizeof(text), "[vm1]\nkernel=\\k\nmemory=%s\n", value);
	if (parse(text))
		fail_msg("memory=%s: %s", value, cfg.errors[0].reason);
	return vm("vm1")->memory;
}

static void test_sizes(void **state)
{
	(void)state;
	assert_int_equal(memory_of("2097152"), 2 * MiB);
	assert_int_equal(memory_of("0x200000"), 2 * MiB);
	assert_int_equal(memory_of("0X200000"), 2 * MiB);
	assert_int_equal(memory_of("2048K"), 2 * MiB);
	assert_int_equal(memory_of("2048kib"), 2 * MiB);
	assert_int_equal(memory_of("64M"), 64 * MiB);
	assert_int_equal(memory_of("64m"), 64 * MiB);
	assert_int_equal(memory_of("64MB"), 64 * MiB);
	assert_int_equal(memory_of("64mb"), 64 * MiB);
	assert_int_equal(memory_of("64MiB"), 64 * MiB);
	assert_int_equal(memory_of("64 MiB"), 64 * MiB);
	assert_int_equal(memory_of("0x40M"), 64 * MiB);
	assert_int_equal(memory_of("0040M"), 40 * MiB);	/* not octal */
	assert_int_equal(memory_of("1G"), GiB);
	assert_int_equal(memory_of("1gb"), GiB);
}

static void test_sizes_bad(void **state)
{
	static const char *const bad[] = {
		"M", "-64M", "+64M", "64X", "64MM", "64 M B", "64MiBs",
		"64iB", "0x", "0xM", "6 4M", "1.5G", "64M,",
		"18446744073709551616",		/* 2^64 */
		"17179869184G",			/* 2^64 after the shift */
		"0x10000000000000000",
	};
	char text[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), VM1 "vgpu_low_gm=%s\nvgpu_high_gm=1M\n",
			 bad[i]);
		check_only_error(text, 4, "vm1", "is not a size");
	}
}

static void test_memory_limits(void **state)
{
	(void)state;
	assert_int_equal(memory_of("2M"), 2 * MiB);
	assert_int_equal(memory_of("64G"), 64 * GiB);
	assert_int_equal(memory_of("4094M"), 4094 * MiB);

	check_only_error("[vm1]\nkernel=\\k\nmemory=0\n", 3, "vm1", "out of range");
	check_only_error("[vm1]\nkernel=\\k\nmemory=1M\n", 3, "vm1", "out of range");
	check_only_error("[vm1]\nkernel=\\k\nmemory=65538M\n", 3, "vm1",
			 "out of range");
	check_only_error("[vm1]\nkernel=\\k\nmemory=128G\n", 3, "vm1",
			 "out of range");
	check_only_error("[vm1]\nkernel=\\k\nmemory=3M\n", 3, "vm1",
			 "not a multiple of 2M");
	check_only_error("[vm1]\nkernel=\\k\nmemory=2049K\n", 3, "vm1",
			 "not a multiple of 2M");
	assert_int_equal(vm("vm1")->memory, 0);
	/* Hex digits are greedy: this B is a digit, not "bytes". */
	check_only_error("[vm1]\nkernel=\\k\nmemory=0x200000B\n", 3, "vm1",
			 "not a multiple of 2M");
}

static void test_vgpu_ppgtt(void **state)
{
	static const char *const words[] = { "strict", "full", "dynamic",
					      "Segmented", "adaptive" };
	static const enum hvcfg_ppgtt want[] = {
		HVCFG_PPGTT_STRICT, HVCFG_PPGTT_FULL, HVCFG_PPGTT_DYNAMIC,
		HVCFG_PPGTT_SEGMENTED, HVCFG_PPGTT_ADAPTIVE };
	char buf[256];

	(void)state;
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"), 0);
	assert_int_equal(vm("vm1")->ppgtt, HVCFG_PPGTT_ADAPTIVE);
	for (unsigned i = 0; i < 5; i++) {
		snprintf(buf, sizeof(buf), VM1 "vgpu_low_gm=64M\n"
			 "vgpu_high_gm=1G\nvgpu_ppgtt=%s\n", words[i]);
		assert_int_equal(parse(buf), 0);
		assert_int_equal(vm("vm1")->ppgtt, want[i]);
	}
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_ppgtt=static\n", 6, "vm1",
			 "vgpu_ppgtt: 'static' is not one of strict, full, "
			 "dynamic, segmented, adaptive");
}

/* virtio_console=: off by default, yes or no (hv/vm/vvirtio.h). */
static void test_virtio_console(void **state)
{
	(void)state;
	assert_int_equal(parse(VM1), 0);
	assert_false(vm("vm1")->virtio_console);
	assert_int_equal(parse(VM1 "virtio_console=yes\n"), 0);
	assert_true(vm("vm1")->virtio_console);
	assert_int_equal(parse(VM1 "virtio_console=no\n"), 0);
	assert_false(vm("vm1")->virtio_console);
	check_only_error(VM1 "virtio_console=hvc0\n", 4, "vm1",
			 "virtio_console: 'hvc0' is not yes or no");
}

static void test_vgpu_trace(void **state)
{
	(void)state;
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"), 0);
	assert_false(vm("vm1")->vgpu_trace);
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vgpu_trace=YES\n"), 0);
	assert_true(vm("vm1")->vgpu_trace);
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vgpu_trace=no\n"), 0);
	assert_false(vm("vm1")->vgpu_trace);
	assert_false(vm("vm1")->vgpu_trace_batches);
	/* batches: the scanner's commands instead of BAR0 accesses */
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vgpu_trace=batches\n"), 0);
	assert_false(vm("vm1")->vgpu_trace);
	assert_true(vm("vm1")->vgpu_trace_batches);
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_trace=1\n", 6, "vm1",
			 "vgpu_trace: '1' is not yes, no or batches");
	check_only_error(VM1 "vgpu_trace=yes\n", 1, "vm1",
			 "vgpu_trace given without a vGPU");
	assert_false(vm("vm1")->vgpu_trace);
}

/* vgpu_batch_kib=: the VM's shadow batch budget; bad values refused
 * with their line, the VM not started. */
static void test_vgpu_batch_kib(void **state)
{
	(void)state;
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"), 0);
	assert_int_equal(vm("vm1")->vgpu_batch_kib, 0); /* the mediator's default */
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vgpu_batch_kib=4096\n"), 0);
	assert_int_equal(vm("vm1")->vgpu_batch_kib, 4096);
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vgpu_batch_kib=256\n"), 0);
	assert_int_equal(vm("vm1")->vgpu_batch_kib, 256);
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vgpu_batch_kib=65536\n"), 0);
	assert_int_equal(vm("vm1")->vgpu_batch_kib, 65536);
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_batch_kib=252\n", 6, "vm1",
			 "vgpu_batch_kib: '252' is out of range (256..65536)");
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_batch_kib=65540\n", 6, "vm1",
			 "vgpu_batch_kib: '65540' is out of range (256..65536)");
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_batch_kib=1026\n", 6, "vm1",
			 "vgpu_batch_kib: '1026' is not a multiple of 4");
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_batch_kib=2M\n", 6, "vm1",
			 "vgpu_batch_kib: '2M' is not a number");
	check_only_error(VM1 "vgpu_batch_kib=1024\n", 1, "vm1",
			 "vgpu_batch_kib given without a vGPU");
	assert_int_equal(vm("vm1")->vgpu_batch_kib, 0);
}

/* vgpu_display=: the virtual monitor's mode by its exact name, or none;
 * anything else refused with its line, the VM not started. */
static void test_vgpu_display(void **state)
{
	(void)state;
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"), 0);
	assert_string_equal(vm("vm1")->vgpu_display, ""); /* mediator's default */
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vgpu_display=1920x1080\n"), 0);
	assert_string_equal(vm("vm1")->vgpu_display, "1920x1080");
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vgpu_display=none\n"), 0);
	assert_string_equal(vm("vm1")->vgpu_display, "none");
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_display=1024X768\n", 6, "vm1",
			 "vgpu_display: '1024X768' is not a mode "
			 "(640x480 .. 1920x1080, none)");
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_display=1024x700\n", 6, "vm1",
			 "vgpu_display: '1024x700' is not a mode "
			 "(640x480 .. 1920x1080, none)");
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_display=1024x768x60hz-please\n", 6, "vm1",
			 "vgpu_display: '1024x768x60hz-please' is not a mode "
			 "(640x480 .. 1920x1080, none)");
	check_only_error(VM1 "vgpu_display=1024x768\n", 1, "vm1",
			 "vgpu_display given without a vGPU");
	assert_string_equal(vm("vm1")->vgpu_display, "");
}

/* vcpus=: 1-8, with or without a vGPU; every refusal names its line and
 * leaves the VM unstartable. */
static void test_vcpus(void **state)
{
	(void)state;
	assert_int_equal(parse(VM1), 0);
	assert_int_equal(vm("vm1")->vcpus, 0);	/* not given: one */
	assert_int_equal(parse(VM1 "vcpus=2\n"), 0);
	assert_int_equal(vm("vm1")->vcpus, 2);
	assert_int_equal(parse(VM1 "vcpus = 8\ncpus=1\n"), 0);
	assert_int_equal(vm("vm1")->vcpus, 8);
	assert_true(vm("vm1")->valid);
	check_only_error(VM1 "vcpus=0\n", 4, "vm1",
			 "vcpus: '0' is not a vCPU count (1-8)");
	check_only_error(VM1 "vcpus=9\n", 4, "vm1",
			 "vcpus: '9' is not a vCPU count (1-8)");
	check_only_error(VM1 "vcpus=two\n", 4, "vm1",
			 "vcpus: 'two' is not a number");
	check_only_error(VM1 "vcpus=-1\n", 4, "vm1",
			 "vcpus: '-1' is not a number");
	check_only_error(VM1 "vcpus=\n", 4, "vm1", "vcpus: empty value");
	check_only_error(VM1 "vcpus=2\nvcpus=2\n", 5, "vm1",
			 "duplicate key 'vcpus'");
	/* a vGPU VM may have several vCPUs (they take turns on its one
	 * CPU, docs/smp.md); cpus= with a vGPU stays refused (test_cpus) */
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vcpus=2\n"), 0);
	assert_true(vm("vm1")->valid && vm("vm1")->has_vgpu);
	assert_int_equal(vm("vm1")->vcpus, 2);
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vcpus=1\n"), 0);
}

/* cpus=: a list of CPU numbers (1-63), at most one per vCPU, no CPU in
 * two VMs; every refusal names its line and leaves the VM unstartable. */
static void test_cpus(void **state)
{
	(void)state;
	assert_int_equal(parse(VM1), 0);
	assert_true(vm("vm1")->cpus == 0);	/* the BSP, shared */
	assert_int_equal(parse(VM1 "cpus=1\n"), 0);
	assert_true(vm("vm1")->cpus == 1ull << 1);
	assert_int_equal(parse(VM1 "cpus = 63\n[vm2]\nmemory=64M\nkernel=\\k\n"
			       "cpus=2\n"), 0);
	assert_true(vm("vm1")->cpus == 1ull << 63);
	assert_true(vm("vm2")->cpus == 1ull << 2);
	assert_true(vm("vm1")->valid && vm("vm2")->valid);

	check_only_error(VM1 "cpus=0\n", 4, "vm1",
			 "cpus: '0' is the BSP, which runs the shell");
	check_only_error(VM1 "cpus=64\n", 4, "vm1",
			 "cpus: '64' is not a CPU number (1-63)");
	check_only_error(VM1 "cpus=one\n", 4, "vm1",
			 "cpus: 'one' is not a CPU number");
	check_only_error(VM1 "cpus=\n", 4, "vm1", "cpus: empty value");
	check_only_error(VM1 "cpus=1,\n", 4, "vm1",
			 "cpus: '' is not a CPU number");
	check_only_error(VM1 "cpus=-1\n", 4, "vm1",
			 "cpus: '-1' is not a CPU number");
	check_only_error(VM1 "cpus=1,1\n", 4, "vm1",
			 "cpus: '1' is listed twice");
	check_only_error(VM1 "cpus=1, 2\n", 4, "vm1",
			 "cpus: 2 CPUs for 1 vCPU: a CPU without a vCPU");
	assert_false(vm("vm1")->valid);
	assert_true(vm("vm1")->cpus == 0);	/* a refused value is not kept */
	assert_int_equal(vm("vm1")->nr_cpus, 0);
	check_only_error(VM1 "cpus=2,1,3\nvcpus=2\n", 4, "vm1",
			 "cpus: 3 CPUs for 2 vCPUs");
	check_only_error(VM1 "cpus=1,,2\nvcpus=2\n", 4, "vm1",
			 "cpus: '' is not a CPU number");
	check_only_error(VM1 "vcpus=8\ncpus=1,2,3,4,5,6,7,8,9\n", 5, "vm1",
			 "cpus: more than 8 CPUs");
	check_only_error(VM1 "vcpus=2\ncpus=2,0\n", 5, "vm1",
			 "cpus: '0' is the BSP");
	check_only_error(VM1 "vcpus=2\ncpus=2,64\n", 5, "vm1",
			 "cpus: '64' is not a CPU number (1-63)");

	/* a list: vCPU i on the i-th CPU listed, in the order given, with
	 * vcpus= before or after it */
	assert_int_equal(parse(VM1 "cpus=2, 1\nvcpus=2\n"), 0);
	assert_true(vm("vm1")->valid);
	assert_true(vm("vm1")->cpus == (1ull << 1 | 1ull << 2));
	assert_int_equal(vm("vm1")->nr_cpus, 2);
	assert_int_equal(vm("vm1")->cpu_list[0], 2);
	assert_int_equal(vm("vm1")->cpu_list[1], 1);
	assert_int_equal(parse(VM1 "vcpus=3\ncpus=1,2\n"), 0);
	assert_true(vm("vm1")->valid);
	assert_int_equal(vm("vm1")->nr_cpus, 2);
	assert_int_equal(parse(VM1 "vcpus=8\ncpus=1,2,3,4,5,6,7,8\n"), 0);
	assert_int_equal(vm("vm1")->nr_cpus, 8);
	/* a CPU of another VM's list, at the second claim's line */
	check_only_error(VM1 "vcpus=2\ncpus=1,3\n[vm2]\nmemory=64M\n"
			 "kernel=\\k\nvcpus=2\ncpus=2,3\n", 10, "vm2",
			 "cpus: CPU 3 already belongs to VM 'vm1' (line 1)");

	/* the second claim of a CPU is the one refused, at its line */
	check_only_error(VM1 "cpus=3\n[vm2]\nmemory=64M\nkernel=\\k\ncpus=3\n",
			 8, "vm2", "cpus: CPU 3 already belongs to VM 'vm1' "
			 "(line 1)");
	assert_true(vm("vm1")->valid);
	assert_false(vm("vm2")->valid);

	/* a VM with a vGPU may be pinned (the mediator lock, docs/smp.md) */
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "cpus=1\n"), 0);
	assert_true(vm("vm1")->valid);
	assert_true(vm("vm1")->has_vgpu);
	assert_int_equal(vm("vm1")->cpus, 1ull << 1);	/* bit 1: CPU 1 */
}

static void test_vgpu(void **state)
{
	(void)state;
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=0x40000000\n"), 0);
	assert_true(vm("vm1")->has_vgpu);
	assert_int_equal(vm("vm1")->vgpu_low_gm, 64 * MiB);
	assert_int_equal(vm("vm1")->vgpu_high_gm, GiB);
	assert_int_equal(vm("vm1")->fences, 4);

	assert_int_equal(parse(VM1 "fences=0\nvgpu_high_gm=4G\nvgpu_low_gm=1M\n"), 0);
	assert_int_equal(vm("vm1")->fences, 0);
	assert_int_equal(vm("vm1")->vgpu_high_gm, 4 * GiB);
	assert_int_equal(parse(VM1 "fences=32\nvgpu_high_gm=4G\nvgpu_low_gm=1M\n"), 0);
	assert_int_equal(vm("vm1")->fences, 32);

	check_only_error(VM1 "vgpu_low_gm=64M\n", 1, "vm1", "must be given together");
	assert_false(vm("vm1")->has_vgpu);
	assert_int_equal(vm("vm1")->vgpu_low_gm, 0);
	check_only_error(VM1 "vgpu_high_gm=64M\n", 1, "vm1", "must be given together");
	check_only_error(VM1 "fences=4\n", 1, "vm1", "fences given without a vGPU");
	check_only_error(VM1 "vgpu_ppgtt=full\n", 1, "vm1",
			 "vgpu_ppgtt given without a vGPU");
	assert_int_equal(vm("vm1")->ppgtt, HVCFG_PPGTT_STRICT);
	check_only_error(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1536K\n", 5, "vm1",
			 "not a multiple of 1M");
	check_only_error(VM1 "vgpu_low_gm=4097M\nvgpu_high_gm=1G\n", 4, "vm1",
			 "out of range (1M..4G)");
	check_only_error(VM1 "vgpu_low_gm=0\nvgpu_high_gm=1G\n", 4, "vm1",
			 "out of range (1M..4G)");
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\nfences=33\n", 6,
			 "vm1", "fences: '33' is out of range (0..32)");
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\nfences=4M\n", 6,
			 "vm1", "is not a number");
}

/* vgpu_shadow_pt_kib=: a default with a vGPU, the range and the unit
 * refused with the line, nothing without a vGPU. */
static void test_shadow_pt(void **state)
{
	(void)state;
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"), 0);
	assert_int_equal(vm("vm1")->shadow_pt_kib, HVCFG_DEFAULT_SHADOW_PT_KIB);
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vgpu_shadow_pt_kib=4096\n"), 0);
	assert_int_equal(vm("vm1")->shadow_pt_kib, 4096);
	assert_int_equal(parse(VM1 "vgpu_low_gm=64M\nvgpu_high_gm=1G\n"
			       "vgpu_shadow_pt_kib=262144\n"), 0);
	assert_int_equal(vm("vm1")->shadow_pt_kib, 262144);
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_shadow_pt_kib=252\n", 6, "vm1",
			 "vgpu_shadow_pt_kib: '252' is out of range (256..262144)");
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_shadow_pt_kib=262148\n", 6, "vm1",
			 "is out of range (256..262144)");
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_shadow_pt_kib=1026\n", 6, "vm1",
			 "is not a multiple of 4");
	check_only_error(VM1 "vgpu_low_gm=1M\nvgpu_high_gm=1G\n"
			 "vgpu_shadow_pt_kib=16M\n", 6, "vm1",
			 "is not a number");
	check_only_error(VM1 "vgpu_shadow_pt_kib=4096\n", 1, "vm1",
			 "vgpu_shadow_pt_kib given without a vGPU");
	assert_int_equal(vm("vm1")->shadow_pt_kib, 0);
}

static void test_paths(void **state)
{
	char text[512], path[200];

	(void)state;
	memset(path, 'a', sizeof(path));
	path[0] = '/';
	path[127] = '\0';
	snprintf(text, sizeof(text), "[vm1]\nmemory=2M\nkernel=%s\nramdisk=%s\n",
		 path, path);
	assert_int_equal(parse(text), 0);
	assert_int_equal(strlen(vm("vm1")->kernel), 127);
	assert_int_equal(strlen(vm("vm1")->ramdisk), 127);

	path[127] = 'a';
	path[128] = '\0';
	snprintf(text, sizeof(text), "[vm1]\nmemory=2M\nkernel=%s\n", path);
	check_only_error(text, 3, "vm1", "is too long (max 127 chars)");
	/* The quoted value in the reason is cut and says so. */
	assert_non_null(strstr(cfg.errors[0].reason, "...'"));

	/* Spaces inside a path are kept. */
	assert_int_equal(parse("[vm1]\nmemory=2M\nkernel=\\My Guests\\k.bin\n"), 0);
	assert_string_equal(vm("vm1")->kernel, "\\My Guests\\k.bin");

	check_only_error("[vm1]\nmemory=2M\nkernel=tg.bin\n", 3, "vm1",
			 "must start with \\ or /");
	check_only_error(VM1 "ramdisk=\\caf\xc3\xa9\n", 4, "vm1", "non-ASCII");
	assert_non_null(strstr(cfg.errors[0].reason, "'\\caf?" "?'"));
}

static void test_cmdline(void **state)
{
	char text[1024], line[600];

	(void)state;
	assert_int_equal(parse(VM1 "cmdline=   console=ttyS0,115200 # not a comment\t \n"),
			 0);
	assert_string_equal(vm("vm1")->cmdline,
			    "console=ttyS0,115200 # not a comment");
	assert_int_equal(parse(VM1 "cmdline=\n"), 0);	/* explicitly empty */
	assert_string_equal(vm("vm1")->cmdline, "");
	assert_int_equal(parse(VM1 "cmdline=a\tb caf\xc3\xa9\n"), 0);
	assert_string_equal(vm("vm1")->cmdline, "a\tb caf\xc3\xa9");

	memset(line, 'x', sizeof(line));
	line[511] = '\0';
	snprintf(text, sizeof(text), VM1 "cmdline=%s\n", line);
	assert_int_equal(parse(text), 0);
	assert_int_equal(strlen(vm("vm1")->cmdline), 511);
	line[511] = 'x';
	line[512] = '\0';
	snprintf(text, sizeof(text), VM1 "cmdline=%s\n", line);
	check_only_error(text, 4, "vm1", "is too long (max 511 chars)");

	check_only_error(VM1 "cmdline=a\x1b[0mb\n", 4, "vm1", "control character");
	check_only_error(VM1 "cmdline=a\rb\n", 4, "vm1", "control character");
}

static void test_global_values(void **state)
{
	(void)state;
	assert_int_equal(parse("[global]\nconsole=e9\nslice_ms=1\n"
			       "test_exit=Boot\nselftest=PF\n"),
			 0);
	assert_int_equal(cfg.console, HVCFG_CONSOLE_E9);
	assert_int_equal(cfg.slice_ms, 1);
	assert_int_equal(cfg.test_exit, HVCFG_EXIT_BOOT);
	assert_int_equal(cfg.selftest, HVCFG_SELFTEST_PF);
	assert_int_equal(parse("[global]\nselftest=smp-ghost\n"), 0);
	assert_int_equal(cfg.selftest, HVCFG_SELFTEST_SMP_GHOST);

	assert_int_equal(parse("[global]\nconsole = e9 , COM1,e9\nslice_ms=0x3e8\n"
			       "test_exit=no\nselftest=none\n"),
			 0);
	assert_int_equal(cfg.console, HVCFG_CONSOLE_COM1 | HVCFG_CONSOLE_E9);
	assert_int_equal(cfg.slice_ms, 1000);

	assert_int_equal(parse("[global]\nconsole=fb\n"), 0);
	assert_int_equal(cfg.console, HVCFG_CONSOLE_FB);
	assert_int_equal(parse("[global]\nconsole=com1, FB ,e9\n"), 0);
	assert_int_equal(cfg.console, HVCFG_CONSOLE_COM1 | HVCFG_CONSOLE_FB |
				      HVCFG_CONSOLE_E9);

	assert_int_equal(parse("[global]\ntest_exit=shell\n"), 0);
	assert_int_equal(cfg.test_exit, HVCFG_EXIT_SHELL);
	assert_int_equal(cfg.gpu, HVCFG_GPU_AUTO);
	assert_int_equal(cfg.balloon_ms, 500);
	assert_int_equal(cfg.placement, HVCFG_PLACE_GSCALE);
	assert_int_equal(parse("[global]\nplacement=DymGPU\n"), 0);
	assert_int_equal(cfg.placement, HVCFG_PLACE_DYMGPU);
	check_only_error("[global]\nplacement=first-fit\n", 2, "global",
			 "placement: 'first-fit' is not one of gscale, dymgpu");
	assert_int_equal(parse("[global]\nballoon_ms=20\n"), 0);
	assert_int_equal(cfg.balloon_ms, 20);
	check_only_error("[global]\nballoon_ms=9\n", 2, "global",
			 "balloon_ms: '9' is out of range (10..60000)");
	assert_int_equal(cfg.balloon_ms, 500);
	/* gBalloon's calibration and the vGPU fault window. */
	assert_int_equal(cfg.balloon_w_max, 0);
	assert_int_equal(cfg.vgpu_faults, 3);
	assert_int_equal(cfg.vgpu_fault_window_ms, 10000);
	assert_int_equal(parse("[global]\nballoon_w_max=1500\n"
			       "balloon_rcopy_max=250\nvgpu_faults=5\n"
			       "vgpu_fault_window_ms=2000\n"), 0);
	assert_int_equal(cfg.balloon_w_max, 1500);
	assert_int_equal(cfg.balloon_rcopy_max, 250);
	assert_int_equal(cfg.vgpu_faults, 5);
	assert_int_equal(cfg.vgpu_fault_window_ms, 2000);
	check_only_error("[global]\nvgpu_faults=0\n", 2, "global",
			 "vgpu_faults: '0' is out of range (1..1000)");
	assert_int_equal(cfg.vgpu_faults, 3);
	check_only_error("[global]\nballoon_rcopy_max=x\n", 2, "global",
			 "balloon_rcopy_max: 'x' is not a number");
	assert_int_equal(parse("[global]\ngpu=model\n"), 0);
	assert_int_equal(cfg.gpu, HVCFG_GPU_MODEL);
	assert_int_equal(parse("[global]\ngpu=Auto\n"), 0);
	assert_int_equal(cfg.gpu, HVCFG_GPU_AUTO);
	check_only_error("[global]\ngpu=real\n", 2, "global",
			 "gpu: 'real' is not one of auto, model, model-mmio");
	assert_int_equal(parse("[global]\ngpu=model-mmio\n"), 0);
	assert_int_equal(cfg.gpu, HVCFG_GPU_MODEL_MMIO);
	/* VT-d: on unless said; the QEMU self-test off unless said */
	assert_int_equal(parse("[global]\n"), 0);
	assert_int_equal(cfg.vtd, HVCFG_VTD_ON);
	assert_int_equal(cfg.vtd_selftest, HVCFG_VTD_SELFTEST_NONE);
	assert_int_equal(parse("[global]\nvtd=OFF\nvtd_selftest=edu\n"), 0);
	assert_int_equal(cfg.vtd, HVCFG_VTD_OFF);
	assert_int_equal(cfg.vtd_selftest, HVCFG_VTD_SELFTEST_EDU);
	check_only_error("[global]\nvtd=maybe\n", 2, "global",
			 "vtd: 'maybe' is not one of on, off");
	assert_int_equal(cfg.vtd, HVCFG_VTD_ON);
	check_only_error("[global]\nvtd_selftest=e1000\n", 2, "global",
			 "vtd_selftest: 'e1000' is not one of none, edu");
	/* Switches: preemption on and the smoke test off unless said; a bad
	 * value keeps the default. */
	assert_int_equal(parse("[global]\n"), 0);
	assert_true(cfg.gpu_preempt);
	assert_false(cfg.gpu_smoke);
	assert_int_equal(parse("[global]\ngpu_preempt=NO\ngpu_smoke=yes\n"), 0);
	assert_false(cfg.gpu_preempt);
	assert_true(cfg.gpu_smoke);
	check_only_error("[global]\ngpu_preempt=1\n", 2, "global",
			 "gpu_preempt: '1' is not yes or no");
	assert_true(cfg.gpu_preempt);
	/* VPIDs on unless said (hv/vmx/vmx.c checks the CPU has them). */
	assert_int_equal(parse("[global]\n"), 0);
	assert_true(cfg.vmx_vpid);
	assert_true(cfg.vmx_msr_reads);
	assert_int_equal(parse("[global]\nvmx_vpid=no\nvmx_msr_reads=no\n"), 0);
	assert_false(cfg.vmx_vpid);
	assert_false(cfg.vmx_msr_reads);
	assert_true(cfg.vuart_fifo_temt);
	assert_int_equal(parse("[global]\nvuart_fifo_temt=no\n"), 0);
	assert_false(cfg.vuart_fifo_temt);
	assert_int_equal(parse("[global]\n"), 0);
	assert_true(cfg.vmx_apicv);
	assert_int_equal(parse("[global]\nvmx_apicv=no\n"), 0);
	assert_false(cfg.vmx_apicv);
	assert_true(cfg.vmx_vid);
	assert_int_equal(parse("[global]\nvmx_vid=no\n"), 0);
	assert_false(cfg.vmx_vid);
	/* DymGPU's live moves on unless said (only guests told of moves). */
	assert_int_equal(parse("[global]\n"), 0);
	assert_true(cfg.dymgpu_live);
	assert_int_equal(parse("[global]\ndymgpu_live=no\n"), 0);
	assert_false(cfg.dymgpu_live);
	assert_true(cfg.spread);	/* unpinned VMs spread by default */
	assert_int_equal(parse("[global]\nspread=no\n"), 0);
	assert_false(cfg.spread);
	check_only_error("[global]\nspread=1\n", 2, "global",
			 "spread: '1' is not yes or no");

	check_only_error("[global]\nconsole=com2\n", 2, "global",
			 "console: 'com2' is not a sink (com1, fb, e9)");
	check_only_error("[global]\nconsole=com1,,e9\n", 2, "global",
			 "console: 'com1,,e9' has an empty item");
	check_only_error("[global]\nconsole=com1,\n", 2, "global", "empty item");
	check_only_error("[global]\nslice_ms=0\n", 2, "global", "out of range");
	check_only_error("[global]\nslice_ms=1001\n", 2, "global", "out of range");
	check_only_error("[global]\nslice_ms=10ms\n", 2, "global", "not a number");
	check_only_error("[global]\nslice_lone_ms=1001\n", 2, "global",
			 "out of range (0..1000)");
	assert_int_equal(cfg.slice_lone_ms, 100);
	assert_int_equal(parse("[global]\nslice_lone_ms=0\n"), 0);
	assert_int_equal(cfg.slice_lone_ms, 0);
	check_only_error("[global]\nslice_stretch_ms=101\n", 2, "global",
			 "out of range (0..100)");
	assert_int_equal(cfg.slice_stretch_ms, 10);
	assert_int_equal(parse("[global]\nslice_stretch_ms=0\n"), 0);
	assert_int_equal(cfg.slice_stretch_ms, 0);
	check_only_error("[global]\ntest_exit=yes\n", 2, "global",
			 "not one of no, boot, vms");
	check_only_error("[global]\nselftest=gp\n", 2, "global",
			 "not one of none, pf, ud, smp-ghost");
	check_only_error("[global]\ndefault=a.b\n", 2, "global", "not a VM name");
}

/* A [global] key with any error stays at its default; the others are kept. */
static void test_global_errors_keep_defaults(void **state)
{
	(void)state;
	assert_int_equal(parse("[global]\nconsole=e9,bogus\nslice_ms=0\n"
			       "test_exit=sometimes\nselftest=pf\n"),
			 3);
	assert_int_equal(cfg.console, HVCFG_CONSOLE_COM1);
	assert_int_equal(cfg.slice_ms, 10);
	assert_int_equal(cfg.test_exit, HVCFG_EXIT_NO);
	assert_int_equal(cfg.selftest, HVCFG_SELFTEST_PF);

	/* A duplicate resets even the first, good value. */
	check_only_error("[global]\nslice_ms=5\nslice_ms=5\n", 3, "global",
			 "duplicate key 'slice_ms' (first on line 2)");
	assert_int_equal(cfg.slice_ms, 10);
	check_only_error("[global]\nslice_ms=5\nslice_ms=\n", 3, "global",
			 "duplicate key");
	assert_int_equal(cfg.slice_ms, 10);
	check_only_error("[global]\nslice_ms=\n", 2, "global", "empty value");
	assert_int_equal(cfg.slice_ms, 10);
}

static void test_default_vm(void **state)
{
	(void)state;
	/* Defined further down is fine. */
	assert_int_equal(parse("[global]\ndefault=vm1\n" VM1), 0);
	assert_string_equal(cfg.default_vm, "vm1");

	check_only_error("[global]\ndefault=vm2\n" VM1, 2, "global",
			 "default: no VM section named 'vm2'");
	assert_string_equal(cfg.default_vm, "");
	/* Names are case-sensitive. */
	check_only_error(VM1 "[global]\ndefault=VM1\n", 5, "global",
			 "no VM section named 'VM1'");
	/* An ignored section (too many, duplicate...) does not count, but
	 * an invalid listed VM does: its "not started" explains the rest. */
	assert_int_equal(parse("[global]\ndefault=vm1\n[vm1]\nmemory=1\n"), 2);
	assert_string_equal(cfg.default_vm, "vm1");
	assert_false(hvcfg_find_vm(&cfg, cfg.default_vm)->valid);
}

/* display_owner= (docs/display.md): a VM of the file, checked at the end
 * like default=; a bad one is refused with its line and stays "". */
static void test_display_owner(void **state)
{
	(void)state;
	assert_int_equal(parse("[global]\n"), 0);
	assert_string_equal(cfg.display_owner, "");
	assert_int_equal(parse("[global]\ndisplay_owner=vm1\n" VM1), 0);
	assert_string_equal(cfg.display_owner, "vm1");
	check_only_error("[global]\ndisplay_owner=vm2\n" VM1, 2, "global",
			 "display_owner: no VM section named 'vm2'");
	assert_string_equal(cfg.display_owner, "");
	check_only_error("[global]\ndisplay_owner=a b\n", 2, "global",
			 "display_owner: 'a b' is not a VM name");
	assert_string_equal(cfg.display_owner, "");
	check_only_error("[global]\ndefault=vm1\ndisplay_owner=\n" VM1, 3,
			 "global", "empty value");
	assert_string_equal(cfg.default_vm, "vm1");
}

/* ---- every error kind, with its line ----------------------------------- */

static void test_error_kinds(void **state)
{
	(void)state;
	check_only_error(VM1 "color=blue\n", 4, "vm1", "unknown key 'color'");
	check_only_error("[global]\nmemory=64M\n", 2, "global", "unknown key 'memory'");
	check_only_error("slice_ms=5\n[global]\n", 1, "", "key 'slice_ms' outside any section");
	check_only_error(VM1 "\n  just words\n", 5, "vm1", "expected key=value");
	check_only_error(VM1 "=5\n", 4, "vm1", "bad key name ''");
	check_only_error(VM1 "mem ory=5\n", 4, "vm1", "bad key name 'mem ory'");
	check_only_error(VM1 "memory=64M\n", 4, "vm1",
			 "duplicate key 'memory' (first on line 2)");
	check_only_error(VM1 "kernel=\n", 4, "vm1", "duplicate key 'kernel'");
	check_only_error("[vm1]\nmemory=64M\nkernel= \t\n", 3, "vm1", "kernel: empty value");
	check_only_error("[vm1]\nmemory=64Q\nkernel=\\k\n", 2, "vm1",
			 "memory: '64Q' is not a size");
	check_only_error("\n[vm1]\nkernel=\\k\n", 2, "vm1", "missing required key 'memory'");
	check_only_error("[vm1]\nmemory=2M\n", 1, "vm1", "missing required key 'kernel'");
	check_only_error(VM1 "[vm1]\nmemory=4M\n", 4, "vm1",
			 "duplicate section (first on line 1)");
	check_only_error("[global]\n[global]\nslice_ms=5\n", 2, "global",
			 "duplicate section (first on line 1)");
	/* The duplicate [global]'s body was skipped as announced. */
	assert_int_equal(cfg.slice_ms, 10);
	check_only_error("[a b]\nmemory=1\n", 1, "a b", "bad section name");
	check_only_error("[]\n", 1, "", "bad section name");
	check_only_error("[abcdefghijabcdefghijabcdefghijXY]\n", 1,
			 "abcdefghijabcdefghijabcdefgh...", "bad section name");
	check_only_error("[GLOBAL]\nslice_ms=5\n", 1, "GLOBAL", "reserved");
	check_only_error(VM1 "[vm2\nmemory=2M\nkernel=\\k\n", 4, "",
			 "unterminated '['");
	check_only_error("[vm1] x\nmemory=2M\nkernel=\\k\n", 1, "vm1", "text after ']'");
	assert_false(vm("vm1")->valid);
	check_only_error(VM1 "kernel\n", 4, "vm1", "expected key=value");
	check_only_error(VM1 "Memory=2M\n", 4, "vm1", "unknown key 'Memory'");
}

/* Names: 1..31 chars of [A-Za-z0-9_-]. */
static void test_names(void **state)
{
	(void)state;
	assert_int_equal(parse("[abcdefghijabcdefghijabcdefghij1]\nmemory=2M\nkernel=\\k\n"
			       "[ spaced ]\nmemory=2M\nkernel=\\k\n"
			       "[Global-2]\nmemory=2M\nkernel=\\k\n"),
			 0);
	assert_int_equal(cfg.nr_vms, 3);
	assert_string_equal(cfg.vms[0].name, "abcdefghijabcdefghijabcdefghij1");
	assert_string_equal(cfg.vms[1].name, "spaced");
	assert_null(hvcfg_find_vm(&cfg, "Spaced"));
	assert_null(hvcfg_find_vm(&cfg, "nope"));
	assert_null(hvcfg_find_vm(&cfg, NULL));

	/* Control bytes in a name are not echoed to the console. */
	check_only_error("[a\x1b[2Jb]\n", 1, "a?[2Jb", "bad section name");
}

/* A broken VM is listed, invalid, with its error count; the rest boot. */
static void test_invalid_vm_listed(void **state)
{
	(void)state;
	assert_int_equal(parse("[good1]\nmemory=2M\nkernel=\\k\n"
			       "[bad]\nkernel=k\nvcpus=9\ncolor=red\n"
			       "[good2]\nmemory=4M\nkernel=\\k\n"),
			 4);
	assert_int_equal(cfg.nr_vms, 3);
	assert_true(vm("good1")->valid);
	assert_true(vm("good2")->valid);
	assert_false(vm("bad")->valid);
	assert_int_equal(vm("bad")->nr_errors, 4);
	assert_int_equal(vm("bad")->line, 4);
	/* in file order, though the missing key was found last */
	check_error(0, 4, "bad", "missing required key 'memory'");
	check_error(1, 5, "bad", "kernel: 'k' must start with \\ or /");
	check_error(2, 6, "bad", "vcpus: '9' is not a vCPU count (1-8)");
	check_error(3, 7, "bad", "unknown key 'color'");

	/* A later duplicate header invalidates the first, finished, one. */
	assert_int_equal(parse(VM1 "[vm2]\nmemory=2M\nkernel=\\k\n[vm1]\nmemory=2M\n"), 1);
	assert_int_equal(cfg.nr_vms, 2);
	assert_false(vm("vm1")->valid);
	assert_int_equal(vm("vm1")->nr_errors, 1);
	assert_true(vm("vm2")->valid);
	assert_int_equal(vm("vm1")->memory, 64 * MiB);	/* the first one's */
}

static void test_too_many_vms(void **state)
{
	static char text[64 * 1024];
	size_t n = 0;
	int i;

	(void)state;
	for (i = 0; i < HVCFG_MAX_VMS + 2; i++)
		n += snprintf(text + n, sizeof(text) - n,
			      "[vm%d]\nmemory=2M\nkernel=\\k\n", i);
	n += snprintf(text + n, sizeof(text) - n, "[global]\ndefault=vm64\n");
	assert_int_equal(hvcfg_parse(&cfg, text, n), 3);
	assert_int_equal(cfg.nr_vms, HVCFG_MAX_VMS);
	check_error(0, 3 * 64 + 1, "vm64", "too many VMs (max 64)");
	check_error(1, 3 * 65 + 1, "vm65", "too many VMs");
	check_error(2, 3 * 66 + 2, "global", "no VM section named 'vm64'");
	for (i = 0; i < HVCFG_MAX_VMS; i++)
		assert_true(cfg.vms[i].valid);
}

static void test_error_overflow(void **state)
{
	static char text[4096];
	size_t n = 0;
	int i;

	(void)state;
	n += snprintf(text + n, sizeof(text) - n, "[vm1]\n");
	for (i = 0; i < 40; i++)
		n += snprintf(text + n, sizeof(text) - n, "bogus%d=1\n", i);
	/* + missing memory, missing kernel at the end */
	assert_int_equal(hvcfg_parse(&cfg, text, n), 42);
	assert_int_equal(cfg.nr_errors, HVCFG_MAX_ERRORS);
	assert_int_equal(cfg.errors_dropped, 10);
	assert_int_equal(vm("vm1")->nr_errors, 42);
	assert_false(vm("vm1")->valid);
	check_error(0, 2, "vm1", "unknown key 'bogus0'");
	check_error(31, 33, "vm1", "unknown key 'bogus31'");
}

static void test_format_error(void **state)
{
	char buf[128];

	(void)state;
	assert_int_equal(parse("x=1\n" VM1 "memory=2M\n"), 2);
	assert_true(hvcfg_format_error(&cfg, 0, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "hv.cfg:1: key 'x' outside any section");
	hvcfg_format_error(&cfg, 1, buf, sizeof(buf));
	assert_string_equal(buf,
			    "hv.cfg:5: [vm1] duplicate key 'memory' (first on line 3)");
	/* Truncation is visible in the return value. */
	assert_int_equal(hvcfg_format_error(&cfg, 1, buf, 10), 56);
	assert_string_equal(buf, "hv.cfg:5:");
	assert_int_equal(hvcfg_format_error(&cfg, 2, buf, sizeof(buf)), -1);
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_config),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_parse_resets),
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_crlf_bom),
		cmocka_unit_test(test_not_nul_terminated),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_sizes_bad),
		cmocka_unit_test(test_memory_limits),
		cmocka_unit_test(test_vgpu),
		cmocka_unit_test(test_vgpu_ppgtt),
		cmocka_unit_test(test_vgpu_trace),
		cmocka_unit_test(test_virtio_console),
		cmocka_unit_test(test_vgpu_batch_kib),
		cmocka_unit_test(test_vgpu_display),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_vcpus),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_global_values),
		cmocka_unit_test(test_global_errors_keep_defaults),
		cmocka_unit_test(test_default_vm),
		cmocka_unit_test(test_display_owner),
		cmocka_unit_test(test_error_kinds),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_shadow_pt),
		cmocka_unit_test(test_invalid_vm_listed),
		cmocka_unit_test(test_too_many_vms),
		cmocka_unit_test(test_error_overflow),
		cmocka_unit_test(test_format_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
