#!/bin/sh
# tools/check-includes: each rule fails on a fake tree that breaks it
# (the exit status and the FORBIDDEN line naming the include), a fake tree
# that keeps every rule passes, and so does the real tree.
here=$(cd "$(dirname "$0")/../.." && pwd)
tool=$here/tools/check-includes
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

# file TREE PATH [LINE...]: a source file with these lines
file() {
	t=$work/$1 p=$2
	shift 2
	mkdir -p "$(dirname "$t/$p")"
	: > "$t/$p"
	for l in "$@"; do printf '%s\n' "$l" >> "$t/$p"; done
}

# A tree that keeps the rules: the layers as the real one has them.
good() {
	file "$1" hv/vm/vm.h '#include <stdint.h>' '#include "mini/string.h"'
	file "$1" hv/vm/vdev.c '#include "hv/vm/vm.h"'
	file "$1" hv/console/console.h
	file "$1" hv/mm/paging.c '#include "hv/console/console.h"' '#include "hv/cpu/x86.h"'
	file "$1" hv/cpu/x86.h
	file "$1" hv/gpu/vgpu_dev.c '#include "gpu/vgpu/vgpu.h"' '#include "hv/vm/vm.h"'
	file "$1" gpu/hv_ops.h '#include <stddef.h>'
	file "$1" gpu/vgpu/vgpu.h '#include "gpu/hv_ops.h"' '#include "gpu/hw/gen9_regs.h"'
	file "$1" gpu/hw/gen9_regs.h
	file "$1" gpu/hw/gen9_cmds.h '#include "gpu/hw/gen9_regs.h"'
	file "$1" gpu/gscale/gscale.c '#include "gpu/hw/gen9_regs.h"' '#include "mini/string.h"'
	file "$1" gpu/policy/slots.h
	file "$1" gpu/policy/slots.c '#include "gpu/policy/slots.h"' '#include "gpu/hw/gen9_regs.h"'
	file "$1" gpu/gballoon/gballoon.h '#include "gpu/vgpu/vgpu.h"'
	file "$1" gpu/gballoon/gballoon_live.c '#include "gpu/gballoon/gballoon.h"' \
		'#include "gpu/policy/slots.h"' '#include "gpu/vgpu/vgpu_ext.h"'
	file "$1" hv/gpu/gpu_balloon.c '#include "gpu/gballoon/gballoon.h"'
	file "$1" gpu/dymgpu/dymgpu.h '#include "gpu/vgpu/vgpu.h"' '#include "gpu/vgpu/vgpu_ext.h"'
	file "$1" gpu/dymgpu/dymgpu_move.c '#include "gpu/dymgpu/dymgpu.h"' \
		'#include "gpu/policy/monitor.h"' '#include "gpu/vgpu/vgpu_priv.h"'
	file "$1" hv/gpu/gpu_place.c '#include "gpu/dymgpu/dymgpu.h"'
	file "$1" gpu/vgpu/vgpu_ext.h
	file "$1" gpu/ghyvi/ghyvi.h '#include "gpu/vgpu/vgpu.h"' '#include "gpu/vgpu/vgpu_ext.h"'
	file "$1" hv/gpu/gpu_host.c '#include "gpu/ghyvi/ghyvi.h"'
	file "$1" gpu/display/vdisp_aux.h
	file "$1" gpu/display/vdisp_aux.c '#include "gpu/display/vdisp_aux.h"' '#include "mini/string.h"'
	file "$1" guest-shim/include/g9hv/hypercall.h
	file "$1" guest-shim/include/g9hv/gen9_hw.h
	file "$1" guest-shim/testguest/tg.h '#include "guest-shim/include/g9hv/hypercall.h"' \
		'#include "guest-shim/include/g9hv/gen9_hw.h"'
	file "$1" boot/boot_info.h '#include "boot/config.h"'
	file "$1" boot/config.h
	file "$1" boot/efi_main.c '#include "boot/boot_info.h"' '#include "mini/string.h"'
	file "$1" hv/console/console.c '#include "boot/boot_info.h"' '#include "hv/console/console.h"'
	file "$1" guest-shim/testguest/entry.asm '%include "guest-shim/testguest/frame.inc"'
	file "$1" guest-shim/testguest/frame.inc
	file "$1" libc-mini/include/mini/string.h
}

# expect NAME STATUS REGEX [ARGS...]: check-includes on tree NAME
expect() {
	name=$1 want=$2 re=$3
	shift 3
	out=$("$tool" --root "$work/$name" "$@"); rc=$?
	if [ "$rc" -eq "$want" ] && printf '%s\n' "$out" | grep -q -E -- "$re"; then
		pass=$((pass + 1))
	else
		echo "FAIL $name: status $rc, said '$out' (wanted $want, /$re/)"
		fail=$((fail + 1))
	fi
}

good ok
expect ok 0 '^$'

good vm-gpu
file vm-gpu hv/vm/vpci.c '#include "hv/vm/vm.h"' '#include "gpu/vgpu/vgpu.h"'
expect vm-gpu 1 '^FORBIDDEN hv/vm/vpci.c:2 includes gpu/vgpu/vgpu.h: the VM layer'

good vm-glue
file vm-glue hv/vm/vm_restart.c '#include "hv/gpu/gpu_teardown.h"'
file vm-glue hv/gpu/gpu_teardown.h
expect vm-glue 1 '^FORBIDDEN hv/vm/vm_restart.c:1 includes hv/gpu/gpu_teardown.h'

good gpu-hv
file gpu-hv gpu/vgpu/vgpu_util.c '#include "gpu/vgpu/vgpu.h"' '#  include "hv/mm/page_alloc.h"'
expect gpu-hv 1 '^FORBIDDEN gpu/vgpu/vgpu_util.c:2 includes hv/mm/page_alloc.h: the GPU side'

good display-vgpu
file display-vgpu gpu/display/vdisp_aux.c '#include "gpu/display/vdisp_aux.h"' \
	'#include "gpu/vgpu/vgpu.h"'
file display-vgpu gpu/display/vdisp_aux.h
expect display-vgpu 1 '^FORBIDDEN gpu/display/vdisp_aux.c:2 includes gpu/vgpu/vgpu.h: the virtual monitor'

good display-hv
file display-hv gpu/display/vdisp_edid.c '#include "hv/log.h"'
expect display-hv 1 '^FORBIDDEN gpu/display/vdisp_edid.c:1 includes hv/log.h: the GPU side'

good guest-hv
file guest-hv guest-shim/testguest/tg.h '#include "hv/cpu/x86.h"'
expect guest-hv 1 '^FORBIDDEN guest-shim/testguest/tg.h:1 includes hv/cpu/x86.h: the guest'

good guest-asm
file guest-asm guest-shim/testguest/entry.asm '%include "hv/cpu/gpr_frame.inc"'
expect guest-asm 1 '^FORBIDDEN guest-shim/testguest/entry.asm:1 includes hv/cpu/gpr_frame.inc'

good guest-gpu
file guest-gpu guest-shim/drm-client/gem.c '#include "gpu/vgpu/vgpu.h"'
expect guest-gpu 1 '^FORBIDDEN guest-shim/drm-client/gem.c:1 includes gpu/vgpu/vgpu.h'

# The hardware facts come from the guest's own copy (gen9_hw.h), not
# from gpu/hw/ (that would be an arrow from the guest up into the GPU side).
good guest-hw
file guest-hw guest-shim/testguest/gpu_test.c '#include "guest-shim/testguest/tg.h"' \
	'#include "gpu/hw/gen9_regs.h"'
expect guest-hw 1 '^FORBIDDEN guest-shim/testguest/gpu_test.c:2 includes gpu/hw/gen9_regs.h: the guest'

good guest-cmds
file guest-cmds guest-shim/testguest/hang_test.c '#include "gpu/hw/gen9_cmds.h"'
expect guest-cmds 1 '^FORBIDDEN guest-shim/testguest/hang_test.c:1 includes gpu/hw/gen9_cmds.h: the guest'

# boot reaches hv only through the contract header boot/boot_info.h.
good boot-hv
file boot-hv boot/efi_main.c '#include "boot/boot_info.h"' '#include "hv/console/console.h"'
expect boot-hv 1 '^FORBIDDEN boot/efi_main.c:2 includes hv/console/console.h: boot and hv meet in one contract header'

good research
file research gpu/gscale/gscale.c '#include "gpu/ghyvi/ghyvi.h"'
expect research 1 '^FORBIDDEN gpu/gscale/gscale.c:1 includes gpu/ghyvi/ghyvi.h: a research system'

# gpu/policy/ is the shared model: a research folder may include it (the
# good tree's gballoon_live.c does), and it includes none of them.
good policy-gballoon
file policy-gballoon gpu/policy/ncslots.c '#include "gpu/policy/slots.h"' '#include "gpu/gballoon/gballoon.h"'
expect policy-gballoon 1 '^FORBIDDEN gpu/policy/ncslots.c:2 includes gpu/gballoon/gballoon.h: gpu/policy/ is the policies. shared model'

good policy-vgpu
file policy-vgpu gpu/policy/monitor.c '#include "gpu/vgpu/vgpu_priv.h"'
expect policy-vgpu 1 '^FORBIDDEN gpu/policy/monitor.c:1 includes gpu/vgpu/vgpu_priv.h: gpu/policy/ is the policies. shared model'

# gBalloon and the other research folders, both ways.
good gballoon-gscale
file gballoon-gscale gpu/gballoon/gballoon_live.c '#include "gpu/gballoon/gballoon.h"' '#include "gpu/gscale/gscale.h"'
expect gballoon-gscale 1 '^FORBIDDEN gpu/gballoon/gballoon_live.c:2 includes gpu/gscale/gscale.h: a research system \(gpu/gballoon/\)'

good gballoon-ghyvi
file gballoon-ghyvi gpu/gballoon/balloon_policy.c '#include "gpu/ghyvi/ghyvi.h"'
expect gballoon-ghyvi 1 '^FORBIDDEN gpu/gballoon/balloon_policy.c:1 includes gpu/ghyvi/ghyvi.h: a research system \(gpu/gballoon/\)'

good ghyvi-gballoon
file ghyvi-gballoon gpu/ghyvi/ghyvi_adapt.c '#include "gpu/gballoon/gballoon.h"'
expect ghyvi-gballoon 1 '^FORBIDDEN gpu/ghyvi/ghyvi_adapt.c:1 includes gpu/gballoon/gballoon.h: a research system \(gpu/ghyvi/\)'

# The mediator never calls gBalloon.
good vgpu-gballoon
file vgpu-gballoon gpu/vgpu/exec/vgpu_sched.c '#include "gpu/vgpu/vgpu.h"' '#include "gpu/gballoon/gballoon.h"'
expect vgpu-gballoon 1 '^FORBIDDEN gpu/vgpu/exec/vgpu_sched.c:2 includes gpu/gballoon/gballoon.h: the mediator never calls gBalloon'

# gHyvi and gScale, both ways.
good ghyvi-gscale
file ghyvi-gscale gpu/ghyvi/ghyvi_relax.c '#include "gpu/ghyvi/ghyvi.h"' '#include "gpu/gscale/gscale.h"'
expect ghyvi-gscale 1 '^FORBIDDEN gpu/ghyvi/ghyvi_relax.c:2 includes gpu/gscale/gscale.h: a research system \(gpu/ghyvi/\)'

good gscale-ghyvi
file gscale-ghyvi gpu/gscale/gscale_copy.c '#include "gpu/ghyvi/ghyvi.h"'
expect gscale-ghyvi 1 '^FORBIDDEN gpu/gscale/gscale_copy.c:1 includes gpu/ghyvi/ghyvi.h: a research system \(gpu/gscale/\)'

# The mediator reaches gHyvi only through the hook table.
good vgpu-ghyvi
file vgpu-ghyvi gpu/vgpu/ppgtt/vgpu_spt.c '#include "gpu/vgpu/vgpu.h"' '#include "gpu/ghyvi/ghyvi.h"'
expect vgpu-ghyvi 1 '^FORBIDDEN gpu/vgpu/ppgtt/vgpu_spt.c:2 includes gpu/ghyvi/ghyvi.h: the mediator calls gHyvi only through its hook table'

# DymGPU and the other research folders, both ways.
good dymgpu-gballoon
file dymgpu-gballoon gpu/dymgpu/dymgpu_attach.c '#include "gpu/dymgpu/dymgpu.h"' '#include "gpu/gballoon/gballoon.h"'
expect dymgpu-gballoon 1 '^FORBIDDEN gpu/dymgpu/dymgpu_attach.c:2 includes gpu/gballoon/gballoon.h: a research system \(gpu/dymgpu/\)'

good gballoon-dymgpu
file gballoon-dymgpu gpu/gballoon/gballoon_live.c '#include "gpu/dymgpu/dymgpu.h"'
expect gballoon-dymgpu 1 '^FORBIDDEN gpu/gballoon/gballoon_live.c:1 includes gpu/dymgpu/dymgpu.h: a research system \(gpu/gballoon/\)'

good dymgpu-gscale
file dymgpu-gscale gpu/dymgpu/dymgpu_move.c '#include "gpu/gscale/gscale.h"'
expect dymgpu-gscale 1 '^FORBIDDEN gpu/dymgpu/dymgpu_move.c:1 includes gpu/gscale/gscale.h: a research system \(gpu/dymgpu/\)'

good ghyvi-dymgpu
file ghyvi-dymgpu gpu/ghyvi/ghyvi_relax.c '#include "gpu/dymgpu/dymgpu_live.h"'
expect ghyvi-dymgpu 1 '^FORBIDDEN gpu/ghyvi/ghyvi_relax.c:1 includes gpu/dymgpu/dymgpu_live.h: a research system \(gpu/ghyvi/\)'

good policy-dymgpu
file policy-dymgpu gpu/policy/slots.c '#include "gpu/dymgpu/dymgpu_place.h"'
expect policy-dymgpu 1 '^FORBIDDEN gpu/policy/slots.c:1 includes gpu/dymgpu/dymgpu_place.h: gpu/policy/ is the policies. shared model'

# The mediator reaches DymGPU only through the hook table, and decides
# nothing by the policies' shared model.
good vgpu-dymgpu
file vgpu-dymgpu gpu/vgpu/exec/vgpu_sched.c '#include "gpu/vgpu/vgpu.h"' '#include "gpu/dymgpu/dymgpu.h"'
expect vgpu-dymgpu 1 '^FORBIDDEN gpu/vgpu/exec/vgpu_sched.c:2 includes gpu/dymgpu/dymgpu.h: the mediator calls DymGPU only through its hook table'

good vgpu-policy
file vgpu-policy gpu/vgpu/gtt/vgpu_ggtt.c '#include "gpu/policy/monitor.h"'
expect vgpu-policy 1 '^FORBIDDEN gpu/vgpu/gtt/vgpu_ggtt.c:1 includes gpu/policy/monitor.h: the policies. shared model'

# hv/ drives the mediator through vgpu.h only, never its areas' headers.
good hv-area
file hv-area hv/gpu/gpu_host.c '#include "gpu/vgpu/vgpu.h"' '#include "gpu/vgpu/exec/exec.h"'
expect hv-area 1 '^FORBIDDEN hv/gpu/gpu_host.c:2 includes gpu/vgpu/exec/exec.h: the hypervisor drives the mediator through its API'
good hv-priv
file hv-priv hv/gpu/vgpu_dev.c '#include "gpu/vgpu/vgpu_priv.h"'
expect hv-priv 1 '^FORBIDDEN hv/gpu/vgpu_dev.c:1 includes gpu/vgpu/vgpu_priv.h: the hypervisor drives the mediator'

# gScale's pure part never includes the mediator; its mediator part may.
good gscale-pure
file gscale-pure gpu/gscale/gscale_copy.c '#include "gpu/vgpu/vgpu_priv.h"'
expect gscale-pure 1 '^FORBIDDEN gpu/gscale/gscale_copy.c:1 includes gpu/vgpu/vgpu_priv.h: gScale.s policy and shared-GM code is pure'
good gscale-mediator
file gscale-mediator gpu/gscale/mediator/vgpu_gscale.c '#include "gpu/vgpu/vgpu_priv.h"' '#include "gpu/gscale/gscale.h"'
expect gscale-mediator 0 ''

# The mediator reaches gScale (either part) only through the hook table.
good vgpu-gscale
file vgpu-gscale gpu/vgpu/gtt/vgpu_ggtt.c '#include "gpu/vgpu/vgpu_priv.h"' '#include "gpu/gscale/mediator/gscale_mediator.h"'
expect vgpu-gscale 1 '^FORBIDDEN gpu/vgpu/gtt/vgpu_ggtt.c:2 includes gpu/gscale/mediator/gscale_mediator.h: the mediator calls gScale only through the hook'
good vgpu-gscale-pure
file vgpu-gscale-pure gpu/vgpu/vgpu_priv.h '#include "gpu/gscale/gscale.h"'
expect vgpu-gscale-pure 1 '^FORBIDDEN gpu/vgpu/vgpu_priv.h:1 includes gpu/gscale/gscale.h: the mediator calls gScale only through the hook'
good vgpu-gscale-ops
file vgpu-gscale-ops gpu/vgpu/vgpu_create.c '#include "gpu/gscale/gscale_ext.h"'
expect vgpu-gscale-ops 1 '^FORBIDDEN gpu/vgpu/vgpu_create.c:1 includes gpu/gscale/gscale_ext.h: the mediator calls gScale'
good hv-gscale-ops
file hv-gscale-ops hv/gpu/gpu_host.c '#include "gpu/ghyvi/ghyvi.h"' '#include "gpu/gscale/gscale_ext.h"'
expect hv-gscale-ops 0 ''

# The mediator's areas are a DAG: exec/ > cmd/ > ppgtt/, display/ >
# gtt/ > mmio/ (gpu/vgpu/README.md). Every edge that ran back up before
# the register table took the areas' handlers fails again if put back.
while IFS='|' read -r name src inc why; do
	good "$name"
	file "$name" "$src" "#include \"$inc\""
	expect "$name" 1 "^FORBIDDEN $src:1 includes $inc: $why"
done <<'EDGES'
area-mmio-exec|gpu/vgpu/mmio/vgpu_mmio_table.c|gpu/vgpu/exec/exec.h|the register area is below
area-mmio-display|gpu/vgpu/mmio/vgpu_irq.c|gpu/vgpu/display/display.h|the register area is below
area-mmio-gtt|gpu/vgpu/mmio/vgpu_mmio.c|gpu/vgpu/gtt/gtt.h|the register area is below
area-mmio-ppgtt|gpu/vgpu/mmio/vgpu_pvinfo.c|gpu/vgpu/ppgtt/ppgtt.h|the register area is below
area-gtt-display|gpu/vgpu/gtt/vgpu_ggtt.c|gpu/vgpu/display/display.h|the GTT area is below
area-ppgtt-exec|gpu/vgpu/ppgtt/vgpu_spt.c|gpu/vgpu/exec/exec.h|the PPGTT area is below
area-display-ppgtt|gpu/vgpu/display/vgpu_scanout.c|gpu/vgpu/ppgtt/ppgtt.h|the display area is below
area-cmd-exec|gpu/vgpu/cmd/vgpu_cmd_scan.c|gpu/vgpu/exec/exec.h|the command scanner is below
EDGES
# Down is allowed: an area's part includes the register area's API, the
# top (execution) includes every other area.
good area-down
file area-down gpu/vgpu/exec/vgpu_sched.c '#include "gpu/vgpu/gtt/gtt.h"' '#include "gpu/vgpu/ppgtt/ppgtt.h"' '#include "gpu/vgpu/cmd/cmd.h"' '#include "gpu/vgpu/display/display.h"' '#include "gpu/vgpu/mmio/mmio.h"'
expect area-down 0 ''
good area-part
file area-part gpu/vgpu/gtt/vgpu_gtt_regs.c '#include "gpu/vgpu/mmio/mmio.h"' '#include "gpu/vgpu/gtt/gtt.h"'
expect area-part 0 ''

# A research folder added on the command line (a row of the table).
good research-more
file research-more gpu/vcuda/channel.c '#include "gpu/gscale/gscale.h"'
expect research-more 0 '^$'
expect research-more 1 '^FORBIDDEN gpu/vcuda/channel.c:1 includes gpu/gscale/gscale.h' --research gpu/vcuda

# Every break is listed, with the count.
good many
# The base layer (hv/console, cpu, mm, platform) reaches no subsystem.
good base-up
file base-up hv/mm/paging.c '#include "hv/console/console.h"' '#include "hv/vtd/vtd.h"'
expect base-up 1 '^FORBIDDEN hv/mm/paging.c:2 includes hv/vtd/vtd.h: the base layer'

file many hv/vm/a.c '#include "gpu/a.h"' '#include "hv/gpu/b.h"'
expect many 1 '2 forbidden'

# The real tree keeps every rule.
out=$(cd "$here" && "$tool"); rc=$?
if [ "$rc" -eq 0 ]; then
	pass=$((pass + 1))
else
	echo "FAIL the real tree: status $rc"
	printf '%s\n' "$out"
	fail=$((fail + 1))
fi

echo "check-includes: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
