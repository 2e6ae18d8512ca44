# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The RC data path recovers from loss and reordering: programs complete,
# with data verified where they can verify it, over a link with netem
# loss 1% and, separately, reordering of 25% of the packets.
. ../lib.sh

dmesg_mark
two_hosts

run_suite() {
	local tag=$1
	pair "$tag: ibv_rc_pingpong -c 4 KiB" 120 \
		ibv_rc_pingpong -d mrcA -g "$GA4" -s 4096 -n 200 -c -- \
		ibv_rc_pingpong -d mrcB -g "$GB4" -s 4096 -n 200 -c 10.0.0.1
	pair "$tag: ibv_rc_pingpong -c 64 KiB" 120 \
		ibv_rc_pingpong -d mrcA -g "$GA4" -s 65536 -n 50 -c -- \
		ibv_rc_pingpong -d mrcB -g "$GB4" -s 65536 -n 50 -c 10.0.0.1
	pair "$tag: ibv_srq_pingpong -c" 120 \
		ibv_srq_pingpong -d mrcA -g "$GA4" -s 4096 -n 100 -c -- \
		ibv_srq_pingpong -d mrcB -g "$GB4" -s 4096 -n 100 -c 10.0.0.1
	for t in ib_write_bw ib_send_bw ib_read_bw ib_atomic_bw; do
		pair "$tag: $t" 180 \
			"$t" -d mrcA -x "$GA4" -n 300 -F -- \
			"$t" -d mrcB -x "$GB4" -n 300 -F 10.0.0.1
	done
}

ip -n hostA qdisc add dev vethA root netem loss 1%
ip -n hostB qdisc add dev vethB root netem loss 1%
run_suite "loss 1%"
ip -n hostA qdisc del dev vethA root
ip -n hostB qdisc del dev vethB root

ip -n hostA qdisc add dev vethA root netem delay 1ms reorder 75% 50%
ip -n hostB qdisc add dev vethB root netem delay 1ms reorder 75% 50%
check_output "netem reorders a quarter of the packets" 'reorder 75%' \
	ip netns exec hostA tc qdisc show dev vethA
run_suite "reorder 25%"

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
