# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash
# The congestion control benchmarks (the cc_* metrics), run by bench.sh in
# one VM of 2 vCPUs: mp_topo.sh's topology with one path, a single
# bottleneck of RATE (router r1's tbf towards hostB), and both CC
# algorithms side by side in each repetition: mrc-window (CC profile 0),
# uet-1.0-nscc with its defaults (profile 5, "nscc") and set for the link
# as admin-guide.rst says (profile 6, "nscc-link", see nscc_link), kernel
# TCP as the anchor. Data flows from hostA to hostB.
#
#   cc_loss    goodput of one WRITE stream (mrc-stream), one READ stream
#              (ib_read_bw) and one TCP flow (iperf3) at 0, 1 and 2%
#              random loss on the path (netem, both ways)
#   cc_fair    2 and 4 WRITE streams at once: Jain's fairness index of
#              their goodputs in each 1 s window after the first second
#   cc_tcp     one WRITE stream beside one TCP flow: each one's share,
#              for each TCP congestion control of TCPS: cubic (Debian's
#              default, which does not ask for ECN, so RED drops its
#              packets where it marks MRC's) and dctcp (ECN, as TCP runs
#              in datacenters whose switches mark)
#   cc_incast  8 senders start one message of INCAST_WRITES WRITEs each
#              at once: when the last one completes against the ideal
#              (all bytes at the bottleneck's rate), and the bottleneck's
#              use from the first start to the last completion (the bytes
#              tc sent, headers included, / rate); kernel TCP as the
#              anchor: 8 DCTCP flows' use of the same bottleneck
#
# cc_fair, cc_tcp and cc_incast run over each queue of QUEUES: "ecn"
# (fq_codel marking CE, target 1 ms, 100 packets), "red" (one FIFO that
# marks CE as a datacenter switch's WRED does, see red_queue) and "trim"
# (the test-only mrc_trim of selftests/trimq, 16 packets). Each step prints
# its line and an "@cc {JSON}" line, which cc_summary.py turns into the
# table; RTOs are counted from MRC's pr_debug line for each.

. ../vm/lib.sh
. ../vm/mp_topo.sh
. ../vm/mp_lib.sh
. ./guest.sh

# The bottleneck tbf's burst, bytes: two full-size packets by default,
# so that queues see packets, not GSO runs. With one, the tokens of every
# late wake-up of the emulated timer were lost, and the link itself
# capped what any sender got: eight DCTCP flows kept it 0.88 busy, and
# 0.98 with two packets.
MP_TBF_BURST=$(barg cctbfburst)
MP_TBF_BURST=${MP_TBF_BURST:-3200}

REPS=$(barg reps)
REPS=${REPS:-3}
METRICS=$(barg metrics)
METRICS=${METRICS:-cc_loss,cc_fair,cc_tcp,cc_incast}
RATE=$(barg ccrate)		# tbf rate of the bottleneck, tc units
RATE=${RATE:-20mbit}
SECS=$(barg ccsecs)		# seconds of each run
SECS=${SECS:-10}
QUEUES=$(barg ccqueues)
QUEUES=${QUEUES:-ecn,red,trim}
TCPS=$(barg cctcp)
TCPS=${TCPS:-cubic,dctcp}
ALGS=$(barg ccalgs)
ALGS=${ALGS:-window,nscc,nscc-link}
INCAST_WRITES=$(barg incastwrites)	# WRITEs in each sender's message
INCAST_WRITES=${INCAST_WRITES:-32}
STEP_LIMIT=$((SECS + 120))
MP_STREAM_SIZE=65536		# bytes per RDMA WRITE (mp_streams_start)
MP_STREAM_DEPTH=8		# WRITEs outstanding per stream
# The QPs' timeout attribute: 18, 268 ms (2.1 s without progress before
# IBV_WC_RETRY_EXC_ERR), for a bottleneck of tens of Mbit/s that 8
# windows fill for most of a second; perftest's 14 suits real links.
MP_STREAM_TIMEOUT=18
STATE=/run/cc-bench
mkdir -p "$STATE"

# profile_of CC: the CC profile id of an algorithm.
profile_of() {
	case $1 in window) echo 0 ;; nscc) echo 5 ;; nscc-link) echo 6 ;; esac
}

# red_queue: RED with ECN as one FIFO, shallow as a switch port's: marks
# from an average of 3 ms of the bottleneck's rate, every packet marked
# (or dropped, when not ECN-capable) with probability 0.2 at 9 ms, and
# 24 ms of room. Unlike fq_codel it does not share by flow, so an MRC
# QP's EVs count as one flow's packets against a TCP flow's.
red_queue() {
	local ms
	ms=$(python3 -c '
import sys
sys.path.insert(0, ".")
import mp_summary
print(int(mp_summary.rate_mbit(sys.argv[1]) * 1e6 / 8 / 1000))' "$RATE") || return
	tc -n r1 qdisc replace dev ethB parent 1:1 handle 20: red \
		limit $((24 * ms)) min $((3 * ms)) max $((9 * ms)) avpkt 1100 \
		burst $(((2 * 3 + 9) * ms / (3 * 1100) + 1)) probability 0.2 \
		bandwidth "$RATE" ecn
}

# queue Q: the bottleneck's queue under r1's tbf towards hostB.
queue() {
	mp_path_clear 1 || return
	case $1 in
	ecn) tc -n r1 qdisc replace dev ethB parent 1:1 handle 20: \
		fq_codel ecn target 1ms interval 10ms limit 100 ;;
	red) red_queue ;;
	trim) tc -n r1 qdisc replace dev ethB parent 1:1 handle 20: mrc_trim ;;
	plain) ;;
	esac
}

# streams CC N FILE: N WRITE streams at once from hostA to hostB under CC
# (mp_streams_start); their JSON results, one per line, in FILE, and the
# bottleneck's wire rate meanwhile in $STATE/wire. Non-zero unless every
# stream gave one.
streams() {
	local rc=0
	mp_streams_start "$STATE" "$2" "$SECS" "$(profile_of "$1")"
	wire_sample
	mp_streams_wait "$STATE" || rc=1
	mp_streams_ended_well $rc "$STATE" >&2
	cp "$STATE/results" "$3"
	return $rc
}

# wire_bytes: bytes the bottleneck (r1's tbf towards hostB) has sent.
wire_bytes() {
	tc -n r1 -s qdisc show dev ethB | awk '
		/^qdisc tbf/ { f = 1; next }
		f && /Sent/ { print $2; exit }'
}

# wire_sample: once all streams stream, the bottleneck's wire rate over
# the middle SECS - 2 seconds, in bits per second, into $STATE/wire (empty
# if a stream never started).
wire_sample() {
	: > "$STATE/wire"
	mp_streams_running "$STATE" || return 0
	wire_middle
}

# wire_middle: the bottleneck's wire rate over the SECS - 2 seconds from
# a second from now, into $STATE/wire.
wire_middle() {
	local b0 b1 t0 t1
	sleep 1
	b0=$(wire_bytes) t0=$(date +%s.%N)
	sleep $((SECS - 2))
	b1=$(wire_bytes) t1=$(date +%s.%N)
	[ -n "$b0" ] && [ -n "$b1" ] &&
		awk -v b="$((b1 - b0))" -v t0="$t0" -v t1="$t1" \
			'BEGIN { printf "%.0f\n", b * 8 / (t1 - t0) }' > "$STATE/wire"
}

# incast CC N FILE: N senders, each with one message of INCAST_WRITES
# WRITEs, under CC, started together; their JSON results, one per line,
# in FILE, and the bytes the bottleneck sent meanwhile in $STATE/wire
# (nothing else crosses it towards hostB: the connections are up before
# the start). Non-zero unless every message completed whole.
incast() {
	local rc=0 b0 b1
	: > "$STATE/wire"
	MP_STREAM_WRITES=$INCAST_WRITES MP_STREAM_GO=later \
		mp_streams_start "$STATE" "$2" "$STEP_LIMIT" "$(profile_of "$1")"
	b0=$(wire_bytes)
	touch "$STATE/go"
	mp_streams_wait "$STATE" || rc=1
	b1=$(wire_bytes)
	mp_streams_ended_well $rc "$STATE" >&2
	cp "$STATE/results" "$3"
	[ -n "$b0" ] && [ -n "$b1" ] && echo $((b1 - b0)) > "$STATE/wire"
	[ $rc = 0 ] && [ "$(jq -s --argjson w $((INCAST_WRITES * MP_STREAM_SIZE)) \
		'map(select(.bytes == $w)) | length' "$3")" = "$2" ]
}

# tcp_flow SECS FILE [CC [N]]: N (1) iperf3 flows from hostA to hostB
# under TCP congestion control CC (cubic); their JSON in FILE. Both hosts
# default to CC meanwhile: DCTCP's receiver echoes each mark, not one per
# window.
tcp_flow() {
	local cc=${3:-cubic} n=${4:-1} s rc h
	for h in A B; do
		ip netns exec "host$h" sysctl -qw \
			net.ipv4.tcp_congestion_control="$cc" || return
	done
	ip netns exec hostB timeout $(($1 + 30)) iperf3 -s -1 -p 5201 > /dev/null 2>&1 &
	s=$!
	sleep 0.5
	ip netns exec hostA timeout $(($1 + 30)) iperf3 -c "$MP_B4" -p 5201 \
		-C "$cc" -P "$n" -t "$1" -J > "$2" 2> /dev/null
	rc=$?
	wait $s
	for h in A B; do
		ip netns exec "host$h" sysctl -qw \
			net.ipv4.tcp_congestion_control=cubic
	done
	return $rc
}

# read_stream CC: ib_read_bw for SECS from hostB (the requester), the data
# flowing from hostA; its average in MB/s on stdout. Timeout attribute as
# the streams' (MP_STREAM_TIMEOUT): at perftest's 14, 16 READs of 64 KiB
# queued behind 20 Mbit/s once went 134 ms without progress, and the run
# ended in IBV_WC_RETRY_EXC_ERR without any loss.
read_stream() {
	local p
	p=$(profile_of "$1")
	pair_start "$STEP_LIMIT" \
		env MRC_CC_PROFILE="$p" ib_read_bw -d mrcA -x "$GA4" -D "$SECS" -F \
		-u "$MP_STREAM_TIMEOUT" -- \
		env MRC_CC_PROFILE="$p" ib_read_bw -d mrcB -x "$GB4" -D "$SECS" -F \
		-u "$MP_STREAM_TIMEOUT" "$MP_A4"
	# pair_finish prints TAP; it waits for the pair, so not in a subshell.
	pair_finish "read" > "$STATE/read.tap"
	if grep -q '^not ok' "$STATE/read.tap"; then
		echo "cc bench: ib_read_bw failed:" >&2
		cat "$STATE/read.tap" >&2
		return 1
	fi
	awk '/^ *65536 / { print $4 }' /tmp/cli.log | tail -n1
}

# read_figure CC: read_stream's figure, above 0. perftest's clock
# calibration fails now and then under TCG (a correlation below 0.9):
# the traffic ran, but the figure printed is 0. That sample runs again,
# twice at most, its counters taken afresh; any other failure is final.
read_figure() {
	local try mb
	for try in 1 2 3; do
		mb=$(read_stream "$1") || return
		if awk -v v="$mb" 'BEGIN { exit !(v > 0) }'; then
			echo "$mb"
			return 0
		fi
		grep -q 'Correlation coefficient' /tmp/cli.log /tmp/srv.log ||
			break
		echo "# cc: perftest's clock calibration failed (try $try of 3)" >&2
		dmesg -C
		losses > "$STATE/losses"
	done
	echo "cc bench: ib_read_bw printed no figure" >&2
	return 1
}

# LOSSES: the loss detectors' device counters (both hosts summed; 0 for
# one an older module, run for an A/B comparison, does not have).
LOSSES="path_loss_gap path_loss_sack path_loss_read path_loss_timeout path_loss_probe"

# losses: the LOSSES counters now, as a JSON object.
losses() {
	local c d v
	for c in $LOSSES; do
		v=0
		for d in mrcA mrcB; do
			v=$((v + $(cat "/sys/class/infiniband/$d/ports/1/hw_counters/$c" 2>/dev/null || echo 0)))
		done
		echo "\"$c\": $v"
	done | paste -sd, | sed 's/^/{/; s/$/}/'
}

# record K METRIC CC QUEUE REP EXTRA_JSON: the step's "@cc" line; the
# loss counters' moves since run_step's $STATE/losses.
record() {
	jq -cn --argjson k "$1" --arg metric "$2" --arg cc "$3" --arg queue "$4" \
		--argjson rep "$5" --argjson extra "$6" --arg rate "$RATE" \
		--argjson secs "$SECS" --argjson rtos "$(dmesg | grep -c 'mrc: qp [0-9]* rto:')" \
		--argjson spurious "$(dmesg | grep -c 'mrc: qp [0-9]* rto spurious:')" \
		--argjson l0 "$(cat "$STATE/losses")" --argjson l1 "$(losses)" \
		'{step: $k, metric: $metric, cc: $cc, queue: $queue, rep: $rep,
		  rate: $rate, secs: $secs, rto_events: $rtos,
		  rto_spurious: $spurious,
		  losses: ($l1 | with_entries(.value -= $l0[.key]))} + $extra' |
		sed 's/^/@cc /'
}

# run_step K METRIC CC QUEUE ARG REP: one step; prints its "@cc" line.
run_step() {
	local k=$1 metric=$2 cc=$3 q=$4 arg=$5 rep=$6 f=$STATE/streams t=$STATE/tcp
	local extra=null mb
	dmesg -C
	losses > "$STATE/losses"
	case $metric in
	cc_loss)
		queue plain && { [ "$arg" = 0 ] || mp_path_loss 1 "$arg"; } || return
		case $cc in
		tcp) tcp_flow "$SECS" "$t" &&
			extra=$(jq -c --argjson l "$arg" '{loss: $l, op: "tcp",
				goodput_mbit: (.end.sum_received.bits_per_second / 1e6)}' "$t") ;;
		window-read | nscc-read | nscc-link-read)
			mb=$(read_figure "${cc%-read}")
			[ -n "$mb" ] && extra=$(jq -cn --argjson l "$arg" --argjson mb "$mb" \
				'{loss: $l, op: "read", goodput_mbit: ($mb * 8.388608)}')
			cc=${cc%-read} ;;
		*) streams "$cc" 1 "$f" &&
			extra=$(jq -cs --argjson l "$arg" '{loss: $l, op: "write",
				goodput_mbit: .[0].goodput_mbit, bytes: .[0].bytes}' "$f") ;;
		esac ;;
	cc_incast)
		queue "$q" || return
		if [ "$cc" = tcp ]; then
			tcp_flow "$SECS" "$t" dctcp "$arg" & local tp=$!
			wire_middle
			wait $tp &&
				extra=$(jq -c --argjson n "$arg" --arg wire "$(cat "$STATE/wire")" \
					'{streams: $n, tcp_cc: "dctcp",
					  wire_bps: ($wire | tonumber? // null)}' "$t")
		else
			incast "$cc" "$arg" "$f" &&
				extra=$(jq -cs --argjson n "$arg" --arg wire "$(cat "$STATE/wire")" \
					--argjson m $((INCAST_WRITES * MP_STREAM_SIZE)) \
					'{streams: $n, message_bytes: $m,
					  wire_bytes: ($wire | tonumber? // null),
					  results: map({bytes, seconds, start_realtime,
							goodput_mbit})}' "$f")
		fi ;;
	cc_fair)
		queue "$q" && streams "$cc" "$arg" "$f" &&
			extra=$(jq -cs --argjson n "$arg" --arg wire "$(cat "$STATE/wire")" \
				'{streams: $n, wire_bps: ($wire | tonumber? // null),
				  results: map({bytes, goodput_mbit, start_realtime, bins_mbit})}' "$f") ;;
	cc_tcp)
		queue "$q" || return
		streams "$cc" 1 "$f" & local sp=$!
		tcp_flow "$SECS" "$t" "$arg"
		wait $sp &&
			extra=$(jq -c --slurpfile s "$f" --arg tcp "$arg" '{tcp_cc: $tcp,
				tcp_mbit: (.end.sum_received.bits_per_second / 1e6),
				mrc_mbit: $s[0].goodput_mbit}' "$t") ;;
	esac
	record "$k" "$metric" "$cc" "$q" "$rep" "$extra"
	[ "$extra" != null ]
}

modprobe mrc && modprobe sch_mrc_trim limit=16 dscp=11 || exit 1
# A namespace may default to an algorithm only once the initial one
# allows it (otherwise EPERM).
for t in ${TCPS//,/ }; do
	[ "$t" = cubic ] && continue
	modprobe "tcp_$t" || exit 1
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$(
		sysctl -n net.ipv4.tcp_allowed_congestion_control) $t" || exit 1
done
echo 11 > /sys/module/mrc/parameters/trim_dscp
echo 'format "rto: una" +p' > /sys/kernel/debug/dynamic_debug/control
echo 'format "rto spurious" +p' > /sys/kernel/debug/dynamic_debug/control
if ! mp_topology 1 "$RATE"; then
	echo "cc bench: the topology did not come up" >&2
	exit 1
fi
# nscc_link: profile 6's parameters, as admin-guide.rst says: base-rtt
# and target-delay the path's idle round trip (the least of 16 mrc-ip
# probes, in 100 us steps), max-cwnd 1.5 times the bottleneck's
# bandwidth-delay product (at least 4 packets), and a = BDP / 150000 B
# scaling fi (5 MTU a), eta (0.15 MTU a) and fi-scale (a / 4) as
# mrc_nscc_default_params() does for its 256 KiB. A packet is the
# segment of the path's 1500-byte IPv4 links, 1408 bytes, which NSCC
# counts per PSN (wire-format.rst, "Payload length").
nscc_link() {
	ip netns exec hostA mrc-ip -j probe dev mrcA to "::ffff:$MP_B4" \
		ev 4000 count 16 | python3 -c '
import json, math, sys
sys.path.insert(0, ".")
import mp_summary
rtts = [p["rtt"] for p in json.load(sys.stdin) if p["result"] == "ok"]
base = max(1, math.ceil(min(rtts) / 1e5)) * 100
bdp = mp_summary.rate_mbit(sys.argv[1]) * 1e6 / 8 * base * 1e-6
seg = 1408
cwnd = max(int(1.5 * bdp), 4 * seg)
a = cwnd / 1.5 / 150000
print(f"base-rtt {base}us target-delay {base}us adjust-period {base}us"
      f" qa-threshold {4 * base}us max-cwnd {cwnd} fi {5 * seg * a:.3f}"
      f" eta {0.15 * seg * a:.3f} fi-scale {a / 4:.6f}")' "$RATE"
}
link=$(nscc_link) || exit 1
echo "# cc: nscc-link (CC profile 6): $link"
for h in A B; do
	ip netns exec "host$h" mrc-ip ccprofile add dev "mrc$h" id 5 \
		alg uet-1.0-nscc access open || exit 1
	# shellcheck disable=SC2086 # $link is a list of words
	ip netns exec "host$h" mrc-ip ccprofile add dev "mrc$h" id 6 \
		alg uet-1.0-nscc $link access open || exit 1
done
echo "# cc: one path of $RATE (tbf burst $MP_TBF_BURST); $(nproc) vCPUs;" \
	"$MP_STREAM_SIZE-byte WRITEs, $MP_STREAM_DEPTH outstanding per stream; queues $QUEUES;" \
	"TCP beside MRC: $TCPS; incast messages of $INCAST_WRITES WRITEs"

steps=()
for ((r = 1; r <= REPS; r++)); do
	for m in ${METRICS//,/ }; do
		case $m in
		cc_loss)
			for l in 0 1 2; do
				# shellcheck disable=SC2086 # a list of words
				for v in ${ALGS//,/ } $(printf '%s-read ' ${ALGS//,/ }) \
					tcp; do
					steps+=("$m $v - $l $r")
				done
			done ;;
		cc_fair)
			for q in ${QUEUES//,/ }; do
				for n in 2 4; do
					for v in ${ALGS//,/ }; do
						steps+=("$m $v $q $n $r")
					done
				done
			done ;;
		cc_tcp)
			for q in ${QUEUES//,/ }; do
				for t in ${TCPS//,/ }; do
					for v in ${ALGS//,/ }; do
						steps+=("$m $v $q $t $r")
					done
				done
			done ;;
		cc_incast)
			for q in ${QUEUES//,/ }; do
				for v in ${ALGS//,/ } tcp; do
					steps+=("$m $v $q 8 $r")
				done
			done ;;
		esac
	done
done
run_steps cc
mp_teardown
echo "# cc: ${#steps[@]} steps, $FAILS without a figure"
[ "$FAILS" -lt "${#steps[@]}" ]
