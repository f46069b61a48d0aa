#!/bin/bash
# campaign.sh SECONDS JOBS BIN...: runs each libFuzzer target for SECONDS
# from a scratch copy of its seed corpus (tests/fuzz/corpus/<name>/, if
# any), JOBS targets at a time, then prints one table row per target:
# executions, exec/s, libFuzzer's final cov: and ft:, corpus size and
# findings (crash/leak/timeout/oom artifacts, build/fuzz-<name>-*).
#
# Like tools/run-tests it records "PASS fuzz/<name>" or "FAIL fuzz/<name>"
# in $TEST_RESULTS (default build/test-results), so `make test`'s summary
# counts the smoke runs; an input running over 20 s is a hang (a finding).
# The table also goes to build/fuzz-table.md.
set -u
secs=$1 jobs=$2
shift 2
results=${TEST_RESULTS:-build/test-results}
mkdir -p build "$(dirname "$results")"
rows=$(mktemp -d /tmp/fuzz-rows.XXXXXX)

run_one() {
	local bin=$1 secs=$2 rows=$3 results=$4
	local name work log rc execs rate cov ft corp finds
	name=$(basename "$bin")
	log=build/fuzz-$name.log
	work=$(mktemp -d /tmp/fuzz-$name.XXXXXX)
	[ -d "tests/fuzz/corpus/$name" ] && cp -r "tests/fuzz/corpus/$name"/. "$work"/
	rm -f build/fuzz-"$name"-*
	"$bin" -max_total_time="$secs" -timeout=20 -print_final_stats=1 \
		-artifact_prefix="build/fuzz-$name-" "$work" > "$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
	ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
	corp=$(find "$work" -type f | wc -l)
	finds=$(find build -maxdepth 1 -name "fuzz-$name-*" | wc -l)
	[ "$rc" -ne 0 ] && [ "$finds" -eq 0 ] && finds="exit $rc"
	printf '%s|%s|%s|%s|%s|%s|%s\n' "$name" "${execs:-?}" "${rate:-?}" \
		"${cov:-?}" "${ft:-?}" "$corp" "$finds" > "$rows/$name"
	if [ "$rc" -eq 0 ]; then
		echo "PASS fuzz/$name" >> "$results"
	else
		echo "FAIL fuzz/$name" >> "$results"
		echo "=== fuzz: $name FAILED, end of $log:"
		tail -n 40 "$log"
	fi
	rm -rf "$work"
	return $rc
}
export -f run_one

echo "=== fuzz: $# targets, ${secs}s each, $jobs at a time"
printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c \
	'run_one "$1" "$2" "$3" "$4"' _ {} "$secs" "$rows" "$results"
rc=$?

{
	echo "| target | executions | exec/s | cov | ft | corpus | findings |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	cat "$rows"/* | sort | sed 's/|/ | /g; s/^/| /; s/$/ |/'
} > build/fuzz-table.md
column -t -s'|' < <(echo "target|executions|exec/s|cov|ft|corpus|findings"; cat "$rows"/* | sort)
rm -rf "$rows"
exit $rc
