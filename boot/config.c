/* hv.cfg parser. The contract is in config.h, the format for users in
 * docs/hv-cfg.md.
 *
 * Freestanding: besides libc-mini's mem*, str* and *snprintf it uses
 * only the small helpers below (character classes, number parsing), so it
 * works before anything else of the hypervisor is up and on the host under
 * the fuzzer unchanged.
 *
 * The text is never copied or modified: a line, a key and a value are spans
 * (pointer + length) into the caller's buffer, which need not be
 * NUL-terminated. Values are copied only into the fixed-size fields of the
 * result, after their length has been checked. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mini/stdio.h"
#include "mini/string.h"
#include "boot/config.h"

struct span {
	const char *s;
	size_t n;
};

/* ---- characters and spans ---------------------------------------------- */

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_comment(char c)
{
	return c == '#' || c == ';';
}

static char to_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* What may reach the serial console or a UEFI CHAR16 path unconverted. */
static bool is_print(char c)
{
	return c >= 0x20 && c <= 0x7e;
}

static struct span span_from(struct span v, size_t i)
{
	return (struct span){ v.s + i, v.n - i };
}

static struct span trim_left(struct span v)
{
	while (v.n && is_space(v.s[0]))
		v = span_from(v, 1);
	return v;
}

static struct span trim(struct span v)
{
	v = trim_left(v);
	while (v.n && is_space(v.s[v.n - 1]))
		v.n--;
	return v;
}

static bool span_eq(struct span v, const char *lit)
{
	size_t i;

	for (i = 0; i < v.n; i++)
		if (!lit[i] || v.s[i] != lit[i])
			return false;
	return !lit[i];
}

/* Keyword values (test_exit=Boot) forgive case; names and keys do not. */
static bool span_ieq(struct span v, const char *lit)
{
	size_t i;

	for (i = 0; i < v.n; i++)
		if (!lit[i] || to_lower(v.s[i]) != to_lower(lit[i]))
			return false;
	return !lit[i];
}

/* Index of the first c in v, or v.n. */
static size_t span_find(struct span v, char c)
{
	size_t i;

	for (i = 0; i < v.n && v.s[i] != c; i++)
		;
	return i;
}

/* Callers check lengths first and report what does not fit; the clamp
 * only keeps a mistake there from writing past dst. */
static void copy_span(char *dst, size_t size, struct span v)
{
	if (v.n >= size)
		v.n = size - 1;
	memcpy(dst, v.s, v.n);
	dst[v.n] = '\0';
}

/* A value as it may appear inside an error reason: bytes that are not
 * printable ASCII become '?' (the reason goes to a serial console), and a
 * value too long for buf ends in "..." so a reader knows it was cut. */
static const char *quote(char *buf, size_t size, struct span v)
{
	size_t i, n = v.n < size - 1 ? v.n : size - 1;

	for (i = 0; i < n; i++)
		buf[i] = is_print(v.s[i]) ? v.s[i] : '?';
	if (v.n > n && n >= 3)
		memcpy(buf + n - 3, "...", 3);
	buf[n] = '\0';
	return buf;
}

/* ---- numbers ----------------------------------------------------------- */

static int digit_value(char c, unsigned base)
{
	int d;

	if (is_digit(c))
		d = c - '0';
	else if (to_lower(c) >= 'a' && to_lower(c) <= 'f')
		d = to_lower(c) - 'a' + 10;
	else
		return -1;
	return (unsigned)d < base ? d : -1;
}

/* Decimal, or hex after 0x. No sign and no octal: "010" is ten, because
 * people pad numbers and never mean octal in a config file. Consumes the
 * digits from *v; false on no digits or overflow. */
static bool take_u64(struct span *v, uint64_t *out)
{
	unsigned base = 10;
	uint64_t x = 0;
	size_t i = 0, first;
	int d;

	if (v->n >= 2 && v->s[0] == '0' && to_lower(v->s[1]) == 'x') {
		base = 16;
		i = 2;
	}
	for (first = i; i < v->n; i++) {
		d = digit_value(v->s[i], base);
		if (d < 0)
			break;
		if (x > (UINT64_MAX - (unsigned)d) / base)
			return false;
		x = x * base + (unsigned)d;
	}
	if (i == first)
		return false;
	*v = span_from(*v, i);
	*out = x;
	return true;
}

static bool parse_number(struct span v, uint64_t *out)
{
	return take_u64(&v, out) && !v.n;
}

/* 64M, 64 MB, 64MiB, 0x4000000, 2g: binary units K/M/G, any case, then an
 * optional B or iB. With hex digits greedy, 0x40B is 0x40b bytes. */
static bool parse_size(struct span v, uint64_t *out)
{
	unsigned shift = 0;
	uint64_t x;

	if (!take_u64(&v, &x))
		return false;
	v = trim_left(v);
	if (v.n) {
		switch (to_lower(v.s[0])) {
		case 'k': shift = 10; break;
		case 'm': shift = 20; break;
		case 'g': shift = 30; break;
		}
	}
	if (shift)
		v = span_from(v, 1);
	if (shift && v.n == 2 && span_ieq(v, "ib"))
		v = span_from(v, 2);
	else if (v.n == 1 && to_lower(v.s[0]) == 'b')
		v = span_from(v, 1);
	if (v.n || x > (UINT64_MAX >> shift))
		return false;
	*out = x << shift;
	return true;
}

/* ---- parser state and errors ------------------------------------------- */

enum section_kind {
	SEC_NONE,	/* before the first header */
	SEC_GLOBAL,
	SEC_VM,
	SEC_IGNORED,	/* a header with an error: its body is skipped */
};

#define MAX_KEYS 32	/* bits of parser.seen */

struct parser {
	struct hv_config *cfg;
	int line;
	enum section_kind sec;
	char sec_name[HVCFG_NAME_MAX + 1];	/* for error records */
	int sec_line;
	struct hvcfg_vm *vm;	/* errors now count against this VM */
	uint32_t seen;		/* keys given in this section, by index */
	int seen_line[MAX_KEYS];
	bool global_seen;
	int global_line;
	uint32_t global_bad;	/* [global] keys to put back to default */
	int default_line;
};

static void verr_at(struct parser *p, int line, const char *fmt, va_list ap)
{
	struct hv_config *cfg = p->cfg;
	struct hvcfg_error *e;

	if (p->vm)
		p->vm->nr_errors++;
	if (cfg->nr_errors >= HVCFG_MAX_ERRORS) {
		cfg->errors_dropped++;
		return;
	}
	e = &cfg->errors[cfg->nr_errors++];
	e->line = line;
	copy_span(e->section, sizeof(e->section),
		  (struct span){ p->sec_name, strlen(p->sec_name) });
	vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
}

static void __attribute__((format(printf, 3, 4)))
err_at(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr_at(p, line, fmt, ap);
	va_end(ap);
}

/* An error on the current line, in the current section. */
static void __attribute__((format(printf, 2, 3)))
err(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr_at(p, p->line, fmt, ap);
	va_end(ap);
}

/* ---- keys -------------------------------------------------------------- */

struct key {
	const char *name;
	/* The value runs to the end of the line: comments are not stripped
	 * (kernel command lines may contain '#') and it may be empty. */
	bool raw;
	/* Checks v and stores it; on a problem records an error and returns
	 * false. */
	bool (*set)(struct parser *p, const struct key *k, struct span v);
	/* [global] keys: back to the default (hvcfg_defaults, and keys that
	 * had an error). */
	void (*reset)(struct hv_config *cfg);
};

/* A complaint about the value of k. */
static bool bad_value(struct parser *p, const struct key *k, struct span v,
		      const char *why)
{
	char q[28];

	err(p, "%s: '%s' %s", k->name, quote(q, sizeof(q), v), why);
	return false;
}

struct keyword {
	const char *word;
	unsigned value;
};

static bool lookup_keyword(const struct keyword *kw, struct span v,
			   unsigned *out)
{
	for (; kw->word; kw++) {
		if (span_ieq(v, kw->word)) {
			*out = kw->value;
			return true;
		}
	}
	return false;
}

static bool valid_name(struct span v)
{
	size_t i;

	if (!v.n || v.n > HVCFG_NAME_MAX)
		return false;
	for (i = 0; i < v.n; i++)
		if (!is_alnum(v.s[i]) && v.s[i] != '_' && v.s[i] != '-')
			return false;
	return true;
}

/* -- [global] -- */

static bool set_default(struct parser *p, const struct key *k, struct span v)
{
	if (!valid_name(v))
		return bad_value(p, k, v, "is not a VM name");
	copy_span(p->cfg->default_vm, sizeof(p->cfg->default_vm), v);
	/* Whether the VM exists is known only at the end of the file. */
	p->default_line = p->line;
	return true;
}

static void reset_default(struct hv_config *cfg)
{
	cfg->default_vm[0] = '\0';
}

static const struct keyword console_words[] = {
	{ "com1", HVCFG_CONSOLE_COM1 },
	{ "e9", HVCFG_CONSOLE_E9 },
	{ NULL, 0 },
};

static bool set_console(struct parser *p, const struct key *k, struct span v)
{
	unsigned mask = 0, bit;
	struct span all = v, item;
	size_t comma;

	for (;;) {
		comma = span_find(v, ',');
		item = trim((struct span){ v.s, comma });
		if (!item.n)
			return bad_value(p, k, all, "has an empty item");
		if (!lookup_keyword(console_words, item, &bit))
			return bad_value(p, k, item, "is not a sink (com1, e9)");
		mask |= bit;
		if (comma == v.n)
			break;
		v = span_from(v, comma + 1);
	}
	p->cfg->console = mask;
	return true;
}

static void reset_console(struct hv_config *cfg)
{
	cfg->console = HVCFG_DEFAULT_CONSOLE;
}

static bool set_slice_ms(struct parser *p, const struct key *k, struct span v)
{
	uint64_t x;

	if (!parse_number(v, &x))
		return bad_value(p, k, v, "is not a number");
	if (x < HVCFG_SLICE_MS_MIN || x > HVCFG_SLICE_MS_MAX)
		return bad_value(p, k, v, "is out of range (1..1000)");
	p->cfg->slice_ms = (uint32_t)x;
	return true;
}

static void reset_slice_ms(struct hv_config *cfg)
{
	cfg->slice_ms = HVCFG_DEFAULT_SLICE_MS;
}

static const struct keyword test_exit_words[] = {
	{ "no", HVCFG_EXIT_NO },
	{ "boot", HVCFG_EXIT_BOOT },
	{ "vms", HVCFG_EXIT_VMS },
	{ "shell", HVCFG_EXIT_SHELL },
	{ NULL, 0 },
};

static bool set_test_exit(struct parser *p, const struct key *k, struct span v)
{
	unsigned x;

	if (!lookup_keyword(test_exit_words, v, &x))
		return bad_value(p, k, v, "is not one of no, boot, vms, shell");
	p->cfg->test_exit = (enum hvcfg_test_exit)x;
	return true;
}

static void reset_test_exit(struct hv_config *cfg)
{
	cfg->test_exit = HVCFG_EXIT_NO;
}

static const struct keyword selftest_words[] = {
	{ "none", HVCFG_SELFTEST_NONE },
	{ "pf", HVCFG_SELFTEST_PF },
	{ "ud", HVCFG_SELFTEST_UD },
	{ NULL, 0 },
};

static bool set_selftest(struct parser *p, const struct key *k, struct span v)
{
	unsigned x;

	if (!lookup_keyword(selftest_words, v, &x))
		return bad_value(p, k, v, "is not one of none, pf, ud");
	p->cfg->selftest = (enum hvcfg_selftest)x;
	return true;
}

static void reset_selftest(struct hv_config *cfg)
{
	cfg->selftest = HVCFG_SELFTEST_NONE;
}

static const struct keyword gpu_words[] = {
	{ "auto", HVCFG_GPU_AUTO },
	{ "model", HVCFG_GPU_MODEL },
	{ NULL, 0 },
};

static bool set_gpu(struct parser *p, const struct key *k, struct span v)
{
	unsigned x;

	if (!lookup_keyword(gpu_words, v, &x))
		return bad_value(p, k, v, "is not one of auto, model");
	p->cfg->gpu = (enum hvcfg_gpu)x;
	return true;
}

static void reset_gpu(struct hv_config *cfg)
{
	cfg->gpu = HVCFG_GPU_AUTO;
}

enum {
	GK_DEFAULT, GK_CONSOLE, GK_SLICE_MS, GK_TEST_EXIT, GK_SELFTEST, GK_GPU,
	NR_GK
};

static const struct key global_keys[NR_GK] = {
	[GK_DEFAULT]	= { "default", false, set_default, reset_default },
	[GK_CONSOLE]	= { "console", false, set_console, reset_console },
	[GK_SLICE_MS]	= { "slice_ms", false, set_slice_ms, reset_slice_ms },
	[GK_TEST_EXIT]	= { "test_exit", false, set_test_exit, reset_test_exit },
	[GK_SELFTEST]	= { "selftest", false, set_selftest, reset_selftest },
	[GK_GPU]	= { "gpu", false, set_gpu, reset_gpu },
};

/* -- [vm] -- */

static bool set_memory(struct parser *p, const struct key *k, struct span v)
{
	uint64_t x;

	if (!parse_size(v, &x))
		return bad_value(p, k, v, "is not a size");
	if (x < HVCFG_MEM_MIN || x > HVCFG_MEM_MAX)
		return bad_value(p, k, v, "is out of range (2M..64G)");
	/* EPT maps guest memory with 2 MiB pages. */
	if (x % HVCFG_MEM_ALIGN)
		return bad_value(p, k, v, "is not a multiple of 2M");
	p->vm->memory = x;
	return true;
}

static bool set_path(struct parser *p, const struct key *k, struct span v,
		     char *dst)
{
	size_t i;

	if (v.n > HVCFG_PATH_MAX)
		return bad_value(p, k, v, "is too long (max 127 chars)");
	/* Paths are from the ESP root: there is no current directory. */
	if (v.s[0] != '\\' && v.s[0] != '/')
		return bad_value(p, k, v, "must start with \\ or /");
	/* boot/ widens the path to CHAR16 byte by byte. */
	for (i = 0; i < v.n; i++)
		if (!is_print(v.s[i]))
			return bad_value(p, k, v, "has a non-ASCII character");
	copy_span(dst, HVCFG_PATH_MAX + 1, v);
	return true;
}

static bool set_kernel(struct parser *p, const struct key *k, struct span v)
{
	return set_path(p, k, v, p->vm->kernel);
}

static bool set_ramdisk(struct parser *p, const struct key *k, struct span v)
{
	return set_path(p, k, v, p->vm->ramdisk);
}

static bool set_cmdline(struct parser *p, const struct key *k, struct span v)
{
	size_t i;

	if (v.n > HVCFG_CMDLINE_MAX)
		return bad_value(p, k, v, "is too long (max 511 chars)");
	/* Bytes >= 0x80 pass (the kernel takes them); control bytes are
	 * almost surely a broken file. */
	for (i = 0; i < v.n; i++) {
		unsigned char c = (unsigned char)v.s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return bad_value(p, k, v, "has a control character");
	}
	copy_span(p->vm->cmdline, sizeof(p->vm->cmdline), v);
	return true;
}

/* Graphics memory: the vGPU types are sized in MiB, and each half must fit
 * the 4 GiB GGTT. */
static bool set_gm(struct parser *p, const struct key *k, struct span v,
		   uint64_t *dst)
{
	uint64_t x;

	if (!parse_size(v, &x))
		return bad_value(p, k, v, "is not a size");
	if (x < HVCFG_GM_MIN || x > HVCFG_GM_MAX)
		return bad_value(p, k, v, "is out of range (1M..4G)");
	if (x % HVCFG_GM_ALIGN)
		return bad_value(p, k, v, "is not a multiple of 1M");
	*dst = x;
	return true;
}

static bool set_low_gm(struct parser *p, const struct key *k, struct span v)
{
	return set_gm(p, k, v, &p->vm->vgpu_low_gm);
}

static bool set_high_gm(struct parser *p, const struct key *k, struct span v)
{
	return set_gm(p, k, v, &p->vm->vgpu_high_gm);
}

static bool set_fences(struct parser *p, const struct key *k, struct span v)
{
	uint64_t x;

	if (!parse_number(v, &x))
		return bad_value(p, k, v, "is not a number");
	if (x > HVCFG_FENCES_MAX)
		return bad_value(p, k, v, "is out of range (0..32)");
	p->vm->fences = (uint32_t)x;
	return true;
}

static const struct keyword ppgtt_words[] = {
	{ "strict", HVCFG_PPGTT_STRICT },
	{ "full", HVCFG_PPGTT_FULL },
	{ "dynamic", HVCFG_PPGTT_DYNAMIC },
	{ "segmented", HVCFG_PPGTT_SEGMENTED },
	{ NULL, 0 },
};

static bool set_ppgtt(struct parser *p, const struct key *k, struct span v)
{
	unsigned x;

	if (!lookup_keyword(ppgtt_words, v, &x))
		return bad_value(p, k, v,
				 "is not one of strict, full, dynamic, segmented");
	p->vm->ppgtt = (enum hvcfg_ppgtt)x;
	return true;
}

/* Known so that the error says why instead of "unknown key". */
static bool set_vcpus(struct parser *p, const struct key *k, struct span v)
{
	(void)v;
	err(p, "%s: not supported (one vCPU per VM)", k->name);
	return false;
}

enum {
	VK_MEMORY, VK_KERNEL, VK_RAMDISK, VK_CMDLINE,
	VK_LOW_GM, VK_HIGH_GM, VK_FENCES, VK_PPGTT, VK_VCPUS, NR_VK
};

static const struct key vm_keys[NR_VK] = {
	[VK_MEMORY]	= { "memory", false, set_memory, NULL },
	[VK_KERNEL]	= { "kernel", false, set_kernel, NULL },
	[VK_RAMDISK]	= { "ramdisk", false, set_ramdisk, NULL },
	[VK_CMDLINE]	= { "cmdline", true, set_cmdline, NULL },
	[VK_LOW_GM]	= { "vgpu_low_gm", false, set_low_gm, NULL },
	[VK_HIGH_GM]	= { "vgpu_high_gm", false, set_high_gm, NULL },
	[VK_FENCES]	= { "fences", false, set_fences, NULL },
	[VK_PPGTT]	= { "vgpu_ppgtt", false, set_ppgtt, NULL },
	[VK_VCPUS]	= { "vcpus", false, set_vcpus, NULL },
};

_Static_assert(NR_GK <= MAX_KEYS && NR_VK <= MAX_KEYS, "parser.seen too small");

/* ---- sections ---------------------------------------------------------- */

static bool seen(const struct parser *p, int idx)
{
	return p->seen & (1u << idx);
}

/* Checks that need the whole section. Errors point at its header. */
static void end_vm(struct parser *p)
{
	struct hvcfg_vm *vm = p->vm;
	bool low = seen(p, VK_LOW_GM), high = seen(p, VK_HIGH_GM);

	if (!seen(p, VK_MEMORY))
		err_at(p, p->sec_line, "missing required key 'memory'");
	if (!seen(p, VK_KERNEL))
		err_at(p, p->sec_line, "missing required key 'kernel'");
	if (low != high)
		err_at(p, p->sec_line,
		       "vgpu_low_gm and vgpu_high_gm must be given together");
	if (seen(p, VK_FENCES) && !low && !high)
		err_at(p, p->sec_line, "fences given without a vGPU");
	if (seen(p, VK_PPGTT) && !low && !high)
		err_at(p, p->sec_line, "vgpu_ppgtt given without a vGPU");

	vm->has_vgpu = low && high;
	if (!vm->has_vgpu) {
		/* Keep "no vGPU" one state, whatever was half given. */
		vm->vgpu_low_gm = 0;
		vm->vgpu_high_gm = 0;
		vm->fences = 0;
		vm->ppgtt = HVCFG_PPGTT_STRICT;
	} else if (!seen(p, VK_FENCES)) {
		vm->fences = HVCFG_DEFAULT_FENCES;
	}
}

static void end_section(struct parser *p)
{
	if (p->sec == SEC_VM)
		end_vm(p);
}

static void enter(struct parser *p, enum section_kind sec, struct span name,
		  struct hvcfg_vm *vm)
{
	p->sec = sec;
	p->sec_line = p->line;
	p->vm = vm;
	p->seen = 0;
	quote(p->sec_name, sizeof(p->sec_name), name);
}

static void begin_global(struct parser *p, struct span name)
{
	if (p->global_seen) {
		enter(p, SEC_IGNORED, name, NULL);
		err(p, "duplicate section (first on line %d); this one is ignored",
		    p->global_line);
		return;
	}
	enter(p, SEC_GLOBAL, name, NULL);
	p->global_seen = true;
	p->global_line = p->line;
}

static struct hvcfg_vm *find_vm(struct hv_config *cfg, struct span name)
{
	unsigned i;

	for (i = 0; i < cfg->nr_vms; i++)
		if (span_eq(name, cfg->vms[i].name))
			return &cfg->vms[i];
	return NULL;
}

static void begin_vm(struct parser *p, struct span name)
{
	struct hv_config *cfg = p->cfg;
	struct hvcfg_vm *vm = find_vm(cfg, name);

	if (vm) {
		/* Which of the two was meant is unknown: start neither. */
		enter(p, SEC_IGNORED, name, vm);
		err(p, "duplicate section (first on line %d); this one is ignored",
		    vm->line);
		return;
	}
	if (cfg->nr_vms == HVCFG_MAX_VMS) {
		enter(p, SEC_IGNORED, name, NULL);
		err(p, "too many VMs (max %d); section ignored", HVCFG_MAX_VMS);
		return;
	}
	vm = &cfg->vms[cfg->nr_vms++];
	copy_span(vm->name, sizeof(vm->name), name);
	vm->line = p->line;
	enter(p, SEC_VM, name, vm);
}

/* l starts with '['. */
static void parse_header(struct parser *p, struct span l)
{
	size_t close = span_find(l, ']');
	struct span name, rest;

	end_section(p);
	if (close == l.n) {
		enter(p, SEC_IGNORED, (struct span){ "", 0 }, NULL);
		err(p, "unterminated '['; lines up to the next section ignored");
		return;
	}
	name = trim((struct span){ l.s + 1, close - 1 });
	rest = trim_left(span_from(l, close + 1));

	if (!valid_name(name)) {
		enter(p, SEC_IGNORED, name, NULL);
		err(p, "bad section name (1-31 of A-Z a-z 0-9 _ -); section ignored");
	} else if (span_eq(name, "global")) {
		begin_global(p, name);
	} else if (span_ieq(name, "global")) {
		enter(p, SEC_IGNORED, name, NULL);
		err(p, "section name is reserved (did you mean [global]?); section ignored");
	} else {
		begin_vm(p, name);
	}
	/* The section stays open (a VM gets invalid by the error) so that its
	 * keys do not land in the previous one. */
	if (rest.n && !is_comment(rest.s[0]))
		err(p, "text after ']'");
}

/* ---- key = value ------------------------------------------------------- */

/* A '#' or ';' starts a comment at the start of the value or after
 * whitespace; elsewhere it is part of the value (a#b). */
static struct span strip_comment(struct span v)
{
	size_t i;

	for (i = 0; i < v.n; i++) {
		if (is_comment(v.s[i]) && (i == 0 || is_space(v.s[i - 1]))) {
			v.n = i;
			break;
		}
	}
	return trim(v);
}

static bool valid_key(struct span k)
{
	size_t i;

	for (i = 0; i < k.n; i++)
		if (!is_alnum(k.s[i]) && k.s[i] != '_')
			return false;
	return k.n > 0;
}

static int find_key(const struct key *keys, int nr, struct span name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (span_eq(name, keys[i].name))
			return i;
	return -1;
}

static void mark_bad(struct parser *p, int idx)
{
	if (p->sec == SEC_GLOBAL)
		p->global_bad |= 1u << idx;
}

static void parse_assignment(struct parser *p, struct span l)
{
	size_t eq = span_find(l, '=');
	const struct key *keys = p->sec == SEC_GLOBAL ? global_keys : vm_keys;
	int nr = p->sec == SEC_GLOBAL ? NR_GK : NR_VK;
	struct span name, v;
	char q[28];
	int idx;

	if (eq == l.n) {
		err(p, "expected key=value, [section] or a comment");
		return;
	}
	name = trim((struct span){ l.s, eq });
	if (!valid_key(name)) {
		err(p, "bad key name '%s'", quote(q, sizeof(q), name));
		return;
	}
	if (p->sec == SEC_NONE) {
		err(p, "key '%s' outside any section", quote(q, sizeof(q), name));
		return;
	}
	if (p->sec == SEC_IGNORED)
		return;	/* the header's error said so */

	idx = find_key(keys, nr, name);
	if (idx < 0) {
		err(p, "unknown key '%s'", quote(q, sizeof(q), name));
		return;
	}
	if (seen(p, idx)) {
		/* Which one was meant is unknown: a VM is not started, a
		 * [global] key stays at its default. */
		err(p, "duplicate key '%s' (first on line %d)", keys[idx].name,
		    p->seen_line[idx]);
		mark_bad(p, idx);
		return;
	}
	p->seen |= 1u << idx;
	p->seen_line[idx] = p->line;

	v = trim_left(span_from(l, eq + 1));
	if (!keys[idx].raw)
		v = strip_comment(v);
	if (!keys[idx].raw && !v.n) {
		err(p, "%s: empty value", keys[idx].name);
		mark_bad(p, idx);
		return;
	}
	if (!keys[idx].set(p, &keys[idx], v))
		mark_bad(p, idx);
}

static void parse_line(struct parser *p, struct span l)
{
	if (span_find(l, '\0') != l.n) {
		err(p, "NUL byte in line");
		return;
	}
	l = trim(l);
	if (!l.n || is_comment(l.s[0]))
		return;
	if (l.s[0] == '[')
		parse_header(p, l);
	else
		parse_assignment(p, l);
}

/* ---- whole file -------------------------------------------------------- */

/* default= may name a VM defined further down, so it is checked last. */
static void check_default(struct parser *p)
{
	struct hv_config *cfg = p->cfg;
	struct span name = { cfg->default_vm, strlen(cfg->default_vm) };

	if (!name.n || find_vm(cfg, name))
		return;
	enter(p, SEC_GLOBAL, (struct span){ "global", 6 }, NULL);
	err_at(p, p->default_line, "default: no VM section named '%s'",
	       cfg->default_vm);
	p->global_bad |= 1u << GK_DEFAULT;
}

/* Checks at the end of a section or of the file record their errors late;
 * a stable sort by line lists them the way a reader walks the file. */
static void sort_errors(struct hv_config *cfg)
{
	struct hvcfg_error tmp;
	unsigned i, j;

	for (i = 1; i < cfg->nr_errors; i++) {
		tmp = cfg->errors[i];
		for (j = i; j && cfg->errors[j - 1].line > tmp.line; j--)
			cfg->errors[j] = cfg->errors[j - 1];
		cfg->errors[j] = tmp;
	}
}

void hvcfg_defaults(struct hv_config *cfg)
{
	int i;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < NR_GK; i++)
		global_keys[i].reset(cfg);
}

unsigned hvcfg_parse(struct hv_config *cfg, const char *text, size_t len)
{
	struct parser p = { .cfg = cfg, .sec_name = "" };
	struct span rest = { text, len }, l;
	size_t nl;
	unsigned i;
	int k;

	hvcfg_defaults(cfg);
	/* Windows editors like to start UTF-8 files with a BOM. */
	if (rest.n >= 3 && span_eq((struct span){ rest.s, 3 }, "\xef\xbb\xbf"))
		rest = span_from(rest, 3);
	while (rest.n) {
		nl = span_find(rest, '\n');
		l = (struct span){ rest.s, nl };
		rest = span_from(rest, nl < rest.n ? nl + 1 : nl);
		if (p.line < __INT_MAX__)
			p.line++;
		parse_line(&p, l);	/* a CR before the LF is trimmed */
	}
	end_section(&p);
	check_default(&p);

	for (k = 0; k < NR_GK; k++)
		if (p.global_bad & (1u << k))
			global_keys[k].reset(cfg);
	/* Only now: a later duplicate header can still invalidate a VM. */
	for (i = 0; i < cfg->nr_vms; i++)
		cfg->vms[i].valid = cfg->vms[i].nr_errors == 0;
	sort_errors(cfg);
	return cfg->nr_errors + cfg->errors_dropped;
}

int hvcfg_format_error(const struct hv_config *cfg, unsigned i, char *buf,
		       size_t size)
{
	const struct hvcfg_error *e;

	if (i >= cfg->nr_errors) {
		if (size)
			buf[0] = '\0';
		return -1;
	}
	e = &cfg->errors[i];
	if (e->section[0])
		return snprintf(buf, size, "hv.cfg:%d: [%s] %s", e->line,
				e->section, e->reason);
	return snprintf(buf, size, "hv.cfg:%d: %s", e->line, e->reason);
}

const struct hvcfg_vm *hvcfg_find_vm(const struct hv_config *cfg,
				     const char *name)
{
	unsigned i;

	if (!name)
		return NULL;
	for (i = 0; i < cfg->nr_vms; i++)
		if (!strcmp(cfg->vms[i].name, name))
			return &cfg->vms[i];
	return NULL;
}
