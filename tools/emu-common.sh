# Shared by run-qemu and run-bochs: wait for the hypervisor's exit marker in a
# growing console file while the emulator runs in the background.
#
# wait_for_marker PID FILE TIMEOUT: returns 0 when "HV-EXIT: status=N" or
# "HALTED:" appears (and prints N, or 255 for a halt without a status), 1 when
# the emulator ended without it, 2 on timeout. Polls every 0.2 s: the marker,
# not a sleep, ends the wait.
wait_for_marker() {
	local pid=$1 file=$2 timeout=$3 deadline status
	deadline=$(( $(date +%s) + timeout ))
	while :; do
		if [ -f "$file" ]; then
			status=$(grep -a -o 'HV-EXIT: status=[0-9]*' "$file" | head -n1 | sed 's/.*=//')
			if [ -n "$status" ]; then echo "$status"; return 0; fi
			if grep -a -q 'HALTED:' "$file"; then echo 255; return 0; fi
		fi
		kill -0 "$pid" 2>/dev/null || return 1
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
