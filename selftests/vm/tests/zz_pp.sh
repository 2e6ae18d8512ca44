# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 600
# temporary: loop the 64 KiB pingpong under loss
. ../lib.sh
dmesg_mark
two_hosts
ip netns exec hostA tc qdisc replace dev vethA root netem loss 1%
ip netns exec hostB tc qdisc replace dev vethB root netem loss 1%
for i in $(seq 1 40); do
	pair "pp4k $i" 120 \
		ibv_rc_pingpong -d mrcA -g "$GA4" -s 4096 -n 200 -c -- \
		ibv_rc_pingpong -d mrcB -g "$GB4" -s 4096 -n 200 -c 10.0.0.1
	pair "pp $i" 120 \
		ibv_rc_pingpong -d mrcA -g "$GA4" -s 65536 -n 50 -c -- \
		ibv_rc_pingpong -d mrcB -g "$GB4" -s 65536 -n 50 -c 10.0.0.1
	if ! grep -q "iters" /tmp/srv.log || ! grep -q "iters" /tmp/cli.log; then
		ip netns exec hostA rdma statistic show link mrcA/1 | diag
		ip netns exec hostB rdma statistic show link mrcB/1 | diag
		dmesg | tail -20 | diag
	fi
done
done_testing
