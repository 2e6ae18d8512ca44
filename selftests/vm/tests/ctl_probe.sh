# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-timeout: 600
# Endpoint probes (PROBE, `mrc-ip probe`) across a router: an RTT on a
# working path, a timeout on a path a tc filter blackholes and to a host
# with no MRC device; malformed requests answered with an errno and an
# extack message, changing nothing; EPERM without CAP_NET_ADMIN; the
# responder's rate limit, per source address; deleting the device wakes
# a waiting PROBE.
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh

dmesg_mark
mp_up "topology: hostA - r1 - hostB, unshaped" 1 none
A="DEV_NAME=str:mrcA"
# lib.sh's mrc_genl (and so check_genl_error), in hostA with mrcA, from
# one Python process: a start costs seconds under emulation.
mrc_genl_serve hostA
ina() {
	ip netns exec hostA "$@"
}
# genl_out ARGS...: mrc_genl's reply or its error line, whatever its exit.
genl_out() {
	mrc_genl "$@" 2>&1
	true
}
# entry ID DGID-HEX EV-HEX: one probe entry by wire value.
entry() {
	echo "MRC_ATTR_PROBE_ENTRY={ MRC_PROBE_REQ_ID=u16:$1 MRC_PROBE_DGID=bin:$2 MRC_PROBE_EV_VALUE=bin:$3 }"
}
B6HEX=fd020000000000000000000000000001

# --- a working path ---
check_output "mrc-ip probe over IPv6: an RTT" \
	'^probe 1 result ok rtt [0-9]+ port 1$' \
	ina mrc-ip probe dev mrcA to "$MP_B6" ev 5000
check_output "mrc-ip probe over IPv4 (mapped GID), count 4: four RTTs" \
	'^4$' bash -c "ip netns exec hostA mrc-ip probe dev mrcA to ::ffff:$MP_B4 \
		ev 5000 count 4 | grep -c '^probe [1-4] result ok rtt [0-9]'"
json=$(ina mrc-ip -j probe dev mrcA to "$MP_B6" ev 5000 count 2 2>&1)
if python3 -c '
import json, sys
a = json.loads(sys.argv[1])
assert [p["probe"] for p in a] == [1, 2], a
assert all(p["result"] == "ok" and p["rtt"] > 0 and p["port"] == 1 for p in a), a' "$json"; then
	ok "mrc-ip -j probe: JSON with the same fields"
else
	not_ok "mrc-ip -j probe: JSON with the same fields"
	echo "$json" | diag
fi
check "mrcA counts its probes sent and answered" \
	test "$(hw_counter mrcA ep_probes_sent)" -ge 7 -a "$(hw_counter mrcA ep_probes_answered)" -ge 7

# --- a blackholed path: r1 drops source port 5001 ---
ip netns exec r1 tc qdisc add dev ethA clsact
check "r1 drops UDP source port 5001 (IPv4)" \
	ip netns exec r1 tc filter add dev ethA ingress protocol ip prio 1 \
	u32 match ip protocol 17 0xff match ip sport 5001 0xffff action drop
check "r1 drops UDP source port 5001 (IPv6)" \
	ip netns exec r1 tc filter add dev ethA ingress protocol ipv6 prio 2 \
	u32 match ip6 protocol 17 0xff match ip6 sport 5001 0xffff action drop
dropped() {
	ip netns exec r1 tc -s filter show dev ethA ingress |
		awk '/Sent .* pkt/ { n += $4 } END { print n + 0 }'
}
d0=$(dropped)
out=$(ina mrc-ip probe dev mrcA to "$MP_B6" ev 5001 timeout 300ms 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "no probe was answered" <<<"$out"; then
	ok "the blackholed EV times out (exit $rc, the kernel's message)"
else
	not_ok "the blackholed EV times out"
	echo "exit $rc: $out" | diag
fi
check "... its probe reached r1's filter and was dropped there" \
	test "$(dropped)" -gt "$d0"
# results: each entry of a PROBE reply (mrc-genl.py's JSON) as ID:ok or
# ID:timeout, in order, on one line.
results() {
	python3 -c '
import json, sys
e = json.loads(sys.stdin.read()).get("MRC_ATTR_PROBES", {}).get("MRC_ATTR_PROBE_ENTRY", [])
e = e if isinstance(e, list) else [e]
print(" ".join("%d:%s" % (x["MRC_PROBE_REQ_ID"], "ok" if x.get("MRC_PROBE_RTT_NS", 0) > 0
      and x.get("MRC_PROBE_PORT") == 1 and "MRC_PROBE_TIMED_OUT" not in x
      else "timeout" if "MRC_PROBE_TIMED_OUT" in x and "MRC_PROBE_RTT_NS" not in x
      else "bad") for x in e))'
}
# probe_results ARGS...: results of the PROBE request ARGS.
probe_results() {
	mrc_genl PROBE "$@" | results
}
check_output "one call, two EVs: the working one answers, the other times out" \
	'^1:ok 2:timeout$' probe_results $A PROBE_TIMEOUT_NS=u64:300000000 \
	PROBES={ $(entry 1 $B6HEX 00001388) $(entry 2 $B6HEX 00001389) }
check_output "the same EV as STEV (flow label 0x1, port 5000) works" \
	'^9:ok$' probe_results $A PROBES={ MRC_ATTR_PROBE_ENTRY={ \
	MRC_PROBE_REQ_ID=u16:9 MRC_PROBE_DGID=bin:$B6HEX MRC_PROBE_FMT_MODE=u8:0 \
	MRC_PROBE_EV_VALUE=bin:00011388 } }
check_output "mrc-ip probe ev 0x11388 mode stev: an RTT" '^probe 1 result ok rtt [0-9]+' \
	ina mrc-ip probe dev mrcA to "$MP_B6" ev 0x11388 mode stev
check_fails "mrc-ip probe ev 0x11389 mode stev (port 5001): timeout" \
	ina mrc-ip probe dev mrcA to "$MP_B6" ev 0x11389 mode stev timeout 300ms

# A probe waiting for its timeout holds no lock others need: requests
# to the family meanwhile are answered at once.
ina mrc-ip probe dev mrcA to "$MP_B6" ev 5001 timeout 8s > /dev/null 2>&1 &
slow=$!
sleep 1
t0=$(date +%s%N)
ina mrc-ip dev show dev mrcA > /dev/null
ina mrc-ip evfmt show dev mrcA > /dev/null
t1=$(date +%s%N)
check "while an 8 s probe waits, two other requests take under 5 s ($(((t1 - t0) / 1000000)) ms)" \
	test $(((t1 - t0) / 1000000)) -lt 5000
wait "$slow"
check "... and the probe still times out" test $? -ne 0

# --- a host without MRC: r1's own address ---
check_output "a GID with no MRC device behind it times out" \
	'^error 110 ETIMEDOUT: no probe was answered' \
	genl_out PROBE $A PROBE_TIMEOUT_NS=u64:300000000 \
	PROBES={ $(entry 1 fd020000000000000000000000000065 00001388) }

# --- an EV profile's EV ---
fmt3_online() {
	mrc_genl EVFMT_NEW $A PROF_ID=u64:3 \
		EVFMT={ MRC_EVFMT_MODE=u8:2 MRC_EVFMT_FIELDS={ MRC_EVFMT_FIELD_WIDTH=u8:16 } } &&
	mrc_genl EVFMT_SET $A PROF_ID=u64:3 PROF_STATE=u8:2
}
check "EV format 3 (UDP, 16 bits) ONLINE on mrcA" fmt3_online
check "EV profile 7: EXPLICIT, ports 5000 and 5001, ONLINE" \
	mrc_genl EVPROF_NEW $A PROF_ID=u64:7 EVPROF={ MRC_EVPROF_MODE=u8:1 \
	MRC_EVPROF_FMT_ID=u64:3 } EVS={ MRC_ATTR_EV_ENTRY={ MRC_EV_VALUE=bin:13880000 } \
	MRC_ATTR_EV_ENTRY={ MRC_EV_VALUE=bin:13890000 } } PROF_STATE=u8:2
check_output "mrc-ip probe evprofile 7 index 0: an RTT" 'result ok rtt [0-9]+' \
	ina mrc-ip probe dev mrcA to "$MP_B6" evprofile 7 index 0
check_fails "mrc-ip probe evprofile 7 index 1 (port 5001): timeout" \
	ina mrc-ip probe dev mrcA to "$MP_B6" evprofile 7 index 1 timeout 300ms

# --- malformed requests: an errno, an extack, nothing sent or changed ---
snapshot() {
	hw_counter mrcA ep_probes_sent
	mrc_genl --dump EVPROF_GET $A
}
before=$(snapshot)
many=()
for i in $(seq 65); do many+=($(entry "$i" $B6HEX 00001388)); done
check_genl_error "65 entries: E2BIG" E2BIG 'at most 64 probes' \
	PROBE $A PROBES={ "${many[@]}" }
check_genl_error "a DGID of 15 bytes: ERANGE" ERANGE 'size out of range' \
	PROBE $A PROBES={ $(entry 1 fd0200000000000000000000000000 00001388) }
check_genl_error "timeout 0: ERANGE" ERANGE 'range' \
	PROBE $A PROBE_TIMEOUT_NS=u64:0 PROBES={ $(entry 1 $B6HEX 00001388) }
check_genl_error "timeout above 10 s: ERANGE" ERANGE 'range' \
	PROBE $A PROBE_TIMEOUT_NS=u64:10000000001 PROBES={ $(entry 1 $B6HEX 00001388) }
check_genl_error "an unknown EV profile: ENOENT" ENOENT 'no EV profile' \
	PROBE $A PROBES={ MRC_ATTR_PROBE_ENTRY={ MRC_PROBE_REQ_ID=u16:1 \
	MRC_PROBE_DGID=bin:$B6HEX MRC_PROBE_PROF_ID=u64:99 MRC_PROBE_EV_INDEX=u32:0 } }
check_genl_error "an index past the profile's count: ERANGE" ERANGE 'past the profile' \
	PROBE $A PROBES={ MRC_ATTR_PROBE_ENTRY={ MRC_PROBE_REQ_ID=u16:1 \
	MRC_PROBE_DGID=bin:$B6HEX MRC_PROBE_PROF_ID=u64:7 MRC_PROBE_EV_INDEX=u32:2 } }
check_genl_error "a request id twice: EINVAL" EINVAL 'used twice' \
	PROBE $A PROBES={ $(entry 4 $B6HEX 00001388) $(entry 4 $B6HEX 00001389) }
check_genl_error "no DGID: EINVAL, the attribute named missing" EINVAL 'missing' \
	PROBE $A PROBES={ MRC_ATTR_PROBE_ENTRY={ MRC_PROBE_REQ_ID=u16:1 \
	MRC_PROBE_EV_VALUE=bin:00001388 } }
check_genl_error "source port 0: EINVAL" EINVAL 'source port 0' \
	PROBE $A PROBES={ $(entry 1 $B6HEX 00010000) }
check_genl_error "a UDP value above 16 bits: EINVAL" EINVAL 'wider' \
	PROBE $A PROBES={ $(entry 1 $B6HEX 00011388) }
check_genl_error "a multicast DGID: EINVAL" EINVAL 'unicast' \
	PROBE $A PROBES={ $(entry 1 ff020000000000000000000000000001 00001388) }
check_genl_error "an empty GID slot as source: ENOENT" ENOENT 'no RoCE v2 GID' \
	PROBE $A PROBES={ MRC_ATTR_PROBE_ENTRY={ MRC_PROBE_REQ_ID=u16:1 \
	MRC_PROBE_DGID=bin:$B6HEX MRC_PROBE_SGID_INDEX=u32:120 MRC_PROBE_EV_VALUE=bin:00001388 } }
check_genl_error "a reply attribute in a request: EINVAL" EINVAL 'policy|reject' \
	PROBE $A PROBES={ MRC_ATTR_PROBE_ENTRY={ MRC_PROBE_REQ_ID=u16:1 \
	MRC_PROBE_DGID=bin:$B6HEX MRC_PROBE_EV_VALUE=bin:00001388 MRC_PROBE_RTT_NS=u64:1 } }
after=$(snapshot)
if [ "$before" = "$after" ]; then
	ok "the malformed requests sent nothing and changed nothing"
else
	not_ok "the malformed requests sent nothing and changed nothing"
	diff <(echo "$before") <(echo "$after") | diag
fi

# --- permissions ---
check_output "without CAP_NET_ADMIN: PROBE fails with EPERM" '^error 1 EPERM' \
	bash -c "ip netns exec hostA capsh --drop=cap_net_admin -- -c \
		'python3 ../mrc-genl.py PROBE $A PROBES={ $(entry 1 $B6HEX 00001388) } 2>&1; true'"
check_output "... and so does mrc-ip probe" 'not permitted|EPERM' \
	bash -c "ip netns exec hostA capsh --drop=cap_net_admin -- -c \
		'mrc-ip probe dev mrcA to $MP_B6 ev 5000 2>&1; true'"

# --- the responder's rate limit: 400 probes at once from a plain socket ---
lim0=$(hw_counter mrcB rcvd_probe_limited)
sent0=$(hw_counter mrcB sent_pkts)
rcvd0=$(hw_counter mrcB rcvd_pkts)
check "hostA floods mrcB with 400 endpoint probes" ina python3 -c '
import socket, struct, sys
sys.path.insert(0, "..")
import mrc_pkt
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(400):
    pkt = mrc_pkt.bth(0x20, 0, 0xFFFFFF, 0, 32) + struct.pack("!II", i, 0)
    s.sendto(pkt, (sys.argv[1], mrc_pkt.MRC_PORT))' "$MP_B4"
sleep 1
limited=$(($(hw_counter mrcB rcvd_probe_limited) - lim0))
answered=$(($(hw_counter mrcB sent_pkts) - sent0))
rcvd=$(($(hw_counter mrcB rcvd_pkts) - rcvd0))
echo "mrcB: $rcvd probes received, $limited limited, $answered answered" | diag
check "rcvd_probe_limited grew on the responder" test "$limited" -gt 0
check "... at least the burst (64) was answered, and every other one limited" \
	test "$answered" -ge 64 -a $((limited + answered)) -eq "$rcvd"

# --- one source's flood uses up its own limit, not the others' ---
# hostA floods mrcB from its IPv4 address for FLOOD_S seconds, far above
# the 250 answers a second one source address may have, while mrc-ip
# probes mrcB from hostA's IPv6 address, another source. Before the
# limit was per source, the flood took the device's whole rate (1000 a
# second): the other source's probes timed out, and the flooding (or
# forged) address received every answer the device gave.
FLOOD_S=5
lim0=$(hw_counter mrcB rcvd_probe_limited)
sent0=$(hw_counter mrcB sent_pkts)
t_start=$(date +%s%N)
ina python3 -c '
import socket, struct, sys, time
sys.path.insert(0, "..")
import mrc_pkt
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
dst = (sys.argv[1], mrc_pkt.MRC_PORT)
t0 = time.monotonic()
n = 0
while time.monotonic() < t0 + float(sys.argv[2]):
    s.sendto(mrc_pkt.bth(0x20, 0, 0xFFFFFF, 0, 32) + struct.pack("!II", n, 0), dst)
    n += 1
print(n, time.monotonic() - t0)' "$MP_B4" "$FLOOD_S" > /tmp/flood.out 2>&1 &
flood=$!
flood_limited() {
	[ "$(hw_counter mrcB rcvd_probe_limited)" -ge $((lim0 + 200)) ]
}
check "the flood from $MP_A4 is being limited" wait_until 10 flood_limited
check_output "meanwhile 8 probes from $MP_A6 are all answered" '^8$' \
	bash -c "ip netns exec hostA mrc-ip probe dev mrcA to $MP_B6 ev 5000 \
		count 8 timeout 2s | grep -c '^probe [1-8] result ok rtt'"
t_done=$(date +%s%N)
wait "$flood"
read -r nflood secs < /tmp/flood.out
check "... while the flood still ran ($(((t_done - t_start) / 1000000)) ms in)" \
	awk -v d=$(((t_done - t_start) / 1000000)) -v s="${secs:-0}" \
	'BEGIN { exit !(d < s * 1000) }'
answered=$(($(hw_counter mrcB sent_pkts) - sent0 - 8))
limited=$(($(hw_counter mrcB rcvd_probe_limited) - lim0))
# Its source's burst, its rate over the flood, and a little slack.
allowed=$(awk -v s="$secs" 'BEGIN { printf "%d", 64 + 250 * s + 20 }')
echo "flood: ${nflood:-?} probes in ${secs:-?} s; $answered answered, $limited limited" | diag
check "the flood sent more than twice its source's allowance ($allowed)" \
	test "${nflood:-0}" -gt $((2 * allowed))
check "it was answered at most $allowed times: 64 + 250/s" \
	test "$answered" -le "$allowed" -a "$answered" -ge 64

# --- a reply nobody asked for is counted and dropped ---
check "hostB sends mrcA an endpoint PROBE_REPLY it never asked for" \
	ip netns exec hostB python3 -c '
import socket, struct, sys
sys.path.insert(0, "..")
import mrc_pkt
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(mrc_pkt.bth(0x21, 0, 0xFFFFFF, 0, 32) + struct.pack("!II", 7, 0),
         (sys.argv[1], mrc_pkt.MRC_PORT))' "$MP_A4"
check "mrcA counts it rcvd_ep_unmatched" wait_until 10 bash -c \
	"[ \$(cat /sys/class/infiniband/mrcA/ports/1/hw_counters/rcvd_ep_unmatched) -ge 1 ]"

# --- removal does not wait for a probe's timeout ---
# A PROBE holds the device while it waits; deleting the device wakes it
# (before: the delete waited the whole 10 s).
psent0=$(hw_counter mrcA ep_probes_sent)
ina python3 ../mrc-genl.py PROBE $A PROBE_TIMEOUT_NS=u64:10000000000 \
	PROBES={ $(entry 1 fd020000000000000000000000000065 00001388) } \
	> /tmp/probe-del.log 2>&1 &
waiter=$!
check "a 10 s PROBE to a host without MRC is waiting" wait_until 10 bash -c \
	"[ \$(cat /sys/class/infiniband/mrcA/ports/1/hw_counters/ep_probes_sent) -gt $psent0 ]"
t0=$(date +%s%N)
check "rdma link delete mrcA while it waits" ina rdma link delete mrcA
t1=$(date +%s%N)
wait "$waiter"
t2=$(date +%s%N)
check "... returns within 3 s ($(((t1 - t0) / 1000000)) ms)" \
	test $(((t1 - t0) / 1000000)) -lt 3000
check "... and so does the PROBE, with ENODEV ($(((t2 - t0) / 1000000)) ms)" \
	bash -c "[ $(((t2 - t0) / 1000000)) -lt 3000 ] &&
		grep -q '^error 19 ENODEV: the device is being removed' /tmp/probe-del.log"
diag < /tmp/probe-del.log

# The server holds hostA: it goes first, so the namespace goes with
# mp_teardown.
mrc_genl_stop
mp_teardown
wait_until 15 rdma_dev_absent mrcB
check "rmmod mrc" rmmod mrc
check_dmesg_clean
done_testing
