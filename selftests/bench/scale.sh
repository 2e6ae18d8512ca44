# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash
# The scale benchmarks (the scale_* metrics, issue 36: the scale of a
# cluster node), run by bench.sh in one VM of 2 vCPUs with more memory
# than the others (BENCH_SCALE_MEM): namespaces hostA and hostB joined by
# one veth (lib.sh's two_hosts), an MRC device on each end, and COUNT RC
# connections between them made through rdma_cm by mrc-qp-scale, so COUNT
# QPs on each device:
#
#   scale_1k    1,000 connections
#   scale_10k   10,000 connections
#
# each once for every EV count of bench.scaleevs (the module's ev_count,
# which a QP reads when it is created: the EVs it sprays over). A step:
#
#   1. idle before: the VM's CPU (/proc/stat), local timer interrupts
#      (LOC of /proc/interrupts) and TIMER and HRTIMER softirqs
#      (/proc/softirqs) over IDLE seconds with no QP but the devices' QP1;
#      then /proc/meminfo and the memory cgroup both programs run in;
#   2. the server (hostB) listens, the client (hostA) connects COUNT
#      times, at most 64 connections being made at once, and says when all
#      are ESTABLISHED; its figures: the set-up rate (first address
#      resolution to last ESTABLISHED) and later the teardown time;
#   3. idle with QPs: SETTLE seconds later, while the client holds every
#      QP connected and quiet, the same CPU and interrupt counts over IDLE
#      seconds; then /proc/meminfo and the cgroup again, and the QPs each
#      device holds (rdma res);
#   4. the client disconnects all and destroys everything, the server
#      follows; /proc/meminfo once more (what the teardown left).
#
# A QP's kernel memory is the growth of SUnreclaim + VmallocUsed between
# 1 and 3, over the 2 COUNT QPs of both ends (and likewise the cgroup's
# memory.current): everything a connected QP costs, rdma_cm's, the CM's
# and uverbs' objects included. No QP may run a timer or a probe while
# nothing is outstanding (issue 36): the interrupt and softirq rates of 3
# should be those of 1. The readings in the windows use builtins only (an
# exec under TCG costs a tenth of a second of CPU), as dp.sh's do. Each
# step prints its line and an "@scale {JSON}" line, which
# scale_summary.py turns into the table. A count that cannot be reached
# (ENOMEM, a timeout) is a record with the error and how many connections
# were made; every program runs under a timeout.

. ../vm/lib.sh
. ./guest.sh

REPS=$(barg reps)
REPS=${REPS:-1}
METRICS=$(barg metrics)
METRICS=${METRICS:-scale_1k,scale_10k}
EVS=$(barg scaleevs)		# the ev_count of each step
EVS=${EVS:-64,256}
# Seconds each of the set-up and the teardown may take, and the server
# its whole run beyond both.
LIMIT=$(barg scalelimit)
LIMIT=${LIMIT:-300}
IDLE=5				# seconds of each idle window
SETTLE=2			# from all ESTABLISHED to the window
# The client holds long enough for the window and the readings after it.
HOLD=$((SETTLE + IDLE + 5))
WINDOW=64			# connections being made or closed at once
QPS=$MRC_BUILD/selftests/progs/mrc-qp-scale
EV_COUNT=/sys/module/mrc/parameters/ev_count
PORT=23000
STATE=/run/scale-bench
CG=/sys/fs/cgroup
CGD=$CG/mrc-scale
NCPU=$(nproc)
mkdir -p "$STATE"
nap_init "$STATE"

# sum_cpus FIELDS...: SUM, the first NCPU of FIELDS added up.
sum_cpus() {
	local i
	SUM=0
	for ((i = 1; i <= NCPU && i <= $#; i++)); do
		SUM=$((SUM + ${!i}))
	done
}

# sample: SAMPLE="USEC BUSY TOTAL LOC TIMER HRTIMER", the time, the
# jiffies of all CPUs busy and in all, and the local timer interrupts and
# TIMER and HRTIMER softirqs of all CPUs so far.
sample() {
	local t=${EPOCHREALTIME/./} name rest busy total
	local loc=0 timer=0 hrtimer=0
	ticks
	read -r busy _ total <<<"$CPU_TICKS"
	while read -r name rest; do
		[ "$name" = LOC: ] || continue
		# shellcheck disable=SC2086 # the counts of each CPU
		sum_cpus $rest
		loc=$SUM
		break
	done < /proc/interrupts
	while read -r name rest; do
		# shellcheck disable=SC2086
		case $name in
		TIMER:) sum_cpus $rest; timer=$SUM ;;
		HRTIMER:) sum_cpus $rest; hrtimer=$SUM ;;
		esac
	done < /proc/softirqs
	SAMPLE="$t $busy $total $loc $timer $hrtimer"
}

# meminfo: MEM, the kB of /proc/meminfo the figures use, as a JSON object.
meminfo() {
	local k v sep=''
	MEM='{'
	while read -r k v _; do
		case $k in
		MemFree: | Slab: | SReclaimable: | SUnreclaim: | VmallocUsed: | Percpu: | PageTables: | KernelStack:)
			MEM+="$sep\"${k%:}\": $v"
			sep=', ' ;;
		esac
	done < /proc/meminfo
	MEM+='}'
}

# cgmem: CGMEM, the test cgroup's memory.current and the memory.stat
# figures of kernel memory, bytes, as a JSON object ("null" without a
# cgroup).
cgmem() {
	local k v
	CGMEM=null
	[ -n "$CGRUN" ] && read -r v < "$CGD/memory.current" || return 0
	CGMEM="{\"current\": $v"
	while read -r k v; do
		case $k in
		kernel | slab | slab_unreclaimable | vmalloc | percpu | sock | anon | file)
			CGMEM+=", \"$k\": $v" ;;
		esac
	done < "$CGD/memory.stat"
	CGMEM+='}'
}

# qp_counts: "A B", the QPs of mrcA and mrcB (QP1 included), from rdma
# res in each namespace.
qp_counts() {
	local a b
	a=$(ip netns exec hostA rdma res show 2>/dev/null |
		awk '$2 == "mrcA:" { for (i = 3; i < NF; i++) if ($i == "qp") { print $(i + 1); exit } }')
	b=$(ip netns exec hostB rdma res show 2>/dev/null |
		awk '$2 == "mrcB:" { for (i = 3; i < NF; i++) if ($i == "qp") { print $(i + 1); exit } }')
	echo "${a:-null} ${b:-null}"
}

# cgroup_setup: a memory cgroup for the programs (CGRUN runs a command in
# it), as mem_charge.sh makes one; none (CGRUN empty) if that fails. The
# command joins it before ip netns exec, whose fresh /sys has no cgroup
# file system mounted.
cgroup_setup() {
	CGRUN=()
	if ! { [ -e $CG/cgroup.controllers ] || mount -t cgroup2 none $CG; } 2>/dev/null ||
	   ! echo +memory 2>/dev/null > $CG/cgroup.subtree_control || ! mkdir -p $CGD; then
		echo "# scale: no memory cgroup: the cgroup figures are missing" >&2
		return 0
	fi
	# shellcheck disable=SC2016 # $$ and $@ of the inner shell
	CGRUN=(bash -c 'echo $$ > '"$CGD"'/cgroup.procs && exec "$@"' _)
}

# why RC FILE...: one line saying why a program gave no figure.
why() {
	local line rc=$1
	shift
	case $rc in
	124 | 137) line="timed out" ;;
	esac
	line=${line:-$(cat "$@" 2>/dev/null | grep -m1 -oE '"error":"[^"]*"|mrc-qp-scale [a-z]+ on .*')}
	if dmesg | grep -qiE 'out of memory|oom-kill'; then
		line="${line:+$line; }the kernel ran out of memory: $(dmesg |
			grep -m1 -iE 'out of memory|oom-kill' | sed 's/^\[[^]]*\] //')"
	fi
	echo "${line:-exit status $rc, no figure in the output}" | tr -d '"'
}

# wait_gone PID SECS: wait up to SECS for PID to end, then TERM it (its
# timeout(1) passes the signal on); its exit status.
wait_gone() {
	local end=$((SECONDS + $2))
	while kill -0 "$1" 2>/dev/null && [ $SECONDS -lt $end ]; do
		nap 200000
	done
	kill -TERM "$1" 2>/dev/null
	wait "$1"
}

# json_or_null FILE: the first JSON line of FILE, or null.
json_or_null() {
	local l
	l=$(grep -m1 '^{' "$1" 2>/dev/null)
	echo "${l:-null}"
}

# run_step K METRIC COUNT EVS REP: one step; prints its "@scale" line.
# Non-zero when it gave no figure.
run_step() {
	local k=$1 metric=$2 count=$3 evs=$4 rep=$5 port=$((PORT + $1))
	local spid cpid src rc ready=0 t_ready=0 held=false qps='null null' qa qb
	local grace=60 end
	local s0 s1 h0 h1 m0 m1 m2 c0 c1 err='' srv cli
	rm -f "$STATE"/{srv,cli}.{out,err,ready} "$STATE"/*.tmp
	if ! echo "$evs" > $EV_COUNT; then
		err="ev_count $evs refused"
	fi
	dmesg --clear
	# 1. Idle with no QP (after what the last step left has settled).
	nap 1000000
	sample; s0=$SAMPLE
	nap $((IDLE * 1000000))
	sample; s1=$SAMPLE
	meminfo; m0=$MEM
	cgmem; c0=$CGMEM
	m1=null c1=null m2=null h0='' h1=''
	if [ -z "$err" ]; then
		# 2. The server, then the client once it listens.
		timeout -k 5 $((3 * LIMIT + HOLD + 30)) "${CGRUN[@]}" ip netns exec hostB \
			"$QPS" server --dev mrcB --port "$port" --count "$count" \
			--timeout-s $((2 * LIMIT + HOLD + 30)) --ready-file "$STATE/srv.ready" \
			< /dev/null > "$STATE/srv.out" 2> "$STATE/srv.err" &
		spid=$!
		end=$((SECONDS + 30))
		while [ ! -e "$STATE/srv.ready" ] && kill -0 $spid 2>/dev/null &&
			[ $SECONDS -lt $end ]; do
			nap 100000
		done
		timeout -k 5 $((2 * LIMIT + HOLD + 30)) "${CGRUN[@]}" ip netns exec hostA \
			"$QPS" client --dev mrcA --host 10.0.0.2 --port "$port" --count "$count" \
			--hold-s "$HOLD" --window "$WINDOW" --timeout-s "$LIMIT" \
			--ready-file "$STATE/cli.ready" \
			< /dev/null > "$STATE/cli.out" 2> "$STATE/cli.err" &
		cpid=$!
		end=$((SECONDS + LIMIT + 30))
		while [ ! -e "$STATE/cli.ready" ] && kill -0 $cpid 2>/dev/null &&
			[ $SECONDS -lt $end ]; do
			nap 100000
		done
		if [ -e "$STATE/cli.ready" ]; then
			# 3. Idle with every QP connected.
			ready=1 t_ready=${EPOCHREALTIME/./}
			nap_until $((t_ready + SETTLE * 1000000))
			sample; h0=$SAMPLE
			nap_until $((t_ready + (SETTLE + IDLE) * 1000000))
			sample; h1=$SAMPLE
			meminfo; m1=$MEM
			cgmem; c1=$CGMEM
			# Read inside the client's hold: the QPs were all there.
			[ $((${EPOCHREALTIME/./} - t_ready)) -lt $((HOLD * 1000000 - 500000)) ] &&
				held=true
			qps=$(qp_counts)
		fi
		# 4. The teardown; the server ends once all its QPs went.
		wait $cpid
		rc=$?
		# A client that failed left the server waiting for the rest.
		[ $rc -eq 0 ] || grace=5
		wait_gone $spid $grace
		src=$?
		nap 2000000
		meminfo; m2=$MEM
		cli=$(json_or_null "$STATE/cli.out") srv=$(json_or_null "$STATE/srv.out")
		if [ $rc -ne 0 ] || [ $src -ne 0 ] || [ $ready -eq 0 ]; then
			err="client: $(why $rc "$STATE"/cli.{out,err})"
			[ $src -eq 0 ] || err+="; server: $(why $src "$STATE"/srv.{out,err})"
		fi
	fi
	read -r qa qb <<<"$qps"
	jq -cn --argjson k "$k" --arg metric "$metric" --argjson rep "$rep" \
		--argjson count "$count" --argjson evs "$evs" --arg error "$err" \
		--argjson client "${cli:-null}" --argjson server "${srv:-null}" \
		--argjson rc "${rc:-null}" --argjson server_rc "${src:-null}" \
		--arg idle0 "$s0 $s1" --arg idle1 "$h0 $h1" --argjson held "$held" \
		--argjson mem0 "$m0" --argjson mem1 "$m1" --argjson mem2 "$m2" \
		--argjson cg0 "$c0" --argjson cg1 "$c1" \
		--argjson qps_a "$qa" --argjson qps_b "$qb" --argjson ncpu "$NCPU" \
		--argjson hz "$(getconf CLK_TCK)" \
		'def win: split(" ") | map(select(. != "") | tonumber)
			| if length == 12 then {s: ((.[6] - .[0]) / 1e6),
				busy: (.[7] - .[1]), total: (.[8] - .[2]),
				loc: (.[9] - .[3]), timer: (.[10] - .[4]),
				hrtimer: (.[11] - .[5])} else null end;
		 {step: $k, metric: $metric, rep: $rep, count: $count, evs: $evs,
		  error: (if $error == "" then null else $error end),
		  rc: $rc, server_rc: $server_rc, client: $client, server: $server,
		  qps: {mrcA: $qps_a, mrcB: $qps_b}, cpus: $ncpu, hz: $hz,
		  idle_before: ($idle0 | win), idle_held: ($idle1 | win),
		  held: $held,
		  meminfo_kB: {before: $mem0, held: $mem1, after: $mem2},
		  cgroup_B: {before: $cg0, held: $cg1}}' | sed 's/^/@scale /'
	[ -z "$err" ]
}

modprobe mrc || exit 1
two_hosts
if [ -z "$GA4" ] || [ -z "$GB4" ]; then
	echo "scale bench: the MRC devices have no IPv4 GID" >&2
	exit 1
fi
if ! [ -x "$QPS" ]; then
	echo "scale bench: $QPS missing (make userspace)" >&2
	exit 1
fi
cgroup_setup
old_evs=$(cat $EV_COUNT)
echo "# scale: $NCPU vCPUs, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo);" \
	"RC connections through rdma_cm between hostA and hostB over one veth," \
	"$WINDOW being made at once; idle windows of $IDLE s; ev_count $EVS;" \
	"set-up and teardown limited to $LIMIT s each"

# Every count with the first EV count (the default, 64) before any with
# the next: should the run be cut short, the common case is measured.
steps=()
for ((r = 1; r <= REPS; r++)); do
	for e in ${EVS//,/ }; do
		for m in ${METRICS//,/ }; do
			case $m in
			scale_1k) c=1000 ;;
			scale_10k) c=10000 ;;
			scale_[0-9]*) c=${m#scale_} ;;
			*) echo "# scale: unknown metric $m" >&2; continue ;;
			esac
			steps+=("$m $c $e $r")
		done
	done
done
run_steps scale
echo "$old_evs" > $EV_COUNT
rmdir $CGD 2>/dev/null
echo "# scale: ${#steps[@]} steps, $FAILS without a figure"
[ "$FAILS" -lt "${#steps[@]}" ]
