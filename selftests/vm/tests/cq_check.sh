# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# Completion queues checked by mrc-cq-check: a CQ given one completion more
# than its depth overflows (IBV_EVENT_CQ_ERR, the QP to the error state, the
# queued completions intact, nothing after them), and ibv_resize_cq keeps
# queued completions in order or refuses a size below them.
. ../lib.sh

CHECK=$MRC_BUILD/selftests/progs/mrc-cq-check
dmesg_mark
two_hosts
ARGS=(--dev-a mrcA --gid-a "$GA4" --dev-b mrcB --gid-b "$GB4")

for s in $("$CHECK" --list); do
	check_output "mrc-cq-check $s" "^ok $s" timeout 120 "$CHECK" "${ARGS[@]}" "$s"
done

# overflow-send overflowed a CQ of mrcA, overflow-recv one of mrcB: each is
# named in the log once.
overflows() {
	dmesg | grep -Ec "\] $1: cq [0-9]+ overflowed \(depth [0-9]+, [0-9]+ unpolled, qp [0-9]+\)"
}
check_output "mrcA: the send CQ overflow is logged once" '^1$' overflows mrcA
check_output "mrcB: the recv CQ overflow is logged once" '^1$' overflows mrcB

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
