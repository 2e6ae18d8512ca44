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

PERF=$(barg perf)	# 1: profile each step (perf_start, perf_stop)
PERF=${PERF:-0}

# perf_start: sample every CPU of this guest, with call graphs, until
# perf_stop. perf's cpu-clock event is a timer, so it works under TCG,
# which has no PMU. perf first reads every process's maps, for seconds
# under TCG: it starts disabled, and is enabled only once that is done,
# so that neither its set-up nor a late start is in the profile.
perf_start() {
	[ "$PERF" = 1 ] || return 0
	if ! command -v perf > /dev/null; then
		echo "# perf: not installed (scripts/setup-deps.sh installs linux-perf)"
		PERF=0
		return 0
	fi
	rm -f /tmp/perf.ctl /tmp/perf.ack
	mkfifo /tmp/perf.ctl /tmp/perf.ack
	perf record -e cpu-clock -F 499 -a -g -o /tmp/perf.data -D -1 \
		--control fifo:/tmp/perf.ctl,/tmp/perf.ack \
		> /tmp/perf.err 2>&1 &
	PERF_PID=$!
	# Each side blocks until perf opens its end: bounded, should it fail.
	timeout 60 sh -c 'echo enable > /tmp/perf.ctl' &&
		timeout 60 head -c 3 /tmp/perf.ack > /dev/null
}

# perf_stop TAG: end the profile; print its hottest symbols, each line
# starting with "# TAG perf:", and its folded stacks (flamegraph.py),
# each line starting with "@fold NAME " (NAME: TAG in letters, digits and
# dashes), from which the host draws a flame graph per profile.
perf_stop() {
	[ "$PERF" = 1 ] && [ -n "${PERF_PID:-}" ] || return 0
	kill -INT "$PERF_PID" 2>/dev/null
	# perf writes its summary and the data's header as it exits.
	while kill -0 "$PERF_PID" 2>/dev/null; do
		sleep 0.1
	done
	wait "$PERF_PID" 2>/dev/null
	PERF_PID=
	{
		perf report -i /tmp/perf.data --stdio --no-children \
			--sort sym -g none --percent-limit 1 2>/dev/null |
			awk '/%/ && !/^#/' | head -n 25
		# "[ perf record: Captured and wrote ... (N samples) ]", or
		# an error.
		grep -v -e '^Events ' -e 'Woken up' /tmp/perf.err | tail -n 3
	} | awk -v tag="$1" '{ print "# " tag " perf: " $0 }'
	perf script -i /tmp/perf.data 2>/dev/null | python3 ./flamegraph.py fold |
		sed "s/^/@fold $(echo "$1" | tr -cs 'A-Za-z0-9' - | sed 's/^-//; s/-$//') /"
}
