# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 300
# What a program's RDMA objects cost the kernel is charged to the memory
# cgroup of that program (issues 17 and 34), so memory.max bounds it as it
# bounds the program's own memory. mrc-charge-check creates objects from inside
# a fresh cgroup and prints how much its memory.current grew.
. ../lib.sh

PROG=$MRC_BUILD/selftests/progs/mrc-charge-check
CG=/sys/fs/cgroup

[ -e $CG/cgroup.controllers ] || mount -t cgroup2 none $CG
echo +memory > $CG/cgroup.subtree_control
mkdir -p $CG/mrc-charge

# in_cgroup CMD...: run CMD as a member of the test's cgroup.
in_cgroup() {
	bash -c 'echo $$ > '"$CG"'/mrc-charge/cgroup.procs && exec "$@"' _ "$@"
}

dmesg_mark
two_hosts
max_cqe=$(ibv_devinfo -v -d mrcA | awk '/max_cqe:/ { print $2 }')
diag <<< "max_cqe $max_cqe"

# Ten CQs of the largest depth: each ring is at least (max_cqe + 1) * 32
# bytes of vmalloc memory; all of it must show up in the cgroup.
out=$(in_cgroup "$PROG" mrcA cq 10)
diag <<< "cq: $out"
per=$(sed -n 's/.* \([0-9]*\) per object$/\1/p' <<< "$out")
ring=$(((max_cqe + 1) * 32))
check "a CQ of $max_cqe entries costs its cgroup at least its ring ($ring bytes): ${per:-?}" \
	test "${per:-0}" -ge "$ring"

# A QP's windows, message state and EV table (about 145 KiB with the
# default 64 EVs) are charged too, and on an SRQ of max_sge 1 it keeps no
# receive SGEs sized for the device's maximum (such a QP cost about 330
# KiB, uncharged: the cgroup saw only the 5 KiB of the core's own
# objects).
out=$(in_cgroup "$PROG" mrcA srq-qp 50)
diag <<< "srq-qp: $out"
per=$(sed -n 's/.* \([0-9]*\) per object$/\1/p' <<< "$out")
check "an SRQ QP's kernel state is charged to its cgroup (${per:-?} bytes > 32 KiB)" \
	test "${per:-0}" -gt 32768
check "an SRQ QP of 1 send WQE costs under 192 KiB (${per:-?} bytes)" \
	test "${per:-999999999}" -lt 196608

# A QP without an SRQ keeps state for as many messages as its RQ has
# slots, not for a whole window of them: before, each QP held 1024
# message records of 56 bytes (about 56 KiB), so 10,000 QPs of one
# receive WQE each spent over half a GiB on records no message could use
# (issue 36, item 7).
out=$(in_cgroup "$PROG" mrcA rq-qp 50)
diag <<< "rq-qp: $out"
per=$(sed -n 's/.* \([0-9]*\) per object$/\1/p' <<< "$out")
check "an RC QP of 1 send and 1 receive WQE costs under 96 KiB (${per:-?} bytes)" \
	test "${per:-999999999}" -lt 98304

# A QP's EV table is charged too (issue 34). On a GENERATED profile of
# 4096 EVs each QP holds 4096 * (48 + 160 + 2) bytes: struct mrc_ev,
# struct mrc_ev_stats and a recycle slot, 860160 bytes. Uncharged, 200
# such QPs grew their cgroup by 16 MiB (84 KiB each: windows and rings).
# Charged, a QP costs about 1.4 MiB: kvcalloc() serves the 655360 bytes
# of counters from a 1 MiB kmalloc when it can.
check "EV profile 9 on mrcA: 4096 GENERATED EVs" \
	ip netns exec hostA mrc-ip path add dev mrcA id 9 mode generated fmt 0 \
	field 16:49152:1:4096:16383
out=$(in_cgroup env MRC_EV_PROFILE=9 "$PROG" mrcA srq-qp 16)
diag <<< "srq-qp on 4096 EVs: $out"
per=$(sed -n 's/.* \([0-9]*\) per object$/\1/p' <<< "$out")
evtab=$((4096 * (48 + 160 + 2)))
check "a QP of 4096 EVs costs its cgroup at least its EV table ($evtab bytes): ${per:-?}" \
	test "${per:-0}" -ge "$evtab"

# qp_ev_limit caps the EVs a device's user QPs hold together. Room for
# three QPs of 4096 EVs beside QP1's ev_count (64): the fourth is refused
# with ENOSPC, and the debug message names the limit.
LIMIT=/sys/module/mrc/parameters/qp_ev_limit
old_limit=$(cat $LIMIT)
limit=$((3 * 4096 + 1000))
echo 'module mrc func mrc_ctl_qp_ev_room +p' > /sys/kernel/debug/dynamic_debug/control
check "qp_ev_limit set to $limit" sh -c "echo $limit > $LIMIT"
check_output "the 4th QP of 4096 EVs is refused with ENOSPC" \
	'^failed after 3: ibv_create_qp: No space left on device$' \
	bash -c "MRC_EV_PROFILE=9 $PROG mrcA srq-qp 4; [ \$? -eq 1 ]"
check_output "the kernel says which limit refused it" \
	"mrcA: a QP of EV profile 9 needs 4096 EVs: 12352 of qp_ev_limit $limit are held" dmesg
echo 'module mrc func mrc_ctl_qp_ev_room -p' > /sys/kernel/debug/dynamic_debug/control
echo "$old_limit" > $LIMIT
check_fails "qp_ev_limit 0 is refused" sh -c "echo 0 > $LIMIT"

ip netns del hostA
ip netns del hostB
rmdir $CG/mrc-charge
check_dmesg_clean
done_testing
