# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 600
# RC semantics checked byte for byte by mrc-rc-check: data placement for
# every operation, with zero-copy transmit and without, IB ordering,
# remote access errors that leave memory untouched, an MR deregistered
# while its WRITE is in flight, receiver-not-ready waits and their
# exhaustion, and retry exhaustion when the link is cut.
. ../lib.sh

CHECK=$MRC_BUILD/selftests/progs/mrc-rc-check
dmesg_mark
two_hosts
ARGS=(--dev-a mrcA --gid-a "$GA4" --dev-b mrcB --gid-b "$GB4")

sent_a() { cat /sys/class/infiniband/mrcA/ports/1/hw_counters/sent_pkts; }
zc_a() { cat /sys/class/infiniband/mrcA/ports/1/hw_counters/sent_zerocopy; }
ZC=/sys/module/mrc/parameters/tx_zerocopy

for s in $("$CHECK" --list | grep -vxE "retry-exceeded|trimmed-write|train-bounds|short-send|duplicate-send|srq-flush-taken|dereg-in-flight"); do
	[ "$s" = write ] && p0=$(sent_a) z0=$(zc_a)
	check_output "mrc-rc-check $s" "^ok $s" timeout 120 "$CHECK" "${ARGS[@]}" "$s"
	[ "$s" = write ] && p1=$(sent_a) z1=$(zc_a)
done

# Runs of WRITE packets from a user MR leave without a copy: most of the
# write scenario's packets (its one-packet WRITEs and resends copy).
check "the write scenario sent $((z1 - z0)) of its $((p1 - p0)) packets without a copy" \
	test $((z1 - z0)) -gt $(((p1 - p0) / 2))

# The source MR deregistered and unmapped with packets still queued:
# which way it ended (success, or LOC_PROT_ERR) goes in the log.
check_output "mrc-rc-check dereg-in-flight" "^ok dereg-in-flight" \
	sh -c "timeout 120 $CHECK ${ARGS[*]} dereg-in-flight > /tmp/dereg.log 2>&1; rc=\$?; cat /tmp/dereg.log; exit \$rc"
grep '^# dereg-in-flight' /tmp/dereg.log | diag

# With tx_zerocopy off every run is copied, byte for byte the same.
check "tx_zerocopy turns off" sh -c "echo N > $ZC"
z0=$(zc_a)
check_output "mrc-rc-check write, payload copied" "^ok write" \
	timeout 120 "$CHECK" "${ARGS[@]}" write
check_output "nothing sent without a copy meanwhile" "^$z0\$" zc_a
echo Y > $ZC

# WRITE packets fill the 1500-byte link: 1408 bytes of payload each,
# where path MTU 1024 would carry 1024. The scenario writes 9514241
# bytes; its small WRITEs, probes and resends lower the mean a little.
n=$((p1 - p0))
check "the write scenario's 9514241 bytes left A in $n packets (over 1300 bytes each)" \
	test "$n" -gt 0 -a $((9514241 / (n > 0 ? n : 1))) -gt 1300

# Cut the link after connecting: the sender must give up with
# IBV_WC_RETRY_EXC_ERR and flush what follows, not hang; and not before
# it has tried for the timeout attribute times retry_cnt + 1 (timeout 16,
# 1.024 us * 2^16 = 67 ms; retry_cnt 2: 201 ms), as a NIC would, although
# its timer resends every few ms.
rm -f /tmp/go
timeout 120 "$CHECK" "${ARGS[@]}" --retry-cnt 2 --timeout 16 \
	--wait-file /tmp/go retry-exceeded > /tmp/retry.log 2>&1 &
pid=$!
wait_until 30 grep -q connected /tmp/retry.log
ip -n hostB link set vethB down
touch /tmp/go
wait $pid
check_output "link cut: IBV_WC_RETRY_EXC_ERR after the attributes' time, then flush" \
	'^ok retry-exceeded' cat /tmp/retry.log
sed -n 's/^# \(retry-exceeded: \)/\1/p' /tmp/retry.log | diag
# One line in the kernel log for the operator: how long and how many
# timeouts without progress, and each EV's state (the EVs the timeouts
# blamed read B; the QP's 64 EVs cannot all have been tried in 3).
check_output "... and one kernel log line says why: the wait, the timeouts, each EV's state" \
	'qp [0-9]+: retry count exceeded, [0-9]+ ms and [0-9]+ timeouts without progress .*EVs [GBD]*B[GBD]*\)$' \
	bash -c "dmesg | grep 'retry count exceeded' | tail -n 1"
ip -n hostB link set vethB up

# Scenarios where the script sends B a hand-made packet from A's address
# while mrc-rc-check waits. crafted_start SCENARIO starts it and sets qpn
# and psn from its "TAG qpn Q psn P" line; crafted_go lets it go on once
# B counted the packet (hw counter CTR above V) and leaves its output in
# /tmp/crafted.log.
crafted_start() {
	rm -f /tmp/go
	timeout 120 "$CHECK" "${ARGS[@]}" --wait-file /tmp/go "$1" \
		> /tmp/crafted.log 2>&1 &
	pid=$!
	wait_until 30 grep -q -- '-target qpn' /tmp/crafted.log
	set -- $(grep -m1 -- '-target qpn' /tmp/crafted.log)
	qpn=${3:-0} psn=${5:-0}
}

crafted_go() {
	wait_until 5 bash -c "[ \$(cat /sys/class/infiniband/mrcB/ports/1/hw_counters/$1) -gt $2 ]"
	touch /tmp/go
	wait $pid
}

craft() {
	ip netns exec hostA python3 "$MRC_TOP/selftests/vm/mrc-craft.py" "$@"
}

# A trimming switch passes on the headers of a WRITE packet without its
# payload: the receiver must NACK it (TRIMMED) and take the real packet
# when it comes, not count the PSN as delivered.
t0=$(hw_counter mrcB rcvd_trimmed)
crafted_start trimmed-write
check_output "a trimmed WRITE packet from A's address" '^sent 1$' \
	craft trim-write 10.0.0.2 --dqpn "$qpn" --psn "$psn" --len 1000
crafted_go rcvd_trimmed "$t0"
check_output "trimmed packet NACKed, the WRITE then lands whole" '^ok trimmed-write' \
	cat /tmp/crafted.log
check_output "rcvd_trimmed counted it" "^$((t0 + 1))\$" hw_counter mrcB rcvd_trimmed

# Two one-packet WRITEs as one train, both with B's R_Key: the first at
# the start of B's MR, the second just past its end. The train keeps the
# MR the first found and checks the second against it: refused, B's QP
# fails, the first's bytes are in place and nothing past the MR changed.
p0=$(hw_counter mrcB rcvd_pkts)
r0=$(hw_counter mrcB rcvd_trains)
crafted_start train-bounds
read -r _ _ _ _ _ _ rkey _ va _ len <<<"$(grep -m1 -- '-target qpn' /tmp/crafted.log)"
check_output "two WRITEs in one datagram from A's address, the second past B's MR" \
	'^sent 2 in 1 datagram$' craft write-train 10.0.0.2 --dqpn "$qpn" --psn "$psn" \
	--rkey "${rkey:-0}" --va "${va:-0}" --len 512 --past "${len:-0}"
crafted_go rcvd_pkts "$p0"
check_output "train: the first lands, the one past the MR is refused, B's QP fails" \
	'^ok train-bounds' cat /tmp/crafted.log
np=$(($(hw_counter mrcB rcvd_pkts) - p0)) nt=$(($(hw_counter mrcB rcvd_trains) - r0))
check "... the two came as one train ($np packets in $nt trains)" test $((np - nt)) -ge 1

# A SEND of two packets that bring 1000 bytes but state 3000: all its
# PSNs arrived, not its bytes. The receive must not complete as a success.
t0=$(hw_counter mrcB rcvd_short_msg)
p0=$(hw_counter mrcB rcvd_pkts)
crafted_start short-send
check_output "a SEND stating 3000 bytes, bringing 1000, from A's address" \
	'^sent 2$' craft short-send 10.0.0.2 --dqpn "$qpn" --psn "$psn" \
	--len 1000 --claim 3000
crafted_go rcvd_pkts "$p0"
check_output "short SEND: the receive completes with IBV_WC_LOC_LEN_ERR" \
	'^ok short-send' cat /tmp/crafted.log
check_output "rcvd_short_msg counted it" "^$((t0 + 1))\$" hw_counter mrcB rcvd_short_msg

# A SEND and then the same packet as a retransmission, as from a sender
# whose timer fired although the first copy arrived. Nothing asked for an
# ACK before the copy: B's answer to it must echo the first copy's time
# (0x1000, not the copy's 0x2000), so that the sender sees its timeout
# spurious and gives back the EV it blamed, and say by its service time
# (0xffff) that it times nothing.
crafted_start duplicate-send
d0=$(hw_counter mrcB rcvd_duplicate)
craft dup-send 10.0.0.2 --dqpn "$qpn" --psn "$psn" --dev vethA > /tmp/dup.log 2>&1
diag < /tmp/dup.log
check_output "a SEND, then the same as a retransmission, from A's address" \
	'^sent 2$' cat /tmp/dup.log
check "... B's one ACK echoes the first copy's time, and no sample" \
	test "$(grep '^ack ' /tmp/dup.log)" = "ack echo 0x1000 svc 65535"
crafted_go rcvd_duplicate "$d0"
check_output "the SEND completes once, its 16 bytes in place" '^ok duplicate-send' \
	cat /tmp/crafted.log

# The first packet of a SEND that never ends takes one of the SRQ's WQEs
# for B's QP; when that QP fails, the WQE comes back as flushed.
crafted_start srq-flush-taken
p0=$(hw_counter mrcB rcvd_pkts)
check_output "the first packet of a 3000-byte SEND to B's SRQ QP" \
	'^sent 1$' craft short-send 10.0.0.2 --dqpn "$qpn" --psn "$psn" \
	--len 2000 --claim 3000 --first-only
crafted_go rcvd_pkts "$p0"
check_output "SRQ WQE taken by an unfinished message: flushed when the QP fails" \
	'^ok srq-flush-taken' cat /tmp/crafted.log

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
