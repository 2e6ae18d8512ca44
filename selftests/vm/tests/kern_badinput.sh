# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 120
# Bad input from a kernel consumer, on purpose: the test-only module
# mrc_kc_test (selftests/kconsumer) asks for a fast-registration MR
# longer than max_fast_reg_page_list_len and maps more pages than an MR
# holds, then registers an MR with IB_WR_REG_MR, has a second QP WRITE
# to it, invalidates it with IB_WR_LOCAL_INV and has the QP WRITE again:
# that WRITE must fail with a remote access error and change no byte.
# The module's own TAP lines in the kernel log become this test's checks.
. ../lib.sh

dmesg_mark
kernel_host kc0 10.9.3.1
g=$(gid_index mrc0 '::ffff:10\.9\.3\.1')
check "mrc0 has a GID for 10.9.3.1 (${g:-none})" test -n "$g"

check "modprobe mrc_kc_test dev=mrc0 gid=$g" \
	modprobe mrc_kc_test dev=mrc0 gid="$g"
# Each "mrc_kc_test: [not ]ok N - WHAT" line, as a check of this test.
dmesg | sed -n 's/.*mrc_kc_test: \(\(not \)\{0,1\}ok [0-9]* - .*\)/\1/p' > /tmp/kc.tap
n=0
while IFS= read -r line; do
	n=$((n + 1))
	case $line in
	"ok "*) ok "mrc_kc_test: ${line#ok * - }" ;;
	*) not_ok "mrc_kc_test: ${line#not ok * - }" ;;
	esac
done < /tmp/kc.tap
rm -f /tmp/kc.tap
check "the module ran all of its 10 cases ($n)" test "$n" -eq 10
check "rmmod mrc_kc_test" modprobe -r mrc_kc_test
check "rdma link delete mrc0" rdma link delete mrc0
ip link del kc0
check_dmesg_clean

done_testing
