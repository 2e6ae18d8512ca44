# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Live per-path statistics of one ib_write_bw run from hostB to hostA,
# for the demo. Source after lib.sh and mp_lib.sh (mp_delta); the run is
# cut into phases (watch_phase); every second a line shows the goodput,
# what each path forwarded towards hostA (where the data goes) and the
# health of the sending QP's EVs.
#
# Set before watch_start:
#   WATCH_NAMES     the paths' names, one column each
#   WATCH_COUNTERS  a function printing, on one line, the bytes each path
#                   forwarded towards hostA, then its packets, in the
#                   order of WATCH_NAMES (wire bytes: Ethernet included)
#   WATCH_PROFILE   the EV profile of the sending QP on mrcB (default 0)
#   WATCH_GID_A, WATCH_GID_B  the GID indexes of mrcA and mrcB
#   WATCH_SERVER    the address the client reaches hostA's server by
#
# Sampling uses shell builtins where it can: under emulation every
# process started costs a noticeable slice of a second.
#
# ib_write_bw runs with perftest's defaults (64 KiB messages, -u 14), as
# a user would run it. The goodput is the payload of the QP's first
# transmissions, from its per-EV counters, read in step with the paths'
# counters: ib_write_bw's once-a-second reports of --run_infinitely
# summed to about half of what the QP sent and the paths forwarded in
# the same time (measured over 17.6 s: 546 messages reported against 1094
# sent), so they are not used.
WATCH_NICE=${WATCH_NICE:-19}	# ib_write_bw polls: keep a CPU for the sampling
WATCH_PROFILE=${WATCH_PROFILE:-0}
_W_CLI_LOG=/tmp/demo-write-bw.client.log
_W_SRV_LOG=/tmp/demo-write-bw.server.log
# A perftest report line: message size, messages completed in the period,
# then peak and average MB/s and Mpps: the first says the run is on.
_W_REPORT='^[[:space:]]*([0-9]+)[[:space:]]+([0-9]+)([[:space:]]+[^[:space:]]+){3}[[:space:]]*$'
_w_cli=
_w_srv=
_w_n=0
_w_nphase=0

_w_now() {
	echo "${EPOCHREALTIME/./}"
}

# _w_evs: "good assumed_bad marked_bad recovered probes_sent retransmits
# cwnd" of the sending QP (the MRC RC QP on mrcB), or nothing.
_w_evs() {
	local json obj k out=
	json=$(rdma -j -dd res show qp link mrcB/1 2>/dev/null)
	[[ $json =~ \{[^{}]*\"type\":\"RC\"[^{}]*\} ]] || return 0
	obj=${BASH_REMATCH[0]}
	for k in ev_good ev_assumed_bad ev_marked_bad ev_recovered \
		 probes_sent ev_retransmits cwnd; do
		[[ $obj =~ \"drv_$k\":([0-9]+) ]] || return 0
		out+="${BASH_REMATCH[1]} "
	done
	echo "${out% }"
}

# _w_qp_bytes: what the sending QP's EVs (WATCH_PROFILE on mrcB) counted
# sent: "WIRE DATA RETX PROBES", WIRE in bytes on the wire (IP bytes plus
# 14 bytes of Ethernet header a packet, as the paths count them), DATA
# the payload of first transmissions, RETX the wire bytes of
# retransmissions, PROBES a count. 0 0 0 0 with no QP.
_w_qp_bytes() {
	ip netns exec hostB mrc-ip -s -s -j path show dev mrcB id "$WATCH_PROFILE" 2>/dev/null |
		jq -r '[(map(.tx_bytes + 14 * .tx_pkts) | add // 0),
			(map(.tx_data_bytes) | add // 0),
			(map(.retx_bytes + 14 * .retx) | add // 0),
			(map(.tx_probes) | add // 0)] | join(" ")' 2>/dev/null ||
		echo "0 0 0 0"
}

# _w_fixed NUM DEN DIGITS: NUM / DEN with DIGITS decimals, truncated, in
# integer arithmetic (0 when DEN is 0).
_w_fixed() {
	local scale=$((10 ** $3)) t=0
	[ "$2" -gt 0 ] && t=$(($1 * scale / $2))
	printf '%d.%0*d' $((t / scale)) "$3" $((t % scale))
}

# _w_mbit BYTES USEC: Mbit/s with one decimal.
_w_mbit() {
	_w_fixed $(($1 * 8)) "$2" 1
}

# _w_counters: WATCH_COUNTERS's line.
_w_counters() {
	"$WATCH_COUNTERS"
}

# watch_start: ib_write_bw server in hostA, client in hostB, until
# stopped; returns once the first report is out.
watch_start() {
	_w_n=${#WATCH_NAMES[@]}
	timeout 600 ip netns exec hostA nice -n "$WATCH_NICE" stdbuf -oL ib_write_bw -d mrcA \
		-x "$WATCH_GID_A" -D 1 --run_infinitely -F > "$_W_SRV_LOG" 2>&1 &
	_w_srv=$!
	wait_until 20 bash -c "ip netns exec hostA ss -Hltn | grep -q ."
	timeout 600 ip netns exec hostB nice -n "$WATCH_NICE" stdbuf -oL ib_write_bw -d mrcB \
		-x "$WATCH_GID_B" -D 1 --run_infinitely -F "$WATCH_SERVER" > "$_W_CLI_LOG" 2>&1 &
	_w_cli=$!
	if ! wait_until 60 grep -Eq "$_W_REPORT" "$_W_CLI_LOG" ||
	   [ -z "$(_w_evs)" ]; then
		{ echo "client:"; tail -n 15 "$_W_CLI_LOG"
		  echo "server:"; tail -n 15 "$_W_SRV_LOG"; } | sed 's/^/    /'
		return 1
	fi
	_w_qp_last=$(_w_qp_bytes)
	_w_last=$(_w_counters)
	_w_time=$(_w_now)
	_w_t0=$_w_time
}

# watch_stop: stop both ib_write_bw (they would run forever).
watch_stop() {
	local p
	for p in $_w_cli $_w_srv; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	_w_cli=''
	_w_srv=''
}

watch_header() {
	local i paths=
	for ((i = 0; i < _w_n; i++)); do paths+=$(printf '%6s' "${WATCH_NAMES[i]}"); done
	printf '\n    %-28s |%*s | %s\n' "time  phase        goodput" \
		$((6 * _w_n)) "Mbit/s by path" "EVs of the QP"
	printf '    %28s |%s | %4s %4s\n' "" "$paths" GOOD BAD
}

# watch_phase NAME SECONDS: a line a second for SECONDS seconds; keeps the
# phase's figures for watch_summary and the caller's verdict. Fails if
# ib_write_bw exited or the paths carried nothing for a whole tick.
watch_phase() {
	local name=$1 secs=$2 p=$_w_nphase t=0 now cur d evs qcur
	local start begin=$_w_last qbegin=$_w_qp_last since=$_w_time tail0=''
	local badsum=0 badn=0 idle=0 line i
	local -a x y e q0 q1
	_w_nphase=$((p + 1))
	start=$(_w_now)
	while [ $((_w_time - start)) -lt $((secs * 1000000)) ]; do
		t=$((t + 1))
		d=$((start + t * 1000000 - $(_w_now)))
		[ $d -gt 0 ] && sleep "$((d / 1000000)).$(printf '%06d' $((d % 1000000)))"
		# The QP's counters first, then the paths' at once: starting
		# mrc-ip takes a while, its dump comes at the end.
		qcur=$(_w_qp_bytes)
		cur=$(_w_counters)
		now=$(_w_now)
		evs=$(_w_evs)
		read -ra x <<<"$_w_last"
		read -ra y <<<"$cur"
		read -ra q0 <<<"$_w_qp_last"
		read -ra q1 <<<"$qcur"
		read -ra e <<<"${evs:-- -}"
		d=$((now - _w_time))
		line=$(printf '    %3ds  %-8.8s %6s Mbit/s |' \
			$(((now - _w_t0) / 1000000)) "$name" \
			"$(_w_mbit $((q1[1] - q0[1])) "$d")")
		idle=1
		for ((i = 0; i < _w_n; i++)); do
			[ $((y[i] - x[i])) -gt 0 ] && idle=0
			line+=$(printf '%6s' "$(_w_mbit $((y[i] - x[i])) "$d")")
		done
		printf '%s | %4s %4s\n' "$line" "${e[0]}" "${e[1]}"
		if [ -z "$tail0" ]; then
			tail0=$cur
		elif [ -n "$evs" ]; then
			badsum=$((badsum + e[1]))
			badn=$((badn + 1))
		fi
		_w_last=$cur
		_w_qp_last=$qcur
		_w_time=$now
		[ -n "$evs" ] && _w_evs_end[p]=$evs
		[ $idle = 0 ] || { echo "    no packets on any path for a second"
			return 1; }
		kill -0 "$_w_cli" 2>/dev/null || { echo "    ib_write_bw exited:"
			tail -n 4 "$_W_CLI_LOG" | sed 's/^/    /'; return 1; }
	done
	_w_name[p]=$name
	_w_us[p]=$((_w_time - since))
	_w_delta[p]=$(mp_delta "$begin" "$_w_last")
	_w_tail[p]=$(mp_delta "$tail0" "$_w_last")
	_w_qpd[p]=$(mp_delta "$qbegin" "$_w_qp_last")
	read -ra x <<<"${_w_qpd[p]}"
	_w_good[p]=${x[1]}
	# Mean ASSUMED_BAD EVs, after the phase's first second, in tenths.
	_w_bad[p]=$((badn ? badsum * 10 / badn : 0))
}

# watch_summary: per phase, packets and Mbit/s of every path, the goodput,
# and the EV counters.
watch_summary() {
	local p i j b k
	local -a x
	printf '    %-10s' ''
	for ((p = 0; p < _w_nphase; p++)); do
		printf ' | %-16.16s' "${_w_name[p]} ($((_w_us[p] / 1000000)) s)"
	done
	printf '\n    %-10s' path
	for ((p = 0; p < _w_nphase; p++)); do printf ' | %8s %7s' packets Mbit/s; done
	printf '\n'
	for ((i = 0; i <= _w_n; i++)); do
		if [ $i -lt "$_w_n" ]; then
			printf '    %-10s' "${WATCH_NAMES[i]}"
		else
			printf '    %-10s' 'all paths'
		fi
		for ((p = 0; p < _w_nphase; p++)); do
			read -ra x <<<"${_w_delta[p]}"
			b=0 k=0
			if [ $i -lt "$_w_n" ]; then
				b=${x[i]} k=${x[_w_n + i]}
			else
				for ((j = 0; j < _w_n; j++)); do
					b=$((b + x[j])) k=$((k + x[_w_n + j]))
				done
			fi
			printf ' | %8d %7s' "$k" "$(_w_mbit "$b" "${_w_us[p]}")"
		done
		printf '\n'
	done
	printf '    %-10s' goodput
	for ((p = 0; p < _w_nphase; p++)); do
		printf ' | %8s %7s' '' "$(_w_mbit "${_w_good[p]}" "${_w_us[p]}")"
	done
	printf '\n    %-10s' "QP's count"
	for ((p = 0; p < _w_nphase; p++)); do
		read -ra x <<<"${_w_qpd[p]}"
		printf ' | %8s %7s' "" "$(_w_mbit "${x[0]}" "${_w_us[p]}")"
	done
	printf '\n    %-10s' 'EVs BAD'
	for ((p = 0; p < _w_nphase; p++)); do
		printf ' | %8s %7s' 'mean' "$((_w_bad[p] / 10)).$((_w_bad[p] % 10))"
	done
	read -ra x <<<"${_w_evs_end[_w_nphase - 1]}"
	printf '\n\n    The QP at the end: %s EVs GOOD, %s ASSUMED_BAD, cwnd %s packets;\n' \
		"${x[0]}" "${x[1]}" "${x[6]}"
	printf '    over the run %s times an EV was marked bad, %s probed back to GOOD,\n' \
		"${x[2]}" "${x[3]}"
	printf '    %s probes sent, %s packets resent because their EV failed.\n' \
		"${x[4]}" "${x[5]}"
}

# _w_wire P: bytes all paths forwarded towards hostA in phase P.
_w_wire() {
	local -a x
	local j b=0
	read -ra x <<<"${_w_delta[$1]}"
	for ((j = 0; j < _w_n; j++)); do b=$((b + x[j])); done
	echo "$b"
}

# watch_accounting: per phase, where the bytes the paths forwarded
# towards hostA came from, by the sending QP's own per-EV counters: all
# it sent (with 14 bytes of Ethernet header a packet), the payload of
# first transmissions and its share of the paths' bytes, what was
# resent, the probes. The payload is counted as it leaves, in the same
# window as the paths' bytes; perftest's reports come once a second,
# out of step with the phases.
watch_accounting() {
	local p w
	local -a x
	printf '    %-8s %9s %9s %6s %9s %7s %8s %6s\n' phase paths "QP's EVs" ratio \
		payload share resent probes
	for ((p = 0; p < _w_nphase; p++)); do
		read -ra x <<<"${_w_qpd[p]}"
		w=$(_w_wire "$p")
		printf '    %-8s %8sM %8sM %6s %8sM %7s %7sM %6s\n' "${_w_name[p]}" \
			"$(_w_mbyte "$w")" "$(_w_mbyte "${x[0]}")" \
			"$(_w_fixed "${x[0]}" "$w" 3)" "$(_w_mbyte "${x[1]}")" \
			"$(_w_fixed "${x[1]}" "$w" 3)" "$(_w_mbyte "${x[2]}")" "${x[3]}"
	done
}

# _w_mbyte BYTES: in MB with one decimal.
_w_mbyte() {
	_w_fixed "$1" 1000000 1
}

# watch_agrees P: the QP's count of phases 0..P is within 5% of the
# paths'. Summed from the start: the spines' counters and the QP's are
# read a moment apart, and a packet counted by the QP at the end of one
# phase may be forwarded in the next; once, under TCG, that moved 9 MB
# across a boundary (ratios 0.884 and 1.102 in two adjacent phases that
# together agreed within 1.4%). The sum bounds that skew by all that
# came before.
watch_agrees() {
	local -a x
	local p w=0 q=0
	for ((p = 0; p <= $1; p++)); do
		read -ra x <<<"${_w_qpd[p]}"
		q=$((q + x[0]))
		w=$((w + $(_w_wire "$p")))
	done
	[ "$w" -gt 0 ] && [ $(((q - w) * 100)) -le $((5 * w)) ] &&
		[ $(((w - q) * 100)) -le $((5 * w)) ]
}

# watch_rate P: Mbit/s all paths carried in phase P (0 = the first).
watch_rate() {
	_w_mbit "$(_w_wire "$1")" "${_w_us[$1]}"
}

# watch_goodput P: the QP's first-transmission payload in phase P, Mbit/s.
watch_goodput() {
	_w_mbit "${_w_good[$1]}" "${_w_us[$1]}"
}

# watch_share P I: path I's share (percent, I from 0 as in WATCH_NAMES)
# of the bytes of phase P after its first second.
watch_share() {
	local -a x
	local j t=0
	read -ra x <<<"${_w_tail[$1]}"
	for ((j = 0; j < _w_n; j++)); do t=$((t + x[j])); done
	echo $((t ? 100 * x[$2] / t : 0))
}

# watch_bad P: the mean count of ASSUMED_BAD EVs in phase P after its
# first second, in tenths.
watch_bad() {
	echo "${_w_bad[$1]}"
}

# watch_good_bytes P: the payload the QP sent first in phase P.
watch_good_bytes() {
	echo "${_w_good[$1]}"
}
