# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 600
# Hand-made packets from a hostile peer: none may cost the receiver
# anything it cannot give back.
# - Datagrams to QP1 longer than the MAD layer's receive buffers are
#   dropped without using up those buffers: rdma_cm works afterwards.
# - An IPv6 packet from an IPv4-mapped source (which 6.1's UDPv6
#   delivers) does not pass as the IPv4 peer of a connected QP.
. ../lib.sh

CRAFT="python3 $MRC_TOP/selftests/vm/mrc-craft.py"

dmesg_mark
two_hosts
modprobe rdma_ucm

pair "rping -V before the flood" 60 \
	rping -s -a 10.0.0.1 -V -C 20 -- \
	rping -c -a 10.0.0.1 -V -C 20

# QP1's MAD receive buffers hold 296 bytes (GRH + MAD); 888 do not fit.
# The MAD layer posts 512 of them, so 1000 would use every one up if
# each consumed one.
n0=$(hw_counter mrcA rcvd_ud_too_long)
check_output "1000 oversized datagrams to QP1 of hostA" '^sent 1000$' \
	ip netns exec hostB $CRAFT ud-flood 10.0.0.1 --count 1000 --len 888
sleep 1
n1=$(hw_counter mrcA rcvd_ud_too_long)
if [ $((n1 - n0)) -ge 900 ]; then
	ok "rcvd_ud_too_long counted them ($((n1 - n0)))"
else
	not_ok "rcvd_ud_too_long counted $((n1 - n0)) of 1000"
fi
pair "rping -V after the flood (QP1 keeps its buffers)" 60 \
	rping -s -a 10.0.0.1 -V -C 20 -- \
	rping -c -a 10.0.0.1 -V -C 20

# A connected IPv4 QP on hostA (the rc_pingpong server), and packets for
# it from ::ffff:10.0.0.2, its peer's address in IPv4-mapped form.
timeout 60 ip netns exec hostA ibv_rc_pingpong -d mrcA -g "$GA4" -n 100000 \
	> /tmp/srv.log 2>&1 &
srv=$!
wait_until 20 bash -c "ip netns exec hostA ss -Hltn | grep -q ."
timeout 60 ip netns exec hostB ibv_rc_pingpong -d mrcB -g "$GB4" -n 100000 \
	10.0.0.1 > /tmp/cli.log 2>&1 &
cli=$!
qpn=$(wait_rc_qpn 20 hostA mrcA)
if [ -n "$qpn" ]; then
	ok "a connected RC QP on hostA (QPN $qpn)"
else
	not_ok "no connected RC QP on hostA"
	qpn=0
fi
dmac=$(ip netns exec hostA cat /sys/class/net/vethA/address)
# Before the check, such packets passed as the peer's and reached the
# PSN window checks; now each one counts as not from the peer.
w0=$(hw_counter mrcA rcvd_wrong_peer)
check_output "20 SENDs from ::ffff:10.0.0.2 onto the wire" '^sent 20$' \
	ip netns exec hostB $CRAFT spoof-v6 vethB --dmac "$dmac" \
	--src ::ffff:10.0.0.2 --dst fd00::1 --dqpn "$qpn" --count 20
sleep 1
w1=$(hw_counter mrcA rcvd_wrong_peer)
if [ $((w1 - w0)) -eq 20 ]; then
	ok "IPv4-mapped IPv6 source: dropped as not the peer"
else
	not_ok "IPv4-mapped IPv6 source: rcvd_wrong_peer +$((w1 - w0)), want +20"
fi
kill "$cli" "$srv" 2>/dev/null
wait "$cli" "$srv" 2>/dev/null

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
