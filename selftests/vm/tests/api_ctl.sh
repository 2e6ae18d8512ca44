# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-group: ctl
# A controller written in C against the OCP MRC controller API (libmrc's
# mrc_ctl.h), mrc-ctl-check, on one device: it queries the device and the
# port, disables and enables the port, and configures a CC profile, an EV
# format profile and an EXPLICIT EV profile (EVs added by REPLACE_EV, one
# denied by MODIFY_EV_STATE). mrc-ip then shows the same objects, read
# from the kernel. Run again as uid 65534 (no CAP_NET_ADMIN), the same
# program reads a profile and is refused every change with EPERM.
. ../lib.sh

CHECK=$MRC_BUILD/selftests/progs/mrc-ctl-check

dmesg_mark
veth_pair veth0 veth1
check "rdma link add mrc0" rdma link add mrc0 type mrc netdev veth0

"$CHECK" --dev mrc0 > /tmp/ctl-check.log 2>&1
rc=$?
diag < /tmp/ctl-check.log
check_no_output "every step of mrc-ctl-check passed" '^not ok|^FAIL' cat /tmp/ctl-check.log
check "mrc-ctl-check ended with ok (exit $rc)" \
	bash -c "[ $rc = 0 ] && tail -n1 /tmp/ctl-check.log | grep -qx ok"

check_output "mrc-ip: CC profile 7 online, uet-1.0-nscc, gamma 0.8 (Q16 52429)" \
	'^online uet-1.0-nscc 52429$' \
	jq 'd[0]["state"], d[0]["alg"], d[0]["gamma"]' mrc-ip -j ccprofile show dev mrc0 id 7
check_output "mrc-ip: EV format 3 online, stev, fields 16,16" '^online stev 16,16$' \
	jq 'd[0]["state"], d[0]["mode"], d[0]["fields"]' mrc-ip -j evfmt show dev mrc0 id 3
check_output "mrc-ip: EV profile 4 online, explicit, format 3, 3 EVs" '^online explicit 3 3$' \
	jq 'd[0]["state"], d[0]["mode"], d[0]["fmt"], d[0]["count"]' \
	mrc-ip -j evprofile show dev mrc0 id 4
check_output "mrc-ip: its EVs leave from ports 0xc001..0xc003, the second denied" \
	'^\[49153, 49154, 49155\] \[49154\]$' \
	jq '[e["sport"] for e in d], [e["sport"] for e in d if e["state"] == "denied"]' \
	mrc-ip -j evprofile show dev mrc0 id 4 evs
check_output "mrc-ip: port 1 enabled again (admin up)" '^up$' \
	jq 'd[0]["admin"]' mrc-ip -j port show dev mrc0

setpriv --reuid=65534 --regid=65534 --clear-groups "$CHECK" --dev mrc0 --unprivileged \
	> /tmp/ctl-unpriv.log 2>&1
diag < /tmp/ctl-unpriv.log
check_output "without CAP_NET_ADMIN: a query works, changes are EPERM" '^ok$' \
	tail -n1 /tmp/ctl-unpriv.log
check_output "... and CC profile 7 is still online" '^online$' \
	jq 'd[0]["state"]' mrc-ip -j ccprofile show dev mrc0 id 7

check "rdma link delete mrc0" rdma link delete mrc0
ip link delete veth0
check_dmesg_clean
done_testing
