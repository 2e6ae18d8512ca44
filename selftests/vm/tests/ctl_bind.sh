# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-timeout: 600
# QPs use the control plane's EV profiles: a QP made after the profile's
# creator exited sends on exactly the profile's source ports (counted per
# port on the wire), named through MRC_EV_PROFILE or as the device
# default; a DENY reaches a running QP and its port falls silent, the
# last allowed EV cannot be denied, and one batch can swap the allowed one; a
# profile in use cannot be deleted, and says by which QP; a user without
# CAP_NET_ADMIN creates QPs only on profiles whose access rule lets it.
. ../lib.sh
. ../mp_lib.sh

dmesg_mark
modprobe mrc
two_hosts
D="DEV_NAME=str:mrcB"

# The EV profile lives in hostB's namespace, with its device. lib.sh's
# mrc_genl there, from one Python process: a start costs seconds under
# emulation.
mrc_genl_serve hostB
# genl_out ARGS...: mrc_genl's reply or its error line, whatever its exit.
genl_out() {
	mrc_genl "$@" 2>&1
	true
}

# Count hostB's MRC packets per UDP source port on the wire: one u32
# filter per port on vethB's egress, each with its own handle.
ip netns exec hostB tc qdisc add dev vethB clsact
for port in 4660 4661 4662; do
	check "count packets from port $port on vethB" \
	ip netns exec hostB tc filter add dev vethB egress protocol ip prio 1 \
		handle 800::$((port - 4659)) u32 match ip protocol 17 0xff \
		match ip sport $port 0xffff match ip dport 4792 0xffff action pass
done
# sent PORT...: packets hostB sent from each source port so far, on one
# line, from one read of the filters (jq: a Python start costs seconds
# under emulation, and this is polled).
sent() {
	local p fh fhs=()
	for p; do
		printf -v fh '800::%x' $((p - 4659))
		fhs+=("$fh")
	done
	ip netns exec hostB tc -j -s filter show dev vethB egress | jq -r '
		. as $f | [$ARGS.positional[] as $fh |
			first($f[] | .options // {} | select(.fh == $fh)) //
			error("no filter \($fh)") |
			[(.actions // [])[].stats.packets] | add // 0] |
		map(tostring) | join(" ")' --args "${fhs[@]}"
}

ev() {
	echo "MRC_ATTR_EV_ENTRY={ MRC_EV_VALUE=bin:$1 }"
}
check "EXPLICIT profile 6 on mrcB: ports 4660 and 4661, ONLINE" \
	mrc_genl EVPROF_NEW $D PROF_ID=u64:6 EVPROF={ MRC_EVPROF_MODE=u8:1 } \
	EVS={ $(ev 12340000) $(ev 12350000) } PROF_STATE=u8:2

# ibv_rc_pingpong's server makes its QP before it waits for its client:
# made with MRC_EV_PROFILE=6 in hostB, it holds the profile for as long
# as the checks below take, however slow the machine.
timeout 300 ip netns exec hostB env MRC_EV_PROFILE=6 \
	ibv_rc_pingpong -d mrcB -g "$GB4" -n 5 > /tmp/srvB.log 2>&1 &
srv=$!
check "a QP made after the profile's creator exited reports EV profile 6" \
	wait_until 60 ip netns exec hostB bash -c \
	"[ \"\$(. ../mp_lib.sh; mp_qp_attr mrcB ev_profile)\" = 6 ]"
check_output "... and its 2 EVs (rdma -dd res show qp)" '^2$' \
	ip netns exec hostB bash -c ". ../mp_lib.sh; mp_qp_attr mrcB ev_count"
check_output "deleting profile 6 under the QP: EBUSY, in use by QPs" \
	'^error 16 EBUSY: EV profile is in use by QPs' \
	genl_out EVPROF_DEL $D PROF_ID=u64:6
check_output "the profile names its user QP" '"MRC_ATTR_QPN": [0-9]+' \
	mrc_genl EVPROF_GET $D PROF_ID=u64:6
check_output "mrc-ip says which QP uses it" 'in use by QPs? 0x[0-9a-f]+' \
	bash -c "ip netns exec hostB mrc-ip evprofile del dev mrcB id 6 2>&1; true"
check "the server's client connects and the ping-pong completes" \
	timeout 300 ip netns exec hostA ibv_rc_pingpong -d mrcA -g "$GA4" -n 5 10.0.0.2
if wait "$srv"; then
	ok "the server exits 0"
else
	not_ok "the server exits 0 (rc $?)"
	diag < /tmp/srvB.log
fi

# send_bw -n N|-D SECS [ENV...]: N 64 KiB WRITEs (or WRITEs for SECS
# seconds, with a margin of 1 s for pair_stop) from hostB to hostA, in
# the background.
send_bw() {
	local how=("$1" "$2")
	shift 2
	[ "${how[0]}" = -D ] && how+=(-f 1)
	pair_start 300 ib_write_bw -d mrcA -x "$GA4" "${how[@]}" -F -- \
		env "$@" ib_write_bw -d mrcB -x "$GB4" "${how[@]}" -F 10.0.0.1
}

read -r b4660 b4661 b4662 <<<"$(sent 4660 4661 4662)"
send_bw -n 500 MRC_EV_PROFILE=6
pair_finish "ib_write_bw with MRC_EV_PROFILE=6"
read -r a4660 a4661 a4662 <<<"$(sent 4660 4661 4662)"
d4660=$((a4660 - b4660)) d4661=$((a4661 - b4661)) d4662=$((a4662 - b4662))
echo "packets by source port: 4660 $d4660, 4661 $d4661, 4662 $d4662" | diag
check "both of the profile's ports carried traffic" \
	test "$d4660" -gt 100 -a "$d4661" -gt 100
check "no other port did (4662)" test "$d4662" -eq 0

# The device default, for a program that names nothing; a DENY as soon
# as both ports carry its traffic. The transfer outlasts the DENY, the
# swap and the un-DENY and stops once they are seen (pair_stop): a count
# of WRITEs cannot, as the QP's speed varies (14000 ended before the
# un-DENY in 3 of 11 runs).
check "DEV_SET mrcB default EV profile 6" mrc_genl DEV_SET $D \
	DEV_DEFAULT_EVPROF=u64:6
b4661=$(sent 4661)
send_bw -D 200
# port_grew PORT BASE: PORT sent 100 packets more than BASE.
port_grew() {
	[ $(($(sent "$1") - $2)) -gt 100 ]
}
check "the new QP's traffic reaches port 4661" wait_until 120 port_grew 4661 "$b4661"
check "DENY EV 1 (port 4661) while the QP runs" mrc_genl EVPROF_EV_SET $D \
	PROF_ID=u64:6 EV_OP=u8:1 EVS={ MRC_ATTR_EV_ENTRY={ MRC_EV_INDEX=u32:1 \
	MRC_EV_STATE=u8:2 } }
# count_after SECS WHAT: packets of each port over SECS seconds, counted
# from a second after WHAT (packets built before it may still leave),
# in after4660 and after4661; m4660 and m4661 are the counts at the start.
count_after() {
	local a0 a1
	sleep 1
	read -r m4660 m4661 <<<"$(sent 4660 4661)"
	sleep "$1"
	read -r a0 a1 <<<"$(sent 4660 4661)"
	after4660=$((a0 - m4660)) after4661=$((a1 - m4661))
	echo "$1 s after $2: 4660 $after4660, 4661 $after4661 packets" | diag
}
count_after 3 "the DENY"
check "after the DENY the denied port is silent" test "$after4661" -eq 0
check "... and the other carries the traffic" test "$after4660" -gt 100
# The last allowed EV cannot be denied: the QP would have nothing to send
# on but a path the administrator took away.
entry() {
	echo "MRC_ATTR_EV_ENTRY={ MRC_EV_INDEX=u32:$1 MRC_EV_STATE=u8:$2 }"
}
check_output "DENY of the last allowed EV 0: EBUSY, nothing applied" \
	'^error [0-9]+ EBUSY: .*one must stay allowed.*cookie 0' genl_out \
	EVPROF_EV_SET $D PROF_ID=u64:6 EV_OP=u8:1 EVS={ $(entry 0 2) }
# One batch moves the traffic from EV 0 to EV 1: the QP gets EV 1 back
# before it loses EV 0 (a warning in the kernel log fails the test).
check "one batch: un-DENY EV 1, then DENY EV 0" mrc_genl EVPROF_EV_SET $D \
	PROF_ID=u64:6 EV_OP=u8:1 EVS={ $(entry 1 0) $(entry 0 2) }
count_after 2 "the swap"
check "after the swap port 4660 is silent" test "$after4660" -eq 0
check "... and port 4661 carries the traffic" test "$after4661" -gt 100
check "un-DENY EV 0" mrc_genl EVPROF_EV_SET $D PROF_ID=u64:6 EV_OP=u8:1 \
	EVS={ $(entry 0 0) }
check "after the un-DENY port 4660 carries traffic again" \
	wait_until 60 port_grew 4660 "$m4660"
pair_stop
pair_finish "ib_write_bw on the default profile, an EV denied and restored midway"

# Bad names fail the create, not silently fall back to the default (the
# client would fail later anyway, with no server: the message says where).
check_output "MRC_EV_PROFILE=99 (no such profile): the QP is refused" \
	"Couldn.t create QP" bash -c "ip netns exec hostB env MRC_EV_PROFILE=99 \
	ibv_rc_pingpong -d mrcB -g $GB4 10.0.0.1 2>&1; true"
check_output "MRC_EV_PROFILE=six: refused" "Couldn.t create QP" \
	bash -c "ip netns exec hostB env MRC_EV_PROFILE=six \
	ibv_rc_pingpong -d mrcB -g $GB4 10.0.0.1 2>&1; true"
# Who may use a profile: its access rule, checked when a QP is created.
# one_qp [SETPRIV-OPTION...] -- [VAR=VALUE...]: create one QP on mrcB
# (mrc-charge-check, which prints "created 1 ..." or the create's errno
# text), as root or, given setpriv options, as that user.
one_qp() {
	local who=()
	while [ "$1" != -- ]; do who+=("$1"); shift; done
	shift
	[ ${#who[@]} -eq 0 ] || who=(setpriv "${who[@]}")
	ip netns exec hostB "${who[@]}" env "$@" \
		"$MRC_BUILD/selftests/progs/mrc-charge-check" mrcB srq-qp 1 2>&1
	true
}
NOBODY=(--reuid=65534 --regid=65534 --clear-groups)
MEMBER=(--reuid=65534 --regid=65534 --groups=4242)
CREATED='^created 1 srq-qp'
REFUSED='^failed after 0: ibv_create_qp: Operation not permitted'
echo 'module mrc func mrc_ctl_qp_access +p' > /sys/kernel/debug/dynamic_debug/control
check_output "profile 6 starts with access if-default (mrc-ip -j)" \
	'"access":"if-default"' ip netns exec hostB mrc-ip -j evprofile show dev mrcB id 6
check_output "uid 65534 names default profile 6: its QP is created" "$CREATED" \
	one_qp "${NOBODY[@]}" -- MRC_EV_PROFILE=6
check "DEV_SET mrcB default EV profile 0 again" mrc_genl DEV_SET $D \
	DEV_DEFAULT_EVPROF=u64:0
check_output "profile 6 no longer default: uid 65534 naming it gets EPERM" \
	"$REFUSED" one_qp "${NOBODY[@]}" -- MRC_EV_PROFILE=6
check_output "... and the kernel says which profile and rule (dynamic debug)" \
	'EV profile 6 refused to a QP of uid 65534: access if-default' dmesg
check_output "root naming profile 6: created" "$CREATED" one_qp -- MRC_EV_PROFILE=6
check_output "uid 65534 naming none gets default profile 0: created" "$CREATED" \
	one_qp "${NOBODY[@]}" --
check "mrc-ip: profile 6 access group gid 4242" ip netns exec hostB \
	mrc-ip evprofile set dev mrcB id 6 access group gid 4242
check_output "mrc-ip shows it" 'access group gid 4242' \
	ip netns exec hostB mrc-ip evprofile show dev mrcB id 6
check_output "a member of group 4242 naming profile 6: created" "$CREATED" \
	one_qp "${MEMBER[@]}" -- MRC_EV_PROFILE=6
check_output "uid 65534 outside the group: EPERM" "$REFUSED" \
	one_qp "${NOBODY[@]}" -- MRC_EV_PROFILE=6
check "mrc-ip: profile 6 access open" ip netns exec hostB \
	mrc-ip evprofile set dev mrcB id 6 access open
check_output "profile 6 open: uid 65534 naming it, created" "$CREATED" \
	one_qp "${NOBODY[@]}" -- MRC_EV_PROFILE=6
check "profile 6 access admin, and the device default" bash -c \
	"ip netns exec hostB mrc-ip evprofile set dev mrcB id 6 access admin &&
	 ip netns exec hostB mrc-ip dev set mrcB evprofile 6"
check_output "a rule that is set holds on the default: uid 65534 naming none, EPERM" \
	"$REFUSED" one_qp "${NOBODY[@]}" --
check_output "root naming none: created" "$CREATED" one_qp --
check_output "access group without a gid: EINVAL, extack says why" \
	'^error 22 EINVAL: a gid goes with access group' genl_out \
	EVPROF_SET $D PROF_ID=u64:6 PROF_ACCESS=u8:3
undefault_del() {
	mrc_genl DEV_SET $D DEV_DEFAULT_EVPROF=u64:0 &&
	mrc_genl EVPROF_DEL $D PROF_ID=u64:6
}
check "with no QP left, profile 6 can be made un-default and deleted" \
	undefault_del

# A disabled port sends nothing: the connection fails, the packets are
# counted as not sent; enabled again, it works.
tx_disabled() {
	cat /sys/class/infiniband/mrcB/ports/1/hw_counters/tx_port_disabled
}
check "DEV_SET: mrcB's port disabled" mrc_genl DEV_SET $D PORT_ADMIN=u8:0
check_output "ibv_devinfo: PORT_DOWN" 'state:[[:space:]]+PORT_DOWN' \
	ip netns exec hostB ibv_devinfo -d mrcB
pair_start 60 ibv_rc_pingpong -d mrcA -g "$GA4" -n 5 -- \
	ibv_rc_pingpong -d mrcB -g "$GB4" -n 5 10.0.0.1
wait "$_pair_cli"
cli_rc=$?
kill "$_pair_srv" 2>/dev/null
wait "$_pair_srv"
check "with the port disabled the client fails (rc $cli_rc)" test "$cli_rc" -ne 0
check_output "its packets are counted as not sent (tx_port_disabled)" '^[1-9]' tx_disabled
check "DEV_SET: mrcB's port enabled" mrc_genl DEV_SET $D PORT_ADMIN=u8:1
check_output "ibv_devinfo: PORT_ACTIVE" 'state:[[:space:]]+PORT_ACTIVE' \
	ip netns exec hostB ibv_devinfo -d mrcB
pair "enabled again: ibv_rc_pingpong -n 5 works" 120 \
	ibv_rc_pingpong -d mrcA -g "$GA4" -n 5 -- \
	ibv_rc_pingpong -d mrcB -g "$GB4" -n 5 10.0.0.1

# A CC profile's window parameters reach the QPs that use it: a QP
# starts with the profile's initial window (the driver attribute cwnd,
# read while ibv_rc_pingpong's server waits for its client).
check "ccprofile 3 on mrcB: mrc-window, init-pkts 12, min-pkts 10" \
	ip netns exec hostB mrc-ip ccprofile add dev mrcB id 3 alg mrc-window \
	init-pkts 12 min-pkts 10
# start_cwnd [ENV...]: cwnd of a fresh QP of ibv_rc_pingpong's server on
# mrcB, run with ENV.
start_cwnd() {
	local pid v=
	timeout 60 ip netns exec hostB env "$@" ibv_rc_pingpong -d mrcB \
		-g "$GB4" -n 5 > /tmp/srvB.log 2>&1 &
	pid=$!
	wait_until 20 bash -c "ip netns exec hostB ss -Hltn | grep -q ."
	v=$(mp_qp_attr mrcB cwnd)
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "$v"
}
check_output "a QP on the default CC profile starts with 32 PSNs" '^32$' \
	start_cwnd MRC_CC_PROFILE=0
check_output "a QP on CC profile 3 starts with 12" '^12$' \
	start_cwnd MRC_CC_PROFILE=3
check_output "uid 65534 naming CC profile 3 (not the default): EPERM" "$REFUSED" \
	one_qp "${NOBODY[@]}" -- MRC_CC_PROFILE=3
check "mrc-ip: CC profile 3 access open" ip netns exec hostB \
	mrc-ip ccprofile set dev mrcB id 3 access open
check_output "... then uid 65534 naming it: created" "$CREATED" \
	one_qp "${NOBODY[@]}" -- MRC_CC_PROFILE=3

# An STEV EV is an IPv6 flow label and a source port: two EVs that share
# the port leave hostB each with its own label.
check "evfmt 7 on mrcB: stev, fields 16,16" \
	ip netns exec hostB mrc-ip evfmt add dev mrcB id 7 mode stev fields 16,16
check "evprofile 8 on mrcB: port 4700 with flow labels 0x11 and 0x22" \
	ip netns exec hostB mrc-ip evprofile add dev mrcB id 8 mode explicit \
	fmt 7 min-active 1 ev 0x0011125c ev 0x0022125c
for label in 0x11 0x22 0x0; do
	check "count IPv6 MRC packets with flow label $label on vethB" \
	ip netns exec hostB tc filter add dev vethB egress protocol ipv6 \
		prio 2 handle "801::$(printf %x $((label + 1)))" u32 \
		match ip6 flowlabel "$label" 0xfffff \
		match ip6 dport 4792 0xffff action pass
done
# labelled LABEL: packets hostB sent with that flow label so far.
labelled() {
	local fh
	printf -v fh '801::%x' $(($1 + 1))
	ip netns exec hostB tc -j -s filter show dev vethB egress | jq --arg fh "$fh" '
		[.[] | .options // {} | select(.fh == $fh) |
			(.actions // [])[].stats.packets] | add // 0'
}
pair "ibv_rc_pingpong over IPv6 with hostB on STEV profile 8" 120 \
	ibv_rc_pingpong -d mrcA -g "$GA6" -n 50 -- \
	env MRC_EV_PROFILE=8 ibv_rc_pingpong -d mrcB -g "$GB6" -n 50 fd00::1
echo "packets by flow label: 0x11 $(labelled 0x11), 0x22 $(labelled 0x22)," \
	"0 $(labelled 0x0)" | diag
check_output "EV 0 (label 0x11) carried packets" '^[1-9]' labelled 0x11
check_output "EV 1 (label 0x22) carried packets" '^[1-9]' labelled 0x22

# The server holds hostB, and so mrcB: it goes first.
mrc_genl_stop
ip netns del hostA
ip netns del hostB
wait_until 15 rdma_dev_absent mrcB
check "rmmod mrc" rmmod mrc
check_dmesg_clean
done_testing
