#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# make bench: MRC against rdma_rxe, with kernel TCP as the ceiling,
# measured side by side in one run between two VMs (one vCPU each) joined
# by a qemu stream socket: separate kernels over a real virtio-net link,
# MRC, rxe and TCP all on eth0 in each guest's initial namespace. (rxe in
# Linux 6.1 works only in the initial network namespace, so two namespaces
# in one VM would not be like for like.)
#
# Prints each sample as it completes, then a table of medians and ratios,
# and writes $BENCH_OUT/results.json. Figures are benchmarks, not tests:
# the exit status is non-zero only when nothing at all could be measured.
#
# Environment:
#   BENCH_REPS       alternated repetitions per metric (default 3)
#   BENCH_BW_SECS    perftest -D seconds of each bandwidth sample (6)
#   BENCH_LAT_ITERS  ib_write_lat -n (1000)
#   BENCH_TCP_SECS   iperf3 -t seconds (5)
#   BENCH_VM_CPUS    vCPUs per VM (1: the build machines have 2 cores)
#   BENCH_METRICS    a subset of "tcp tcp_busy write_bw send_bw read_bw
#                    write_lat mp_cpu mp_bw mp_blackhole mp_loss srv6_bw
#                    srv6_fail srv6_cpu cc_loss cc_fair cc_tcp cc_incast
#                    dp_tcp dp_tcp4 dp_write dp_write_copy dp_write4
#                    dp_write_e dp_rxe dp_lat_write dp_lat_send
#                    dp_lat_write_rxe"
#                    (tcp_busy: iperf3 beside a spinning process, as
#                    perftest polls; mp_*: multipath, see mp.sh; srv6_*: on
#                    the SRv6 fabric, in one VM of 2 vCPUs after the
#                    others, see srv6.sh; cc_*: mrc-window beside NSCC
#                    through one bottleneck, in one VM of 2 vCPUs, see cc.sh;
#                    dp_*: goodput and CPU per byte of TCP (1 or 4 streams),
#                    MRC WRITEs (1 or 4 QPs, polling or on CQ events) and
#                    rxe WRITEs, and 2-byte WRITE and SEND latency of MRC
#                    and rxe, over one veth, in one VM of 2 vCPUs, see dp.sh)
#                    The scale_* metrics are not in the default list: they
#                    take about 11 minutes together. scale_1k, scale_10k:
#                    1,000 or 10,000 RC connections through rdma_cm between
#                    two MRC devices, in one VM of 2 vCPUs and
#                    BENCH_SCALE_MEM: kernel memory per QP, set-up rate,
#                    teardown time, and the CPU and timer ticks with every
#                    QP connected and quiet against none (see scale.sh)
#   BENCH_MP_PATHS   paths of the multipath topology (4)
#   BENCH_MP_RATE    tbf rate of each path, tc units (10mbit)
#   BENCH_MP_SECS    seconds of each multipath run (10; blackhole: +5)
#   BENCH_MP_SIZE    bytes per RDMA WRITE of mrc-stream (16384)
#   BENCH_MP_DEPTH   WRITEs outstanding (16)
#   BENCH_MP_TIMEOUT QP timeout attribute t (14)
#   BENCH_MP_LOSS    percent loss of mp_loss (1)
#   BENCH_SRV6_RATE  tbf rate of each spine of the SRv6 fabric (10mbit)
#   BENCH_SRV6_SECS  seconds of each SRv6 run (10; srv6_fail: +5)
#   BENCH_CC_RATE    tbf rate of the cc_* bottleneck (20mbit)
#   BENCH_CC_SECS    seconds of each cc_* run (10)
#   BENCH_CC_QUEUES  bottleneck queues of cc_fair, cc_tcp, cc_incast:
#                    ecn (fq_codel marking), red (RED marking, one
#                    FIFO), trim (mrc_trim) (ecn,red,trim)
#   BENCH_CC_TCP     TCP beside MRC in cc_tcp: cubic (Debian's default,
#                    no ECN), dctcp (ECN, as datacenters run TCP over
#                    marking switches) (cubic,dctcp)
#   BENCH_CC_INCAST_WRITES  64 KiB WRITEs in each cc_incast sender's
#                    message (32)
#   BENCH_CC_TBF_BURST  burst of the cc_* bottleneck's tbf, bytes (3200)
#   BENCH_CC_ALGS    MRC's algorithms in the cc_* steps: window
#                    (mrc-window), nscc (NSCC's defaults), nscc-link
#                    (NSCC set for the link) (window,nscc,nscc-link)
#   BENCH_DP_SECS    seconds of each dp_* sample (5; at least 3)
#   BENCH_DP_LAT_ITERS  exchanges of each dp_lat_* sample (5000)
#   BENCH_DP_PIN     1: dp_* servers on vCPU 1, clients on vCPU 0; 0: where
#                    the scheduler puts them (1)
#   BENCH_SCALE_EVS  the module's ev_count (EVs per QP) of each scale_*
#                    step, each count run with each (64,256)
#   BENCH_SCALE_MEM  memory of the scale VM, qemu units (6G: 10,000
#                    connections are 20,000 QPs)
#   BENCH_SCALE_REPS repetitions of the scale_* steps (1)
#   BENCH_SCALE_LIMIT  seconds the set-up and the teardown may take each,
#                    in each scale_* step (300)
#   BENCH_PERF       1: profile every step of the two VMs and every dp_*
#                    transfer (perf record -e cpu-clock -a -g), log its
#                    hottest symbols and draw its flame graph,
#                    BENCH_OUT/flame/LOG-STEP.svg
#   BENCH_OUT        output directory (build/bench)
#   BENCH_STAGE      install tree for the guests (build/stage)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
reps=${BENCH_REPS:-3}
bwsecs=${BENCH_BW_SECS:-6}
latiters=${BENCH_LAT_ITERS:-1000}
tcpsecs=${BENCH_TCP_SECS:-5}
cpus=${BENCH_VM_CPUS:-1}
metrics=${BENCH_METRICS:-tcp tcp_busy write_bw send_bw read_bw write_lat mp_cpu mp_bw mp_blackhole mp_loss srv6_bw srv6_fail srv6_cpu cc_loss cc_fair cc_tcp cc_incast dp_tcp dp_tcp4 dp_write dp_write_copy dp_write4 dp_write_e dp_rxe dp_lat_write dp_lat_send dp_lat_write_rxe}
mppaths=${BENCH_MP_PATHS:-4}
mprate=${BENCH_MP_RATE:-10mbit}
mpsecs=${BENCH_MP_SECS:-10}
mpsize=${BENCH_MP_SIZE:-16384}
mpdepth=${BENCH_MP_DEPTH:-16}
mptimeout=${BENCH_MP_TIMEOUT:-14}
mploss=${BENCH_MP_LOSS:-1}
perf=${BENCH_PERF:-0}
read -ra m <<<"${metrics//,/ }"
# The srv6_*, cc_*, dp_* and scale_* metrics run in VMs of their own
# (srv6.sh, cc.sh, dp.sh, scale.sh), the rest in two.
srv6=() cc=() dp=() scale=() two=()
for i in "${m[@]}"; do
	case $i in
	srv6_*) srv6+=("$i") ;;
	cc_*) cc+=("$i") ;;
	dp_*) dp+=("$i") ;;
	scale_*) scale+=("$i") ;;
	*) two+=("$i") ;;
	esac
done
metrics=$(IFS=,; echo "${two[*]}")
srv6_metrics=$(IFS=,; echo "${srv6[*]}")
cc_metrics=$(IFS=,; echo "${cc[*]}")
dp_metrics=$(IFS=,; echo "${dp[*]}")
scale_metrics=$(IFS=,; echo "${scale[*]}")
scaleevs=${BENCH_SCALE_EVS:-64,256}
scalemem=${BENCH_SCALE_MEM:-6G}
scalereps=${BENCH_SCALE_REPS:-1}
scalelimit=${BENCH_SCALE_LIMIT:-300}
dpsecs=${BENCH_DP_SECS:-5}
dplatiters=${BENCH_DP_LAT_ITERS:-5000}
dppin=${BENCH_DP_PIN:-1}
ccrate=${BENCH_CC_RATE:-20mbit}
ccsecs=${BENCH_CC_SECS:-10}
ccqueues=${BENCH_CC_QUEUES:-ecn,red,trim}
cctcp=${BENCH_CC_TCP:-cubic,dctcp}
ccalgs=${BENCH_CC_ALGS:-window,nscc,nscc-link}
ccincast=${BENCH_CC_INCAST_WRITES:-32}
cctbfburst=${BENCH_CC_TBF_BURST:-3200}
srv6rate=${BENCH_SRV6_RATE:-10mbit}
srv6secs=${BENCH_SRV6_SECS:-10}
out=${BENCH_OUT:-$top/build/bench}
stage=${BENCH_STAGE:-$top/build/stage}
# A bound, not an estimate: a healthy run takes about a third of this.
limit=$((120 + reps * (8 * (bwsecs + 20) + 2 * (tcpsecs + 20))))
case ",$metrics" in
*,mp_*) limit=$((limit + 900 + reps * 7 * (mpsecs + 40))) ;;
esac

mkdir -p "$out"
rm -f "$out"/{server,client,srv6,cc,dp,scale}.log "$out"/results.json
start=$SECONDS
load_start=$(cut -d' ' -f1 /proc/loadavg)
# Other VMs on the host skew absolute figures; note them in the results.
others_start=$(pgrep -c -f '^qemu-system')

vm() {
	local role=$1 server=$2 mac=$3
	MRC_VM_CPUS=$cpus MRC_VM_LOGDIR=$out/vm-logs MRC_VM_KEEP_LOG=1 \
	MRC_VM_QEMU_ARGS="-pidfile $out/$role.qemu.pid
		-netdev stream,id=n0,server=$server,addr.type=unix,addr.path=$sock
		-device virtio-net-pci,netdev=n0,mac=$mac,romfile=" \
	MRC_VM_APPEND="$append" \
		"$top/selftests/vm/run-vm.sh" -t "$limit" -s "$stage" \
		-n "bench-$role" "$here/$role.sh"
}

# Stop whatever VM is still running when this script ends. (run-vm.sh
# runs qemu under timeout(1), in a process group of its own.)
stop_vms() {
	local f
	for f in "$out"/{server,client}.qemu.pid; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
		rm -f "$f"
	done
	rm -rf "$sockdir"
}
sockdir=
trap stop_vms EXIT
trap 'exit 130' INT TERM

# two_vms: the steps of $metrics, between the two VMs.
two_vms() {
	# The link: a unix stream socket between the two qemu processes, in a
	# fresh directory (a socket path must stay short, and no stale listener
	# can answer for it). Not a TCP "-netdev socket": qemu sets no TCP_NODELAY
	# there, Nagle's algorithm holds back small frames, and ib_write_lat
	# measured 25 ms over it against well under 1 ms over a unix socket.
	sockdir=$(mktemp -d /tmp/mrc-bench.XXXXXX)
	sock=$sockdir/link.sock
	rm -f "$out"/*.qemu.pid

	append="bench.reps=$reps bench.bwsecs=$bwsecs bench.latiters=$latiters"
	append+=" bench.tcpsecs=$tcpsecs bench.metrics=$metrics bench.mppaths=$mppaths"
	append+=" bench.mprate=$mprate bench.mpsecs=$mpsecs bench.mpsize=$mpsize"
	append+=" bench.mpdepth=$mpdepth bench.mptimeout=$mptimeout bench.mploss=$mploss"
	append+=" bench.perf=$perf"

	# The server VM listens on the link, the client VM connects to it.
	vm server on 52:54:00:00:09:01 > "$out/server.log" 2>&1 &
	server=$!

	echo "bench: two VMs (TCG, $cpus vCPU each) joined by virtio-net over a qemu stream socket;" \
		"$reps alternated repetitions"
	for ((i = 0; i < 600; i++)); do
		[ -S "$sock" ] && [ -n "$(ss -Hlx "src $sock")" ] && break
		kill -0 $server 2>/dev/null || break
		sleep 0.1
	done
	if ! [ -S "$sock" ] || [ -z "$(ss -Hlx "src $sock")" ]; then
		echo "bench: the server VM did not start; see $out/server.log" >&2
		cat "$out/server.log" >&2
		exit 1
	fi

	# In the background, so that a signal to this script is handled at once.
	# The multipath steps' "@mp {JSON}" lines and the profiles' folded
	# stacks go to the log only.
	vm client off 52:54:00:00:09:02 2>&1 | tee "$out/client.log" |
		grep --line-buffered -v -e '^@mp ' -e '^@fold ' &
	wait $!

	# The server ends with its last step; give it a little while.
	for ((i = 0; i < 300; i++)); do
		kill -0 $server 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 $server 2>/dev/null; then
		echo "bench: stopping the server VM"
		stop_vms
	fi
	wait $server 2>/dev/null
	echo "bench: server log: $out/server.log"
}

# srv6_vm: the srv6_* steps, in a VM of 2 vCPUs (srv6.sh).
srv6_vm() {
	local append="bench.reps=$reps bench.metrics=$srv6_metrics"
	append+=" bench.srv6rate=$srv6rate bench.srv6secs=$srv6secs"
	echo "bench: SRv6 fabric in one VM (TCG, 2 vCPUs): $srv6_metrics"
	MRC_VM_CPUS=2 MRC_VM_LOGDIR=$out/vm-logs MRC_VM_KEEP_LOG=1 \
	MRC_VM_APPEND="$append" \
		"$top/selftests/vm/run-vm.sh" \
		-t $((600 + reps * 4 * (srv6secs + 100))) -s "$stage" \
		-n bench-srv6 "$here/srv6.sh" 2>&1 | tee "$out/srv6.log" |
		grep --line-buffered -v '^@srv6 ' &
	wait $!
}

# cc_vm: the cc_* steps, in a VM of 2 vCPUs (cc.sh): 69 steps a
# repetition with every metric.
cc_vm() {
	local append="bench.reps=$reps bench.metrics=$cc_metrics"
	append+=" bench.ccrate=$ccrate bench.ccsecs=$ccsecs bench.ccqueues=$ccqueues"
	append+=" bench.cctcp=$cctcp bench.ccalgs=$ccalgs bench.incastwrites=$ccincast"
	append+=" bench.cctbfburst=$cctbfburst"
	echo "bench: congestion control in one VM (TCG, 2 vCPUs): $cc_metrics"
	MRC_VM_CPUS=2 MRC_VM_LOGDIR=$out/vm-logs MRC_VM_KEEP_LOG=1 \
	MRC_VM_APPEND="$append" \
		"$top/selftests/vm/run-vm.sh" \
		-t $((600 + reps * 45 * (ccsecs + 60))) -s "$stage" \
		-n bench-cc "$here/cc.sh" 2>&1 | tee "$out/cc.log" |
		grep --line-buffered -v '^@cc ' &
	wait $!
}

# dp_vm: the dp_* steps, in a VM of 2 vCPUs (dp.sh).
dp_vm() {
	local append="bench.reps=$reps bench.metrics=$dp_metrics bench.dpsecs=$dpsecs"
	append+=" bench.dplatiters=$dplatiters bench.dppin=$dppin bench.perf=$perf"
	echo "bench: data path in one VM (TCG, 2 vCPUs), one veth: $dp_metrics"
	MRC_VM_CPUS=2 MRC_VM_LOGDIR=$out/vm-logs MRC_VM_KEEP_LOG=1 \
	MRC_VM_APPEND="$append" \
		"$top/selftests/vm/run-vm.sh" \
		-t $((300 + reps * ${#dp[@]} * (dpsecs + 60))) -s "$stage" \
		-n bench-dp "$here/dp.sh" 2>&1 | tee "$out/dp.log" |
		grep --line-buffered -v -e '^@dp ' -e '^@fold ' &
	wait $!
}

# scale_vm: the scale_* steps, in a VM of 2 vCPUs and $scalemem of memory
# (scale.sh): each step is bounded by its set-up and teardown limits.
scale_vm() {
	local append="bench.reps=$scalereps bench.metrics=$scale_metrics"
	local evs steps
	append+=" bench.scaleevs=$scaleevs bench.scalelimit=$scalelimit"
	read -ra evs <<<"${scaleevs//,/ }"
	steps=$((scalereps * ${#scale[@]} * ${#evs[@]}))
	echo "bench: QP scale in one VM (TCG, 2 vCPUs, $scalemem): $scale_metrics, ev_count $scaleevs"
	MRC_VM_CPUS=2 MRC_VM_MEM=$scalemem MRC_VM_LOGDIR=$out/vm-logs MRC_VM_KEEP_LOG=1 \
	MRC_VM_APPEND="$append" \
		"$top/selftests/vm/run-vm.sh" \
		-t $((300 + steps * (2 * scalelimit + 150))) -s "$stage" \
		-n bench-scale "$here/scale.sh" 2>&1 | tee "$out/scale.log" |
		grep --line-buffered -v '^@scale ' &
	wait $!
}

commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null)
if [ -n "$commit" ] && [ -n "$(git -C "$top" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit-dirty"
fi
rc=1
if [ -n "$metrics" ]; then
	two_vms
	python3 "$here/summarize.py" "$out/client.log" "$out/results.json" \
		--reps "$reps" --kernel "$("$top/selftests/vm/kver.sh")" \
		--commit "${commit:-unknown}" --vcpus "$cpus" --bw-secs "$bwsecs" \
		--lat-iters "$latiters" --tcp-secs "$tcpsecs" \
		--mp-paths "$mppaths" --mp-rate "$mprate" --mp-timeout "$mptimeout" \
		--mp-loss "$mploss" --mp-size "$mpsize" --mp-depth "$mpdepth" \
		--mp-secs "$mpsecs" \
		--qemu "$(qemu-system-x86_64 --version | head -n1)" \
		--elapsed $((SECONDS - start)) \
		--load "$load_start $(cut -d' ' -f1 /proc/loadavg)" \
		--others "$others_start $(pgrep -c -f '^qemu-system')" && rc=0
fi
if [ -n "$srv6_metrics" ]; then
	srv6_vm
	python3 "$here/srv6_summary.py" "$out/srv6.log" "$out/results.json" && rc=0
fi
if [ -n "$cc_metrics" ]; then
	cc_vm
	python3 "$here/cc_summary.py" "$out/cc.log" "$out/results.json" && rc=0
fi
if [ -n "$dp_metrics" ]; then
	# Figures per byte move with the host's load: note it beside them.
	dp_load=$(cut -d' ' -f1 /proc/loadavg) dp_others=$(pgrep -c -f '^qemu-system')
	dp_vm
	python3 "$here/dp_summary.py" "$out/dp.log" "$out/results.json" \
		"load average $dp_load before, $(cut -d' ' -f1 /proc/loadavg) after; other VMs $dp_others before, $(pgrep -c -f '^qemu-system') after" &&
		rc=0
fi
if [ -n "$scale_metrics" ]; then
	scale_vm
	python3 "$here/scale_summary.py" "$out/scale.log" "$out/results.json" && rc=0
fi
if [ "$perf" = 1 ]; then
	rm -rf "$out/flame"
	python3 "$here/flamegraph.py" logs "$out/flame" "$out"/{server,client,dp}.log
fi
exit $rc
