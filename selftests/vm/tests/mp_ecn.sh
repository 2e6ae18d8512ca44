# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# ECN as a path signal (Documentation/wire-format.rst, multipath.rst):
# data leaves ECT(0), so a router whose queue marks (fq_codel with ecn,
# under the path's tbf) marks it CE where it would drop a packet that is
# not ECN-capable; the marks come back to the requester, counted on the
# EVs that carried them (path_ecn_marks), never more than the routers
# made. WRITE data's marks come back in the ACKs' CE counts; READ
# responses carry their own, which the requester reads.
# A tbf hands its child a GSO packet larger than its burst one segment at
# a time: with a burst of two packets the routers mark packets, not
# whole GSO runs, and their counts compare with the receiver's.
MP_TBF_BURST=3k
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh

N=2
dmesg_mark
mp_up "topology: $N paths shaped to 20mbit" $N 20mbit

# codel DEV: fq_codel marking ECN (1 ms target) under each router's tbf
# on DEV (ethA: towards hostA, ethB: towards hostB).
codel() {
	local i
	for ((i = 1; i <= N; i++)); do
		tc -n "r$i" qdisc replace dev "$1" parent 1:1 handle 20: \
			fq_codel ecn target 1ms interval 10ms || return
	done
}

# codel_sum DEV WHAT: the routers' fq_codel counts on DEV, summed: WHAT
# "marked" (ecn_mark) or "dropped".
codel_sum() {
	local i n=0 v
	for ((i = 1; i <= N; i++)); do
		v=$(tc -n "r$i" -s qdisc show dev "$1" | awk -v what="$2" '
			/^qdisc fq_codel/ { f = 1; next }
			/^qdisc/ { f = 0 }
			f && what == "dropped" && /dropped/ {
				sub(/.*dropped /, ""); sub(/,.*/, ""); print; exit }
			f && what == "marked" {
				for (j = 1; j < NF; j++)
					if ($j == "ecn_mark") { print $(j + 1); exit } }')
		n=$((n + ${v:-0}))
	done
	echo "$n"
}

probes_a() { cat /sys/class/infiniband/mrcA/ports/1/hw_counters/path_probes 2>/dev/null || echo 0; }
ecn_b() { cat /sys/class/infiniband/mrcB/ports/1/hw_counters/path_ecn_marks; }

# marked TAG DEV PROG: PROG from hostB (the requester) through queues
# that mark on DEV; the routers marked, dropped fewer than they marked,
# and hostB counted marks, no more than were made.
marked() {
	local tag=$1 dev=$2 prog=$3 m0 d0 e0 m d e
	m0=$(codel_sum "$dev" marked) d0=$(codel_sum "$dev" dropped) e0=$(ecn_b)
	p0=$(probes_a)
	pair "$tag: $prog -n 300 through the marking queues" 180 \
		"$prog" -d mrcA -x "$GA4" -n 300 -F -- \
		"$prog" -d mrcB -x "$GB4" -n 300 -F "$MP_A4"
	m=$(($(codel_sum "$dev" marked) - m0))
	d=$(($(codel_sum "$dev" dropped) - d0))
	e=$(($(ecn_b) - e0))
	check "$tag: the routers marked CE ($m), the data being ECN-capable" \
		test "$m" -gt 0
	echo "# $tag: hostA sent $(($(probes_a) - p0)) probes"
	check "$tag: ... and dropped fewer than they marked ($d)" \
		test "$d" -lt "$m"
	check "$tag: hostB's EVs counted marks, at most the routers' ($e of $m)" \
		test "$e" -gt 0 -a "$e" -le "$m"
}

check "fq_codel ecn under the tbf towards hostA" codel ethA
marked WRITE ethA ib_write_bw
check "fq_codel ecn under the tbf towards hostB" codel ethB
marked READ ethB ib_read_bw

mp_teardown
check_dmesg_clean
done_testing
