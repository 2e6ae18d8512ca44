# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# SRv6 EVs named by value (issue 20), on the 2 x 4 fabric: endpoint
# probes from hostB along a uSID container or a segment list written on
# the command line (each crosses the spine it names and no other, and
# times out when that spine is down), and DENY / un-DENY of a profile's
# EV by its container or its segment list (a denied EV's spine carries
# none of a transfer). Malformed values are refused with a message
# naming the reason. A QP's GSO runs on SRv6 EVs, cut into packets, stay
# within its bound of packets in local queues.
# vm-timeout: 900
# shellcheck disable=SC2317 # functions run through check and wait_until
. ../lib.sh
. ../srv6_fabric.sh

dmesg_mark
modprobe mrc
fab_test_up 2 4
GA=$FAB_GA GB=$FAB_GB
A=$(fab_host_addr A) B=$(fab_host_addr B)
check "mrcB path 7: GENERATED, spines 0:1..1:3 toward hostA, the default" \
	fab_mrc_profile B 7 1 7
fab_counts_serve

mrcip_b() {
	ip netns exec hostB mrc-ip "$@"
}
# probe_v VALUE [ARG...]: probes from hostB to hostA along VALUE.
probe_v() {
	mrcip_b probe dev mrcB to "$A" ev "$@" timeout 2s 2>&1
}
# probe_v_fails VALUE [ARG...]: the same, printing mrc-ip's error.
probe_v_fails() {
	! probe_v "$@"
}
# toward_a: "P:S=N ..." the packets each spine sent toward hostA so far.
toward_a() {
	fab_spine_counts | awk '{ printf "%s%d:%d=%d", s, $1, $2, $3; s = " " } END { print "" }'
}
# only_on BEFORE AFTER P:S MIN: between the two toward_a readings, spine
# P:S sent at least MIN packets toward hostA and every other spine none.
only_on() {
	python3 - "$@" <<'PY'
import sys
before, after, spine, least = sys.argv[1:5]
b = dict(kv.split("=") for kv in before.split())
a = dict(kv.split("=") for kv in after.split())
d = {k: int(a[k]) - int(b[k]) for k in a}
bad = [f"{k}={v}" for k, v in sorted(d.items()) if (v < int(least)) if k == spine] + \
      [f"{k}={v}" for k, v in sorted(d.items()) if k != spine and v]
print("ok" if not bad else "off: " + " ".join(bad))
PY
}

# --- Probes by value: a uSID container through spine 0:2, a segment list
# through spine 1:2, each ending at hostA's End.DT6.
C02=fcbb:bb00:1002:d00a:: L12=fc00:1102::e,fc00:d00a::d6
c0=$(toward_a)
check_output "4 probes along container $C02 are answered" \
	'^probe 4 result ok rtt [0-9]+' probe_v $C02 count 4
c1=$(toward_a)
check_output "... they crossed spine 0:2 and no other ($c1)" '^ok$' only_on "$c0" "$c1" 0:2 4
check_output "4 probes along segment list $L12 are answered" \
	'^probe 4 result ok rtt [0-9]+' probe_v $L12 count 4
c2=$(toward_a)
check_output "... they crossed spine 1:2 and no other" '^ok$' only_on "$c1" "$c2" 1:2 4
check_output "mode srv6 spelt out, JSON: an RTT" '"rtt": ?[0-9]+' \
	mrcip_b -j probe dev mrcB to "$A" ev $C02 mode srv6
check "spine 0:2's links down" fab_spine_down 0 2
check_output "... a probe along $C02 is not answered" 'no probe was answered' \
	probe_v_fails $C02
check_output "... one along $L12 is" '^probe 1 result ok' probe_v $L12
check "spine 0:2's links up" fab_spine_up 0 2
check_output "... and $C02 answers again" '^probe 1 result ok' probe_v $C02

# Refused, each with its reason: by the kernel (exit 2, extack) or by
# mrc-ip's grammar (exit 1).
check_output "a multicast first segment is refused" 'multicast address' \
	probe_v_fails ff02::1,fc00:d00a::d6
check_output "a link-local second segment is refused" 'link-local address' \
	probe_v_fails $C02,fe80::1
check_output "this host's own address as the first segment is refused" \
	"this host's own address" probe_v_fails "$B"
check_output "three segments are refused by mrc-ip" 'invalid EV value' \
	probe_v_fails fc00:1102::e,fc00:1002::e,fc00:d00a::d6
check_output "an address in mode udp is refused by mrc-ip" 'is not a 32-bit number' \
	probe_v_fails $C02 mode udp

# --- DENY by value. denied PROFILE: "denied: INDEX..." of hostB's
# profile (the other EVs read unknown while no QP uses it, else good).
denied() {
	mrcip_b -j path show dev mrcB id "$1" evs |
		python3 -c 'import json, sys; print("denied:", " ".join(str(e["index"]) for e in json.load(sys.stdin) if e["state"] == "denied"))'
}
check "path 7: deny EV $C02 by value" mrcip_b path deny dev mrcB id 7 ev $C02
check_output "... EV 1 (spine 0:2) alone is denied" '^denied: 1$' denied 7
# A transfer on path 7 (hostB's default) crosses every spine but the
# denied one's.
timeout 300 ip netns exec hostA ib_write_bw -d mrcA -x "$GA" -n 300 -F > /run/srv.log 2>&1 &
srv=$!
sleep 2
c3=$(toward_a)
check "ib_write_bw -n 300 from hostB" timeout 300 ip netns exec hostB \
	ib_write_bw -d mrcB -x "$GB" -n 300 -F "$FAB_MGMT_A4"
wait "$srv" || { not_ok "the ib_write_bw server exits 0"; diag < /run/srv.log; }
c4=$(toward_a)
echo "toward hostA during the transfer: $c3 -> $c4" | diag
check_output "... spine 0:2 carried none of it, the six others each some" '^ok$' \
	python3 -c '
import sys
b = dict(kv.split("=") for kv in sys.argv[1].split())
a = dict(kv.split("=") for kv in sys.argv[2].split())
d = {k: int(a[k]) - int(b[k]) for k in a}
others = [k for k in d if k not in ("0:0", "0:2")]
print("ok" if d["0:2"] == 0 and all(d[k] > 0 for k in others) else d)' "$c3" "$c4"
check "undeny EV $C02 by value" mrcip_b path undeny dev mrcB id 7 ev $C02
check_output "... no EV of path 7 is denied" '^denied: $' denied 7
check_output "a container not in the profile (spine 0:0): no such EV" \
	'no such EV in the profile' bash -c \
	"! ip netns exec hostB mrc-ip path deny dev mrcB id 7 ev fcbb:bb00:1000:d00a:: 2>&1"

# An EXPLICIT profile of segment lists, denied and un-denied by value.
check "evfmt 4: SRV6, one 128-bit field" \
	mrcip_b evfmt add dev mrcB id 4 mode srv6 fields 128
check "path 9: segment lists through spines 0:1 and 1:1" \
	mrcip_b path add dev mrcB id 9 mode explicit fmt 4 \
	ev fc00:1001::e,fc00:d00a::d6 ev fc00:1101::e,fc00:d00a::d6
check "path 9: deny fc00:1101::e,fc00:d00a::d6 by value" \
	mrcip_b path deny dev mrcB id 9 ev fc00:1101::e,fc00:d00a::d6
check_output "... EV 1 alone is denied" '^denied: 1$' denied 9
check_output "the list's first segment alone names no EV of path 9" \
	'no such EV in the profile' bash -c \
	"! ip netns exec hostB mrc-ip path undeny dev mrcB id 9 ev fc00:1101::e 2>&1"
check "undeny it by its whole list" \
	mrcip_b path undeny dev mrcB id 9 ev fc00:1101::e,fc00:d00a::d6
check_output "... neither EV of path 9 is denied" '^denied: $' denied 9

# --- an SRv6 run's packets count in the local queue ---
# A QP may have 256 packets in local queues (engine/mrc_tx_acct.c). A GSO
# run on an SRv6 EV is cut into packets, and each counts until the stack
# frees it. hostB writes to hostA over plane 0 only (path 8) with a
# window of 1024 PSNs (CC profile 5: never less) through a tbf on its
# plane-0 uplink that drains at 20 Mbit/s and drops nothing: the tbf
# holds at most the bound. Before, the copies counted for nothing once
# the run was freed, and the tbf held up to the whole window.
check "mrcB path 8: GENERATED, spines 0:1..0:3, the default" \
	fab_mrc_profile B 8 1 3
check "mrcB CC profile 5: mrc-window, 1024 PSNs, never less" \
	mrcip_b ccprofile add dev mrcB id 5 alg mrc-window init-pkts 1024 \
	min-pkts 1024
check "hostB's plane-0 uplink drains at 20 Mbit/s (tbf)" \
	ip netns exec hostB tc qdisc add dev up0 root tbf rate 20mbit \
	burst 16k limit 10000000
# up0_backlog: packets the tbf holds.
up0_backlog() {
	ip netns exec hostB tc -s qdisc show dev up0 |
		awk '/backlog/ { sub("p", "", $3); print $3; exit }'
}
pair_start 120 ib_write_bw -d mrcA -x "$GA" -D 4 -F -- \
	env MRC_CC_PROFILE=5 ib_write_bw -d mrcB -x "$GB" -D 4 -F "$FAB_MGMT_A4"
held=0
while kill -0 "$_pair_cli" 2>/dev/null; do
	b=$(up0_backlog)
	[ "${b:-0}" -gt "$held" ] && held=$b
	sleep 0.1
done
pair_finish "ib_write_bw -D 4 from hostB through the tbf"
echo "the tbf on hostB's up0 held at most $held packets" | diag
check "... at most 256 + 16 at a time ($held)" test "$held" -le 272
check "... and 128 or more: the local queue did fill ($held)" \
	test "$held" -ge 128
check "hostB's uplink unshaped again" \
	ip netns exec hostB tc qdisc del dev up0 root

fab_test_down
check_dmesg_clean
done_testing
