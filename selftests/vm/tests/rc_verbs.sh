# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 600
# Unmodified libibverbs programs over MRC between two hosts (network
# namespaces joined by a veth pair) complete. rping -V compares every
# ping; ibv_rc_pingpong -c checks only one byte a page, which is always 0,
# so its points claim completion, not data (pair_finish still fails on
# the "invalid data" it may print). mrc-rc-check (rc_check.sh) checks the
# data byte for byte.
. ../lib.sh

dmesg_mark
two_hosts

for size in 1 4096 65536; do
	pair "ibv_rc_pingpong IPv4 -s $size -n 100" 60 \
		ibv_rc_pingpong -d mrcA -g "$GA4" -s "$size" -n 100 -c -- \
		ibv_rc_pingpong -d mrcB -g "$GB4" -s "$size" -n 100 -c 10.0.0.1
done
pair "ibv_rc_pingpong IPv6 -s 4096 -n 100" 60 \
	ibv_rc_pingpong -d mrcA -g "$GA6" -s 4096 -n 100 -- \
	ibv_rc_pingpong -d mrcB -g "$GB6" -s 4096 -n 100 10.0.0.1
pair "ibv_rc_pingpong -e (completion events) -s 4096" 60 \
	ibv_rc_pingpong -d mrcA -g "$GA4" -s 4096 -n 100 -e -- \
	ibv_rc_pingpong -d mrcB -g "$GB4" -s 4096 -n 100 -e 10.0.0.1
pair "ibv_srq_pingpong -s 4096" 60 \
	ibv_srq_pingpong -d mrcA -g "$GA4" -s 4096 -n 100 -- \
	ibv_srq_pingpong -d mrcB -g "$GB4" -s 4096 -n 100 10.0.0.1

for t in ib_write_bw ib_send_bw ib_read_bw ib_atomic_bw; do
	pair "$t" 120 \
		"$t" -d mrcA -x "$GA4" -n 200 -F -- \
		"$t" -d mrcB -x "$GB4" -n 200 -F 10.0.0.1
done
for t in ib_write_lat ib_send_lat ib_read_lat; do
	pair "$t" 120 \
		"$t" -d mrcA -x "$GA4" -n 200 -F -- \
		"$t" -d mrcB -x "$GB4" -n 200 -F 10.0.0.1
done

# rdma_cm: address and route resolution from the GID table, connection
# management MADs over QP1.
modprobe rdma_ucm
pair "rping -V -C 1000 (rdma_cm, every ping compared)" 180 \
	rping -s -a 10.0.0.1 -V -C 1000 -- \
	rping -c -a 10.0.0.1 -V -C 1000
pair "ucmatose (rdma_cm)" 120 \
	ucmatose -- \
	ucmatose -s 10.0.0.1
pair "ucmatose IPv6 (rdma_cm)" 120 \
	ucmatose -b fd00::1 -- \
	ucmatose -s fd00::1

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
