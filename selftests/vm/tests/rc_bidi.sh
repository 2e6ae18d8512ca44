# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 480
# perftest in both directions at once (-b, issue 17: ib_write_bw -b was
# reported to exit 1 on both sides). Both programs must exit 0, and data
# must have moved both ways: each host's veth sent at least the bytes of
# all its messages, and each device sent and received at least a packet
# per 4 KiB of them (acknowledgments alone are a few bytes a message).
# The packets of a GSO run cross the veth and the receiver's IP and UDP
# layers as one train: each device received more than 1.5 packets per
# skb (one per skb without trains; 3 to 10 with them).
. ../lib.sh

dmesg_mark
two_hosts

tx_bytes() {
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/tx_bytes"
}

# counters: tx bytes of vethA and vethB, then sent and received packets
# of mrcA and mrcB, then the skbs (trains) each received.
counters() {
	echo "$(tx_bytes hostA vethA) $(tx_bytes hostB vethB)" \
		"$(hw_counter mrcA sent_pkts) $(hw_counter mrcA rcvd_pkts)" \
		"$(hw_counter mrcB sent_pkts) $(hw_counter mrcB rcvd_pkts)" \
		"$(hw_counter mrcA rcvd_trains) $(hw_counter mrcB rcvd_trains)"
}

# bidi NAME ITERS SIZE PROGRAM ARGS...: PROGRAM -b between the hosts.
bidi() {
	local name=$1 n=$2 size=$3 prog=$4 c0 c1 d i want_b want_p
	shift 4
	read -r -a c0 <<< "$(counters)"
	pair "$name: both exit 0" 150 \
		"$prog" -d mrcA -x "$GA4" -b -n "$n" -s "$size" -F "$@" -- \
		"$prog" -d mrcB -x "$GB4" -b -n "$n" -s "$size" -F "$@" 10.0.0.1
	read -r -a c1 <<< "$(counters)"
	d=()
	for i in 0 1 2 3 4 5 6 7; do
		d+=($((c1[i] - c0[i])))
	done
	want_b=$((n * size))
	want_p=$((n * size / 4096))
	diag <<< "$name: bytes sent vethA ${d[0]} vethB ${d[1]} (each >= $want_b); packets sent/rcvd mrcA ${d[2]}/${d[3]}, mrcB ${d[4]}/${d[5]} (each >= $want_p); trains rcvd mrcA ${d[6]}, mrcB ${d[7]}"
	check "$name: hostA sent its messages' bytes" test "${d[0]}" -ge "$want_b"
	check "$name: hostB sent its messages' bytes" test "${d[1]}" -ge "$want_b"
	check "$name: both devices sent and received a packet per 4 KiB" \
		test "${d[2]}" -ge "$want_p" -a "${d[3]}" -ge "$want_p" \
		-a "${d[4]}" -ge "$want_p" -a "${d[5]}" -ge "$want_p"
	check "$name: both devices received more than 1.5 packets per train" \
		test $((2 * d[3])) -gt $((3 * d[6])) -a $((2 * d[5])) -gt $((3 * d[7]))
}

# -n counts the messages of each QP.
bidi "ib_write_bw -b" 400 65536 ib_write_bw
bidi "ib_write_bw -b -q 4" 100 65536 ib_write_bw -q 4
bidi "ib_read_bw -b" 200 65536 ib_read_bw
bidi "ib_send_bw -b" 400 65536 ib_send_bw

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
