# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 600
# Objects destroyed while packets for them arrive (issue 17, defect 10):
# the receive path finds QPs and MRs under RCU, and destroy must not free
# them while a lookup still holds one. ib_write_bw streams WRITEs, and
# one side is killed with SIGKILL mid-stream, so that its QPs and MRs go
# while the peer's packets keep arriving; the other side follows a second
# later. Repeated, with slab poisoning on: a use after free shows as a
# slub report in dmesg. rcvd_unknown_qp proves that packets did arrive
# for QPs just destroyed. A race test: it exercises the window, it cannot
# prove its absence. make check runs 6 rounds; make soak runs more
# (MRC_CHURN_ROUNDS).
. ../lib.sh

ROUNDS=${MRC_CHURN_ROUNDS:-6}
CHECK=$MRC_BUILD/selftests/progs/mrc-rc-check

# kill_ns NS: SIGKILL every process of namespace NS.
kill_ns() {
	local p
	for p in $(ip netns pids "$1"); do
		kill -9 "$p" 2>/dev/null
	done
}

dmesg_mark
two_hosts
u0=$(( $(hw_counter mrcA rcvd_unknown_qp) + $(hw_counter mrcB rcvd_unknown_qp) ))
flowed=0
for ((r = 1; r <= ROUNDS; r++)); do
	pair_start 60 ib_write_bw -d mrcA -x "$GA4" -D 30 -F -s 65536 -- \
		ib_write_bw -d mrcB -x "$GB4" -D 30 -F -s 65536 10.0.0.1
	p0=$(hw_counter mrcB sent_pkts)
	sleep 2
	[ "$(hw_counter mrcB sent_pkts)" -gt $((p0 + 100)) ] && flowed=$((flowed + 1))
	# Odd rounds kill the responder (its MRs take WRITEs), even ones the
	# requester (its QP takes ACKs).
	if ((r % 2)); then first=hostA second=hostB; else first=hostB second=hostA; fi
	kill_ns "$first"
	sleep 1
	kill_ns "$second"
	wait "$_pair_cli" "$_pair_srv" 2>/dev/null
done
u1=$(( $(hw_counter mrcA rcvd_unknown_qp) + $(hw_counter mrcB rcvd_unknown_qp) ))
diag <<< "$ROUNDS rounds, traffic flowing in $flowed; rcvd_unknown_qp +$((u1 - u0))"
check "traffic flowed when each side was killed ($flowed of $ROUNDS)" \
	test "$flowed" -eq "$ROUNDS"
check "packets arrived for QPs just destroyed (rcvd_unknown_qp +$((u1 - u0)))" \
	test $((u1 - u0)) -gt 0
check "no QP left behind" bash -c \
	"! rdma res show qp | grep -q ' type RC '"
check_output "a fresh connection moves verified data" '^ok read' \
	timeout 120 "$CHECK" --dev-a mrcA --gid-a "$GA4" --dev-b mrcB \
	--gid-b "$GB4" write read
ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
