#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Run every MRC test suite and end with one line: "N passed, N failed".
#
#   MRC_SUITES   suites to run (default "kunit style layers spec gtest fuzz vm")
#   FUZZ_SECONDS time each fuzzing harness runs (default 10)
#   MRC_VM_TESTS globs of VM tests to run, space-separated (default "*")
#   MRC_VM_HOST_CPUS host CPUs the VMs may keep busy at once (default:
#                all); MRC_VM_CPUS the vCPUs of a test without "# vm-cpus"
#
# Each test case counts once: KUnit cases, GoogleTest tests (via CTest)
# and TAP points of the VM tests. A case that was planned but never
# reported (a crash or hang mid-suite) counts as failed, and so does a
# suite that cannot run at all (build failure, crash, timeout). A skipped
# case is not a pass: it is counted as failed, and the skips are also
# listed on the line before the last.
#
# Before the summary it prints how long each suite and each VM test took,
# longest first, and warns when the whole run passed its budget
# (MRC_CHECK_BUDGET_MIN, default 45 minutes: Documentation/testing.rst),
# counted from MRC_CHECK_T0 (make check sets it) so the build counts too.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
suites=${MRC_SUITES:-kunit style layers spec gtest fuzz vm}
logdir=$top/build/test-logs
mkdir -p "$logdir"

passed=0
failed=0
skipped=0
host_cpus=${MRC_VM_HOST_CPUS:-$(nproc)}
[ "$host_cpus" -ge 1 ] 2>/dev/null || host_cpus=1

# Seconds taken, one "SECONDS NAME" line per suite or VM test.
timings=$logdir/timings.txt
prev_timings=$logdir/timings.prev
[ ! -s "$timings" ] || mv "$timings" "$prev_timings"
: > "$timings"
# make check passes when it started (MRC_CHECK_T0, epoch seconds), so the
# total includes the build before the suites.
run_start=${MRC_CHECK_T0:-$(date +%s)}
timed() {
	local name=$1 t0=$SECONDS
	shift
	"$@"
	echo "$((SECONDS - t0)) $name" >> "$timings"
}

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
	local cp kd f out o
	echo "== Kernel style (checkpatch.pl --strict, kernel-doc) =="
	cp=$(ls "${MRC_CACHE:-/var/cache/mrc}"/linux-source-6.1/scripts/checkpatch.pl 2>/dev/null)
	kd=${cp%/checkpatch.pl}/kernel-doc
	if [ -z "$cp" ] || [ ! -e "$kd" ]; then
		echo "style: checkpatch.pl or kernel-doc not found (the kunit suite extracts them)"
		failed=$((failed + 1))
		return
	fi
	# Both checkers are single-threaded: one file per CPU at a time,
	# each file's findings in its own .out and verdict in its own .rc.
	local dir=$logdir/style
	rm -rf "$dir"
	mkdir -p "$dir"
	for f in "$top"/kernel/*/*.[ch]; do
		case $f in *.mod.c) continue ;; esac
		printf '%s\0' "$f"
	done | xargs -0 -P "$(nproc)" -I{} bash -c '
		f=$1 cp=$2 kd=$3 o=$4/$(echo "${1#"$5"/}" | tr / _)
		"$cp" --strict --no-tree --terse -f "$f" > "$o.out" 2>&1
		r1=$?
		perl "$kd" -none "$f" >> "$o.out" 2>&1
		echo $((r1 | $?)) > "$o.rc"' _ {} "$cp" "$kd" "$dir" "$top"
	for f in "$top"/kernel/*/*.[ch]; do
		case $f in *.mod.c) continue ;; esac
		o=$dir/$(echo "${f#"$top"/}" | tr / _)
		out=$(cat "$o.out" 2>/dev/null)
		if [ "$(cat "$o.rc" 2>/dev/null)" = 0 ] &&
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

# Every shell script of the suites parses (bash -n): one that does not
# fails only when its VM group has booted, minutes later, as one test.
run_script_syntax() {
	local f err
	echo "== Test scripts parse (bash -n) =="
	for f in "$here"/*.sh "$here"/vm/*.sh "$here"/vm/tests/*.sh \
		 "$here"/bench/*.sh "$here"/kunit/*.sh "$top"/.ci/run; do
		[ -e "$f" ] || continue
		if err=$(bash -n "$f" 2>&1); then
			echo "ok - bash -n ${f#"$top"/}"
			passed=$((passed + 1))
		else
			echo "not ok - bash -n ${f#"$top"/}"
			echo "$err" | sed 's/^/# /'
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

# The "mrc" family's uapi header and kernel policies against its YNL spec
# (selftests/genl-spec-check.py): Debian's python3 has the yaml module.
run_spec() {
	local log=$logdir/spec.log
	echo "== Netlink spec (uapi header and policies against mrc.yaml) =="
	/usr/bin/python3 "$here/genl-spec-check.py" > "$log" 2>&1
	local rc=$?
	grep -E '^(not )?ok [0-9]+|^# |^Bail out' "$log"
	tap_count "$log" vm
	if [ $rc -ne 0 ] && [ "$tap_failed" = 0 ]; then
		echo "spec: run failed (rc $rc), see $log"
		failed=$((failed + 1))
	fi
}

# libFuzzer harnesses of the protocol core (fuzz/run-fuzz.sh): each one
# passes when it ran its time without a crash, leak or sanitizer report.
run_fuzz() {
	local log=$logdir/fuzz.log
	echo "== Fuzzing (libFuzzer, ${FUZZ_SECONDS:-10} s per harness) =="
	"$top/fuzz/run-fuzz.sh" > "$log" 2>&1
	local rc=$?
	grep -E '^(not )?ok [0-9]+|^# |^Bail out' "$log"
	tap_count "$log" vm
	if [ $rc -ne 0 ] && [ "$tap_failed" = 0 ]; then
		echo "fuzz: run failed (rc $rc), see $log"
		failed=$((failed + 1))
	fi
}

# VM tests share boots: the tests of a group run one after the other in
# one VM (guest-init.sh cleans up between them), which saves a boot per
# test. A test's group is its "# vm-group: NAME" line, else its name up
# to the first "_" (ctl, link, mp, rc, srv6, ...).
vm_group_of() {
	local g
	g=$(sed -n 's/^# vm-group: \([a-z0-9_-]*\)$/\1/p' "$1")
	[ -n "$g" ] || { g=$(basename "$1" .sh); g=${g%%_*}; }
	echo "$g"
}

# vm_count_test T GROUPLOG RC: the points of test T, cut out of its
# group's output (all of it when T ran alone, with exit status RC).
vm_count_test() {
	local t=$1 glog=$2 grc=$3 name log end trc secs
	name=$(basename "$t" .sh)
	log=$logdir/vm-$name.log
	if ! grep -q '^MRC-VM-TEST-BEGIN ' "$glog"; then
		cp "$glog" "$log"
		trc=$grc
	else
		awk -v b="MRC-VM-TEST-BEGIN $t" -v e="MRC-VM-TEST-END $t " '
			$0 == b { on = 1; next }
			on && index($0, e) == 1 { exit }
			on { print }' "$glog" > "$log"
		end=$(grep "^MRC-VM-TEST-END $t " "$glog")
		read -r _ _ trc secs <<<"$end"
		if ! grep -qx "MRC-VM-TEST-BEGIN $t" "$glog"; then
			echo "vm: $name never ran: its VM stopped before it"
			failed=$((failed + 1))
			return
		fi
		[ -n "$end" ] || trc="none (the VM stopped during it)"
		[ -z "$secs" ] || echo "$secs vm/$name" >> "$timings"
	fi
	echo "-- $name"
	tap_count "$log" vm
	if [ "$trc" != 0 ] && [ "$tap_failed" = 0 ]; then
		echo "vm: $name exited $trc without a failing test point"
		failed=$((failed + 1))
	fi
}

# vm_group_cost GROUP TESTS...: the group's expected seconds, to start
# the longest groups first: its time in the previous run when known, else
# the sum of its tests' time limits.
vm_group_cost() {
	local group=$1 t l sum=0 prev
	shift
	prev=$(awk -v g="vm-boot/$group" '$2 == g { print $1 }' "$prev_timings" 2>/dev/null)
	if [ -n "$prev" ]; then
		echo "$prev"
		return
	fi
	for t in "$@"; do
		l=$(sed -n 's/^# vm-timeout: \([0-9]*\)$/\1/p' "$t")
		sum=$((sum + ${l:-300}))
	done
	echo "$sum"
}

# vm_is_pair TEST: TEST runs on two hosts, a VM each ("# vm-pair: yes").
vm_is_pair() {
	grep -qx '# vm-pair: yes' "$1"
}

# vm_test_cpus TEST: the vCPUs TEST asks for ("# vm-cpus: N"), else
# MRC_VM_CPUS (default 2).
vm_test_cpus() {
	local n
	n=$(sed -n 's/^# vm-cpus: \([1-9][0-9]*\)$/\1/p' "$1")
	echo "${n:-${MRC_VM_CPUS:-2}}"
}

# vm_group_cpus TESTS...: the vCPUs of the group's VM, the most any of
# its tests asks for.
vm_group_cpus() {
	local t n cpus=1
	for t in "$@"; do
		n=$(vm_test_cpus "$t")
		[ "$n" -le "$cpus" ] || cpus=$n
	done
	echo "$cpus"
}

# vm_group_slots TESTS...: the host CPUs the group's VMs keep busy: its
# vCPUs, two for a pair of one-vCPU VMs; at most all of them.
vm_group_slots() {
	local n
	if vm_is_pair "$1"; then
		n=2
	else
		n=$(vm_group_cpus "$@")
	fi
	[ "$n" -le "$host_cpus" ] || n=$host_cpus
	echo "$n"
}

# vm_run_group GROUP TESTS...: boot one VM for the group's tests; its
# output goes to its log, and a line per test to stdout as each ends.
vm_run_group() {
	local group=$1 glog=$logdir/vm-group-$1.log t0=$SECONDS limit= rc
	shift
	# A lone test keeps its own "# vm-timeout: N"; in a group, each has its own.
	[ $# -gt 1 ] || limit=$(sed -n 's/^# vm-timeout: \([0-9]*\)$/\1/p' "$1")
	local cpus
	cpus=$(vm_group_cpus "$@")
	# A test of two hosts ("# vm-pair: yes") boots two VMs, alone.
	local run=("$here/vm/run-vm.sh")
	if vm_is_pair "$1"; then
		run=("$here/vm/run-pair.sh")
		if [ $# -ne 1 ]; then
			echo "vm: group $group: a vm-pair test runs alone" > "$glog"
			echo 2 > "$glog.rc"
			return
		fi
	fi
	MRC_VM_CPUS=$cpus "${run[@]}" -t "${limit:-300}" -n "vm-$group" "$@" 2>&1 |
		tee "$glog" |
		sed -u -n "s|^MRC-VM-TEST-END .*/\([^/]*\)\.sh \([^ ]*\) \([0-9]*\)\$|-- $group/\1: exit \2 after \3 s|p"
	rc=${PIPESTATUS[0]}
	echo "$rc" > "$glog.rc"
	echo "$((SECONDS - t0)) vm-boot/$group" >> "$timings"
	[ $# -gt 1 ] || echo "$((SECONDS - t0)) vm/$(basename "$1" .sh)" >> "$timings"
	echo "-- group $group: done after $((SECONDS - t0)) s (exit $rc)"
}

# The groups run side by side while the host has a CPU for each of their
# vCPUs: two 2-vCPU VMs on two host CPUs each run at half speed, as a
# descheduled vCPU leaves the other spinning on its locks.
run_vm() {
	local t name group rc pat
	local -a groups=() members order pats tests
	local -A in_group=()
	echo "== VM tests (Debian $("$here/vm/kver.sh")) =="
	read -ra pats <<<"${MRC_VM_TESTS:-*}"
	# shellcheck disable=SC2231 # each pattern is a glob
	mapfile -t tests < <(for pat in "${pats[@]}"; do
		printf '%s\n' "$here"/vm/tests/$pat.sh
	done)
	for t in "${tests[@]}"; do
		name=$(basename "$t" .sh)
		# "# vm-default: no": run only when MRC_VM_TESTS names it.
		if [ -z "${MRC_VM_TESTS:-}" ] &&
		   grep -qx '# vm-default: no' "$t"; then
			echo "-- $name: not in the default set (MRC_VM_TESTS=$name runs it)"
			continue
		fi
		group=$(vm_group_of "$t")
		[ -n "${in_group[$group]:-}" ] || groups+=("$group")
		in_group[$group]+=" $t"
	done
	# Longest first, but a group that fits the free CPUs starts before a
	# longer one that does not.
	mapfile -t order < <(for group in "${groups[@]}"; do
		read -ra members <<<"${in_group[$group]}"
		echo "$(vm_group_cost "$group" "${members[@]}") $group"
	done | sort -rn | awk '{ print $2 }')
	echo "-- VM groups on $host_cpus host CPUs, one per vCPU"
	local -A slots=() running=()
	local free=$host_cpus pid i pick how
	for group in "${order[@]}"; do
		read -ra members <<<"${in_group[$group]}"
		slots[$group]=$(vm_group_slots "${members[@]}")
	done
	while [ ${#order[@]} -gt 0 ]; do
		pick=
		for i in "${!order[@]}"; do
			if [ "${slots[${order[$i]}]}" -le "$free" ]; then
				pick=$i
				break
			fi
		done
		if [ -z "$pick" ]; then
			wait -n
			# What ended gave its CPUs back.
			for pid in "${!running[@]}"; do
				kill -0 "$pid" 2>/dev/null && continue
				free=$((free + running[$pid]))
				unset "running[$pid]"
			done
			continue
		fi
		group=${order[$pick]}
		order=("${order[@]:0:pick}" "${order[@]:pick+1}")
		read -ra members <<<"${in_group[$group]}"
		if vm_is_pair "${members[0]}"; then
			how="two 1-vCPU VMs"
		else
			how="one boot, $(vm_group_cpus "${members[@]}") vCPU(s)"
		fi
		echo "-- group $group ($how):$(
			for t in "${members[@]}"; do printf ' %s' "$(basename "$t" .sh)"; done)"
		rm -f "$logdir/vm-group-$group.log.rc"
		vm_run_group "$group" "${members[@]}" &
		running[$!]=${slots[$group]}
		free=$((free - slots[$group]))
	done
	wait
	# Count in a fixed order, each group's output whole.
	for group in "${groups[@]}"; do
		read -ra members <<<"${in_group[$group]}"
		local glog=$logdir/vm-group-$group.log
		rc=$(cat "$glog.rc" 2>/dev/null || echo none)
		echo "-- group $group: output"
		sed -e 's|^MRC-VM-TEST-BEGIN .*/\([^/]*\)\.sh$|-- \1 (running)|' \
		    -e 's|^MRC-VM-TEST-END .*/\([^/]*\)\.sh \([^ ]*\) \([0-9]*\)$|-- \1: exit \2 after \3 s|' \
		    "$glog"
		for t in "${members[@]}"; do
			vm_count_test "$t" "$glog" "$rc"
		done
	done
}

for s in $suites; do
	case $s in
	kunit) timed kunit run_kunit ;;
	style) timed style run_style; run_script_syntax ;;
	layers) timed layers run_layers ;;
	spec) timed spec run_spec ;;
	gtest) timed gtest run_gtest ;;
	fuzz) timed fuzz run_fuzz ;;
	vm) run_vm ;;
	*) echo "run-all: unknown suite '$s'" >&2; failed=$((failed + 1)) ;;
	esac
done

# Where the time went, longest first, and the budget.
total=$(($(date +%s) - run_start))
budget=$((${MRC_CHECK_BUDGET_MIN:-45} * 60))
echo "== Time taken (s), longest first =="
sort -rn "$timings" | awk '{ printf "%6d  %s\n", $1, $2 }'
printf "%6d  total (budget %d)\n" "$total" "$budget"
if [ "$total" -gt "$budget" ]; then
	echo "run-all: WARNING: the run took $((total / 60)) min, over its budget of $((budget / 60)) min (Documentation/testing.rst)"
fi

# CI reads the last line; skips (already counted as failed) go before it.
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
