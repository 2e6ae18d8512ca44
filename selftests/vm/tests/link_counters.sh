# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# The device's packet counters (rdma statistic, hw_counters in sysfs) count
# what was sent and received, and name the reason for each receive drop.
. ../lib.sh

dmesg_mark
two_hosts

for c in sent_pkts rcvd_pkts rcvd_malformed rcvd_unknown_qp rcvd_wrong_peer \
	 rcvd_qp_not_ready rcvd_out_of_window rcvd_duplicate rcvd_rnr_gated \
	 rcvd_no_state tx_no_route sent_acks_carried rcvd_probe_limited \
	 ep_probes_sent ep_probes_answered rcvd_ep_unmatched rcvd_bad_encap \
	 rcvd_encap_src; do
	check_output "mrcB counts $c, from 0" '^0$' hw_counter mrcB "$c"
done
check_output "rdma statistic shows the counters" \
	'^link mrcB/1 sent_pkts 0 rcvd_pkts 0 rcvd_malformed 0 ' \
	ip netns exec hostB rdma statistic show link mrcB/1

pair "ibv_rc_pingpong -n 100" 60 \
	ibv_rc_pingpong -d mrcA -g "$GA4" -s 4096 -n 100 -c -- \
	ibv_rc_pingpong -d mrcB -g "$GB4" -s 4096 -n 100 -c 10.0.0.1
sa=$(hw_counter mrcA sent_pkts)
rb=$(hw_counter mrcB rcvd_pkts)
sb=$(hw_counter mrcB sent_pkts)
ra=$(hw_counter mrcA rcvd_pkts)
check "100 messages each way: at least 100 packets sent by each ($sa, $sb)" \
	test "$sa" -ge 100 -a "$sb" -ge 100
# A veth loses nothing: every packet one side sent, the other received.
check "mrcB received all that mrcA sent ($rb of $sa)" test "$rb" -eq "$sa"
check "mrcA received all that mrcB sent ($ra of $sb)" test "$ra" -eq "$sb"
# A veth loses nothing, but a loaded TCG guest stalls longer than an RTO
# now and then: the retransmission that follows arrives as a duplicate.
# So the count is a figure (rc_check and the bench judge retransmission).
echo "duplicates at mrcB: $(hw_counter mrcB rcvd_duplicate)" | diag
# The QP destroyed last acknowledges once more, to a QP already gone.
wait_until 5 bash -c \
	"cat /sys/class/infiniband/mrc[AB]/ports/1/hw_counters/rcvd_unknown_qp |
	 grep -qvx 0"
lateacks=$(( $(hw_counter mrcA rcvd_unknown_qp) + $(hw_counter mrcB rcvd_unknown_qp) ))
check "a final ACK on destroy reaches the peer's gone QP ($lateacks)" \
	test "$lateacks" -ge 1

# Junk to the MRC port is counted as malformed, and nothing else moves.
# (rcvd_unknown_qp may count a final ACK already, above.)
before=$(hw_counter mrcB rcvd_pkts)
unknown=$(hw_counter mrcB rcvd_unknown_qp)
ip netns exec hostA bash -c "printf 'not an MRC packet' > /dev/udp/10.0.0.2/$MRC_PORT"
wait_until 5 grep -qx 1 /sys/class/infiniband/mrcB/ports/1/hw_counters/rcvd_malformed
check_output "a junk datagram counts as rcvd_malformed" '^1$' hw_counter mrcB rcvd_malformed
check_output "...and as received" "^$((before + 1))\$" hw_counter mrcB rcvd_pkts
check_output "...and as nothing else" "^$unknown\$" hw_counter mrcB rcvd_unknown_qp

# In a ping-pong each side's ACK rides on its answer and saves a packet.
# How many ride depends on how fast the program answers (within a tick:
# the clock of a loaded VM), so that share is a figure, not a verdict.
# The counters must show that riding happens and saves packets: without
# it, each of the 2000 messages (one packet each) costs an ACK packet,
# and each retransmission (a duplicate at the receiver) two packets more.
both() {
	echo $(( $(hw_counter mrcA "$1") + $(hw_counter mrcB "$1") ))
}
carried0=$(both sent_acks_carried)
sent0=$(both sent_pkts)
dup0=$(both rcvd_duplicate)
pair "ibv_rc_pingpong -s 64 -n 1000" 120 \
	ibv_rc_pingpong -d mrcA -g "$GA4" -s 64 -n 1000 -c -- \
	ibv_rc_pingpong -d mrcB -g "$GB4" -s 64 -n 1000 -c 10.0.0.1
carried=$(( $(both sent_acks_carried) - carried0 ))
sent=$(( $(both sent_pkts) - sent0 ))
dup=$(( $(both rcvd_duplicate) - dup0 ))
echo "ping-pong: $carried of 2000 ACKs carried, $sent packets for 2000" \
	"messages, $dup duplicates" | diag
check "ACKs ride on the answers ($carried of 2000 carried)" test "$carried" -ge 1
check "riding ACKs saved packets: $sent < 4000 + 2 x $dup duplicates" \
	test "$sent" -lt $((4000 + 2 * dup))
check "every message sent: at least 2000 packets ($sent)" test "$sent" -ge 2000

check_dmesg_clean
done_testing
