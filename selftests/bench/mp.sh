# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash disable=SC2034,SC2154 # shared with the guests; GIDX_* from rdma_gids
# The multipath benchmarks (the mp_* metrics), sourced by common.sh. After
# the other steps, both guests rebuild their link as mp_topo.sh's topology
# across the two VMs (mp_split_a, mp_split_b): the client VM becomes hostA
# and holds the N routers, each path shaped to RATE; the server VM is
# hostB. Every step is one mrc-stream run (RDMA WRITEs over one RC QP)
# from hostA to hostB over mrc0 or rxe0:
#
#   mp_cpu        unshaped paths: the most the VMs' CPUs give (first rep)
#   mp_bw         all N paths shaped: aggregate goodput against N*RATE
#   mp_blackhole  path MPB_DOWN_PATH goes down MPB_FAIL_AT s into the run
#                 (router link down) and stays down to the end (MRC only)
#   mp_loss       MPB_LOSS % random loss on rxe's path (the one its route
#                 lookup gives: naming the device skips ECMP), both ways
#
# The client prints the step's line and an "@mp {JSON}" line with the
# whole mrc-stream result, the packets each router forwarded and MRC's QP
# counters, which summarize.py turns into the multipath table.

. ../vm/mp_topo.sh
. ../vm/mp_lib.sh

MPB_PATHS=$(barg mppaths)	# N
MPB_PATHS=${MPB_PATHS:-4}
MPB_RATE=$(barg mprate)		# tbf rate of each path, tc units
MPB_RATE=${MPB_RATE:-10mbit}
MPB_SECS=$(barg mpsecs)		# seconds of each run (blackhole: + MPB_FAIL_AT)
MPB_SECS=${MPB_SECS:-10}
MPB_SIZE=$(barg mpsize)		# bytes per RDMA WRITE
MPB_SIZE=${MPB_SIZE:-16384}
MPB_DEPTH=$(barg mpdepth)	# WRITEs outstanding
MPB_DEPTH=${MPB_DEPTH:-16}
MPB_TIMEOUT=$(barg mptimeout)	# QP timeout attribute (perftest's default)
MPB_TIMEOUT=${MPB_TIMEOUT:-14}
MPB_LOSS=$(barg mploss)		# percent
MPB_LOSS=${MPB_LOSS:-1}
MPB_FAIL_AT=5
MPB_DOWN_PATH=2
MPB_STEP_LIMIT=$((MPB_SECS + MPB_FAIL_AT + 90))
STREAM=$MRC_BUILD/selftests/progs/mrc-stream

# mp_server_up: the server VM becomes hostB; GIDX_* for its new address.
mp_server_up() {
	mp_split_b "$MPB_PATHS" eth0 600 && rdma_gids "$MP_B4"
}

# mp_server_drops: packets this VM dropped so far: "SOFTNET LINKS".
mp_server_drops() {
	echo "$(mp_softnet_drops) $(cat /sys/class/net/*/statistics/[rt]x_dropped |
		awk '{ s += $1 } END { print s + 0 }')"
}

# mp_server_cmd IMPL PORT: the server side of a multipath step.
mp_server_cmd() {
	local gidx=GIDX_${1}0
	echo "$STREAM server --dev ${1}0 --gid ${!gidx} --port $2 --size $MPB_SIZE" \
		"--outstanding $MPB_DEPTH --timeout $MPB_TIMEOUT --wait-s $MPB_STEP_LIMIT"
}

# mp_client_up: the client VM becomes hostA with the routers: its RDMA
# devices leave eth0, which becomes swB's uplink, and come back on
# hostA's new eth0. Sets MPB_RXE_PATH, the router rxe's packets take.
mp_client_up() {
	local via
	rdma link delete mrc0 && rdma link delete rxe0 &&
	mp_split_a "$MPB_PATHS" "$MPB_RATE" eth0 600 &&
	rdma_up "$MP_A4" || return
	via=$(ip route get "$MP_B4" from "$MP_A4" oif eth0 ipproto udp \
		sport 49152 dport 4791 | grep -o 'via [0-9.]*')
	MPB_RXE_PATH=$((${via##*.} - 100))
	# hostA's eth0 segments what it sends, as a NIC would: a GSO run
	# crossing veth and the routers whole would count as one packet with
	# one set of headers, and the routers' bytes would not be the wire's.
	ip link set eth0 gso_max_segs 1 || return
	# Count MRC's retransmission timeouts: its pr_debug line for each.
	echo 'format "rto: una" +p' > /sys/kernel/debug/dynamic_debug/control
	echo "# mp: $MPB_PATHS paths of $MPB_RATE (tbf burst $MP_TBF_BURST latency" \
		"$MP_TBF_LATENCY); rxe's route: router $MPB_RXE_PATH; mrc ev_count" \
		"$(cat /sys/module/mrc/parameters/ev_count 2>/dev/null)"
}

# _mp_wire: "TO_B TO_A SENT PKTS PAYLOAD RETX RETX_PKTS PROBES": the bytes
# every router forwarded towards hostB (the data) and towards hostA (the
# acknowledgments), then mrc0's per-path totals (rdma statistic): IP
# bytes and packets sent, payload of first transmissions, bytes and
# packets resent, probes.
_mp_wire() {
	local i files=() to_b to_a
	for ((i = 1; i <= MP_N; i++)); do
		files+=("/sys/class/net/p$i/statistics/rx_bytes")
	done
	to_b=$(ip netns exec swB cat "${files[@]}" | awk '{ s += $1 } END { print s + 0 }')
	to_a=$(ip netns exec swA cat "${files[@]}" | awk '{ s += $1 } END { print s + 0 }')
	echo "$to_b $to_a $(rdma -j statistic show link mrc0/1 | jq -r '.[0] |
		[.path_tx_bytes, .path_tx_pkts, .path_tx_data_bytes, .path_retx_bytes,
		 .path_retx_pkts, .path_probes] | map(. // 0 | tostring) | join(" ")')"
}

# mp_drops: packets this VM has dropped, one line: the routers' tbf drops
# towards hostB and towards hostA (netem's losses included), netem's
# losses both ways, the softnet backlog drops, and the drops every link
# counted (rx and tx, in every namespace of the topology).
mp_drops() {
	local i ns tb=0 ta=0 nb=0 na=0 links=0 q
	for ((i = 1; i <= MP_N; i++)); do
		read -r q n <<<"$(_mp_qdisc_drops "r$i" ethB)"
		tb=$((tb + q)) nb=$((nb + n))
		read -r q n <<<"$(_mp_qdisc_drops "r$i" ethA)"
		ta=$((ta + q)) na=$((na + n))
	done
	for ns in hostA swA swB $(seq -f 'r%g' 1 "$MP_N"); do
		q=$(ip netns exec "$ns" sh -c 'cat /sys/class/net/*/statistics/[rt]x_dropped' |
			awk '{ s += $1 } END { print s + 0 }')
		links=$((links + q))
	done
	echo "$tb $ta $((nb + na)) $(mp_softnet_drops) $links"
}

# _mp_qdisc_drops NS DEV: "TBF NETEM" drops on DEV's egress.
_mp_qdisc_drops() {
	tc -n "$1" -s qdisc show dev "$2" | awk '
		/^qdisc/ { k = $2 }
		/dropped/ { gsub(/[(),]/, " "); for (i = 1; i < NF; i++)
			if ($i == "dropped") d[k] += $(i + 1) }
		END { print d["tbf"] + 0, d["netem"] + 0 }'
}

# mp_softnet_drops: packets the per-CPU input backlogs dropped.
mp_softnet_drops() {
	local s=0 d
	while read -r _ d _; do
		s=$((s + 16#$d))
	done < /proc/net/softnet_stat
	echo $s
}

# mp_client_step METRIC IMPL REP K N: run step K of N and print its
# lines; non-zero when it gave no figure.
mp_client_step() {
	local metric=$1 impl=$2 rep=$3 k=$4 n=$5 secs=$MPB_SECS rc
	# What _mp_run, _mp_line and _mp_record share.
	local path=null event=null qp=null rtos=null before after d0 d1 w0 w1
	case $metric in
	mp_blackhole) secs=$((MPB_SECS + MPB_FAIL_AT)) path=$MPB_DOWN_PATH ;;
	mp_loss) mp_path_loss "$MPB_RXE_PATH" "$MPB_LOSS"; path=$MPB_RXE_PATH ;;
	mp_cpu) mp_set_rate none ;;
	esac
	d0=$(mp_drops)
	before=$(mp_router_counts)
	w0=$(_mp_wire)
	dmesg -C
	_mp_run "$metric" "$impl" "$k" "$secs"
	rc=$?
	w1=$(_mp_wire)
	after=$(mp_router_counts)
	d1=$(mp_drops)
	[ "$impl" = mrc ] && rtos=$(dmesg | grep -c 'mrc: qp [0-9]* rto:')
	case $metric in
	mp_blackhole) mp_path_up "$MPB_DOWN_PATH" ;;
	mp_loss) mp_path_clear "$MPB_RXE_PATH" ;;
	mp_cpu) mp_set_rate "$MPB_RATE" ;;
	esac
	_mp_line "$rc" "[$k/$n] $metric $impl rep $rep:"
	_mp_record "$rc" "$k" "$metric" "$impl" "$rep" | sed 's/^/@mp /'
	[ -n "$(_mp_result "$rc")" ]
}

# _mp_run METRIC IMPL K SECS: one mrc-stream client; takes the path down
# in mp_blackhole, reads MRC's QP counters near the end; its exit status.
_mp_run() {
	local metric=$1 impl=$2 k=$3 secs=$4 gidx=GIDX_${2}0 pid t0 rc
	timeout -k 5 "$MPB_STEP_LIMIT" "$STREAM" client --dev "${impl}0" --gid "${!gidx}" \
		--host "$MP_B4" --port $((PORT_BASE + k)) --size "$MPB_SIZE" \
		--outstanding "$MPB_DEPTH" --timeout "$MPB_TIMEOUT" --seconds "$secs" \
		--connect-wait-s 150 > /tmp/mp.out 2> /tmp/mp.err &
	pid=$!
	if mp_stream_started $pid /tmp/mp.err "$MPB_STEP_LIMIT"; then
		t0=$EPOCHREALTIME
		if [ "$metric" = mp_blackhole ]; then
			sleep "$MPB_FAIL_AT"
			mp_path_down "$MPB_DOWN_PATH"
			event=$EPOCHREALTIME
		fi
		# While the QP still exists: counted from the start, since
		# taking a path down takes a while under TCG (a sample after
		# the run's end comes back empty).
		sleep "$(awk -v s="$secs" -v t0="$t0" -v now="$EPOCHREALTIME" '
			BEGIN { d = (s > 3 ? s - 1.5 : s / 2) - (now - t0)
				print (d > 0 ? d : 0) }')"
		[ "$impl" = mrc ] && qp=$(mp_qp_attrs_raw mrc0)
	fi
	wait $pid
	rc=$?
	[ "$qp" = null ] || qp=$(mp_qp_attrs_parse <<<"$qp")
	return $rc
}

# _mp_result RC: mrc-stream's JSON result, empty if it gave none.
_mp_result() {
	[ "$1" -eq 0 ] && jq -ce 'select(.bytes != null)' /tmp/mp.out 2>/dev/null
}

# _mp_line RC PREFIX: the step's line, as the others print theirs.
_mp_line() {
	local json v at err gap more=
	json=$(_mp_result "$1")
	if [ -z "$json" ]; then
		err=$(grep -v '^mrc-stream client: streaming' /tmp/mp.err | tail -n 1)
		case $1 in 124 | 137) err="timed out after ${MPB_STEP_LIMIT}s" ;; esac
		echo "$2 null (${err:-exit status $1, no result})"
		dmesg | tail -n 5 | diag
		return
	fi
	v=$(jq -r .goodput_mbit <<<"$json")
	gap="longest gap $(jq -r .max_gap_ms <<<"$json") ms"
	if [ "$event" != null ]; then
		at=$(jq --argjson e "$event" '$e - .start_realtime' <<<"$json")
		v=$(python3 ./mp_figures.py after "$at" <<<"$json")
		gap="after path $path went down at $(printf %.2f "$at") s; $gap"
		gap="$gap ending at $(jq -r .max_gap_end_s <<<"$json") s"
	fi
	[ "$rtos" != null ] && more="; cwnd $(jq -r '.cwnd // "?"' <<<"${qp:-null}"), $rtos RTOs"
	echo "$2 $v Mbit/s; $gap; packets per router $(mp_delta "$before" "$after");" \
		"dropped $(mp_delta "$d0" "$d1") (tbf to B, to A, netem, softnet," \
		"links)$more"
}

# _mp_record RC K METRIC IMPL REP: the step as one JSON object.
_mp_record() {
	local json
	json=$(_mp_result "$1")
	jq -cn --argjson step "$2" --arg metric "$3" --arg impl "$4" \
		--argjson rep "$5" --argjson rc "$1" --argjson stream "${json:-null}" \
		--arg error "$(grep -v '^mrc-stream client: streaming' /tmp/mp.err | tail -n 1)" \
		--argjson event "$event" --argjson path "$path" \
		--argjson qp "${qp:-null}" --argjson rtos "$rtos" \
		--arg paths "$(mp_delta "$before" "$after")" \
		--arg drops "$(mp_delta "$d0" "$d1")" \
		--arg wire "$(mp_delta "$w0" "$w1")" \
		'def nums: split(" ") | map(tonumber);
		 {step: $step, metric: $metric, impl: $impl, rep: $rep, rc: $rc,
		  error: (if $stream == null then $error else null end),
		  event_realtime: $event, path: $path, qp: $qp, stream: $stream,
		  path_packets: ($paths | nums), rto_events: $rtos,
		  wire: ([["to_b", "to_a", "sent", "pkts", "payload", "retx",
			   "retx_pkts", "probes"], ($wire | nums)] | transpose |
			 map({(.[0]): .[1]}) | add),
		  drops: ([["tbf_to_b", "tbf_to_a", "netem", "softnet", "links"],
			   ($drops | nums)] | transpose | map({(.[0]): .[1]}) | add)}'
}
