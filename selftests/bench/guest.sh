# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash
# What every benchmark guest script needs (common.sh for the two-VM part,
# srv6.sh for the SRv6 VM): its parameters and the CPUs' time.

# barg NAME: the value of bench.NAME= on the kernel command line.
barg() {
	tr ' ' '\n' < /proc/cmdline | sed -n "s/^bench\.$1=//p" | head -n1
}

# cpu_ticks: "BUSY KERNEL TOTAL" jiffies of all CPUs so far (idle and
# iowait are not busy; kernel is system, irq and softirq time).
cpu_ticks() {
	awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i
		print t - $5 - $6, $4 + $7 + $8, t }' /proc/stat
}

# ticks: CPU_TICKS="BUSY KERNEL TOTAL" jiffies of all CPUs so far (as
# cpu_ticks, without a process), CPU_EACH="BUSY,TOTAL ..." of each CPU.
# shellcheck disable=SC2034 # read by the scripts that source this
ticks() {
	local cpu u n s i w q sq st
	CPU_TICKS='' CPU_EACH=''
	while read -r cpu u n s i w q sq st _; do
		case $cpu in
		cpu) CPU_TICKS="$((u + n + s + q + sq + st)) $((s + q + sq)) $((u + n + s + i + w + q + sq + st))" ;;
		cpu[0-9]*) CPU_EACH+="$((u + n + s + q + sq + st)),$((u + n + s + i + w + q + sq + st)) " ;;
		*) break ;;
		esac
	done < /proc/stat
}

# run_steps TAG: run_step K FIELDS... for each of "${steps[@]}" (whose
# last field is the repetition), K counting from 1; for each, a progress
# line from TAG_summary.py --line and the "@TAG" record run_step printed
# last. FAILS: how many gave no figure (run_step's status).
# shellcheck disable=SC2154 # steps is the caller's
run_steps() {
	local tag=$1 s k=0 n=${#steps[@]} line
	FAILS=0
	for s in "${steps[@]}"; do
		k=$((k + 1))
		# shellcheck disable=SC2086 # the step's fields
		line=$(run_step "$k" $s) || FAILS=$((FAILS + 1))
		line=${line##*@$tag }
		echo "# [$k/$n] ${s% *} rep ${s##* }: $(python3 "./${tag}_summary.py" --line <<<"$line")"
		echo "@$tag $line"
	done
}

# nap_init DIR: make nap and nap_until work. Inside a measuring window
# nothing may start a process (under TCG an exec costs a tenth of a
# second of CPU, most of it the kernel's): a nap is a read timeout on a
# FIFO in DIR that nobody writes to.
nap_init() {
	rm -f "$1/nap"
	mkfifo "$1/nap"
	exec {NAP}<>"$1/nap"
}

# nap_until USEC: sleep until the EPOCHREALTIME of USEC microseconds.
nap_until() {
	local d=$(($1 - ${EPOCHREALTIME/./}))
	[ $d -gt 0 ] || return 0
	printf -v d '%d.%06d' $((d / 1000000)) $((d % 1000000))
	read -rt "$d" -u "$NAP"
	return 0
}

# nap USEC: sleep USEC microseconds.
nap() {
	nap_until $((${EPOCHREALTIME/./} + $1))
}
