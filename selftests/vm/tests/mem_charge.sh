# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 300
# What a program's RDMA objects cost the kernel is charged to the memory
# cgroup of that program (issue 17), so memory.max bounds it as it bounds
# the program's own memory. mrc-charge-check creates objects from inside
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

# A QP's windows and message state (about 100 KiB) are charged too, and
# on an SRQ of max_sge 1 it keeps no receive SGEs sized for the device's
# maximum (such a QP cost about 330 KiB, uncharged: the cgroup saw only
# the 5 KiB of the core's own objects).
out=$(in_cgroup "$PROG" mrcA srq-qp 50)
diag <<< "srq-qp: $out"
per=$(sed -n 's/.* \([0-9]*\) per object$/\1/p' <<< "$out")
check "an SRQ QP's kernel state is charged to its cgroup (${per:-?} bytes > 32 KiB)" \
	test "${per:-0}" -gt 32768
check "an SRQ QP of 1 send WQE costs under 128 KiB (${per:-?} bytes)" \
	test "${per:-999999999}" -lt 131072

ip netns del hostA
ip netns del hostB
rmdir $CG/mrc-charge
check_dmesg_clean
done_testing
