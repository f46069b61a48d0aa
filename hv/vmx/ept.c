/* EPT construction and maintenance; see ept.h for the contract.
 *
 * Levels are numbered by what one entry of a table maps: 0 = PT entry
 * (4 KiB), 1 = PD entry (2 MiB), 2 = PDPT entry (1 GiB), 3 = PML4 entry
 * (512 GiB). An entry is a leaf at level 0, or at levels 1-2 when bit 7
 * (EPT_ENTRY_LARGE) is set. We create 2 MiB and 4 KiB leaves only, but walk
 * and split 1 GiB leaves too so a tree built elsewhere still works. */
#include "hv/vmx/ept.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"

#define EPT_TOP_LEVEL	3
#define EPT_ENTRIES	512

/* Non-leaf entries grant everything: the permissions along a walk are
 * ANDed (SDM 29.3.2), so the leaves alone decide. */
#define EPT_TABLE_PERMS	EPT_ENTRY_PERM_MASK
/* What must agree for two present leaves to translate alike. */
#define EPT_XLAT_BITS	(EPT_ENTRY_ADDR_MASK | EPT_ENTRY_MEMTYPE_MASK | \
			 EPT_ENTRY_IGNORE_PAT)

static inline unsigned level_shift(int level)
{
	return PAGE_SHIFT + 9 * (unsigned)level;
}

static inline uint64_t level_span(int level)
{
	return 1ull << level_shift(level);
}

static inline unsigned level_index(uint64_t gpa, int level)
{
	return (unsigned)(gpa >> level_shift(level)) & (EPT_ENTRIES - 1);
}

static inline bool entry_present(uint64_t e)
{
	return (e & EPT_ENTRY_PERM_MASK) != 0;
}

static inline bool entry_is_leaf(uint64_t e, int level)
{
	return level == 0 || (e & EPT_ENTRY_LARGE);
}

static inline uint64_t *entry_table(uint64_t e)
{
	return hv_va(e & EPT_ENTRY_ADDR_MASK);
}

static inline uint64_t leaf_base(uint64_t e, int level)
{
	return e & EPT_ENTRY_ADDR_MASK & ~(level_span(level) - 1);
}

/* Entries are read by the CPU's page walker while we write them: one
 * 64-bit store each, never torn or reordered by the compiler. */
static inline void entry_set(uint64_t *p, uint64_t val)
{
	__asm__ __volatile__("" ::: "memory");
	*(volatile uint64_t *)p = val;
}

/* Does replacing present entry `old` by `new` need an INVEPT? Not when
 * the translation and memory type stay and no permission is taken away. */
static bool change_needs_flush(uint64_t old, uint64_t new)
{
	if (!entry_present(old))
		return false;
	if (!entry_present(new))
		return true;
	if ((old ^ new) & (EPT_XLAT_BITS | EPT_ENTRY_LARGE))
		return true;
	return (old & ~new & EPT_ENTRY_PERM_MASK) != 0;
}

/* --- table pages ---------------------------------------------------------- */

static uint64_t *table_alloc(struct ept *ept)
{
	uint64_t *t = page_alloc();	/* zeroed: 512 not-present entries */

	if (t != NULL)
		ept->table_pages++;
	return t;
}

/* Detach the table `t` whose entries are at `level`, with everything below
 * it, onto the deferred list. Entry 0 becomes the list link: a 4 KiB
 * aligned address with bits 2:0 clear, so a CPU still walking the table
 * from a stale cache sees a not-present entry, never a stray translation.
 * Recursion depth is at most 3. */
static void defer_table(struct ept *ept, uint64_t *t, int level)
{
	unsigned i;

	for (i = 0; level > 0 && i < EPT_ENTRIES; i++)
		if (entry_present(t[i]) && !entry_is_leaf(t[i], level))
			defer_table(ept, entry_table(t[i]), level - 1);
	entry_set(&t[0], ept->deferred);
	ept->deferred = hv_pa(t);
	ept->table_pages--;
	ept->deferred_pages++;
}

static void free_deferred(struct ept *ept)
{
	while (ept->deferred != 0) {
		uint64_t *t = hv_va(ept->deferred);

		ept->deferred = t[0];
		page_free(t);
		ept->deferred_pages--;
	}
}

/* Free a table and everything below it, immediately (destroy only). */
static void free_table(struct ept *ept, uint64_t *t, int level)
{
	unsigned i;

	for (i = 0; level > 0 && i < EPT_ENTRIES; i++)
		if (entry_present(t[i]) && !entry_is_leaf(t[i], level))
			free_table(ept, entry_table(t[i]), level - 1);
	page_free(t);
	ept->table_pages--;
}

/* --- walking -------------------------------------------------------------- */

/* Replace the leaf *e at `level` (>= 1) by a table of 512 leaves one level
 * down with the same translation, permissions, memory type and A/D bits.
 * The guest cannot tell: both forms translate alike, so no INVEPT is
 * needed (a CPU may briefly hold both in its TLB; they agree). */
static int split_leaf(struct ept *ept, uint64_t *e, int level)
{
	uint64_t old = *e;
	uint64_t base = leaf_base(old, level);
	uint64_t flags = old & ~EPT_ENTRY_ADDR_MASK & ~EPT_ENTRY_LARGE;
	uint64_t step = level_span(level - 1);
	uint64_t *t;
	unsigned i;

	if (level - 1 > 0)
		flags |= EPT_ENTRY_LARGE;
	t = table_alloc(ept);
	if (t == NULL)
		return -HV_ENOMEM;
	for (i = 0; i < EPT_ENTRIES; i++)
		t[i] = (base + i * step) | flags;
	entry_set(e, hv_pa(t) | EPT_TABLE_PERMS);
	ept->splits++;
	return 0;
}

/* Walk down to the entry for gpa at `target` level, creating missing tables
 * and splitting larger leaves on the way. Changes no translation. Once a
 * path has been prepared this way, walking it again allocates nothing and
 * cannot fail. */
static int walk_create(struct ept *ept, uint64_t gpa, int target,
		       uint64_t **out)
{
	uint64_t *table = ept->pml4, *e, *t;
	int level, err;

	for (level = EPT_TOP_LEVEL; level > target; level--) {
		e = &table[level_index(gpa, level)];
		if (!entry_present(*e)) {
			t = table_alloc(ept);
			if (t == NULL)
				return -HV_ENOMEM;
			entry_set(e, hv_pa(t) | EPT_TABLE_PERMS);
		} else if (entry_is_leaf(*e, level)) {
			err = split_leaf(ept, e, level);
			if (err)
				return err;
		}
		table = entry_table(*e);
	}
	*out = &table[level_index(gpa, target)];
	return 0;
}

/* Does the span of a level-`level` entry containing gpa lie inside
 * [gpa, end), starting at gpa? */
static bool span_fits(uint64_t gpa, uint64_t end, int level)
{
	uint64_t span = level_span(level);

	return (gpa & (span - 1)) == 0 && end - gpa >= span;
}

/* The entry that decides gpa's translation: the first not-present entry or
 * leaf on its path. With `end`, stop early at a table whose whole span lies
 * in [gpa, end) (unmap detaches such tables in one go); end = 0 walks all
 * the way down. Sets *level to the entry's level. */
static uint64_t *walk_find(const struct ept *ept, uint64_t gpa, uint64_t end,
			   int *level)
{
	uint64_t *table = ept->pml4, *e;
	int l;

	for (l = EPT_TOP_LEVEL;; l--) {
		e = &table[level_index(gpa, l)];
		if (!entry_present(*e) || entry_is_leaf(*e, l) ||
		    (end != 0 && span_fits(gpa, end, l)))
			break;
		table = entry_table(*e);
	}
	*level = l;
	return e;
}

/* Next address after the level-`level` span containing gpa, capped. */
static uint64_t span_next(uint64_t gpa, int level, uint64_t end)
{
	uint64_t next = (gpa | (level_span(level) - 1)) + 1;

	return next < end ? next : end;
}

/* --- argument checks ----------------------------------------------------- */

static int check_range(const struct ept *ept, uint64_t gpa, uint64_t size)
{
	if (ept->pml4 == NULL || size == 0 || ((gpa | size) & (PAGE_SIZE - 1)))
		return -HV_EINVAL;
	if (gpa >= EPT_GPA_LIMIT || size > EPT_GPA_LIMIT - gpa)
		return -HV_ERANGE;
	return 0;
}

static bool perms_valid(unsigned perms)
{
	return perms <= EPT_RWX && (perms & EPT_R);
}

/* Leaf bits for a memtype argument, or 0 if it is not a valid type (UC
 * encodes as 0 too, so validity is returned separately). */
static bool memtype_bits(unsigned memtype, uint64_t *bits)
{
	static const bool valid[8] = {
		[MEMTYPE_UC] = true, [MEMTYPE_WC] = true, [MEMTYPE_WT] = true,
		[MEMTYPE_WP] = true, [MEMTYPE_WB] = true,
	};
	unsigned type = memtype & ~EPT_IGNORE_PAT;

	if (type >= 8 || !valid[type])
		return false;
	*bits = (uint64_t)type << EPT_ENTRY_MEMTYPE_SHIFT;
	if (memtype & EPT_IGNORE_PAT)
		*bits |= EPT_ENTRY_IGNORE_PAT;
	return true;
}

/* --- map ------------------------------------------------------------------- */

/* 2 MiB leaf if both addresses are 2 MiB aligned and 2 MiB remain. */
static int map_level(uint64_t gpa, uint64_t hpa, uint64_t left)
{
	return ((gpa | hpa) & (EPT_PAGE_2M - 1)) == 0 && left >= EPT_PAGE_2M;
}

/* Install leaf `val` at *e (level `level`). A table there (a 2 MiB range
 * that was split before and is now mapped whole again) is detached. */
static void leaf_install(struct ept *ept, uint64_t *e, int level,
			 uint64_t val)
{
	uint64_t old = *e;

	if (entry_present(old) && !entry_is_leaf(old, level)) {
		entry_set(e, val);
		defer_table(ept, entry_table(old), level - 1);
		ept->flush_needed = true;
		return;
	}
	if (change_needs_flush(old, val))
		ept->flush_needed = true;
	entry_set(e, val);
}

/* One pass over the range: prepare the tree (commit = false) or write the
 * leaves (commit = true, cannot fail after a successful prepare). */
static int map_pass(struct ept *ept, uint64_t gpa, uint64_t hpa,
		    uint64_t size, uint64_t flags, bool commit)
{
	uint64_t off = 0, *e;
	int level, err;

	while (off < size) {
		level = map_level(gpa + off, hpa + off, size - off);
		err = walk_create(ept, gpa + off, level, &e);
		if (err)
			return err;
		if (commit)
			leaf_install(ept, e, level, (hpa + off) | flags |
				     (level > 0 ? EPT_ENTRY_LARGE : 0));
		off += level_span(level);
	}
	return 0;
}

int ept_map(struct ept *ept, uint64_t gpa, uint64_t hpa, uint64_t size,
	    unsigned perms, unsigned memtype)
{
	uint64_t mt;
	int err;

	err = check_range(ept, gpa, size);
	if (err)
		return err;
	if ((hpa & (PAGE_SIZE - 1)) || !perms_valid(perms) ||
	    !memtype_bits(memtype, &mt))
		return -HV_EINVAL;
	if (hpa >= EPT_HPA_LIMIT || size > EPT_HPA_LIMIT - hpa)
		return -HV_ERANGE;
	err = map_pass(ept, gpa, hpa, size, perms | mt, false);
	if (err)
		return err;
	return map_pass(ept, gpa, hpa, size, perms | mt, true);
}

/* --- unmap ----------------------------------------------------------------- */

/* Prepare: split every large leaf that straddles an end of the range. */
static int unmap_prepare(struct ept *ept, uint64_t gpa, uint64_t end)
{
	uint64_t *e;
	int level, err;

	while (gpa < end) {
		e = walk_find(ept, gpa, end, &level);
		if (entry_present(*e) && !span_fits(gpa, end, level)) {
			err = split_leaf(ept, e, level);
			if (err)
				return err;
			continue;	/* look again, one level down */
		}
		gpa = span_next(gpa, level, end);
	}
	return 0;
}

static void unmap_commit(struct ept *ept, uint64_t gpa, uint64_t end)
{
	uint64_t *e, old;
	int level;

	while (gpa < end) {
		e = walk_find(ept, gpa, end, &level);
		old = *e;
		if (entry_present(old)) {
			entry_set(e, 0);
			if (!entry_is_leaf(old, level))
				defer_table(ept, entry_table(old), level - 1);
			ept->flush_needed = true;
		}
		gpa = span_next(gpa, level, end);
	}
}

int ept_unmap(struct ept *ept, uint64_t gpa, uint64_t size)
{
	int err = check_range(ept, gpa, size);

	if (err)
		return err;
	err = unmap_prepare(ept, gpa, gpa + size);
	if (err)
		return err;
	unmap_commit(ept, gpa, gpa + size);
	return 0;
}

/* --- protect --------------------------------------------------------------- */

/* Prepare: every page mapped, and no leaf straddling an end of the range. */
static int protect_prepare(struct ept *ept, uint64_t gpa, uint64_t end)
{
	uint64_t *e;
	int level, err;

	while (gpa < end) {
		e = walk_find(ept, gpa, 0, &level);
		if (!entry_present(*e))
			return -HV_ENOENT;
		if (!span_fits(gpa, end, level)) {
			err = split_leaf(ept, e, level);
			if (err)
				return err;
			continue;
		}
		gpa += level_span(level);
	}
	return 0;
}

static void protect_commit(struct ept *ept, uint64_t gpa, uint64_t end,
			   unsigned perms)
{
	uint64_t *e, val;
	int level;

	while (gpa < end) {
		e = walk_find(ept, gpa, 0, &level);
		val = (*e & ~EPT_ENTRY_PERM_MASK) | perms;
		if (change_needs_flush(*e, val))
			ept->flush_needed = true;
		entry_set(e, val);
		gpa += level_span(level);
	}
}

int ept_protect(struct ept *ept, uint64_t gpa, uint64_t size, unsigned perms)
{
	int err = check_range(ept, gpa, size);

	if (err)
		return err;
	if (!perms_valid(perms))
		return -HV_EINVAL;
	err = protect_prepare(ept, gpa, gpa + size);
	if (err)
		return err;
	protect_commit(ept, gpa, gpa + size, perms);
	return 0;
}

/* --- lookup, EPTP, lifetime ----------------------------------------------- */

int ept_translate(const struct ept *ept, uint64_t gpa, struct ept_xlat *out)
{
	uint64_t e, span;
	int level;

	if (ept->pml4 == NULL)
		return -HV_EINVAL;
	if (gpa >= EPT_GPA_LIMIT)
		return -HV_ERANGE;
	e = *walk_find(ept, gpa, 0, &level);
	if (!entry_present(e))
		return -HV_ENOENT;
	span = level_span(level);
	out->hpa = leaf_base(e, level) + (gpa & (span - 1));
	out->page_size = span;
	out->perms = (unsigned)(e & EPT_ENTRY_PERM_MASK);
	out->memtype = (unsigned)((e & EPT_ENTRY_MEMTYPE_MASK) >>
				  EPT_ENTRY_MEMTYPE_SHIFT);
	if (e & EPT_ENTRY_IGNORE_PAT)
		out->memtype |= EPT_IGNORE_PAT;
	return 0;
}

uint64_t ept_eptp(const struct ept *ept, bool enable_ad)
{
	uint64_t eptp = hv_pa(ept->pml4) |
			((uint64_t)MEMTYPE_WB << EPTP_MEMTYPE_SHIFT) |
			((uint64_t)(EPT_TOP_LEVEL) << EPTP_WALK_LENGTH_SHIFT);

	return enable_ad ? eptp | EPTP_ENABLE_AD : eptp;
}

int ept_init(struct ept *ept)
{
	*ept = (struct ept){ .pml4 = NULL };
	ept->pml4 = table_alloc(ept);
	return ept->pml4 ? 0 : -HV_ENOMEM;
}

void ept_flush_done(struct ept *ept)
{
	free_deferred(ept);
	ept->flush_needed = false;
}

void ept_destroy(struct ept *ept)
{
	if (ept->pml4 != NULL)
		free_table(ept, ept->pml4, EPT_TOP_LEVEL);
	free_deferred(ept);
	*ept = (struct ept){ .pml4 = NULL };
}
