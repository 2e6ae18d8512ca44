# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# ECN as a path signal (Documentation/wire-format.rst, multipath.rst):
# data leaves ECT(0), so a router whose queue marks (fq_codel with ecn,
# under the path's tbf) marks it CE where it would drop a packet that is
# not ECN-capable; the marks come back to the requester, counted on the
# EVs that carried them (path_ecn_marks), never more than the routers
# made. WRITE data's marks come back in the ACKs' CE counts; READ
# responses carry their own, which the requester reads.
# A tbf hands its child a GSO packet larger than its burst one segment at
# a time: with a burst of one full-size packet the routers mark packets,
# not whole GSO runs, and their counts compare with the receiver's.
MP_TBF_BURST=1600
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh

N=2
dmesg_mark
mp_up "topology: $N paths shaped to 20mbit" $N 20mbit

# codel DEV: fq_codel marking ECN (1 ms target) under each router's tbf
# on DEV (ethA: towards hostA, ethB: towards hostB), for MRC's packets
# (UDP) alone: a prio qdisc sends the rest (perftest's TCP exchange, ARP),
# which is not ECN-capable, to a FIFO of its own, served first. Sharing
# fq_codel, such a packet that hashes into an EV's bucket while codel
# marks it is dropped, and the drop counts below would be charged to MRC.
codel() {
	local i
	for ((i = 1; i <= N; i++)); do
		tc -n "r$i" -batch - <<-EOF || return
			qdisc replace dev $1 parent 1:1 handle 20: prio bands 2 priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
			qdisc add dev $1 parent 20:1 handle 21: pfifo
			qdisc add dev $1 parent 20:2 handle 22: fq_codel ecn target 1ms interval 10ms
			filter add dev $1 parent 20: protocol ip prio 1 u32 match ip protocol 17 0xff flowid 20:2
		EOF
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

# hostB's READ responses judged lost (path_loss_read).
losses_b() { cat /sys/class/infiniband/mrcB/ports/1/hw_counters/path_loss_read; }
ecn_b() { cat /sys/class/infiniband/mrcB/ports/1/hw_counters/path_ecn_marks; }

# marked TAG DEV PROG: PROG from hostB (the requester) through queues
# that mark on DEV; the routers marked, no data was dropped, and hostB
# counted marks, no more than were made. The routers drop nothing either
# way: acknowledgments are ECN-capable too (towards hostB, those of
# hostB's READ requests share the responses' fq_codel flows, where codel
# dropped them when they were not), and no READ response is judged lost.
marked() {
	local tag=$1 dev=$2 prog=$3 m0 d0 e0 l0 m d e l
	m0=$(codel_sum "$dev" marked) d0=$(codel_sum "$dev" dropped) e0=$(ecn_b)
	l0=$(losses_b)
	pair "$tag: $prog -n 150 through the marking queues" 180 \
		"$prog" -d mrcA -x "$GA4" -n 150 -F -- \
		"$prog" -d mrcB -x "$GB4" -n 150 -F "$MP_A4"
	m=$(($(codel_sum "$dev" marked) - m0))
	d=$(($(codel_sum "$dev" dropped) - d0))
	e=$(($(ecn_b) - e0))
	l=$(($(losses_b) - l0))
	check "$tag: the routers marked CE ($m), the data being ECN-capable" \
		test "$m" -gt 0
	check "$tag: ... and dropped none ($d)" test "$d" -eq 0
	if [ "$tag" = READ ]; then
		check "$tag: ... and hostB judged no response lost ($l)" \
			test "$l" -eq 0
	fi
	check "$tag: hostB's EVs counted marks, at most the routers' ($e of $m)" \
		test "$e" -gt 0 -a "$e" -le "$m"
}

check "fq_codel ecn under the tbf towards hostA" codel ethA
marked WRITE ethA ib_write_bw
check "fq_codel ecn under the tbf towards hostB" codel ethB
marked READ ethB ib_read_bw

# NSCC (CC profile uet-1.0-nscc) through the same marking queues: the
# QP's state in mrc-ip -s qp show says NSCC runs, counts the bytes that
# came back marked and cut its window for them. (mp_trim checks every
# byte under NSCC.)
for dev in mrcA mrcB; do
	check "$dev: CC profile 5, uet-1.0-nscc with its defaults" \
		ip netns exec "host${dev#mrc}" mrc-ip ccprofile add dev "$dev" \
		id 5 alg uet-1.0-nscc
done
# cc_of KEY: KEY of the congestion control of hostB's newest RC QP.
cc_of() {
	local qpn
	qpn=$(rdma -j res show qp link mrcB/1 | python3 -c '
import json, sys
print([q["lqpn"] for q in json.load(sys.stdin) if q["type"] == "RC"][-1])') &&
	ip netns exec hostB mrc-ip -s -j qp show dev mrcB qpn "$qpn" |
		python3 -c 'import json, sys
print(json.load(sys.stdin)["cc"].get(sys.argv[1], ""))' "$1"
}
marks_counted() { [ "$(cc_of ecn_bytes)" -gt 0 ]; }
cut_for_marks() { [ $(($(cc_of md_cuts) + $(cc_of qa_cuts))) -gt 0 ]; }
m0=$(codel_sum ethA marked)
pair_start 240 ib_write_bw -d mrcA -x "$GA4" -D 60 -f 1 -F -- \
	env MRC_CC_PROFILE=5 ib_write_bw -d mrcB -x "$GB4" -D 60 -f 1 -F "$MP_A4"
check "NSCC WRITE: the routers mark and hostB's QP counts marked bytes" \
	wait_until 60 marks_counted
alg_and_profile() { echo "$(cc_of cc) $(cc_of cc_profile)"; }
window_in_bounds() {
	local w
	w=$(cc_of cwnd_bytes)
	[ "$w" -ge 1024 ] && [ "$w" -le 262144 ] && echo ok || echo "$w"
}
check_output "... its QP runs uet-1.0-nscc on CC profile 5" '^uet-1.0-nscc 5$' \
	alg_and_profile
check "... and NSCC cut its window for them (MD or QuickAdapt)" \
	wait_until 30 cut_for_marks
check_output "... a window of 1 MTU to 256 KiB" '^ok$' window_in_bounds
pair_stop
pair_finish "NSCC WRITE: ib_write_bw ran to its end"
echo "# NSCC: the routers marked $(($(codel_sum ethA marked) - m0))" | diag

# Sharing: 2 WRITE streams (one QP each) from hostA through the marking
# queues towards hostB, under each CC. Both run to their end, and
# neither starves: Jain's index of their goodputs at least 0.9 (the
# slower gets at least half the faster one's). make bench's cc_fair
# measures it over 1 s windows against 0.95.
jain() {
	jq -s 'map(.goodput_mbit) |
		if (map(. * .) | add) > 0 then
			(add * add) / (length * (map(. * .) | add)) * 1000 | floor
		else 0 end' "$1"
}
S=/run/mp_ecn
mkdir -p "$S"
for prof in 0 5; do
	mp_streams_start "$S" 2 4 "$prof"
	mp_streams_wait "$S"
	check "CC profile $prof: 2 streams through the marking queues ran to their end" \
		mp_streams_ended_well $? "$S"
	j=$(jain "$S/results")
	check "CC profile $prof: Jain's index of their goodputs 0.$j, at least 0.9" \
		test "$j" -ge 900
	jq -c '{goodput_mbit}' "$S/results" | diag
done

mp_teardown
check_dmesg_clean
done_testing
