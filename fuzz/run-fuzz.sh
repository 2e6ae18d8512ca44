#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Build the libFuzzer harnesses of fuzz/, write their seed corpus and run
# each for a bounded time. Prints TAP: one test point per harness, which
# passes when the harness ran its time without a crash, a leak, a
# sanitizer report or a hung input.
#
#   fuzz/run-fuzz.sh [-t SECONDS] [HARNESS...]
#
# SECONDS per harness: -t, else $FUZZ_SECONDS, else 10. Harnesses: wire
# rxwin txwin ev resp req encap (default: all). Everything goes to
# build/fuzz/: the binaries, seeds/<h>/ (regenerated each run),
# corpus/<h>/ (what libFuzzer found worth keeping; it grows from run to
# run), <h>.log and, when a harness fails, the input that failed it as
# <h>-crash-<sha1> (or -leak-, -timeout-, -oom-). Replay one with
# build/fuzz/fuzz_<h> FILE.
# Harnesses run side by side, as many at once as there are CPUs
# (FUZZ_JOBS).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=$top/build/fuzz
secs=${FUZZ_SECONDS:-10}

if [ "${1:-}" = -t ]; then
	secs=$2
	shift 2
fi
harnesses=${*:-wire rxwin txwin ev resp req encap}

if ! command -v clang > /dev/null; then
	echo "Bail out! clang not found (run scripts/setup-deps.sh)"
	exit 1
fi
mkdir -p "$out"
if ! make -s -C "$here" OUT="$out" > "$out/build.log" 2>&1; then
	cat "$out/build.log" >&2
	echo "Bail out! harness build failed (see $out/build.log)"
	exit 1
fi
rm -rf "$out/seeds"
if ! "$out/gen_seeds" "$out/seeds"; then
	echo "Bail out! seed generation failed"
	exit 1
fi

# run_harness H: one harness for $secs s; its exit status lands in H.rc.
run_harness() {
	local h=$1
	mkdir -p "$out/corpus/$h"
	# -timeout: one input running 10 s is a hang; leaks are on (ASan).
	"$out/fuzz_$h" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/$h-" "$out/corpus/$h" "$out/seeds/$h" \
		> "$out/$h.log" 2>&1
	echo $? > "$out/$h.rc"
}

# Each harness is one process on one CPU: as many run at once as there
# are CPUs (FUZZ_JOBS), then the results are read in order.
set -- $harnesses
jobs_max=${FUZZ_JOBS:-$(nproc)}
running=0
for h in "$@"; do
	rm -f "$out/$h.rc"
	[ -x "$out/fuzz_$h" ] || continue
	if [ "$running" -ge "$jobs_max" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_harness "$h" &
	running=$((running + 1))
done
wait

echo "1..$#"
n=0
rc=0
for h in "$@"; do
	n=$((n + 1))
	log=$out/$h.log
	if [ ! -x "$out/fuzz_$h" ]; then
		echo "not ok $n - fuzz_$h: no such harness"
		rc=1
		continue
	fi
	status=$(cat "$out/$h.rc" 2>/dev/null || echo "none")
	# The last status line has the coverage reached: "cov: N ft: N".
	cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	if [ "$status" = 0 ] && grep -q '^Done [0-9]* runs' "$log"; then
		echo "ok $n - fuzz_$h: $runs runs in ${secs} s, $rate exec/s, $cov"
		continue
	fi
	rc=1
	art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
	echo "not ok $n - fuzz_$h: exit $status${art:+, input saved as ${art#"$top"/}}"
	# The verdict and the frames in our own code, not libFuzzer's.
	grep -E 'check failed|ERROR|SUMMARY|runtime error|(fuzz/src|kernel)/' \
		"$log" | head -n 20 | sed "s|$top/||g; s/^/# /"
done
exit $rc
