# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash
# The SRv6 benchmarks (the srv6_* metrics), run by bench.sh in one VM of
# 2 vCPUs: srv6_fabric.sh's fabric (2 planes of 4 spines by default), a
# GENERATED uSID profile over every spine on both hosts (each its
# device's default, so answers cross the spine of the EV they answer),
# and one mrc-stream run (RDMA WRITEs over one RC QP) from hostA to hostB
# per step:
#
#   srv6_bw    every spine shaped to RATE: goodput against the shaped
#              capacity (spines * RATE), and how busy the CPUs were
#   srv6_fail  the same, and spine 0:2's links go down FAIL_AT s in:
#              goodput from 1 s after against the remaining capacity,
#              and the longest gap between completions
#   srv6_cpu   unshaped, the CPUs the limit: CPU time per payload byte,
#              over the SRv6 profile ("srv6") and over the UDP format
#              ("udp": EV profile 0, the hosts' plain IPv6 route through
#              spine 0:0, the same three routers with no SRv6), in turn
#
# Each step prints its line and an "@srv6 {JSON}" line, which
# srv6_summary.py turns into the SRv6 table. The fabric's links have MTU
# FAB_MTU (9000: 4096-byte payloads fit with the outer header).

. ../vm/lib.sh
. ../vm/mp_lib.sh
. ../vm/srv6_fabric.sh
. ./guest.sh

REPS=$(barg reps)
REPS=${REPS:-3}
METRICS=$(barg metrics)
METRICS=${METRICS:-srv6_bw,srv6_fail,srv6_cpu}
PLANES=$(barg srv6planes)
PLANES=${PLANES:-2}
SPINES=$(barg srv6spines)
SPINES=${SPINES:-4}
RATE=$(barg srv6rate)		# tbf rate of each spine, tc units
RATE=${RATE:-10mbit}
SECS=$(barg srv6secs)		# seconds of each run (srv6_fail: + FAIL_AT)
SECS=${SECS:-10}
export FAB_MTU
FAB_MTU=$(barg srv6mtu)
FAB_MTU=${FAB_MTU:-9000}
SIZE=65536			# bytes per RDMA WRITE
DEPTH=16			# WRITEs outstanding
TIMEOUT=14			# QP timeout attribute (perftest's default)
FAIL_AT=5
PORT=21000
STREAM=$MRC_BUILD/selftests/progs/mrc-stream
STEP_LIMIT=$((SECS + FAIL_AT + 90))
STATE=/run/srv6-bench
mkdir -p "$STATE"

# ns_run H CMD...: CMD in host H's namespace.
ns_run() {
	local h=$1
	shift
	ip netns exec "host$h" "$@"
}

# hosts_up: the fabric, an MRC device on each host's gid0 and the
# profiles; sets GA and GB. The hosts' plain route is fab_plain's (the
# udp step's).
hosts_up() {
	fab_up "$PLANES" "$SPINES" "$RATE" && fab_plain 0 0 && fab_mrc_up &&
	fab_mrc_profile A 7 0 $((PLANES * SPINES - 1)) &&
	fab_mrc_profile B 7 0 $((PLANES * SPINES - 1)) || return
	GA=$FAB_GA GB=$FAB_GB
}

# use_profile ID: both devices' default EV profile.
use_profile() {
	ns_run A mrc-ip dev set mrcA evprofile "$1" &&
	ns_run B mrc-ip dev set mrcB evprofile "$1"
}

# run_step K METRIC VARIANT REP: one mrc-stream run; prints the step's
# "@srv6" line. Non-zero when it gave no figure.
run_step() {
	local k=$1 metric=$2 variant=$3 rep=$4 secs=$SECS event=null spid pid
	local t0 c0 c1 rc qp='[]' json
	case $variant in
	srv6) use_profile 7 ;;
	udp) use_profile 0 ;;
	esac || return
	[ "$metric" = srv6_fail ] && secs=$((SECS + FAIL_AT))
	ns_run B timeout -k 5 "$STEP_LIMIT" "$STREAM" server --dev mrcB --gid "$GB" \
		--port $((PORT + k)) --size $SIZE --outstanding $DEPTH \
		--timeout $TIMEOUT --wait-s "$STEP_LIMIT" > /dev/null 2> "$STATE/server.err" &
	spid=$!
	c0=$(cpu_ticks)
	ns_run A timeout -k 5 "$STEP_LIMIT" "$STREAM" client --dev mrcA --gid "$GA" \
		--host "$FAB_MGMT_B4" --port $((PORT + k)) --size $SIZE \
		--outstanding $DEPTH --timeout $TIMEOUT --seconds "$secs" \
		--connect-wait-s 60 > "$STATE/out" 2> "$STATE/err" &
	pid=$!
	if mp_stream_started $pid "$STATE/err" "$STEP_LIMIT"; then
		t0=$EPOCHREALTIME
		if [ "$metric" = srv6_fail ]; then
			sleep "$FAIL_AT"
			fab_spine_down 0 2
			event=$EPOCHREALTIME
		fi
		# Near the end, while the QP still exists.
		sleep "$(awk -v s="$secs" -v t0="$t0" -v now="$EPOCHREALTIME" '
			BEGIN { d = s - 1.5 - (now - t0); print (d > 0 ? d : 0) }')"
		qp=$(ns_run A rdma -j -dd res show qp link mrcA/1 2>/dev/null)
	fi
	wait $pid
	rc=$?
	c1=$(cpu_ticks)
	wait $spid
	[ "$metric" = srv6_fail ] && fab_spine_up 0 2
	json=$(jq -ce 'select(.bytes != null)' "$STATE/out" 2>/dev/null)
	[ "$rc" -eq 0 ] || json=
	jq -cn --argjson k "$k" --arg metric "$metric" --arg variant "$variant" \
		--argjson rep "$rep" --argjson rc "$rc" \
		--argjson stream "${json:-null}" --argjson event "$event" \
		--arg cpu "$c0 $c1" --argjson qp "$(mp_qp_attrs_parse <<<"$qp")" \
		--arg error "$(grep -v '^mrc-stream client: streaming' "$STATE/err" | tail -n 1)" \
		--argjson hz "$(getconf CLK_TCK)" --argjson ncpu "$(nproc)" \
		--arg rate "$RATE" --argjson spines $((PLANES * SPINES)) \
		'($cpu | split(" ") | map(tonumber)) as $c |
		 {step: $k, metric: $metric, variant: $variant, rep: $rep, rc: $rc,
		  error: (if $stream == null then $error else null end),
		  event_realtime: $event, stream: $stream, qp: $qp,
		  rate: $rate, spines: $spines,
		  cpu_busy_s: (($c[3] - $c[0]) / $hz),
		  cpu_total_s: (($c[5] - $c[2]) / $hz), cpus: $ncpu}' |
		sed 's/^/@srv6 /'
	[ -n "$json" ]
}

modprobe mrc || exit 1
if ! hosts_up; then
	echo "srv6 bench: the fabric did not come up" >&2
	fab_down
	exit 1
fi
# Count MRC's retransmission timeouts: its pr_debug line for each.
echo 'format "rto: una" +p' > /sys/kernel/debug/dynamic_debug/control
echo "# srv6: $PLANES x $SPINES spines of $RATE, MTU $FAB_MTU; $(nproc) vCPUs;" \
	"one QP, $SIZE-byte WRITEs, $DEPTH outstanding"

steps=()
for ((r = 1; r <= REPS; r++)); do
	for m in ${METRICS//,/ }; do
		case $m in
		srv6_bw | srv6_fail) steps+=("$m srv6 $r") ;;
		srv6_cpu) steps+=("$m srv6 $r" "$m udp $r") ;;
		esac
	done
done
n=${#steps[@]}
k=0
fails=0
for s in "${steps[@]}"; do
	read -r m v r <<<"$s"
	k=$((k + 1))
	case $m in
	srv6_cpu) fab_rate none ;;
	*) fab_rate "$RATE" ;;
	esac
	dmesg -C
	line=$(run_step "$k" "$m" "$v" "$r") || fails=$((fails + 1))
	rtos=$(dmesg | grep -c 'mrc: qp [0-9]* rto:')
	line=$(jq -c --argjson rtos "$rtos" '. + {rto_events: $rtos}' <<<"${line#@srv6 }")
	echo "[$k/$n] $m $v rep $r: $(python3 ./srv6_summary.py --line <<<"$line")"
	echo "@srv6 $line"
done
fab_down
echo "# srv6: $n steps, $fails without a figure"
[ "$fails" -lt "$n" ]
