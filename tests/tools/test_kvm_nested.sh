#!/bin/sh
# tools/kvm-nested against fake machines: each case builds a root with
# /proc/cpuinfo, /dev/kvm and kvm_intel's nested parameter as a host might
# have them, and checks the verdict (exit status) and the reason printed.
here=$(cd "$(dirname "$0")/../.." && pwd)
tool=$here/tools/kvm-nested
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

# machine NAME VENDOR FLAGS KVM(yes/no) NESTED(value or "none")
machine() {
	r=$work/$1
	mkdir -p "$r/proc" "$r/dev"
	printf 'processor\t: 0\nvendor_id\t: %s\nflags\t\t: %s\n\n' "$2" "$3" > "$r/proc/cpuinfo"
	[ "$4" = yes ] && : > "$r/dev/kvm"
	if [ "$5" != none ]; then
		mkdir -p "$r/sys/module/kvm_intel/parameters"
		echo "$5" > "$r/sys/module/kvm_intel/parameters/nested"
	fi
}

# expect NAME STATUS REGEX
expect() {
	out=$("$tool" "$work/$1"); rc=$?
	if [ "$rc" -eq "$2" ] && printf '%s\n' "$out" | grep -q -E -- "$3" &&
	   [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ]; then
		pass=$((pass + 1))
	else
		echo "FAIL $1: status $rc, said '$out' (wanted $2, /$3/)"
		fail=$((fail + 1))
	fi
}

machine intel-nested GenuineIntel 'fpu vme vmx ept' yes Y
expect intel-nested 0 '^yes$'
machine intel-nested-1 GenuineIntel 'fpu vmx' yes 1
expect intel-nested-1 0 '^yes$'
machine intel-nested-off GenuineIntel 'fpu vmx' yes N
expect intel-nested-off 1 'nested VT-x is off'
machine intel-no-kvm GenuineIntel 'fpu vmx' no Y
expect intel-no-kvm 1 'no /dev/kvm'
machine intel-no-module GenuineIntel 'fpu vmx' yes none
expect intel-no-module 1 'kvm_intel is not loaded'
machine intel-no-vmx GenuineIntel 'fpu vme sse2' yes Y
expect intel-no-vmx 1 'no vmx flag'
# "vmx" only as part of another flag's name is not VT-x
machine intel-vmx-substring GenuineIntel 'fpu novmxfoo' yes Y
expect intel-vmx-substring 1 'no vmx flag'
machine amd AuthenticAMD 'fpu svm' yes none
expect amd 1 'not an Intel CPU \(AuthenticAMD\)'
mkdir -p "$work/empty"
expect empty 1 'not an Intel CPU \(unknown vendor\)'

echo "kvm-nested: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
