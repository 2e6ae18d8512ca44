# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 400
# Connection management survives the loss of any one QP1 datagram: each
# leaves twice (MRC_GSI_COPIES, kernel/engine/mrc_ud.c). Here both hosts drop
# every second MRC packet they send to QP1, and rdma_cm programs still
# connect and, what matters most, disconnect: rdma_destroy_id() right
# after rdma_disconnect() cancels the CM's DREQ retries, so without the
# copy a lost DREQ leaves rping's server waiting for good.
. ../lib.sh

dmesg_mark
two_hosts
modprobe rdma_ucm

# drop_half_qp1 NS DEV: DEV drops every second IPv4 MRC packet it sends
# to QP1 (20-byte IP header, UDP, then the BTH's destination QPN).
drop_half_qp1() {
	ip netns exec "$1" tc qdisc replace dev "$2" clsact &&
	ip netns exec "$1" tc filter add dev "$2" egress protocol ip \
		u32 match u8 17 0xff at 9 \
		match u16 "$MRC_PORT" 0xffff at 22 \
		match u32 1 0x00ffffff at 32 \
		action gact pass random determ drop 2
}

# qp1_dropped NS DEV: how many packets the filter has dropped so far.
qp1_dropped() {
	ip netns exec "$1" tc -s filter show dev "$2" egress |
		sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -n1
}

check "hostA drops every second QP1 packet it sends" drop_half_qp1 hostA vethA
check "hostB drops every second QP1 packet it sends" drop_half_qp1 hostB vethB

for i in 1 2 3; do
	pair "rping -V -C 10, run $i" 60 \
		rping -s -a 10.0.0.1 -V -C 10 -- \
		rping -c -a 10.0.0.1 -V -C 10
done
pair "ucmatose, 2 connections" 60 \
	ucmatose -c 2 -- \
	ucmatose -c 2 -s 10.0.0.1

a=$(qp1_dropped hostA vethA)
b=$(qp1_dropped hostB vethB)
echo "QP1 packets dropped: hostA ${a:-?}, hostB ${b:-?}" | diag
check "the filters dropped QP1 packets on both hosts" \
	test "${a:-0}" -ge 4 -a "${b:-0}" -ge 4

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
