# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# SRv6 payload MTU from the uplinks (issue 20): an SRv6 QP's packets
# leave by its EVs' routes, not by the netdev that holds the GID (the
# hosts' dummy gid0), so its path MTU is what the smallest of those
# routes carries after the EV's encapsulation, and the port's active MTU
# is that of the device's default EV profile. Three set-ups, each checked
# in ibv_devinfo, mrc-ip and the QPs mrc-rc-check makes (it compares
# every byte of WRITEs, multi-packet READs and SENDs, and fails when its
# two QPs end with different path MTUs):
#   links 9000, gid0 1500                  -> 4096 (gid0 alone: 1024)
#   plane 0's uplinks 1500, gid0 9000      -> 1024 (gid0 alone: 4096,
#                                             and packets too large)
#   the same, EVs on plane 1 only          -> 4096
# vm-timeout: 900
# shellcheck disable=SC2317 # functions run through check and wait_until
. ../lib.sh
. ../srv6_fabric.sh

dmesg_mark
modprobe mrc
FAB_MTU=9000 fab_test_up 2 4
GA=$FAB_GA GB=$FAB_GB

# gid0_mtu MTU: both hosts' gid0.
gid0_mtu() {
	ip -n hostA link set gid0 mtu "$1" && ip -n hostB link set gid0 mtu "$1"
}
# port_mtus: "A B", the active MTU of mrcA and mrcB, from ibv_devinfo and
# from mrc-ip's JSON; each host's two must agree.
port_mtus() {
	local h v m out=()
	for h in A B; do
		v=$(ip netns exec "host$h" ibv_devinfo -d "mrc$h" |
			awk '$1 == "active_mtu:" { print $2 }')
		m=$(ip netns exec "host$h" mrc-ip -j dev show dev "mrc$h" |
			python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["mtu"])')
		[ "$v" = "$m" ] || { echo "mrc$h: ibv_devinfo $v, mrc-ip $m"; return 1; }
		out+=("$v")
	done
	echo "${out[*]}"
}
# verified DESC WANT: a test point: mrc-rc-check over the devices'
# defaults, every byte compared, both QPs ending with path MTU WANT; its
# output on failure.
CHECK=$MRC_BUILD/selftests/progs/mrc-rc-check
verified() {
	local out rc
	out=$(timeout 300 "$CHECK" --verbose --dev-a mrcA --gid-a "$GA" \
		--dev-b mrcB --gid-b "$GB" write read read-large send many 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$(grep -c '^ok ' <<<"$out")" -eq 5 ] &&
		grep -q "QPs' path MTU $2 $2\$" <<<"$out"; then
		ok "$1"
	else
		not_ok "$1"
		diag <<<"$out"
	fi
}
# largest_mean: the largest mean packet size a spine sent toward hostB
# since fab_up, in bytes: over 1500, packets larger than path MTU 1024
# makes crossed the fabric.
largest_mean() {
	fab_spine_counts | awk '$5 && $6 / $5 > m { m = int($6 / $5) } END { print m + 0 }'
}

for H in A B; do
	check "mrc$H path 7: GENERATED, spines 0:1..1:3, the default" \
		fab_mrc_profile $H 7 1 7
done

check "gid0 MTU 1500 on both hosts, links 9000" gid0_mtu 1500
check_output "active MTU 4096 on both, from the uplinks" '^4096 4096$' port_mtus
before=$(largest_mean)
verified "links 9000: WRITE, READ, SEND verified, both QPs at path MTU 4096" 4096
after=$(largest_mean)
check "a spine carried packets over 1500 bytes on average ($before then $after)" \
	test "$after" -gt 1500

check "gid0 MTU 9000, plane 0's uplinks 1500" \
	eval 'gid0_mtu 9000 && fab_uplink_mtu 0 1500'
check_output "active MTU 1024 on both: plane 0's EVs limit it" '^1024 1024$' port_mtus
verified "plane 0 at 1500: WRITE, READ, SEND verified, both QPs at path MTU 1024" 1024

for H in A B; do
	check "mrc$H path 8: spines 1:0..1:3 (plane 1 only), the default" \
		fab_mrc_profile $H 8 4 7
done
check_output "active MTU 4096 on both: no EV crosses plane 0" '^4096 4096$' port_mtus
verified "plane 1 only: WRITE, READ, SEND verified, both QPs at path MTU 4096" 4096

fab_test_down
check_dmesg_clean
done_testing
