#!/bin/sh
# tools/gen-guest-hw: the test guest's copy of the Gen9 hardware facts
# (guest-shim/include/g9hv/gen9_hw.h) agrees with gpu/hw/; a fake tree
# whose gpu/hw/ changed a value the copy holds fails --check, naming the
# line; an unknown name in the tool's list fails too.
here=$(cd "$(dirname "$0")/../.." && pwd)
tool=$here/tools/gen-guest-hw
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

# expect WHAT STATUS REGEX CMD...
expect() {
	what=$1 want=$2 re=$3
	shift 3
	out=$("$@" 2>&1); rc=$?
	if [ "$rc" -eq "$want" ] && printf '%s\n' "$out" | grep -q -E -- "$re"; then
		pass=$((pass + 1))
	else
		echo "FAIL $what: status $rc, said '$out' (wanted $want, /$re/)"
		fail=$((fail + 1))
	fi
}

# The real tree: the committed copy agrees.
expect real 0 'agrees with gpu/hw/' "$tool" --root "$here" --check

# A fake tree: the real headers and copy, then gpu/hw/ moves GEN6_GDRST.
tree() {
	rm -rf "$work/$1"
	mkdir -p "$work/$1/gpu/hw" "$work/$1/guest-shim/include/g9hv"
	cp "$here/gpu/hw/gen9_regs.h" "$here/gpu/hw/gen9_cmds.h" "$work/$1/gpu/hw/"
	cp "$here/guest-shim/include/g9hv/gen9_hw.h" "$work/$1/guest-shim/include/g9hv/"
}
tree same
expect same 0 'agrees' "$tool" --root "$work/same" --check

tree moved
sed -i 's/^#define GEN6_GDRST 0x941c$/#define GEN6_GDRST 0x9420/' "$work/moved/gpu/hw/gen9_regs.h"
expect moved 1 'gen9_hw.h:[0-9]+ differs from gpu/hw/ .*GEN6_GDRST 0x9420' \
	"$tool" --root "$work/moved" --check

tree edited
sed -i 's/^#define MI_NOOP .*/#define MI_NOOP 1/' "$work/edited/guest-shim/include/g9hv/gen9_hw.h"
expect edited 1 'differs from gpu/hw/' "$tool" --root "$work/edited" --check

tree gone
sed -i '/^#define RING_ELSP(base)/d' "$work/gone/gpu/hw/gen9_regs.h"
expect gone 1 'not defined in gpu/hw/: RING_ELSP' "$tool" --root "$work/gone" --check

echo "gen-guest-hw: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
