/* Internals of the hv.cfg parser shared by its three files: config_text.c
 * (character classes, spans, numbers), config_keys.c (what each key
 * accepts) and config.c (lines, sections, the whole file). Not an API:
 * config.h is. */
#ifndef BOOT_CONFIG_INTERNAL_H
#define BOOT_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/config.h"

/* A piece of the caller's text: never copied, never NUL-terminated. */
struct span {
	const char *s;
	size_t n;
};

/* ---- config_text.c ---- */
bool cfg_is_space(char c);
bool cfg_is_alnum(char c);
bool cfg_is_comment(char c);
bool cfg_is_print(char c);
struct span cfg_span_from(struct span v, size_t i);
struct span cfg_trim_left(struct span v);
struct span cfg_trim(struct span v);
bool cfg_span_eq(struct span v, const char *lit);
bool cfg_span_ieq(struct span v, const char *lit);
size_t cfg_span_find(struct span v, char c);
void cfg_copy_span(char *dst, size_t size, struct span v);
const char *cfg_quote(char *buf, size_t size, struct span v);
bool cfg_parse_number(struct span v, uint64_t *out);
bool cfg_parse_size(struct span v, uint64_t *out);

/* ---- parser state (config.c) ---- */
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
	int display_owner_line;
};

void cfg_err_at(struct parser *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* An error on the current line, in the current section. */
void cfg_err(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- keys (config_keys.c) ---- */
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

enum {
	GK_DEFAULT, GK_CONSOLE, GK_SLICE_MS, GK_BALLOON_MS, GK_TEST_EXIT,
	GK_SELFTEST, GK_GPU, GK_PLACEMENT, GK_BALLOON_W_MAX,
	GK_BALLOON_RCOPY_MAX, GK_VGPU_FAULTS, GK_VGPU_FAULT_WINDOW_MS,
	GK_VTD, GK_VTD_SELFTEST, GK_GPU_SMOKE, GK_GPU_PREEMPT,
	GK_VMX_VPID, GK_VMX_MSR_READS, GK_VUART_FIFO_TEMT, GK_DISPLAY_OWNER,
	GK_VMX_APICV, GK_DYMGPU_LIVE, GK_SLICE_LONE_MS, GK_SPREAD,
	GK_SLICE_STRETCH_MS, GK_VMX_VID,
	NR_GK
};

enum {
	VK_MEMORY, VK_KERNEL, VK_RAMDISK, VK_CMDLINE,
	VK_LOW_GM, VK_HIGH_GM, VK_FENCES, VK_PPGTT, VK_TRACE, VK_VCPUS,
	VK_AUTOSTART,
	VK_BATCH_KIB,
	VK_SHADOW_PT,
	VK_DISPLAY,
	VK_CPUS,
	VK_VIRTIO_CONSOLE,
	NR_VK
};

_Static_assert(NR_GK <= MAX_KEYS && NR_VK <= MAX_KEYS, "parser.seen too small");

extern const struct key cfg_global_keys[NR_GK];
extern const struct key cfg_vm_keys[NR_VK];
bool cfg_valid_name(struct span v);

#endif
