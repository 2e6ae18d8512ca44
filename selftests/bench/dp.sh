# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash
# The data-path benchmarks (the dp_* metrics), run by bench.sh in one VM
# of 2 vCPUs: namespaces hostA and hostB joined by one veth pair (lib.sh's
# two_hosts), an MRC device on each end, no shaping: the link is the veth
# (rdma_rxe, for the *rxe metrics, has a veth pair of its own: rxe_hosts).
# Data flows from hostA to hostB; the metrics alternate in each repetition:
#
#   dp_tcp      iperf3, one TCP stream, SECS seconds
#   dp_tcp4     the same with 4 streams (-P 4), their sum
#   dp_write    ib_write_bw over one MRC RC QP, 64 KiB WRITEs, -D SECS
#   dp_write4   the same over 4 QPs (-q 4)
#   dp_write_copy  dp_write with the module's tx_zerocopy off: every
#               packet's payload copied, as before zero-copy transmit
#   dp_write_e  dp_write waiting on completion events, not polling: perftest
#               refuses -e on WRITE, so mrc-stream (events are its default)
#               at perftest's depth, 128 WRITEs outstanding
#   dp_rxe      dp_write over rdma_rxe devices (rxeA, rxeB)
#   dp_lat_write      ib_write_lat over MRC, 2-byte messages, -n LAT_ITERS
#   dp_lat_send       ib_send_lat over MRC, the same
#   dp_lat_write_rxe  ib_write_lat over rxe, the same
#
# For each sample: the goodput the tool reports, and the whole VM's CPU
# time (/proc/stat) per byte moved, kernel (system, irq, softirq) and busy
# (everything but idle and iowait: perftest polls in user space). The CPU
# is read over the middle of the transfer, from 1 s after the data starts
# (seen on the veth) to 1 s before it ends, which is also the window
# perftest's rate covers (-f 1); the bytes are the tool's rate times that
# window. Should the start not be seen, the CPU is read over the client's
# whole run and the record says "whole". A latency sample (dp_lat_*)
# records perftest's typical (median) and 99% latency instead, no CPU.
# Each sample prints its line and an "@dp {JSON}" line, which
# dp_summary.py turns into the tables. With bench.perf=1 each transfer
# is also profiled, from before its start to its end (perf takes
# seconds to start under TCG), and its folded stacks go out as "@fold"
# lines for a flame graph; perf's own cost is then in the figures.

. ../vm/lib.sh
. ./guest.sh

REPS=$(barg reps)
REPS=${REPS:-3}
METRICS=$(barg metrics)
METRICS=${METRICS:-dp_tcp,dp_tcp4,dp_write,dp_write_copy,dp_write4,dp_write_e,dp_rxe,dp_lat_write,dp_lat_send,dp_lat_write_rxe}
SECS=$(barg dpsecs)		# seconds of each transfer
SECS=${SECS:-5}
# perftest wants -D above twice its margin, and the window needs 1 s.
if [ "$SECS" -lt 3 ]; then
	echo "dp bench: each sample needs at least 3 s (bench.dpsecs=$SECS)" >&2
	exit 1
fi
# 1: the server on vCPU 1 and the client on vCPU 0, for every metric, as
# a tuned host gives each busy program a CPU; else the scheduler's choice
# at connection time decides whether both ends (and MRC's QPs, homed
# where their programs run) share a vCPU, and the samples are bimodal.
PIN=$(barg dppin)
PIN=${PIN:-1}
SIZE=65536			# bytes per RDMA WRITE
DEPTH=128			# WRITEs outstanding (perftest's TX depth)
STREAM=$MRC_BUILD/selftests/progs/mrc-stream
LAT_ITERS=$(barg dplatiters)	# exchanges of each latency sample
LAT_ITERS=${LAT_ITERS:-5000}
PORT=22000
STEP_LIMIT=$((SECS + 90))
STATE=/run/dp-bench
mkdir -p "$STATE"

# Nothing of this script may start a process inside the window: the
# readings below use builtins only, and it naps (guest.sh).
nap_init "$STATE"

# wire: WIRE=bytes $WIRE_IF has sent, read from $WIRE_NET (the
# /proc/PID/net/dev of a process in its namespace). /proc/net/dev may
# run a long count into the colon: split there.
wire() {
	local line f
	WIRE=
	while read -r line; do
		[[ $line == "$WIRE_IF":* ]] || continue
		read -ra f <<<"${line#*:}"
		WIRE=${f[8]}
	done < "$WIRE_NET"
}

# counters DEV: DEV's port counters as "NAME VALUE" lines.
counters() {
	local f v
	for f in /sys/class/infiniband/"$1"/ports/1/hw_counters/*; do
		read -r v < "$f" && echo "${f##*/} $v"
	done
}

# moved BEFORE AFTER: the counters that moved, as a JSON object.
moved() {
	printf '%s\n--\n%s\n' "$1" "$2" | awk '
		BEGIN { printf "{" }
		$0 == "--" { after = 1; next }
		NF != 2 { next }
		!after { b[$1] = $2; next }
		$2 != b[$1] { printf "%s\"%s\": %d", sep, $1, $2 - b[$1]; sep = ", " }
		END { print "}" }'
}

# started PID: wait until PID has put a first 256 KiB on the veth; T0 is
# that moment (microseconds). Non-zero if PID ended or STEP_LIMIT passed.
started() {
	local w0 end=$((SECONDS + STEP_LIMIT))
	wire
	w0=$WIRE
	while kill -0 "$1" 2>/dev/null && [ $SECONDS -lt $end ]; do
		wire
		if [ $((WIRE - w0)) -gt 262144 ]; then
			T0=${EPOCHREALTIME/./}
			return 0
		fi
		nap_until $((${EPOCHREALTIME/./} + 50000))
	done
	return 1
}

# rate METRIC: the client's goodput in bytes per second, empty if none.
rate() {
	case $1 in
	dp_tcp | dp_tcp4) jq -er 'select(.error == null)
		| .end.sum_received.bits_per_second | select(. > 0) | . / 8' \
		"$STATE/out" 2>/dev/null ;;
	# mrc-stream: the mean of its 100 ms bins from 1 s to SECS - 1 s of
	# its run, the window perftest's -f 1 averages over.
	dp_write_e) jq -er --argjson secs "$SECS" '(1000 / .bin_ms | floor) as $n
		| .bins_mbit[$n:($secs - 1) * $n]
		| select(length == ($secs - 2) * $n) | add / length * 1e6 / 8
		| select(. > 0) | floor' "$STATE/out" 2>/dev/null ;;
	# perftest's "BW average[MB/sec]" is MiB/s; 0 is its clock calibration
	# failing under TCG, not a measurement.
	*) awk '$1 == 65536 && NF >= 5 { v = $4 }
		END { if (v + 0 > 0) printf "%.0f\n", v * 1048576 }' "$STATE/out" ;;
	esac
}

# latency: the client's "TYPICAL P99" usec, P99 "null" if perftest has no
# such column; empty if no typical figure (a failed calibration prints
# inf or nan). The header names the columns; "99% percentile[usec]" is
# two words of it and one column.
latency() {
	awk 'function num(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ }
		/t_typical/ {
			n = 0
			for (i = 1; i <= NF; i++)
				if ($i != "percentile[usec]") col[$i] = ++n
			next
		}
		n && $1 == 2 && NF == n { typ = $col["t_typical[usec]"]
			p99 = ("99%" in col) ? $col["99%"] : "" }
		END { if (num(typ) && typ > 0)
			print typ, (num(p99) ? p99 : "null") }' "$STATE/out"
}

# why RC: one line saying why the client gave no figure.
why() {
	local line
	case $1 in 124 | 137) echo "timed out after ${STEP_LIMIT}s"; return ;; esac
	line=$(cat "$STATE/err" "$STATE/out" "$STATE/srv.err" 2>/dev/null |
		grep -m1 -oE 'Failed status [0-9]+.*|"error":.*|Couldn.t [^:]*|Unable [^:]*|Correlation coefficient r\^2: [0-9.]+|mrc-stream [a-z]+ on .*')
	echo "${line:-exit status $1, no figure in the output}" | tr -d '"'
}

# step METRIC PORT: the sample's server and client commands (SRV, CLI),
# the namespaces they run in (NS_B, NS_A; empty: the initial one), the
# RDMA devices whose counters it records (DEV_A, DEV_B; none for TCP)
# and where the data leaves (WIRE_IF read from WIRE_NET). Non-zero for
# an unknown metric or one whose devices are missing, STEP_ERR saying so.
# ZC: the mrc module's tx_zerocopy for the sample.
step() {
	local metric=$1 port=$2 opts=() ga=$GA4 gb=$GB4 dst=10.0.0.2 tool
	NS_A=hostA NS_B=hostB DEV_A=mrcA DEV_B=mrcB ZC=Y
	WIRE_IF=vethA WIRE_NET=/proc/$HOLDER/net/dev
	case $metric in
	*rxe*)
		if [ -n "$RXE_ERR" ]; then
			STEP_ERR=$RXE_ERR
			return 1
		fi
		NS_A=$RXE_NS_A NS_B=$RXE_NS_B DEV_A=rxeA DEV_B=rxeB
		ga=$RA4 gb=$RB4 dst=$RXE_DST
		WIRE_IF=$RXE_IF WIRE_NET=$RXE_NET ;;
	esac
	case $metric in
	dp_tcp | dp_tcp4)
		DEV_A='' DEV_B=''
		SRV=(iperf3 -s -1 -p "$port")
		CLI=(iperf3 -c 10.0.0.2 -p "$port" -t "$SECS" -J)
		if [ "$metric" = dp_tcp4 ]; then CLI+=(-P 4); fi ;;
	dp_write | dp_write4 | dp_write_copy | dp_rxe)
		# -f 1: perftest's rate covers [1 s, SECS - 1 s], as the CPU does.
		opts=(-s "$SIZE" -D "$SECS" -f 1 -F -p "$port")
		[ "$metric" = dp_write_copy ] && ZC=N
		[ "$metric" = dp_write4 ] && opts+=(-q 4)
		SRV=(ib_write_bw -d "$DEV_B" -x "$gb" "${opts[@]}")
		CLI=(ib_write_bw -d "$DEV_A" -x "$ga" "${opts[@]}" "$dst") ;;
	dp_write_e)
		# perftest says "Events feature not available on WRITE verb".
		opts=(--size "$SIZE" --outstanding "$DEPTH" --port "$port")
		SRV=("$STREAM" server --dev "$DEV_B" --gid "$gb" "${opts[@]}")
		CLI=("$STREAM" client --dev "$DEV_A" --gid "$ga" --host "$dst"
			--seconds "$SECS" "${opts[@]}") ;;
	dp_lat_write | dp_lat_send | dp_lat_write_rxe)
		tool=ib_write_lat
		[ "$metric" = dp_lat_send ] && tool=ib_send_lat
		opts=(-s 2 -n "$LAT_ITERS" -F -p "$port")
		SRV=("$tool" -d "$DEV_B" -x "$gb" "${opts[@]}")
		CLI=("$tool" -d "$DEV_A" -x "$ga" "${opts[@]}" "$dst") ;;
	*) STEP_ERR="unknown metric $metric"; return 1 ;;
	esac
	if [ "$PIN" = 1 ]; then
		SRV=(taskset -c 1 "${SRV[@]}")
		CLI=(taskset -c 0 "${CLI[@]}")
	fi
	return 0
}

# listening NS PORT: something listens on TCP PORT in namespace NS.
listening() {
	_in_ns "$1" ss -Hltn "sport = :$2" | grep -q .
}

# serve: starts the server of the step (SRV, as step set it) and waits
# until it listens; SPID is its process. Then CNT0A, CNT0B: the devices'
# counters before the sample.
serve() {
	rm -f "$STATE"/{out,err,srv.out,srv.err}
	_in_ns "$NS_B" timeout -k 5 "$STEP_LIMIT" "${SRV[@]}" \
		< /dev/null > "$STATE/srv.out" 2> "$STATE/srv.err" &
	SPID=$!
	wait_until 30 listening "$NS_B" "$1"
	CNT0A='' CNT0B=''
	if [ -n "$DEV_A" ]; then
		CNT0A=$(counters "$DEV_A") CNT0B=$(counters "$DEV_B")
	fi
}

# moved_json: the devices' counters that moved since serve, as a JSON
# object keyed by device ("null" for TCP).
moved_json() {
	if [ -z "$DEV_A" ]; then
		echo null
		return
	fi
	jq -cn --arg da "$DEV_A" --arg db "$DEV_B" \
		--argjson a "$(moved "$CNT0A" "$(counters "$DEV_A")")" \
		--argjson b "$(moved "$CNT0B" "$(counters "$DEV_B")")" \
		'{($da): $a, ($db): $b}'
}

# failed K METRIC REP WHY: the record of a sample that could not run.
failed() {
	jq -cn --argjson k "$1" --arg metric "$2" --argjson rep "$3" \
		--arg error "$4" \
		'{step: $k, metric: $metric, rep: $rep, rc: null, error: $error}' |
		sed 's/^/@dp /'
	return 1
}

# run_lat K METRIC REP: one latency sample; prints its "@dp" line.
# Non-zero when it gave no figure.
run_lat() {
	local k=$1 metric=$2 rep=$3 rc src lat typ p99 ctr t0 t1
	serve $((PORT + k))
	t0=${EPOCHREALTIME/./}
	_in_ns "$NS_A" timeout -k 5 "$STEP_LIMIT" "${CLI[@]}" \
		< /dev/null > "$STATE/out" 2> "$STATE/err"
	rc=$?
	t1=${EPOCHREALTIME/./}
	wait $SPID
	src=$?
	ctr=$(moved_json)
	lat=
	[ $rc -eq 0 ] && lat=$(latency)
	read -r typ p99 <<<"${lat:-null null}"
	jq -cn --argjson k "$k" --arg metric "$metric" --argjson rep "$rep" \
		--argjson rc "$rc" --argjson src "$src" \
		--arg error "$([ -n "$lat" ] || why $rc)" \
		--argjson typ "$typ" --argjson p99 "$p99" \
		--argjson iters "$LAT_ITERS" --argjson us "$((t1 - t0))" \
		--argjson counters "$ctr" \
		'{step: $k, metric: $metric, rep: $rep, rc: $rc, server_rc: $src,
		  error: (if $typ == null then $error else null end),
		  size: 2, iters: $iters, client_s: ($us / 1e6),
		  lat_typical_us: $typ, lat_99_us: $p99, counters: $counters}' |
		sed 's/^/@dp /'
	[ -n "$lat" ]
}

# run_step K METRIC REP: one sample; prints its "@dp" line. Non-zero when
# it gave no figure.
run_step() {
	local k=$1 metric=$2 rep=$3 pid rc c0 c1 ca cb ta tb wa wb window=whole
	local e0 e1 ea eb ctr bps src
	if ! step "$metric" $((PORT + k)); then
		failed "$k" "$metric" "$rep" "$STEP_ERR"
		return
	fi
	echo "$ZC" > /sys/module/mrc/parameters/tx_zerocopy
	case $metric in
	dp_lat_*) run_lat "$@"; return ;;
	esac
	serve $((PORT + k))
	# Its lines go to the console: what this prints on stdout is the record.
	perf_start >&2
	ticks
	c0=$CPU_TICKS e0=$CPU_EACH
	_in_ns "$NS_A" timeout -k 5 "$STEP_LIMIT" "${CLI[@]}" \
		< /dev/null > "$STATE/out" 2> "$STATE/err" &
	pid=$!
	if started $pid; then
		nap_until $((T0 + 1000000))
		ticks; wire
		ca=$CPU_TICKS ea=$CPU_EACH ta=${EPOCHREALTIME/./} wa=$WIRE
		nap_until $((T0 + (SECS - 1) * 1000000))
		ticks; wire
		cb=$CPU_TICKS eb=$CPU_EACH tb=${EPOCHREALTIME/./} wb=$WIRE
		# Still sending at the window's end: it lay within the transfer.
		kill -0 $pid 2>/dev/null && window=middle
	fi
	wait $pid
	rc=$?
	ticks
	c1=$CPU_TICKS e1=$CPU_EACH
	if [ $window = whole ]; then
		# The client's whole run, its connection set-up included.
		ca=$c0 cb=$c1 ea=$e0 eb=$e1 ta=0 tb=$((SECS * 1000000)) wa=0 wb=0
	fi
	wait $SPID
	src=$?
	perf_stop "$k $metric rep $rep" >&2
	ctr=$(moved_json)
	bps=
	[ $rc -eq 0 ] && bps=$(rate "$metric")
	jq -cn --argjson k "$k" --arg metric "$metric" --argjson rep "$rep" \
		--argjson rc "$rc" --argjson src "$src" --arg error "$([ -n "$bps" ] || why $rc)" \
		--argjson bps "${bps:-null}" --argjson secs "$SECS" \
		--arg window "$window" --argjson us "$((tb - ta))" \
		--arg cpu "$ca $cb" --arg each "$ea|$eb" --argjson wire $((wb - wa)) \
		--argjson hz "$(getconf CLK_TCK)" --argjson ncpu "$(nproc)" \
		--argjson counters "$ctr" \
		'($cpu | split(" ") | map(tonumber)) as $c |
		 ($each | split("|") | map(split(" ") | map(select(. != "")
			| split(",") | map(tonumber)))) as $e |
		 {step: $k, metric: $metric, rep: $rep, rc: $rc, server_rc: $src,
		  error: (if $bps == null then $error else null end),
		  secs: $secs, goodput_Bps: $bps, window: $window,
		  window_s: ($us / 1e6),
		  wire_Bps: (if $window == "middle" then $wire / ($us / 1e6) else null end),
		  busy_s: (($c[3] - $c[0]) / $hz), kernel_s: (($c[4] - $c[1]) / $hz),
		  total_s: (($c[5] - $c[2]) / $hz), cpus: $ncpu,
		  busy_share_each: [range($e[0] | length) as $i |
			($e[1][$i][1] - $e[0][$i][1]) as $t |
			if $t > 0 then ($e[1][$i][0] - $e[0][$i][0]) / $t else null end],
		  counters: $counters}' | sed 's/^/@dp /'
	[ -n "$bps" ]
}

# rxe_hosts: rdma_rxe devices rxeA and rxeB for the *rxe* metrics, with
# RA4 and RB4 their IPv4 GID indexes, and where step finds them (RXE_*);
# RXE_ERR says why there are none. rxe in Linux 6.1 has its UDP socket
# and routes its packets in the initial namespace only (rxe_net.c uses
# init_net): on hostA's and hostB's veth its devices come up, but the
# first WRITE completes with an error (status 2). So they sit on a veth
# pair of their own in the initial namespace, vethRA (10.0.0.1) and
# vethRB (10.0.0.2) as veth_pair makes them, and policy routing sends
# what one address sends to the other out of the veth, not through lo:
# rules ahead of the local table for locally sent packets (iif lo), the
# local table after them for what arrives. Arriving packets come from an
# address of this host: accept_local, no rp_filter.
rxe_hosts() {
	local ma mb
	RXE_NS_A='' RXE_NS_B='' RXE_DST=10.0.0.2
	RXE_IF=vethRA RXE_NET=/proc/$$/net/dev RXE_ERR=''
	if ! modprobe rdma_rxe; then
		RXE_ERR="modprobe rdma_rxe failed"
		return 1
	fi
	veth_pair vethRA vethRB
	sysctl -qw net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.vethRA.rp_filter=0 net.ipv4.conf.vethRB.rp_filter=0 \
		net.ipv4.conf.vethRA.accept_local=1 net.ipv4.conf.vethRB.accept_local=1
	read -r ma < /sys/class/net/vethRA/address
	read -r mb < /sys/class/net/vethRB/address
	ip neigh replace 10.0.0.2 lladdr "$mb" dev vethRA nud permanent
	ip neigh replace 10.0.0.1 lladdr "$ma" dev vethRB nud permanent
	ip route add 10.0.0.2 dev vethRA src 10.0.0.1 table 101
	ip route add 10.0.0.1 dev vethRB src 10.0.0.2 table 102
	ip rule add pref 10 iif lo to 10.0.0.2 lookup 101
	ip rule add pref 11 iif lo to 10.0.0.1 lookup 102
	ip rule add pref 100 lookup local
	ip rule del pref 0 lookup local
	if ! rdma link add rxeA type rxe netdev vethRA ||
	   ! rdma link add rxeB type rxe netdev vethRB; then
		RXE_ERR="rdma link add of the rxe devices failed"
		return 1
	fi
	RA4=$(gid_index rxeA '::ffff:10\.0\.0\.1')
	RB4=$(gid_index rxeB '::ffff:10\.0\.0\.2')
	if [ -z "$RA4" ] || [ -z "$RB4" ]; then
		RXE_ERR="the rxe devices have no IPv4 GID"
		return 1
	fi
	echo "# dp: rxe on vethRA-vethRB in the initial namespace (it works" \
		"only there in 6.1)"
}

modprobe mrc || exit 1
two_hosts
if [ -z "$GA4" ] || [ -z "$GB4" ]; then
	echo "dp bench: the MRC devices have no IPv4 GID" >&2
	exit 1
fi
# Holds a process in hostA, whose /proc/PID/net/dev shows the veth.
ip netns exec hostA sleep infinity &
HOLDER=$!
RXE_ERR="no rxe devices"
if [[ ,$METRICS, == *rxe* ]] && ! rxe_hosts; then
	echo "# dp: $RXE_ERR: the rxe samples fail" >&2
fi
pinned="programs where the scheduler puts them"
[ "$PIN" = 1 ] && pinned="server on vCPU 1, client on vCPU 0"
echo "# dp: one veth between two namespaces, $(nproc) vCPUs ($pinned); $SECS s per" \
	"sample; iperf3 1 or 4 streams; ib_write_bw $SIZE-byte WRITEs, 1 or 4" \
	"QPs; mrc-stream $SIZE-byte WRITEs, $DEPTH outstanding; ib_write_lat," \
	"ib_send_lat 2 bytes x $LAT_ITERS"

steps=()
for ((r = 1; r <= REPS; r++)); do
	for m in ${METRICS//,/ }; do
		steps+=("$m $r")
	done
done
n=${#steps[@]}
k=0
fails=0
for s in "${steps[@]}"; do
	read -r m r <<<"$s"
	k=$((k + 1))
	# perftest's clock calibration fails now and then under TCG (a
	# correlation below 0.9): the traffic ran, but it printed no figure.
	# That sample runs again, twice at most; any other failure is final.
	for try in 1 2 3; do
		line=$(run_step "$k" "$m" "$r") && break
		if [[ $line != *'Correlation coefficient'* ]] || [ $try -eq 3 ]; then
			fails=$((fails + 1))
			break
		fi
		echo "# [$k/$n] $m rep $r: perftest's clock calibration failed; once more"
	done
	line=${line##*@dp }
	echo "# [$k/$n] $m rep $r: $(python3 ./dp_summary.py --line <<<"$line")"
	echo "@dp $line"
done
kill $HOLDER
echo "# dp: $n samples, $fails without a figure"
[ "$fails" -lt "$n" ]
