#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Line and branch coverage of the kernel/ core files reached by the
# fuzzing corpus (build/fuzz/corpus and the seeds), per harness and for
# all of them together. Run fuzz/run-fuzz.sh (or make fuzz) first.
#
#   fuzz/coverage.sh [HARNESS...]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=$top/build/fuzz
cov=$out/cov
harnesses=${*:-wire rxwin txwin ev resp req encap}

make -s -C "$here" OUT="$out" cov
rm -f "$cov"/*.profraw "$cov"/*.profdata
objs=()
for h in $harnesses; do
	dirs=()
	for d in "$out/corpus/$h" "$out/seeds/$h"; do
		[ -d "$d" ] && dirs+=("$d")
	done
	LLVM_PROFILE_FILE="$cov/$h.profraw" "$cov/fuzz_$h" -runs=0 \
		"${dirs[@]}" > "$cov/$h.log" 2>&1
	llvm-profdata merge -sparse "$cov/$h.profraw" -o "$cov/$h.profdata"
	echo "== fuzz_$h"
	llvm-cov report "$cov/fuzz_$h" -instr-profile="$cov/$h.profdata" \
		"$top"/kernel/core/*.c | sed "s|$top/||"
	objs+=(-object "$cov/fuzz_$h")
done
llvm-profdata merge -sparse "$cov"/*.profraw -o "$cov/all.profdata"
echo "== all harnesses"
llvm-cov report "${objs[@]:1}" -instr-profile="$cov/all.profdata" \
	"$top"/kernel/core/*.c | sed "s|$top/||"
