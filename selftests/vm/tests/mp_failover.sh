# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 1200
# Failover without a single error: one QP sprays over N shaped paths; a
# path blackholed mid-transfer (link down, or netem loss 100%) costs no
# error completion, its EVs go ASSUMED_BAD, and when it returns they are
# probed back to GOOD and carry traffic again. A path dies under
# mrc-rc-check, which compares every byte. Then k of N paths down, random
# loss on one path and reordering across all paths, with data verified
# byte for byte. Each fault is checked to have taken effect (the routers'
# packet counters, netem's drop counter).
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh

N=4
CHECK=$MRC_BUILD/selftests/progs/mrc-rc-check
dmesg_mark
mp_up "topology: $N paths shaped to 20mbit" $N 20mbit
ARGS=(--dev-a mrcA --gid-a "$GA4" --dev-b mrcB --gid-b "$GB4")

# sample DEV NAME: mp_qp_attr, retried while the QP is being set up.
sample() {
	local v
	for _ in $(seq 20); do
		v=$(mp_qp_attr "$1" "$2")
		[ -n "$v" ] && break
		sleep 0.5
	done
	echo "${v:-0}"
}

# rc_qps DEV: each RC QP's number and ev_recovered, one line (a run once
# counted fewer recoveries at the second sample than at the first).
rc_qps() {
	rdma -dd res show qp link "$1/1" | awk '/ type RC / {
		for (i = 1; i < NF; i++)
			if ($i == "lqpn" || $i == "drv_ev_recovered") printf "%s %s ", $i, $(i + 1)
		printf "; " }'
}

# path_carries I: router I forwarded more than 20 packets towards hostB
# within one second.
path_carries() {
	local c1 c2
	c1=$(mp_router_packets "$1")
	sleep 1
	c2=$(mp_router_packets "$1")
	[ $((c2 - c1)) -gt 20 ]
}

# attr_above DEV NAME V: the QP's driver attribute NAME exceeds V.
attr_above() {
	local v
	v=$(mp_qp_attr "$1" "$2")
	[ -n "$v" ] && [ "$v" -gt "$3" ]
}

# blackhole TAG HOW PROG ARGS...: run PROG (perftest, hostB is the
# requester); path 2 fails (HOW: down or loss) as soon as it carries the
# transfer (at most 10 s in: a fixed 4 s was mostly idle) for at least 3 s,
# and until an EV reads ASSUMED_BAD or BH_POLL s (5) more passed. The
# checks poll with deadlines rather than sleep fixed times: in a loaded
# TCG VM a fixed schedule sampled QPs that had ended. The path gets
# BH_BACK s (15) to carry traffic again: with 8, one CI run saw
# ib_read_bw's path 2 probed back (2 EVs recovered) but not yet
# forwarding 20 packets a second at the deadline. The run is set to
# outlast every deadline (-D 100) and stopped once the last QP sample is
# taken (pair_stop): a fixed length had to cover the worst case, and a
# shorter one ended the QP before the last sample.
blackhole() {
	local tag=$1 how=$2 prog=$3 bad=0 rec0 rec moved=no c1 c2 qps0 qps1 byprobe
	local poll=${BH_POLL:-5} back=${BH_BACK:-15}
	shift 3
	pair_start 150 "$prog" -d mrcA -x "$GA4" -D 100 -f 1 -F "$@" -- \
		"$prog" -d mrcB -x "$GB4" -D 100 -f 1 -F "$@" "$MP_A4"
	wait_until 10 path_carries 2 ||
		echo "$tag: path 2 carried nothing within 10 s; failing it anyway" | diag
	if [ "$how" = down ]; then mp_path_down 2; else mp_path_loss 2 100; fi
	# (The 3 s of the outage, spent watching router 2's counter.)
	sleep 1
	c1=$(mp_router_packets 2)
	sleep 2
	c2=$(mp_router_packets 2)
	wait_until "$poll" attr_above mrcB ev_assumed_bad 0 &&
		bad=$(sample mrcB ev_assumed_bad)
	byprobe=$(sample mrcB lost_probe)
	rec0=$(sample mrcB ev_recovered)
	qps0=$(rc_qps mrcB)
	if [ "$how" = down ]; then mp_path_up 2; else mp_path_clear 2; fi
	wait_until "$back" path_carries 2 && moved=yes
	rec=$(sample mrcB ev_recovered)
	qps1=$(rc_qps mrcB)
	pair_stop
	pair_finish "$tag: $prog finishes with exit 0 (no error completion)"
	check "$tag: path 2 forwarded nothing to hostB while it was out ($c1, $c2)" \
		test "$c1" -eq "$c2"
	check_output "$tag: EVs of path 2 went ASSUMED_BAD ($bad)" '^[1-9]' \
		echo "$bad"
	[ -z "${BH_BY_PROBE:-}" ] ||
		check_output "$tag: a tail loss probe's answer found the losses (lost_probe $byprobe)" \
			'^[1-9]' echo "$byprobe"
	check_output "$tag: probed back to GOOD ($((rec - rec0)) EVs recovered)" \
		'^[1-9]' echo "$((rec - rec0))"
	[ $((rec - rec0)) -gt 0 ] ||
		printf 'RC QPs then: %s\nand later: %s\n' "$qps0" "$qps1" | diag
	check_output "$tag: path 2 carries traffic again" '^yes$' echo "$moved"
}

blackhole "link down" down ib_write_bw -s 65536
# A READ lost with its path leaves no hole in what comes back: the
# responses of later requests, or the timer, find it, so its failed EVs
# show later, and traffic takes longer to come back: the checks wait
# more.
BH_POLL=15 BH_BACK=35 blackhole "link down" down ib_read_bw -s 65536
# SEND fails over as WRITE does; it runs here, under the other kind of
# fault, rather than in a second link-down run.
blackhole "loss 100%" loss ib_send_bw -s 4096
# One 64-byte WRITE at a time, as NVMe commands go: a message lost with
# its path is the tail of its flight, recovered by a tail loss probe on
# another EV. The probe's answer must blame the EV the lost copy took,
# or the QP keeps using the dead path and pays a probe wait for every
# message sent on it.
BH_BY_PROBE=1 blackhole "one message at a time" loss ib_write_bw -s 64 -t 1

# Path 3 dies while mrc-rc-check moves data and compares every byte.
verified_failure "link down mid-run" "${ARGS[@]}" -- mp_path_down 3 -- \
	mp_path_up 3

# verified TAG [BW]: data checked byte for byte; with BW 1, a stock
# program's bandwidth run too (once is enough: the blackholes above and
# rc_lossy run perftest under the other faults).
verified() {
	check "$1: mrc-rc-check (every byte verified)" \
		timeout 600 "$CHECK" "${ARGS[@]}" write write-imm send read \
		atomic order many
	[ "${2:-0}" != 1 ] || pair "$1: ib_write_bw" 180 \
		ib_write_bw -d mrcA -x "$GA4" -n 300 -F -- \
		ib_write_bw -d mrcB -x "$GB4" -n 300 -F "$MP_A4"
}

# netem_drops I: packets the netem qdisc of router I dropped towards hostB.
netem_drops() {
	tc -n "r$1" -s qdisc show dev ethB |
		awk '/^qdisc netem/ { n = 1; next }
		     n && /dropped/ { sub(/.*dropped /, ""); sub(/,.*/, ""); print; exit }'
}

# carried TAG FIRST LAST: the routers FIRST..LAST forwarded nothing
# towards hostB since $before (mp_router_counts) and the others did.
carried() {
	local d i ok=yes
	read -ra d <<<"$(mp_delta "$before" "$(mp_router_counts)")"
	for ((i = 1; i <= N; i++)); do
		if [ "$i" -ge "$2" ] && [ "$i" -le "$3" ]; then
			[ "${d[i - 1]}" -eq 0 ] || ok=no
		else
			[ "${d[i - 1]}" -gt 0 ] || ok=no
		fi
	done
	check_output "$1: only the paths up carried the traffic (${d[*]})" \
		'^yes$' echo "$ok"
}

# One path down, and all but one: the cases between add no new rule.
for k in 1 $((N - 1)); do
	for ((i = 1; i <= k; i++)); do mp_path_down "$i"; done
	before=$(mp_router_counts)
	verified "$k of $N paths down" $((k == N - 1 ? 1 : 0))
	carried "$k of $N paths down" 1 "$k"
	for ((i = 1; i <= k; i++)); do mp_path_up "$i"; done
done

mp_path_loss 3 5
verified "5% loss on path 3"
check_output "5% loss on path 3: netem on r3 dropped packets" '^[1-9]' \
	netem_drops 3
mp_path_clear 3

mp_path_reorder 3
before=$(mp_router_counts)
verified "paths delayed 0/3/6/9 ms (reordering)"
for ((i = 2; i <= N; i++)); do
	check_output "reordering: r$i delays by $((3 * (i - 1))) ms" \
		"qdisc netem 10: parent 1:1 .*delay $((3 * (i - 1)))ms" \
		tc -n "r$i" qdisc show dev ethB
done
carried "reordering" 1 0
mp_path_clear

mp_teardown
check_dmesg_clean
done_testing
