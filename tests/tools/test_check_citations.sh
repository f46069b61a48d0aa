#!/bin/sh
# tools/check-citations: each planted citation of a file outside the
# repository fails (the exit status and the BADCITE line naming it), a fake
# tree that cites only what it holds passes, and so does the real tree.
here=$(cd "$(dirname "$0")/../.." && pwd)
tool=$here/tools/check-citations
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

# file TREE PATH [LINE...]: a file with these lines
file() {
	t=$work/$1 p=$2
	shift 2
	mkdir -p "$(dirname "$t/$p")"
	: > "$t/$p"
	for l in "$@"; do printf '%s\n' "$l" >> "$t/$p"; done
}

# A tree that cites only its own docs, by file and by section.
good() {
	file "$1" docs/gen9-facts.md '# Gen9' '## 4. Engines' '### 4.5 Context Status Buffer'
	file "$1" docs/i915-guest-facts.md '# Guest' '### 2.3 Capabilities'
	file "$1" docs/gvt-facts.md '# GVT-g' '## F3. Freezes'
	file "$1" docs/papers.md '# Papers' '- gScale: "gScale: Scaling up GPU Virtualization ..."'
	file "$1" gpu/hw/pgpu.c '/* CSB events (gen9-facts §4.5). */'
	file "$1" gpu/vgpu/mmio/vgpu_pvinfo.c '/* No huge GTT (i915-guest §2.3; docs/i915-guest-facts.md). */'
	file "$1" gpu/vgpu/ppgtt/vgpu_spt.c '/* Untrack (gvt-facts §F3). */'
	file "$1" gpu/gscale/gscale.h '/* Slots (gScale paper, §4.3; docs/papers.md). */'
	file "$1" hv/vtd/vtd_selftest.c "/* QEMU's docs/specs/edu.txt names the device. */"
	# A binary file is not read.
	mkdir -p "$work/$1/tests"
	printf 'design.md\0' > "$work/$1/tests/blob.bin"
}

# expect NAME STATUS REGEX: check-citations on tree NAME
expect() {
	name=$1 want=$2 re=$3
	out=$("$tool" --root "$work/$name"); rc=$?
	if [ "$rc" -eq "$want" ] && printf '%s\n' "$out" | grep -q -E -- "$re"; then
		pass=$((pass + 1))
	else
		echo "FAIL $name: status $rc, said '$out' (wanted $want, /$re/)"
		fail=$((fail + 1))
	fi
}

# plant NAME PATH LINE REGEX: the good tree with one more line in PATH fails
plant() {
	good "$1"
	mkdir -p "$(dirname "$work/$1/$2")"
	printf '%s\n' "$3" >> "$work/$1/$2"
	expect "$1" 1 "$4"
}

good ok
expect ok 0 '^$'

plant design gpu/vgpu/mmio/vgpu_mmio.c '/* BAR0 dispatch (design.md data flow 2). */' \
	'^BADCITE gpu/vgpu/mmio/vgpu_mmio.c:1: "design\.md": the project notes outside'
plant shared gpu/vgpu/vgpu.h '/* Facts: ../shared/specs/i915-guest.md */' \
	'^BADCITE gpu/vgpu/vgpu.h:1: "\.\./shared/"'
plant specs hv/vm/vpci.c '/* 0xa100 = Sunrise Point, specs/gen9.md */' \
	'^BADCITE hv/vm/vpci.c:1: "specs/gen9\.md"'
plant seeds gpu/gscale/gscale.h '/* Slots (seeds/gscale.txt). */' \
	'^BADCITE gpu/gscale/gscale.h:2: "seeds/gscale\.txt"'
plant reference docs/gvt-facts.md 'From reference/gvtg-features.md.' \
	'^BADCITE docs/gvt-facts.md:3: "reference/gvtg-features\.md"'
plant guest gpu/vgpu/mmio/vgpu_cfg.c '/* GGC: no stolen memory (guest §6.2). */' \
	'^BADCITE gpu/vgpu/mmio/vgpu_cfg.c:1: "guest §"'
plant gen9md gpu/model/irq.c '/* IIR clears twice (gen9.md §7.2). */' \
	'^BADCITE gpu/model/irq.c:1: "gen9\.md"'
plant gen9 gpu/vgpu/mmio/vgpu_irq.c '/* Virtual interrupts (gen9 §7). */' \
	'^BADCITE gpu/vgpu/mmio/vgpu_irq.c:1: "gen9 §"'
plant gvt gpu/vgpu/gtt/vgpu_gm.c '/* Static partition (gvt features §2, user issues §1). */' \
	'^BADCITE gpu/vgpu/gtt/vgpu_gm.c:1: "gvt features §"'
plant tool tools/run-thing '# from /work/shared/design.md' \
	'^BADCITE tools/run-thing:1: "/work/shared/"'
plant nodoc hv/main.c '/* Boot order: docs/boot.md. */' \
	'^BADCITE hv/main.c:1: "docs/boot\.md": no such file in the repository'
plant nosection gpu/hw/pgpu.c '/* Forcewake (gen9-facts §8). */' \
	'^BADCITE gpu/hw/pgpu.c:2: "gen9-facts §8": no section 8 in docs/gen9-facts\.md'

# Every break is listed, with the count.
good many
printf '%s\n' '/* guest §2 and design.md */' >> "$work/many/hv/main.c"
expect many 1 '2 bad citation'

# The real tree cites only what it holds.
out=$(cd "$here" && "$tool"); rc=$?
if [ "$rc" -eq 0 ]; then
	pass=$((pass + 1))
else
	echo "FAIL the real tree: status $rc"
	printf '%s\n' "$out"
	fail=$((fail + 1))
fi

echo "check-citations: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
