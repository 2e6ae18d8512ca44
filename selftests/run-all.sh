#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Run every MRC test suite and end with one line: "N passed, N failed".
#
#   MRC_SUITES   suites to run (default "kunit style layers gtest fuzz vm")
#   FUZZ_SECONDS time each fuzzing harness runs (default 20)
#   MRC_VM_TESTS glob of VM tests to run (default "*")
#
# Each test case counts once: KUnit cases, GoogleTest tests (via CTest)
# and TAP points of the VM tests. A case that was planned but never
# reported (a crash or hang mid-suite) counts as failed, and so does a
# suite that cannot run at all (build failure, crash, timeout). A skipped
# case is not a pass: it is counted as failed, and the skips are also
# listed on the line before the last.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
suites=${MRC_SUITES:-kunit style layers gtest fuzz vm}
logdir=$top/build/test-logs
mkdir -p "$logdir"

passed=0
failed=0
skipped=0

# tap_count FILE MODE: add the test points of FILE to the totals, checked
# against their plans; leave this file's failures (skips included) in
# $tap_failed and explain shortfalls on stdout. MODE "vm": a TAP stream
# whose "1..N" plan must match the points before it. MODE "kunit": KTAP,
# the top-level "1..S" plan counts suites, each suite's "    1..N" its
# cases (indented one level), and every case planned but not reported
# counts as failed (a suite never started, as one failure).
tap_failed=0
tap_count() {
	local out p f s
	out=$(awk -v mode="$2" '
	function point(line, notok) {
		if (notok) fail++
		else if (tolower(line) ~ /# *skip/) skip++
		else pass++
	}
	function close_suite() {
		if (insuite && seen < plan) {
			printf "# %s: %d of %d planned cases never reported: failed\n",
				name, plan - seen, plan
			fail += plan - seen
		} else if (insuite && seen > plan) {
			printf "# %s: %d cases reported, %d planned\n", name, seen, plan
			fail++
		}
		insuite = 0
	}
	mode == "kunit" && /^1\.\.[0-9]+/ && !top { top = substr($1, 4) + 0; next }
	mode == "kunit" && /^    # Subtest: / { close_suite(); name = $3; next }
	mode == "kunit" && /^    1\.\.[0-9]+/ {
		close_suite(); insuite = 1; suites++; seen = 0
		plan = substr($1, 4) + 0; next
	}
	mode == "kunit" && /^    (not )?ok [0-9]+/ { seen++; point($0, $1 == "not"); next }
	mode == "vm" && /^(not )?ok [0-9]+/ { seen++; point($0, $1 == "not"); next }
	mode == "vm" && /^1\.\.[0-9]+/ { plan = substr($1, 4) + 0; planned = 1; next }
	END {
		if (mode == "kunit") {
			close_suite()
			if (!top) {
				print "# no KTAP plan (1..N): the run never started"
				fail++
			} else if (suites < top) {
				printf "# %d of %d planned suites never started: failed\n",
					top - suites, top
				fail += top - suites
			}
		} else if (!planned) {
			print "# no plan (1..N): the test ended early"
			fail++
		} else if (plan != seen) {
			printf "# plan 1..%d, but %d test points\n", plan, seen
			fail++
		}
		printf "%d %d %d\n", pass, fail, skip
	}' "$1")
	read -r p f s <<<"$(tail -n 1 <<<"$out")"
	sed '$d' <<<"$out"
	[ "$s" -eq 0 ] || echo "# $s skipped: counted as failed"
	tap_failed=$((f + s))
	passed=$((passed + p))
	failed=$((failed + tap_failed))
	skipped=$((skipped + s))
}

run_kunit() {
	local log=$logdir/kunit.log
	echo "== KUnit (UML) =="
	"$here/kunit/run-kunit.sh" > "$log" 2> "$logdir/kunit.err"
	local rc=$?
	grep -E '^\s+(not )?ok [0-9]+|^# Totals' "$log"
	tap_count "$log" kunit
	if [ $rc -ne 0 ] && [ "$tap_failed" = 0 ]; then
		echo "kunit: run failed (rc $rc), see $logdir/kunit.err"
		tail -n 20 "$logdir/kunit.err"
		failed=$((failed + 1))
	fi
}

run_gtest() {
	local log=$logdir/gtest.log total nfail nskip ndis
	echo "== GoogleTest =="
	ctest --test-dir "$top/build/cmake" --output-on-failure > "$log" 2>&1
	local rc=$?
	grep -E 'Test +#|tests passed|\((Skipped|Disabled)\)$' "$log" | sed 's/^ *//'
	total=$(sed -n 's/.*tests failed out of \([0-9]*\)/\1/p' "$log")
	nfail=$(sed -n 's/.*, \([0-9]*\) tests failed out of.*/\1/p' "$log")
	if [ -z "$total" ]; then
		echo "gtest: ctest did not run (rc $rc), see $log"
		failed=$((failed + 1))
		return
	fi
	# CTest counts a skipped test (GTEST_SKIP) as passed, and a disabled
	# one not at all: both count as skipped, and so as failed, here.
	nskip=$(grep -c '^[[:space:]]*[0-9]* - .* (Skipped)$' "$log")
	ndis=$(grep -c '^[[:space:]]*[0-9]* - .* (Disabled)$' "$log")
	passed=$((passed + total - nfail - nskip))
	failed=$((failed + nfail + nskip + ndis))
	skipped=$((skipped + nskip + ndis))
}

# Kernel style: every kernel source must be checkpatch.pl --strict clean,
# and its kernel-doc comments complete (scripts/kernel-doc -none).
run_style() {
	local cp kd f out
	echo "== Kernel style (checkpatch.pl --strict, kernel-doc) =="
	cp=$(ls "${MRC_CACHE:-/var/cache/mrc}"/linux-source-6.1/scripts/checkpatch.pl 2>/dev/null)
	kd=${cp%/checkpatch.pl}/kernel-doc
	if [ -z "$cp" ] || [ ! -e "$kd" ]; then
		echo "style: checkpatch.pl or kernel-doc not found (the kunit suite extracts them)"
		failed=$((failed + 1))
		return
	fi
	for f in "$top"/kernel/*/*.[ch]; do
		case $f in *.mod.c) continue ;; esac
		if out=$("$cp" --strict --no-tree --terse -f "$f" 2>&1;
			 perl "$kd" -none "$f" 2>&1) &&
		   ! grep -q 'ERROR\|WARNING\|CHECK\|warning:\|error:' <<<"$out"; then
			echo "ok - ${f#"$top"/}"
			passed=$((passed + 1))
		else
			echo "not ok - ${f#"$top"/}"
			echo "$out" | grep -v '^total' | sed 's/^/# /'
			failed=$((failed + 1))
		fi
	done
}

# Calls between the layers of kernel/ go down only, counted from the built
# objects (selftests/layer-graph.py): one TAP point per rule.
run_layers() {
	local log=$logdir/layers.log
	echo "== Kernel layers (calls from nm of the built objects) =="
	python3 "$here/layer-graph.py" "$top/kernel" > "$log" 2>&1
	local rc=$?
	grep -E '^(not )?ok [0-9]+|^Bail out|^# (Calls between layers|  [a-z]+ +->)' "$log"
	tap_count "$log" vm
	if [ $rc -ne 0 ] && [ "$tap_failed" = 0 ]; then
		echo "layers: run failed (rc $rc), see $log"
		failed=$((failed + 1))
	fi
}

# libFuzzer harnesses of the protocol core (fuzz/run-fuzz.sh): each one
# passes when it ran its time without a crash, leak or sanitizer report.
run_fuzz() {
	local log=$logdir/fuzz.log
	echo "== Fuzzing (libFuzzer, ${FUZZ_SECONDS:-20} s per harness) =="
	"$top/fuzz/run-fuzz.sh" > "$log" 2>&1
	local rc=$?
	grep -E '^(not )?ok [0-9]+|^# |^Bail out' "$log"
	tap_count "$log" vm
	if [ $rc -ne 0 ] && [ "$tap_failed" = 0 ]; then
		echo "fuzz: run failed (rc $rc), see $log"
		failed=$((failed + 1))
	fi
}

run_vm() {
	local t name log rc limit
	echo "== VM tests (Debian $("$here/vm/kver.sh")) =="
	for t in "$here"/vm/tests/${MRC_VM_TESTS:-*}.sh; do
		name=$(basename "$t" .sh)
		# "# vm-default: no": run only when MRC_VM_TESTS names it.
		if [ -z "${MRC_VM_TESTS:-}" ] &&
		   grep -qx '# vm-default: no' "$t"; then
			echo "-- $name: not in the default set (MRC_VM_TESTS=$name runs it)"
			continue
		fi
		log=$logdir/vm-$name.log
		echo "-- $name"
		# A test may ask for more than run-vm's 300 s: "# vm-timeout: N".
		limit=$(sed -n 's/^# vm-timeout: \([0-9]*\)$/\1/p' "$t")
		"$here/vm/run-vm.sh" -t "${limit:-300}" "$t" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
		tap_count "$log" vm
		if [ $rc -ne 0 ] && [ "$tap_failed" = 0 ]; then
			echo "vm: $name exited $rc without a failing test point"
			failed=$((failed + 1))
		fi
	done
}

for s in $suites; do
	case $s in
	kunit) run_kunit ;;
	style) run_style ;;
	layers) run_layers ;;
	gtest) run_gtest ;;
	fuzz) run_fuzz ;;
	vm) run_vm ;;
	*) echo "run-all: unknown suite '$s'" >&2; failed=$((failed + 1)) ;;
	esac
done

# CI reads the last line; skips (already counted as failed) go before it.
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
