# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-group: rc
# vm-timeout: 300
# Unmodified UD programs over MRC between two hosts: ibv_ud_pingpong
# (AHs from GIDs), ib_send_bw -c UD, and udaddy (rdma_cm's UDP port
# space: SIDR on QP1, then datagrams), each to completion; then
# ib_send_bw -c UD again at 1% loss.
# mrc-rc-check's ud-send (rc_check.sh) compares the bytes; here the
# device counters show that the datagrams crossed MRC.
. ../lib.sh

dmesg_mark
two_hosts

sent() { cat /sys/class/infiniband/mrcB/ports/1/hw_counters/sent_pkts; }

s0=$(sent)
pair "ibv_ud_pingpong -s 1024 -n 200" 60 \
	ibv_ud_pingpong -d mrcA -g "$GA4" -s 1024 -n 200 -c -- \
	ibv_ud_pingpong -d mrcB -g "$GB4" -s 1024 -n 200 -c 10.0.0.1
s1=$(sent)
check "ibv_ud_pingpong's 200 datagrams left mrcB (sent_pkts +$((s1 - s0)))" \
	test $((s1 - s0)) -ge 200
pair "ib_send_bw -c UD -s 1024" 120 \
	ib_send_bw -d mrcA -x "$GA4" -c UD -s 1024 -n 500 -F -- \
	ib_send_bw -d mrcB -x "$GB4" -c UD -s 1024 -n 500 -F 10.0.0.1
pair "udaddy (rdma_cm, RDMA_PS_UDP)" 60 \
	udaddy -b 10.0.0.1 -C 20 -- \
	udaddy -s 10.0.0.1 -b 10.0.0.2 -C 20

# At 1% loss UD loses datagrams and nothing else: no retransmission, no
# error, both sides run to their end (by time: with a count the server
# waits for datagrams that will never come).
rcvd() { cat /sys/class/infiniband/mrcA/ports/1/hw_counters/rcvd_pkts; }
ip netns exec hostB tc qdisc add dev vethB root netem loss 1%
s0=$(sent)
r0=$(rcvd)
pair "ib_send_bw -c UD -D 3 at 1% loss" 60 \
	ib_send_bw -d mrcA -x "$GA4" -c UD -s 1024 -D 3 -F -- \
	ib_send_bw -d mrcB -x "$GB4" -c UD -s 1024 -D 3 -F 10.0.0.1
s1=$(sent)
r1=$(rcvd)
drops=$(ip netns exec hostB tc -s qdisc show dev vethB |
	sed -n 's/.*(dropped \([0-9]*\),.*/\1/p')
check "netem dropped datagrams ($drops of $((s1 - s0)))" test "${drops:-0}" -gt 0
check "mrcA received fewer than mrcB sent ($((r1 - r0)) of $((s1 - s0)))" \
	test $((r1 - r0)) -gt 0 -a $((r1 - r0)) -lt $((s1 - s0))
ip netns exec hostB tc qdisc del dev vethB root

done_testing
