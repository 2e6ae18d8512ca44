# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-group: rc
# vm-timeout: 300
# Unmodified UC programs over MRC between two hosts: ibv_uc_pingpong
# and ib_write_bw -c UC to completion (mrc-rc-check's uc scenario, in
# rc_check, compares the bytes of SENDs and WRITEs); then, at 1%
# loss, ib_write_bw -c UC still completes (UC never retransmits, so
# nothing waits for a lost packet) and the receiver drops the messages
# that lost one (rcvd_uc_dropped) instead of placing them half.
. ../lib.sh

dmesg_mark
two_hosts

pair "ibv_uc_pingpong -s 4096 -n 200" 60 \
	ibv_uc_pingpong -d mrcA -g "$GA4" -s 4096 -n 200 -c -- \
	ibv_uc_pingpong -d mrcB -g "$GB4" -s 4096 -n 200 -c 10.0.0.1
pair "ib_write_bw -c UC -s 65536" 120 \
	ib_write_bw -d mrcA -x "$GA4" -c UC -s 65536 -n 500 -F -- \
	ib_write_bw -d mrcB -x "$GB4" -c UC -s 65536 -n 500 -F 10.0.0.1
check_output "no message was dropped without loss (rcvd_uc_dropped)" '^0$' \
	hw_counter mrcA rcvd_uc_dropped

ip netns exec hostB tc qdisc add dev vethB root netem loss 1%
pair "ib_write_bw -c UC -s 65536 at 1% loss" 120 \
	ib_write_bw -d mrcA -x "$GA4" -c UC -s 65536 -n 300 -F -- \
	ib_write_bw -d mrcB -x "$GB4" -c UC -s 65536 -n 300 -F 10.0.0.1
d=$(hw_counter mrcA rcvd_uc_dropped)
check "messages that lost a packet were dropped (rcvd_uc_dropped $d)" \
	test "$d" -gt 0
ip netns exec hostB tc qdisc del dev vethB root

done_testing
