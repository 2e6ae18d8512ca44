# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 900
# READs of 4 to 8 MiB (4000 to 8192 response packets at MTU 1024, far
# more than the requester's 1024-PSN window) between two namespaces, over
# a link that loses 2% of the packets each way: mrc-rc-check's read-large
# scenario must complete every READ with success and find every byte of
# the destination (and nothing outside it) as the source held it. A
# selective-repeat transport finishes them; the stock retry count (7)
# must not run out. Lost responses are found from the responses that
# did come, those at a chunk's end with the tail loss probe's answer
# (multipath.rst, loss recovery), more often than by the timeout.
. ../lib.sh

CHECK=$MRC_BUILD/selftests/progs/mrc-rc-check
dmesg_mark
two_hosts
ARGS=(--dev-a mrcA --gid-a "$GA4" --dev-b mrcB --gid-b "$GB4" --wait-ms 240000)

check_output "no loss: mrc-rc-check read-large" '^ok read-large' \
	timeout 300 "$CHECK" "${ARGS[@]}" read-large

check "netem loss 2% on hostA" \
	ip netns exec hostA tc qdisc replace dev vethA root netem loss 2%
check "netem loss 2% on hostB" \
	ip netns exec hostB tc qdisc replace dev vethB root netem loss 2%
# both NAME: the hardware counter NAME of mrcA and mrcB, summed.
both() {
	echo $(($(cat /sys/class/infiniband/mrcA/ports/1/hw_counters/"$1") +
		$(cat /sys/class/infiniband/mrcB/ports/1/hw_counters/"$1")))
}
# found: the losses found from what did arrive (gaps, time rule, READ
# holes), not by the timeout.
found() {
	echo $(($(both path_loss_gap) + $(both path_loss_sack) +
		$(both path_loss_read)))
}
found0=$(found) rto0=$(both path_loss_timeout)
for i in 1 2; do
	check_output "loss 2%, run $i: mrc-rc-check read-large" '^ok read-large' \
		timeout 300 "$CHECK" "${ARGS[@]}" read-large
done
found=$(($(found) - found0))
rto=$(($(both path_loss_timeout) - rto0))
check "loss 2%: $found losses found from the responses, over 2 x the $rto timeouts" \
	test "$found" -gt $((2 * rto))
check_output "netem dropped packets on hostA" 'dropped [1-9]' \
	ip netns exec hostA tc -s qdisc show dev vethA
check_output "netem dropped packets on hostB" 'dropped [1-9]' \
	ip netns exec hostB tc -s qdisc show dev vethB

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
