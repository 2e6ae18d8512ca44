# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The MRC demo, run inside the test VM by `make demo`.
#
# Two hosts on a two-plane SRv6 fabric of eight shaped spines
# (selftests/vm/srv6_fabric.sh); a quick look at the MRC devices as the
# RDMA stack, libibverbs and mrc-ip see them; an EV profile that pins
# one EV to each spine; then the main event: one ib_write_bw connection
# sprayed over all eight spines while a spine fails (its links, then its
# SID routes) and a whole plane goes down and comes back, with live
# per-path statistics. Exits non-zero, saying which step failed, if MRC
# did not do what the demo shows.
set -u
. ../lib.sh
. ../mp_lib.sh
. ../srv6_fabric.sh
. ./watch.sh

PLANES=2
SPINES=4
RATE=10			# Mbit/s per spine
PHASE=6			# seconds per phase of the failover run
PROFILE=7		# the SRv6 EV profile
PROBE=$MRC_BUILD/selftests/progs/mrc-verbs-probe
EVENTS=/tmp/demo-events.txt

step() {
	printf '\n==> %s\n' "$*"
}

say() {
	printf '    %s\n' "$*"
}

run() {
	printf '$ %s\n' "$*"
	"$@" 2>&1 | sed 's/^/    /'
	return "${PIPESTATUS[0]}"
}

fail() {
	printf '\nDEMO FAILED: %s\n' "$*"
	watch_stop
	fab_down
	exit 1
}

mrcip_b() {
	ip netns exec hostB mrc-ip "$@"
}

# path_view: `mrc-ip -s path show` of the profile: one line per EV.
path_view() {
	printf '$ ip netns exec hostB mrc-ip -s path show dev mrcB id %s\n' "$PROFILE"
	mrcip_b -s path show dev mrcB id "$PROFILE" 2>&1 | sed 's/^/    /'
}

# spine_counters: WATCH_COUNTERS: the bytes, then the packets, each spine
# sent toward hostA (fab_spine_counts: "P S pktsA bytesA pktsB bytesB").
spine_counters() {
	local p s pa ba rest out bytes='' pkts=''
	out=$(fab_spine_counts) || return
	while read -r p s pa ba rest; do
		bytes+="$ba " pkts+="$pa "
	done <<<"$out"
	echo "$bytes${pkts% }"
}

step "A two-plane SRv6 fabric: $PLANES x $SPINES spines, each shaped to $RATE Mbit/s"
say "hostA and hostB (network namespaces) each have one uplink per plane to"
say "a leaf router; each leaf links to every spine of its plane. Routing is"
say "static SRv6: a spine forwards by its uSID (seg6local End, next-csid),"
say "a host decapsulates at its own (End.DT6). No ECMP anywhere: the sender"
say "chooses every packet's spine."
fab_up "$PLANES" "$SPINES" "${RATE}mbit" || fail "building the fabric"
run ip -n spine_0_2 -6 route show "$FAB_BLOCK:1002::/48"
run ip -n hostA -6 route show "$FAB_BLOCK:d00a::/48"
run tc -n spine_0_2 qdisc show dev leafA

step "rdma link add loads mrc.ko on demand: one MRC device per host"
say "Each host's MRC device sits on gid0, a dummy device holding the host's"
say "address, fd00:a::1 or fd00:b::1, reachable over both planes."
grep -qw ^mrc /proc/modules || say "(mrc is not loaded yet)"
run ip netns exec hostA rdma link add mrcA type mrc netdev gid0 ||
	fail "rdma link add mrcA"
run ip netns exec hostB rdma link add mrcB type mrc netdev gid0 ||
	fail "rdma link add mrcB"
run rdma link show
gids() {
	GA=$(gid_index mrcA 'fd00:a::1')
	GB=$(gid_index mrcB 'fd00:b::1')
	[ -n "$GA" ] && [ -n "$GB" ]
}
wait_until 10 gids
gids || fail "no RoCE v2 GID for fd00:a::1 or fd00:b::1"

step "Unmodified libibverbs programs and mrc-ip see them"
printf '$ ip netns exec hostB ibv_devinfo -v -d mrcB | grep -E ...\n'
ip netns exec hostB ibv_devinfo -v -d mrcB |
	grep -E 'hca_id|state|active_mtu|link_layer|GID.*fd00:b::1' |
	sed 's/^/    /'
run ip netns exec hostA "$PROBE" mrcA || fail "mrc-verbs-probe mrcA"
run ip netns exec hostB mrc-ip dev show

step "Paths as the operator configures them: an SRv6 EV profile on hostB"
say "An EV format of three uSID fields (32-bit block, spine, host), and a"
say "GENERATED profile over it: one EV per spine of both planes, each a"
say "uSID container to hostA's decapsulating uSID d00a. mrc-ip shows each"
say "EV's container and the uplink its route leaves by (its plane)."
run ip netns exec hostB mrc-ip evfmt add dev mrcB id 3 mode srv6 fields 32,16,16 ||
	fail "mrc-ip evfmt add"
run ip netns exec hostB mrc-ip path add dev mrcB id "$PROFILE" mode generated fmt 3 events all \
	field 32:0xfcbbbb00:0:0:0 field 16:0x1000:0:7:0x103 \
	field 16:0xd00a:0:0:0 || fail "mrc-ip path add"
run ip netns exec hostB mrc-ip path show dev mrcB id "$PROFILE" evs || fail "mrc-ip path show"
say "The device's default profile: unmodified programs' QPs use it."
run ip netns exec hostB mrc-ip dev set mrcB evprofile "$PROFILE" || fail "mrc-ip dev set"
say "hostA gets the same spines toward hostB's uSID d00b: an answer to EV n"
say "(ACK, READ response, probe reply) takes hostA's EV n, so each EV's round"
say "trip crosses one spine."
run ip netns exec hostA mrc-ip evfmt add dev mrcA id 3 mode srv6 fields 32,16,16 ||
	fail "mrc-ip evfmt add (hostA)"
run ip netns exec hostA mrc-ip path add dev mrcA id "$PROFILE" mode generated fmt 3 events all \
	field 32:0xfcbbbb00:0:0:0 field 16:0x1000:0:7:0x103 \
	field 16:0xd00b:0:0:0 || fail "mrc-ip path add (hostA)"
run ip netns exec hostA mrc-ip dev set mrcA evprofile "$PROFILE" || fail "mrc-ip dev set (hostA)"

# EV n goes through spine n >> 2 : n & 3 (the program counts 0..7 over
# the mask 0x103: plane bit 8, spine bits 0-1).
WATCH_NAMES=()
for ((p = 0; p < PLANES; p++)); do
	for ((s = 0; s < SPINES; s++)); do WATCH_NAMES+=("$p:$s"); done
done
# spine_idx P:S: the spine's column (and EV) index.
spine_idx() {
	echo $((${1%:*} * SPINES + ${1#*:}))
}

step "Data checked end to end: ibv_rc_pingpong -c, hostB -> hostA"
ip netns exec hostA timeout 60 ibv_rc_pingpong -d mrcA -g "$GA" -s 4096 \
	-n 200 -c > /dev/null 2>&1 &
wait_until 20 bash -c "ip netns exec hostA ss -Hltn | grep -q ."
run timeout 60 ip netns exec hostB ibv_rc_pingpong -d mrcB -g "$GB" \
	-s 4096 -n 200 -c "$FAB_MGMT_A4" || fail "ibv_rc_pingpong"
wait

step "One connection sprayed over all $((PLANES * SPINES)) spines"
say "ib_write_bw (one RC QP, perftest's defaults: 64 KiB messages) writes"
say "from hostB to hostA. MRC sends each packet on one of the profile's EVs,"
say "so by one spine, chosen by the sender; hostA's acknowledgments come back"
say "by the same spine."
say "Each line: the goodput (the payload the QP sent for the first time, from"
say "its own counters), the Mbit/s each spine forwarded towards hostA, and"
say "the QP's EVs: how many are GOOD, how many ASSUMED_BAD (only probes)."
say "MRC takes every lost packet as a sign of a bad path, drops at a spine's"
say "$RATE Mbit/s limit included, so now and then an EV is probed back even"
say "with every spine up; a dead spine shows as its count at zero."
say "The operator watches the paths change state as it happens:"
printf '$ ip netns exec hostB mrc-ip monitor dev mrcB > %s &\n' "$EVENTS"
ip netns exec hostB timeout 600 mrc-ip monitor dev mrcB > "$EVENTS" 2>&1 &
monitor=$!
fab_counts_serve
# shellcheck disable=SC2034 # read by watch.sh
WATCH_COUNTERS=spine_counters WATCH_PROFILE=$PROFILE
# shellcheck disable=SC2034
WATCH_GID_A=$GA WATCH_GID_B=$GB WATCH_SERVER=$FAB_MGMT_A4
printf '$ ip netns exec hostB ib_write_bw -d mrcB -x %s -D 1 --run_infinitely -F %s\n' \
	"$GB" "$FAB_MGMT_A4"
watch_start || fail "ib_write_bw did not start (see above)"
watch_header
watch_phase "all up" "$PHASE" || fail "traffic stopped with every spine up"

step "Spine 0:2 dies: both its links go down"
say "Its EV's packets are lost; MRC resends them on other EVs, holds the EV"
say "ASSUMED_BAD and probes it. The other seven spines carry on."
printf '$ ip -n spine_0_2 link set leafA down; ip -n spine_0_2 link set leafB down\n'
fab_spine_down 0 2 || fail "taking spine 0:2 down"
watch_phase "0:2 down" "$PHASE" || fail "traffic stopped when spine 0:2 died"
say "The operator's view: EV 2 (spine 0:2) ASSUMED_BAD, with its losses."
path_view

step "Spine 0:2 comes back: probes get answers, its EV turns GOOD"
fab_spine_up 0 2 || fail "bringing spine 0:2 back"
watch_phase "0:2 up" "$PHASE" || fail "traffic stopped after spine 0:2 came back"

step "Spine 0:2 blackholes: its links stay up, its SID routes are deleted"
printf '$ ip -n spine_0_2 -6 route del %s:1002::/48\n' "$FAB_BLOCK"
fab_spine_sid_del 0 2 || fail "deleting spine 0:2's SIDs"
watch_phase "0:2 hole" "$PHASE" || fail "traffic stopped when spine 0:2 blackholed"
fab_spine_sid_add 0 2 || fail "restoring spine 0:2's SIDs"
watch_phase "0:2 SIDs" "$PHASE" || fail "traffic stopped after spine 0:2's SIDs came back"

step "Plane 1 goes down: all four of its spines (phase p1 down)"
fab_plane_down 1 || fail "taking plane 1 down"
watch_phase "p1 down" "$PHASE" || fail "traffic stopped with plane 1 down"
path_view
step "Plane 1 comes back (phase p1 up)"
fab_plane_up 1 || fail "bringing plane 1 back"
watch_phase "p1 up" "$PHASE" || fail "traffic stopped after plane 1 came back"
say "And now: every EV GOOD again, each with its own counters."
path_view
watch_stop
kill "$monitor" 2>/dev/null
wait "$monitor" 2>/dev/null

step "What mrc-ip monitor printed: every EV state change, with its reason"
say "$(wc -l < "$EVENTS") events; the first ones, then the counts by EV and reason:"
head -n 6 "$EVENTS" | cut -c 1-150 | sed 's/^/    /'
say "..."
awk '{ for (i = 1; i < NF; i++) {
		if ($i == "index") ev = $(i + 1)
		if ($i == "state") st = $(i + 1)
		if ($i == "reason") why = $(i + 1) }
	printf "EV %s %s (%s)\n", ev, st, why }' "$EVENTS" |
	sort -V | uniq -c | sed 's/^/    /'
grep -q 'state assumed_bad' "$EVENTS" ||
	fail "mrc-ip monitor saw no EV go ASSUMED_BAD"
grep -q 'reason probe_ok' "$EVENTS" ||
	fail "mrc-ip monitor saw no EV probed back to GOOD"

step "Per spine and phase (each phase's first second is the transition)"
watch_summary
echo
say "Each spine carries at most $RATE Mbit/s. With all up the spines forwarded"
say "$(watch_rate 0) Mbit/s of the QP's packets (goodput $(watch_goodput 0)); with 0:2 down"
say "$(watch_rate 1), with plane 1 down $(watch_rate 5)."

step "Where the wire bytes went: the spines' count against the QP's own"
say "The sending QP counts every packet on the EV it takes (mrc-ip -s -s path"
say "show), outer SRv6 header included: all it sent, the payload of first"
say "transmissions (what the application gets), what it resent, its probes."
watch_accounting
say "While a spine or plane was down the QP counts what it sent into it"
say "before it knew; no spine forwarded that."

# demo_verdict: the phases showed what they should; prints why not.
demo_verdict() {
	local n s i
	for n in "${WATCH_NAMES[@]}"; do
		s=$(watch_share 0 "$(spine_idx "$n")")
		[ "$s" -ge 5 ] || { echo "with every spine up, $n carried only $s%"; return 1; }
	done
	for i in 1 3; do
		s=$(watch_share $i "$(spine_idx 0:2)")
		[ "$s" -eq 0 ] || { echo "phase $((i + 1)): 0:2 still carried $s%"; return 1; }
		[ "$(watch_bad $i)" -ge 10 ] ||
			{ echo "phase $((i + 1)): no EV held ASSUMED_BAD"; return 1; }
	done
	for n in 1:0 1:1 1:2 1:3; do
		s=$(watch_share 5 "$(spine_idx "$n")")
		[ "$s" -eq 0 ] || { echo "plane 1 down: $n still carried $s%"; return 1; }
	done
	for i in 1 3 5; do
		[ "$(watch_good_bytes $i)" -gt 0 ] ||
			{ echo "phase $((i + 1)): ib_write_bw completed nothing"; return 1; }
	done
	# Data through a repaired spine again: its EVs were probed back.
	s=$(watch_share 2 "$(spine_idx 0:2)")
	[ "$s" -ge 3 ] || { echo "after 0:2 came back it carried only $s%"; return 1; }
	for n in 1:0 1:1 1:2 1:3; do
		s=$(watch_share 6 "$(spine_idx "$n")")
		[ "$s" -ge 3 ] || { echo "after plane 1 came back $n carried only $s%"; return 1; }
	done
	for i in 0 2 4 6; do
		watch_agrees $i ||
			{ echo "phases 1-$((i + 1)): the QP's count is more than 5% off the spines'"; return 1; }
	done
}
why=$(demo_verdict) || fail "$why"

step "Tear down: the fabric, both MRC devices, the module"
fab_down
wait_until 10 rdma_dev_absent mrcA
wait_until 10 rdma_dev_absent mrcB
run rdma link show
run rmmod mrc
if dmesg | grep -Eq "$DMESG_BAD"; then
	dmesg | grep -E "$DMESG_BAD" | sed 's/^/    /'
	printf '\nDEMO FAILED: the kernel log has warnings\n'
	exit 1
fi
printf '    dmesg: no warnings\n'

printf '\nDemo complete: one MRC connection sprayed over %s spines lost a spine twice\n' \
	"$((PLANES * SPINES))"
printf 'and a whole plane, and got them back, without an error.\n'
