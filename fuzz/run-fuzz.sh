#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Build the libFuzzer harnesses of fuzz/, write their seed corpus and run
# each for a bounded time. Prints TAP: one test point per harness, which
# passes when the harness ran its time without a crash, a leak, a
# sanitizer report or a hung input.
#
#   fuzz/run-fuzz.sh [-t SECONDS] [HARNESS...]
#
# SECONDS per harness: -t, else $FUZZ_SECONDS, else 20. Harnesses: wire
# rxwin txwin ev resp req encap (default: all). Everything goes to
# build/fuzz/: the binaries, seeds/<h>/ (regenerated each run),
# corpus/<h>/ (what libFuzzer found worth keeping; it grows from run to
# run), <h>.log and, when a harness fails, the input that failed it as
# crash-<h>-<sha1> (or leak-, timeout-, oom-). Replay one with build/fuzz/fuzz_<h> FILE.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=$top/build/fuzz
secs=${FUZZ_SECONDS:-20}

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

set -- $harnesses
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
	mkdir -p "$out/corpus/$h"
	# -timeout: one input running 10 s is a hang; leaks are on (ASan).
	"$out/fuzz_$h" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/" "$out/corpus/$h" "$out/seeds/$h" \
		> "$log" 2>&1
	status=$?
	# The last status line has the coverage reached: "cov: N ft: N".
	cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	if [ $status -eq 0 ] && grep -q '^Done [0-9]* runs' "$log"; then
		echo "ok $n - fuzz_$h: $runs runs in ${secs} s, $rate exec/s, $cov"
		continue
	fi
	rc=1
	art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
	if [ -n "$art" ]; then
		dst=$out/$(basename "$art" | sed "s/^\([a-z]*\)-/\1-$h-/")
		mv -f "$art" "$dst" 2> /dev/null && art=$dst
	fi
	echo "not ok $n - fuzz_$h: exit $status${art:+, input saved as ${art#"$top"/}}"
	# The verdict and the frames in our own code, not libFuzzer's.
	grep -E 'check failed|ERROR|SUMMARY|runtime error|(fuzz/src|kernel)/' \
		"$log" | head -n 20 | sed "s|$top/||g; s/^/# /"
done
exit $rc
