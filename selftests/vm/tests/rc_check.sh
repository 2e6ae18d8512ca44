# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 600
# RC semantics checked byte for byte by mrc-rc-check: data placement for
# every operation, IB ordering, remote access errors that leave memory
# untouched, receiver-not-ready waits and their exhaustion, and retry
# exhaustion when the link is cut.
. ../lib.sh

CHECK=$MRC_BUILD/selftests/progs/mrc-rc-check
dmesg_mark
two_hosts
ARGS=(--dev-a mrcA --gid-a "$GA4" --dev-b mrcB --gid-b "$GB4")

for s in $("$CHECK" --list | grep -vx retry-exceeded); do
	check_output "mrc-rc-check $s" "^ok $s" timeout 120 "$CHECK" "${ARGS[@]}" "$s"
done

# Cut the link after connecting: the sender must give up with
# IBV_WC_RETRY_EXC_ERR (retry_cnt 2, timeout 1.024 us * 2^10 ~ 1 ms) and
# flush what follows, not hang.
rm -f /tmp/go
timeout 120 "$CHECK" "${ARGS[@]}" --retry-cnt 2 --timeout 10 \
	--wait-file /tmp/go retry-exceeded > /tmp/retry.log 2>&1 &
pid=$!
wait_until 30 grep -q connected /tmp/retry.log
ip -n hostB link set vethB down
touch /tmp/go
wait $pid
check_output "link cut: IBV_WC_RETRY_EXC_ERR, then flush" '^ok retry-exceeded' \
	cat /tmp/retry.log
ip -n hostB link set vethB up

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
