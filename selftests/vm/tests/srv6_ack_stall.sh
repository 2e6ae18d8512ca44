# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Spurious timeouts give their EVs back at once. hostB writes to hostA
# over three uSID containers (spines 0:1..0:3); hostA has no EV profile,
# so its ACKs take the plain route through spine 0:0. Mid-transfer, spine
# 0:0 holds every ACK for 150 ms: the data paths work, yet the sender's
# timer fires and blames the EV of the oldest PSN, ASSUMED_BAD. The first
# ACK to arrive echoes a send time from before the timeout (Eifel): every
# EV those timeouts blamed must be GOOD again by reason loss_undone, not
# after three probe round trips (probe_ok). A VM that stalls for a
# moment does the same to every EV a timeout meets; before the fix, such
# an EV sat out most of a short transfer (srv6_ev's ping-pong once saw
# 12 of its 645 packets on one of its two EVs).
# vm-timeout: 600
# shellcheck disable=SC2317 # functions run through check and wait_until
. ../lib.sh
. ../srv6_fabric.sh

STALL_MS=150

dmesg_mark
modprobe mrc
fab_test_up 2 4
GA=$FAB_GA GB=$FAB_GB

check "mrcB path 7: GENERATED, spines 0:1..0:3, the default" \
	fab_mrc_profile B 7 1 3

ip netns exec hostB timeout 300 mrc-ip -j monitor dev mrcB evprofile 7 \
	> /run/events.json 2>&1 &
mon=$!

# qp_attr NAME: the driver attribute NAME of hostB's RC QP $qpn, the one
# seen first (empty, so 0 in arithmetic, without it). Named by its
# number: counters that went backwards between two reads were read from
# whichever RC QP came last.
qp_attr() {
	ip netns exec hostB rdma -dd res show qp link mrcB/1 lqpn "$qpn" |
		awk -v k="drv_$1" '{ for (i = 1; i < NF; i++)
			if ($i == k) v = $(i + 1) } END { print v }'
}
# acks_held add|change MS: spine 0:0 delays what it sends toward hostB
# by MS ms. Only ever changed in place during the transfer: grafting or
# deleting a root qdisc drops what is queued and, while the device is
# deactivated, what is sent meanwhile. A lost ACK makes the timeout
# needed, not spurious, and the test would blame the engine for it.
acks_held() {
	ip netns exec spine_0_0 tc qdisc "$1" dev leafB root handle 10: \
		netem delay "$2ms" limit 100000
}

check "spine 0:0 has a netem qdisc toward hostB, no delay yet" \
	acks_held add 0
# The transfer outlasts the stall by far: with perftest busy-polling the
# emulated CPU, each command below can take seconds, and a QP gone
# before the second read (-D 14 was not enough) leaves nothing to read.
pair_start 150 ib_write_bw -d mrcA -x "$GA" -D 30 -F -- \
	ib_write_bw -d mrcB -x "$GB" -D 30 -F "$FAB_MGMT_A4"
rc_qpns() {
	ip netns exec hostB rdma res show qp link mrcB/1 |
		awk '/ type RC / { for (i = 1; i < NF; i++) if ($i == "lqpn") print $(i + 1) }'
}
# connected: hostB's RC QP exists (then give it 2 s of traffic).
connected() {
	[ -n "$(rc_qpns)" ]
}
check "hostB's RC QP is up" wait_until 30 connected
# (check runs its command in a subshell: the number is read here.)
qpn=$(rc_qpns)
echo "hostB's RC QPs: $qpn" | diag
qpn=${qpn%%[[:space:]]*}
sleep 2
rto0=$(qp_attr rto_fired) spur0=$(qp_attr spurious_rto)
since=$(wc -l < /run/events.json)
check "spine 0:0 holds hostA's ACKs for $STALL_MS ms" acks_held change $STALL_MS
sleep 3
check "... and no longer" acks_held change 0
sleep 1
until_line=$(wc -l < /run/events.json)
rto1=$(qp_attr rto_fired) spur1=$(qp_attr spurious_rto)
echo "QP $qpn: rto_fired $rto0 -> $rto1, spurious_rto $spur0 -> $spur1" | diag
check "hostB's QP $qpn was there for both reads" \
	test -n "$rto0" -a -n "$rto1" -a -n "$spur0" -a -n "$spur1"
check "the sender's timer fired meanwhile ($((rto1 - rto0)) times)" \
	test $((rto1 - rto0)) -ge 1
check "... and the ACKs showed it spurious ($((spur1 - spur0)) times)" \
	test $((spur1 - spur0)) -ge 1

# The events of the stall, then for each EV a timeout made ASSUMED_BAD,
# the reason it came back: "undone" when its next event is GOOD by
# loss_undone, else that event's reason (or "none").
sed -n "$((since + 1)),${until_line}p" /run/events.json > /run/stall.json
python3 -c '
import json, sys
evs = [json.loads(l) for l in open("/run/stall.json") if l.startswith("{")]
blamed = {}
for e in evs:
    i = e.get("index")
    if e.get("state") == "assumed_bad" and e.get("reason") == "loss_timeout":
        blamed.setdefault(i, None)
    elif i in blamed and blamed[i] is None and e.get("state") == "good":
        blamed[i] = e.get("reason")
for i in sorted(blamed):
    print(i, "undone" if blamed[i] == "loss_undone" else blamed[i] or "none")
' > /run/blamed.txt
diag < /run/blamed.txt
check "timeouts made EVs ASSUMED_BAD ($(wc -l < /run/blamed.txt))" \
	test -s /run/blamed.txt
check "... and each came back GOOD by loss_undone, not by probes" \
	bash -c '! grep -qv " undone$" /run/blamed.txt'

pair_finish "ib_write_bw exits 0 (no error completion)"
ip netns exec spine_0_0 tc qdisc del dev leafB root
kill "$mon" 2>/dev/null
wait "$mon" 2>/dev/null

fab_test_down
check_dmesg_clean
done_testing
