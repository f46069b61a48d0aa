# Shared by run-qemu and run-bochs: wait for the hypervisor's exit marker in a
# growing console file while the emulator runs in the background.
#
# wait_for_marker PID FILE TIMEOUT: returns 0 when "HV-EXIT: status=N" or
# "HALTED:" appears (and prints N, or 255 for a halt without a status), 1 when
# the emulator ended without it, 2 on timeout. Polls every 0.2 s: the marker,
# not a sleep, ends the wait.
wait_for_marker() {
	local pid=$1 file=$2 timeout=$3 deadline status alive
	deadline=$(( $(date +%s) + timeout ))
	while :; do
		# Whether it still runs is asked before the file is read: an
		# emulator that prints the marker and quits at once (the exit
		# port) between a read and the question is then still seen.
		kill -0 "$pid" 2>/dev/null && alive=1 || alive=0
		if [ -f "$file" ]; then
			status=$(grep -a -o 'HV-EXIT: status=[0-9]*' "$file" | head -n1 | sed 's/.*=//')
			if [ -n "$status" ]; then echo "$status"; return 0; fi
			if grep -a -q 'HALTED:' "$file"; then echo 255; return 0; fi
		fi
		[ $alive -eq 1 ] || return 1
		[ "$(date +%s)" -lt "$deadline" ] || return 2
		sleep 0.2
	done
}

# stop_emulator PID: give it a moment to exit on its own, then end it.
stop_emulator() {
	local pid=$1 i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
		sleep 0.2
	done
	kill "$pid" 2>/dev/null; sleep 0.5; kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}

# free_port: a free TCP port on 127.0.0.1 (asked of the kernel, released).
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The zone Bochs runs in, so that its CMOS clock shows the host's UTC time
# and keeps it. Bochs 2.7 starts the clock right (time0=local: localtime()
# of now), but when the firmware sets the time (OVMF's RTC driver writes the
# time registers back at every boot) it rebuilds it with mktime() on a
# struct tm whose tm_isdst it never sets: with stack garbage > 0 and TZ=UTC,
# glibc assumes a one-hour DST difference and the clock jumps an hour back.
# In this zone (offset 0, with daylight time of offset 0 half the year)
# mktime() finds a time with the requested tm_isdst nearby and uses its
# offset, 0, whatever tm_isdst holds; localtime() still gives UTC.
BOCHS_TZ='UTC0UTD0,M3.5.0,M10.5.0'

# bochs_rc IMG OUTDIR PORT: writes OUTDIR/bochsrc (OVMF, BOCHS_CPUS logical
# CPUs (default 1) of corei7_skylake_x with VT-x/EPT, the disk image, COM1
# as a TCP server on PORT for tools/bochs-com1, port 0xE9 on Bochs's
# stdout) and OUTDIR/debugger.rc (Debian's Bochs has its debugger built
# in: "c" starts the simulation).
bochs_rc() {
	local img=$1 out=$2 port=$3
	cat > "$out/bochsrc" <<RC
megs: ${BOCHS_MEGS:-512}
romimage: file=${OVMF:-/usr/share/ovmf/OVMF.fd}, address=0xffe00000
vgaromimage: file=/usr/share/vgabios/vgabios.bin
cpu: model=corei7_skylake_x, count=${BOCHS_CPUS:-1}, ips=200000000
pci: enabled=1, chipset=i440fx
ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14
ata0-master: type=disk, path="$img", mode=flat
boot: disk
clock: sync=none, time0=local
com1: enabled=1, mode=socket-server, dev=127.0.0.1:$port
port_e9_hack: enabled=1
display_library: sdl2
mouse: enabled=0
log: $out/bochs.log
panic: action=fatal
error: action=report
info: action=report
debug: action=ignore
RC
	printf 'c\n' > "$out/debugger.rc"
}

# qemu_disk_args KIND IMG: sets the array QEMU_DISK_ARGS to the QEMU options
# that attach the disk image IMG. KIND ide: an IDE disk on the q35 AHCI
# controller (the default). KIND usb: a USB stick, usb-storage on an xHCI
# controller, and no other disk: OVMF then boots it as a PC boots a stick
# (removable media, \EFI\BOOT\BOOTX64.EFI).
qemu_disk_args() {
	case $1 in
	ide) QEMU_DISK_ARGS=(-drive "file=$2,format=raw,if=ide") ;;
	usb) QEMU_DISK_ARGS=(-device qemu-xhci,id=xhci
		-drive "if=none,id=stick,format=raw,file=$2"
		-device usb-storage,bus=xhci.0,drive=stick,removable=on) ;;
	*) echo "unknown disk kind '$1' (ide or usb)" >&2; return 1 ;;
	esac
}

# qemu_accel_args: sets the array QEMU_ACCEL_ARGS. KVM with the host's CPU
# (VT-x nested into the guest: the hypervisor's VMs run) when
# tools/kvm-nested says the host can; TCG otherwise, after one line saying
# why not. The emulator test cases do not call this: they expect TCG's
# "no VT-x" in QEMU whatever the host.
qemu_accel_args() {
	local why
	if why=$("$(dirname "${BASH_SOURCE[0]}")/kvm-nested"); then
		echo "QEMU: KVM with nested VT-x (-enable-kvm -cpu host): VMs run in QEMU too"
		QEMU_ACCEL_ARGS=(-enable-kvm -cpu host)
	else
		echo "QEMU: no KVM, TCG without VT-x (the shell only, no VMs): $why"
		QEMU_ACCEL_ARGS=(-accel tcg)
	fi
}
