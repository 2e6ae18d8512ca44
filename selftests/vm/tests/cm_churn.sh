# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 420
# Connection churn with stock rdma_cm programs (issue 17): cmtime opens
# and closes 100 connections; the connection manager must see each of its
# messages once, although QP1 sends each datagram twice (MRC_GSI_COPIES,
# kernel/engine/mrc_ud.c). A repeated REQ or REP makes rdma_cm answer with an MRA
# ("I am busy"), which stretches the peer's retransmission timer to about
# 68 s: one lost RTU then held the passive side for over a minute. Then a
# data-verified rping on a fresh connection.
. ../lib.sh

dmesg_mark
two_hosts
modprobe rdma_ucm

# cm_count DEV GROUP MSG: a counter of the kernel's CM for port 1 of DEV
# (GROUP cm_tx_msgs, cm_tx_retries, cm_rx_msgs or cm_rx_duplicates).
cm_count() {
	cat "/sys/class/infiniband/$1/ports/1/$2/$3"
}

cm_counters() {
	local d g
	for d in mrcA mrcB; do
		for g in cm_tx_msgs cm_tx_retries cm_rx_msgs cm_rx_duplicates; do
			echo "$d $g: $(cd "/sys/class/infiniband/$d/ports/1/$g" &&
				grep -H . -- * | grep -v ':0$' | tr '\n' ' ')"
		done
	done
}

# Connections of DEV's server still open: cm_ids other than the listener.
open_ids() {
	rdma res show cm_id | grep "link $1/1 " | grep -vc 'state LISTEN'
}

server_ids_gone() {
	[ "$(open_ids mrcA)" -eq 0 ]
}

# 1. cmtime -c 100. rdma-core 44's cmtime server (-b) never exits: its
# event loop ends only when rdma_get_cm_event() fails, on rdma_rxe too.
# So the client must finish, and the server must have torn down every
# connection it accepted; then it is stopped.
req0=$(cm_count mrcA cm_rx_msgs req)
dupa0=$(cm_count mrcA cm_rx_duplicates req)
dupb0=$(cm_count mrcB cm_rx_duplicates rep)
mra0=$(( $(cm_count mrcA cm_tx_msgs mra) + $(cm_count mrcB cm_tx_msgs mra) ))
copies0=$(hw_counter mrcA rcvd_gsi_copies 2>/dev/null || echo 0)
timeout 300 ip netns exec hostA cmtime -b 10.0.0.1 -c 100 \
	> /tmp/cmtime-srv.log 2>&1 &
srv=$!
sleep 2
check "cmtime -c 100: the client exits 0 within 120 s" \
	timeout 120 ip netns exec hostB cmtime -s 10.0.0.1 -c 100
grep -E '^(connect|disconnect) ' /tmp/cmtime-srv.log | diag
check "cmtime: the server closed every connection within 30 s" \
	wait_until 30 server_ids_gone
check "cmtime: the server still serves (it never exits by itself)" \
	kill -0 "$srv"
kill "$srv"
wait "$srv"
cm_counters | diag

req=$(( $(cm_count mrcA cm_rx_msgs req) - req0 ))
dupa=$(( $(cm_count mrcA cm_rx_duplicates req) - dupa0 ))
dupb=$(( $(cm_count mrcB cm_rx_duplicates rep) - dupb0 ))
mra=$(( $(cm_count mrcA cm_tx_msgs mra) + $(cm_count mrcB cm_tx_msgs mra) -
	mra0 ))
copies=$(( $(hw_counter mrcA rcvd_gsi_copies 2>/dev/null || echo 0) - copies0 ))
diag <<< "REQs to the CM of hostA $req, of them repeats $dupa; REPs repeated at hostB $dupb; MRAs sent $mra; QP1 copies absorbed by mrcA $copies"
# A real retransmission (a REQ unanswered for seconds on a loaded VM)
# still reaches the CM as a repeat: allow a few.
check "cmtime: the CM of hostA got each REQ once ($dupa of $req repeated)" \
	test "$dupa" -le 5 -a "$req" -ge 100
check "cmtime: the CM of hostB got each REP once ($dupb repeated)" \
	test "$dupb" -le 5
check "cmtime: no MRA answered a repeat ($mra sent)" test "$mra" -le 5
# The copies still leave (they are what survives a lost datagram) and
# the receiving QP1 absorbs them.
check "cmtime: mrcA absorbed the second copy of each datagram ($copies)" \
	test "$copies" -ge 200

# 2. A lost RTU: the passive side learns of the connection only from the
# RTU, and when it is lost the CM resends its REP after its response
# timeout (~4 s) and the active side answers it with a new RTU. hostB
# drops every CM RTU it sends (IPv4: 20-byte IP header, UDP, the 24-byte
# BTH whose destination QPN is 1, the 8-byte DETH, then the MAD: class
# 0x07 at 61, attribute 0x0014 at 76) until one was dropped.
check "hostB drops the RTUs it sends" eval \
	"ip netns exec hostB tc qdisc replace dev vethB clsact &&
	 ip netns exec hostB tc filter add dev vethB egress protocol ip \
		u32 match u8 17 0xff at 9 match u16 $MRC_PORT 0xffff at 22 \
		match u32 1 0x00ffffff at 32 match u8 7 0xff at 61 \
		match u16 0x0014 0xffff at 76 action gact drop"
rtu_dropped() {
	ip netns exec hostB tc -s filter show dev vethB egress |
		sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -n1
}
an_rtu_dropped() {
	[ "$(rtu_dropped)" -ge 1 ]
}
rep0=$(cm_count mrcA cm_tx_retries rep)
pair_start 40 ucmatose -c 1 -- ucmatose -c 1 -s 10.0.0.1
check "an RTU was dropped" wait_until 20 an_rtu_dropped
diag <<< "RTU packets dropped: $(rtu_dropped)"
ip netns exec hostB tc qdisc del dev vethB clsact
# Without the MRA the REP comes again after ~4 s; with it, after ~68 s,
# past the pair's 40 s.
pair_finish "ucmatose connects within 40 s though its RTU was lost"
rep=$(( $(cm_count mrcA cm_tx_retries rep) - rep0 ))
check "hostA resent its REP ($rep times)" test "$rep" -ge 1

# 3. A fresh connection carries verified data.
pair "rping -V -C 20 after the churn" 60 \
	rping -s -a 10.0.0.1 -V -C 20 -- \
	rping -c -a 10.0.0.1 -V -C 20

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
