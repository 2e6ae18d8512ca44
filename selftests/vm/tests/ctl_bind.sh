# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 600
# QPs use the control plane's EV profiles: a QP made after the profile's
# creator exited sends on exactly the profile's source ports (counted per
# port on the wire), named through MRC_EV_PROFILE or as the device
# default; a DENY reaches a running QP and its port falls silent; a
# profile in use cannot be deleted, and says by which QP.
. ../lib.sh
. ../mp_lib.sh

dmesg_mark
modprobe mrc
two_hosts
D="DEV_NAME=str:mrcB"

# The EV profile lives in hostB's namespace, with its device.
genl_b() {
	ip netns exec hostB python3 ../mrc-genl.py "$@"
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
# sent PORT: packets hostB sent from that source port so far.
sent() {
	ip netns exec hostB tc -j -s filter show dev vethB egress | python3 -c '
import json, sys
fh = "800::%x" % (int(sys.argv[1]) - 4659)
for f in json.load(sys.stdin):
    o = f.get("options", {})
    if o.get("fh") == fh:
        print(sum(a["stats"]["packets"] for a in o.get("actions", [])))
        break
else:
    sys.exit("no filter " + fh)' "$1"
}

ev() {
	echo "MRC_ATTR_EV_ENTRY={ MRC_EV_VALUE=bin:$1 }"
}
check "EXPLICIT profile 6 on mrcB: ports 4660 and 4661, ONLINE" \
	genl_b EVPROF_NEW $D PROF_ID=u64:6 EVPROF={ MRC_EVPROF_MODE=u8:1 } \
	EVS={ $(ev 12340000) $(ev 12350000) } PROF_STATE=u8:2

# run_bw SECONDS [ENV...]: ib_write_bw for SECONDS, hostB writing to hostA.
run_bw() {
	local secs=$1
	shift
	pair_start $((secs + 120)) ib_write_bw -d mrcA -x "$GA4" -D "$secs" -F -- \
		env "$@" ib_write_bw -d mrcB -x "$GB4" -D "$secs" -F 10.0.0.1
}

check_output "the counters read" '^0$' sent 4660
b4660=$(sent 4660) b4661=$(sent 4661) b4662=$(sent 4662)
run_bw 12 MRC_EV_PROFILE=6
wait_until 30 ip netns exec hostB bash -c \
	"[ -n \"\$(. ../mp_lib.sh; mp_qp_attr mrcB ev_profile)\" ]"
check_output "the QP reports EV profile 6 (rdma -dd res show qp)" '^6$' \
	ip netns exec hostB bash -c ". ../mp_lib.sh; mp_qp_attr mrcB ev_profile"
check_output "... and 2 EVs" '^2$' \
	ip netns exec hostB bash -c ". ../mp_lib.sh; mp_qp_attr mrcB ev_count"
del_out=$(genl_b EVPROF_DEL $D PROF_ID=u64:6 2>&1)
check_output "deleting profile 6 under the QP: EBUSY, in use by QPs" \
	'^error 16 EBUSY: EV profile is in use by QPs' echo "$del_out"
check_output "the profile names its user QP" '"MRC_ATTR_QPN": [0-9]+' \
	genl_b EVPROF_GET $D PROF_ID=u64:6
check_output "mrc-ip says which QP uses it" 'in use by QPs? 0x[0-9a-f]+' \
	bash -c "ip netns exec hostB mrc-ip evprofile del dev mrcB id 6 2>&1; true"
pair_finish "ib_write_bw with MRC_EV_PROFILE=6"
d4660=$(($(sent 4660) - b4660)) d4661=$(($(sent 4661) - b4661))
d4662=$(($(sent 4662) - b4662))
echo "packets by source port: 4660 $d4660, 4661 $d4661, 4662 $d4662" | diag
check "both of the profile's ports carried traffic" \
	test "$d4660" -gt 100 -a "$d4661" -gt 100
check "no other port did (4662)" test "$d4662" -eq 0

# The device default, for a program that names nothing.
check "DEV_SET mrcB default EV profile 6" genl_b DEV_SET $D \
	DEV_DEFAULT_EVPROF=u64:6
b4660=$(sent 4660) b4661=$(sent 4661)
run_bw 12
sleep 5
check "DENY EV 1 (port 4661) while the QP runs" genl_b EVPROF_EV_SET $D \
	PROF_ID=u64:6 EV_OP=u8:1 EVS={ MRC_ATTR_EV_ENTRY={ MRC_EV_INDEX=u32:1 \
	MRC_EV_STATE=u8:2 } }
sleep 1
m4660=$(sent 4660) m4661=$(sent 4661)
pair_finish "ib_write_bw on the default profile, with an EV denied midway"
check "before the DENY both ports carried traffic" \
	test $((m4661 - b4661)) -gt 100
after4660=$(($(sent 4660) - m4660)) after4661=$(($(sent 4661) - m4661))
echo "after the DENY: 4660 $after4660, 4661 $after4661 packets" | diag
check "after the DENY the denied port is silent" test "$after4661" -eq 0
check "... and the other carries the traffic" test "$after4660" -gt 100

# Bad names fail the create, not silently fall back to the default.
check_fails "MRC_EV_PROFILE=99 (no such profile): the QP is refused" \
	ip netns exec hostB env MRC_EV_PROFILE=99 ibv_rc_pingpong -d mrcB -g "$GB4" 10.0.0.1
check_fails "MRC_EV_PROFILE=six: refused" \
	ip netns exec hostB env MRC_EV_PROFILE=six ibv_rc_pingpong -d mrcB -g "$GB4" 10.0.0.1
check "with no QP left, profile 6 can be made un-default and deleted" bash -c \
	"ip netns exec hostB python3 ../mrc-genl.py DEV_SET $D DEV_DEFAULT_EVPROF=u64:0 &&
	 ip netns exec hostB python3 ../mrc-genl.py EVPROF_DEL $D PROF_ID=u64:6"

ip netns del hostA
ip netns del hostB
wait_until 15 rdma_dev_absent mrcB
check "rmmod mrc" rmmod mrc
check_dmesg_clean
done_testing
