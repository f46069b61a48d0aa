/* hv.cfg parser, part 3 of 3: lines, sections and the whole file. The
 * contract is in config.h, the format for users in docs/hv-cfg.md; what
 * each key accepts is config_keys.c, spans and numbers config_text.c.
 *
 * Freestanding: besides libc-mini's mem*, str* and *snprintf it uses
 * only its own small helpers (character classes, number parsing), so it
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
#include "boot/config_internal.h"

/* ---- errors ------------------------------------------------------------- */

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
	cfg_copy_span(e->section, sizeof(e->section),
		  (struct span){ p->sec_name, strlen(p->sec_name) });
	vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
}

void cfg_err_at(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr_at(p, line, fmt, ap);
	va_end(ap);
}

/* An error on the current line, in the current section. */
void cfg_err(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr_at(p, p->line, fmt, ap);
	va_end(ap);
}

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
		cfg_err_at(p, p->sec_line, "missing required key 'memory'");
	if (!seen(p, VK_KERNEL))
		cfg_err_at(p, p->sec_line, "missing required key 'kernel'");
	if (low != high)
		cfg_err_at(p, p->sec_line,
		       "vgpu_low_gm and vgpu_high_gm must be given together");
	if (seen(p, VK_FENCES) && !low && !high)
		cfg_err_at(p, p->sec_line, "fences given without a vGPU");
	if (seen(p, VK_PPGTT) && !low && !high)
		cfg_err_at(p, p->sec_line, "vgpu_ppgtt given without a vGPU");
	if (seen(p, VK_TRACE) && !low && !high)
		cfg_err_at(p, p->sec_line, "vgpu_trace given without a vGPU");
	if (seen(p, VK_BATCH_KIB) && !low && !high)
		cfg_err_at(p, p->sec_line, "vgpu_batch_kib given without a vGPU");
	if (seen(p, VK_SHADOW_PT) && !low && !high)
		cfg_err_at(p, p->sec_line,
			   "vgpu_shadow_pt_kib given without a vGPU");
	if (seen(p, VK_DISPLAY) && !low && !high)
		cfg_err_at(p, p->sec_line, "vgpu_display given without a vGPU");

	if (vm->nr_cpus > (vm->vcpus ? vm->vcpus : 1u)) {
		cfg_err_at(p, vm->cpus_line, "cpus: %u CPUs for %u vCPU%s: "
			   "a CPU without a vCPU of the VM would idle, owned",
			   vm->nr_cpus, vm->vcpus ? vm->vcpus : 1u,
			   vm->vcpus > 1 ? "s" : "");
		vm->cpus = 0;		/* a refused value is not kept */
		vm->nr_cpus = 0;
	}
	/* cpus= and vcpus= with a vGPU are fine: the mediator is entered
	 * under one lock from any CPU, and the vGPU's MSI goes to the vCPUs
	 * its address names, through their CPU's mailbox when that is
	 * another (docs/smp.md "Mediator concurrency"). */
	vm->has_vgpu = low && high;
	if (!vm->has_vgpu) {
		/* Keep "no vGPU" one state, whatever was half given. */
		vm->vgpu_low_gm = 0;
		vm->vgpu_high_gm = 0;
		vm->fences = 0;
		vm->ppgtt = HVCFG_PPGTT_STRICT;
		vm->vgpu_trace = false;
		vm->vgpu_trace_batches = false;
		vm->vgpu_batch_kib = 0;
		vm->shadow_pt_kib = 0;
		vm->vgpu_display[0] = '\0';
	} else {
		if (!seen(p, VK_SHADOW_PT))
			vm->shadow_pt_kib = HVCFG_DEFAULT_SHADOW_PT_KIB;
		if (!seen(p, VK_FENCES))
			vm->fences = HVCFG_DEFAULT_FENCES;
		/* gHyvi's per-table choice is never costlier than strict on
		 * the study's traces (docs/eval/ghyvi.md), so it is what a VM
		 * gets unless its section says otherwise. */
		if (!seen(p, VK_PPGTT))
			vm->ppgtt = HVCFG_PPGTT_ADAPTIVE;
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
	cfg_quote(p->sec_name, sizeof(p->sec_name), name);
}

static void begin_global(struct parser *p, struct span name)
{
	if (p->global_seen) {
		enter(p, SEC_IGNORED, name, NULL);
		cfg_err(p, "duplicate section (first on line %d); this one is ignored",
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
		if (cfg_span_eq(name, cfg->vms[i].name))
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
		cfg_err(p, "duplicate section (first on line %d); this one is ignored",
		    vm->line);
		return;
	}
	if (cfg->nr_vms == HVCFG_MAX_VMS) {
		enter(p, SEC_IGNORED, name, NULL);
		cfg_err(p, "too many VMs (max %d); section ignored", HVCFG_MAX_VMS);
		return;
	}
	vm = &cfg->vms[cfg->nr_vms++];
	cfg_copy_span(vm->name, sizeof(vm->name), name);
	vm->line = p->line;
	enter(p, SEC_VM, name, vm);
}

/* l starts with '['. */
static void parse_header(struct parser *p, struct span l)
{
	size_t close = cfg_span_find(l, ']');
	struct span name, rest;

	end_section(p);
	if (close == l.n) {
		enter(p, SEC_IGNORED, (struct span){ "", 0 }, NULL);
		cfg_err(p, "unterminated '['; lines up to the next section ignored");
		return;
	}
	name = cfg_trim((struct span){ l.s + 1, close - 1 });
	rest = cfg_trim_left(cfg_span_from(l, close + 1));

	if (!cfg_valid_name(name)) {
		enter(p, SEC_IGNORED, name, NULL);
		cfg_err(p, "bad section name (1-31 of A-Z a-z 0-9 _ -); section ignored");
	} else if (cfg_span_eq(name, "global")) {
		begin_global(p, name);
	} else if (cfg_span_ieq(name, "global")) {
		enter(p, SEC_IGNORED, name, NULL);
		cfg_err(p, "section name is reserved (did you mean [global]?); section ignored");
	} else {
		begin_vm(p, name);
	}
	/* The section stays open (a VM gets invalid by the error) so that its
	 * keys do not land in the previous one. */
	if (rest.n && !cfg_is_comment(rest.s[0]))
		cfg_err(p, "text after ']'");
}

/* ---- key = value ------------------------------------------------------- */

/* A '#' or ';' starts a comment at the start of the value or after
 * whitespace; elsewhere it is part of the value (a#b). */
static struct span strip_comment(struct span v)
{
	size_t i;

	for (i = 0; i < v.n; i++) {
		if (cfg_is_comment(v.s[i]) && (i == 0 || cfg_is_space(v.s[i - 1]))) {
			v.n = i;
			break;
		}
	}
	return cfg_trim(v);
}

static bool valid_key(struct span k)
{
	size_t i;

	for (i = 0; i < k.n; i++)
		if (!cfg_is_alnum(k.s[i]) && k.s[i] != '_')
			return false;
	return k.n > 0;
}

static int find_key(const struct key *keys, int nr, struct span name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (cfg_span_eq(name, keys[i].name))
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
	size_t eq = cfg_span_find(l, '=');
	const struct key *keys = p->sec == SEC_GLOBAL ? cfg_global_keys : cfg_vm_keys;
	int nr = p->sec == SEC_GLOBAL ? NR_GK : NR_VK;
	struct span name, v;
	char q[28];
	int idx;

	if (eq == l.n) {
		cfg_err(p, "expected key=value, [section] or a comment");
		return;
	}
	name = cfg_trim((struct span){ l.s, eq });
	if (!valid_key(name)) {
		cfg_err(p, "bad key name '%s'", cfg_quote(q, sizeof(q), name));
		return;
	}
	if (p->sec == SEC_NONE) {
		cfg_err(p, "key '%s' outside any section", cfg_quote(q, sizeof(q), name));
		return;
	}
	if (p->sec == SEC_IGNORED)
		return;	/* the header's error said so */

	idx = find_key(keys, nr, name);
	if (idx < 0) {
		cfg_err(p, "unknown key '%s'", cfg_quote(q, sizeof(q), name));
		return;
	}
	if (seen(p, idx)) {
		/* Which one was meant is unknown: a VM is not started, a
		 * [global] key stays at its default. */
		cfg_err(p, "duplicate key '%s' (first on line %d)", keys[idx].name,
		    p->seen_line[idx]);
		mark_bad(p, idx);
		return;
	}
	p->seen |= 1u << idx;
	p->seen_line[idx] = p->line;

	v = cfg_trim_left(cfg_span_from(l, eq + 1));
	if (!keys[idx].raw)
		v = strip_comment(v);
	if (!keys[idx].raw && !v.n) {
		cfg_err(p, "%s: empty value", keys[idx].name);
		mark_bad(p, idx);
		return;
	}
	if (!keys[idx].set(p, &keys[idx], v))
		mark_bad(p, idx);
}

static void parse_line(struct parser *p, struct span l)
{
	if (cfg_span_find(l, '\0') != l.n) {
		cfg_err(p, "NUL byte in line");
		return;
	}
	l = cfg_trim(l);
	if (!l.n || cfg_is_comment(l.s[0]))
		return;
	if (l.s[0] == '[')
		parse_header(p, l);
	else
		parse_assignment(p, l);
}

/* ---- whole file -------------------------------------------------------- */

/* default= and display_owner= may name a VM defined further down, so
 * they are checked last. */
static void check_vm_key(struct parser *p, const char *name, int line,
			 const char *key, unsigned gk)
{
	struct span s = { name, strlen(name) };

	if (!s.n || find_vm(p->cfg, s))
		return;
	enter(p, SEC_GLOBAL, (struct span){ "global", 6 }, NULL);
	cfg_err_at(p, line, "%s: no VM section named '%s'", key, name);
	p->global_bad |= 1u << gk;
}

static void check_default(struct parser *p)
{
	check_vm_key(p, p->cfg->default_vm, p->default_line, "default",
		     GK_DEFAULT);
	check_vm_key(p, p->cfg->display_owner, p->display_owner_line,
		     "display_owner", GK_DISPLAY_OWNER);
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
		cfg_global_keys[i].reset(cfg);
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
	if (rest.n >= 3 && cfg_span_eq((struct span){ rest.s, 3 }, "\xef\xbb\xbf"))
		rest = cfg_span_from(rest, 3);
	while (rest.n) {
		nl = cfg_span_find(rest, '\n');
		l = (struct span){ rest.s, nl };
		rest = cfg_span_from(rest, nl < rest.n ? nl + 1 : nl);
		if (p.line < __INT_MAX__)
			p.line++;
		parse_line(&p, l);	/* a CR before the LF is trimmed */
	}
	end_section(&p);
	check_default(&p);

	for (k = 0; k < NR_GK; k++)
		if (p.global_bad & (1u << k))
			cfg_global_keys[k].reset(cfg);
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
