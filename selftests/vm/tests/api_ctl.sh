# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: ctl
# A controller written in C against the OCP MRC controller API (libmrc's
# mrc_ctl.h), mrc-ctl-check, on hostA's device: it queries the device and
# the port, disables and enables the port, configures a CC profile, an EV
# format profile and an EXPLICIT EV profile (EVs added by REPLACE_EV, one
# denied by MODIFY_EV_STATE), and probes hostB over two EVs, then hostB
# and a host that is not there (ETIMEDOUT). mrc-ip then shows the same
# objects, read from the kernel. Run again as uid 65534 (no
# CAP_NET_ADMIN), the program reads a profile and is refused every change
# with EPERM.
. ../lib.sh

CHECK=$MRC_BUILD/selftests/progs/mrc-ctl-check

# ina CMD...: CMD in hostA, where mrcA is.
ina() {
	ip netns exec hostA "$@"
}

dmesg_mark
two_hosts

ina "$CHECK" --dev mrcA --peer ::ffff:10.0.0.2 > /tmp/ctl-check.log 2>&1
rc=$?
diag < /tmp/ctl-check.log
check_no_output "every step of mrc-ctl-check passed" '^not ok|^FAIL' cat /tmp/ctl-check.log
check "mrc-ctl-check ended with ok (exit $rc)" \
	bash -c "[ $rc = 0 ] && tail -n1 /tmp/ctl-check.log | grep -qx ok"

check_output "mrc-ip: CC profile 7 online, uet-1.0-nscc, gamma 0.8 (Q16 52429)" \
	'^online uet-1.0-nscc 52429$' \
	json_py 'd[0]["state"], d[0]["alg"], d[0]["gamma"]' ina mrc-ip -j ccprofile show dev mrcA id 7
check_output "mrc-ip: EV format 3 online, stev, fields 16,16" '^online stev 16,16$' \
	json_py 'd[0]["state"], d[0]["mode"], d[0]["fields"]' ina mrc-ip -j evfmt show dev mrcA id 3
check_output "mrc-ip: EV profile 4 online, explicit, format 3, 3 EVs" '^online explicit 3 3$' \
	json_py 'd[0]["state"], d[0]["mode"], d[0]["fmt"], d[0]["count"]' \
	ina mrc-ip -j evprofile show dev mrcA id 4
check_output "mrc-ip: its EVs leave from ports 0xc001..0xc003, the second denied" \
	'^\[49153, 49154, 49155\] \[49154\]$' \
	json_py '[e["sport"] for e in d], [e["sport"] for e in d if e["state"] == "denied"]' \
	ina mrc-ip -j evprofile show dev mrcA id 4 evs
check_output "mrc-ip: port 1 enabled again (admin up)" '^up$' \
	json_py 'd[0]["admin"]' ina mrc-ip -j port show dev mrcA

ina setpriv --reuid=65534 --regid=65534 --clear-groups "$CHECK" --dev mrcA --unprivileged \
	> /tmp/ctl-unpriv.log 2>&1
diag < /tmp/ctl-unpriv.log
check_output "without CAP_NET_ADMIN: a query works, changes are EPERM" '^ok$' \
	tail -n1 /tmp/ctl-unpriv.log
check_output "... and CC profile 7 is still online" '^online$' \
	json_py 'd[0]["state"]' ina mrc-ip -j ccprofile show dev mrcA id 7

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
