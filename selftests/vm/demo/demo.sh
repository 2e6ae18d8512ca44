# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The MRC demo, run inside the test VM by `make demo`.
#
# Two hosts joined by four shaped routed paths (selftests/vm/mp_topo.sh);
# a quick look at the MRC devices as the RDMA stack, libibverbs and mrc-ip
# see them; then the main event: one ib_write_bw connection sprayed over
# all four paths, one path broken and restored mid-run, with live
# per-path statistics. Exits non-zero, saying which step failed, if MRC
# did not do what the demo shows.
set -u
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh
. ./mp_watch.sh

N=4
RATE=20			# Mbit/s per path
PHASE=6			# seconds per phase of the failover run
PROBE=$MRC_BUILD/selftests/progs/mrc-verbs-probe

EVENTS=/tmp/demo-events.txt

# path_view: `mrc-ip -s path show` of the default EV profile: the header,
# then the ASSUMED_BAD EVs, or the first 8 when none is.
path_view() {
	local out bad
	printf '$ ip netns exec hostB mrc-ip -s path show dev mrcB id 0\n'
	out=$(ip netns exec hostB mrc-ip -s path show dev mrcB id 0 2>&1)
	bad=$(grep -c assumed_bad <<<"$out")
	if [ "$bad" -gt 0 ]; then
		awk 'NR == 1 || /assumed_bad/' <<<"$out" | sed 's/^/    /'
		say "($bad EVs ASSUMED_BAD; the other $(($(wc -l <<<"$out") - 1 - bad)) not shown)"
	else
		head -9 <<<"$out" | sed 's/^/    /'
		say "(and $(($(wc -l <<<"$out") - 9)) more, all good)"
	fi
}

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
	mp_teardown
	exit 1
}

step "Two hosts and $N paths: routers r1..r$N, each shaped to $RATE Mbit/s"
say "hostA and hostB (network namespaces) have one eth0 each; every router is"
say "a path between them, and ECMP picks one per flow by its UDP ports."
MP_MRC=0 mp_topology "$N" "${RATE}mbit" || fail "building the topology"
# Segmented on hostB's egress, as a NIC would, so that the routers count
# the packets MRC counts (veth would pass a GSO run on as one packet).
ip -n hostB link set eth0 gso_max_segs 1 || fail "gso_max_segs on hostB"
run ip -n hostB route show "$MP_NET_A4"
run tc -n r2 qdisc show dev ethA

step "rdma link add loads mrc.ko on demand: one MRC device per host, on eth0"
grep -qw ^mrc /proc/modules || say "(mrc is not loaded yet)"
run ip netns exec hostA rdma link add mrcA type mrc netdev eth0 ||
	fail "rdma link add mrcA"
run ip netns exec hostB rdma link add mrcB type mrc netdev eth0 ||
	fail "rdma link add mrcB"
run rdma link show
gids() {
	GA4=$(gid_index mrcA "::ffff:${MP_A4//./\\.}")
	GB4=$(gid_index mrcB "::ffff:${MP_B4//./\\.}")
	[ -n "$GA4" ] && [ -n "$GB4" ]
}
wait_until 10 gids
gids || fail "no RoCE v2 GID for $MP_A4 or $MP_B4"

step "Unmodified libibverbs programs and mrc-ip see them"
printf '$ ip netns exec hostB ibv_devinfo -v -d mrcB | grep -E ...\n'
ip netns exec hostB ibv_devinfo -v -d mrcB |
	grep -E 'hca_id|state|active_mtu|link_layer|GID.*10\.2\.0\.1' |
	sed 's/^/    /'
run ip netns exec hostA "$PROBE" mrcA || fail "mrc-verbs-probe mrcA"
run ip netns exec hostA mrc-ip dev show
run ip netns exec hostA ss -Huan 'sport = :4792'

step "Data checked end to end: ibv_rc_pingpong -c, hostB -> hostA"
ip netns exec hostA timeout 60 ibv_rc_pingpong -d mrcA -g "$GA4" -s 4096 \
	-n 200 -c > /dev/null 2>&1 &
wait_until 20 bash -c "ip netns exec hostA ss -Hltn | grep -q ."
run timeout 60 ip netns exec hostB ibv_rc_pingpong -d mrcB -g "$GB4" \
	-s 4096 -n 200 -c "$MP_A4" || fail "ibv_rc_pingpong"
wait

EVS=$(cat /sys/module/mrc/parameters/ev_count)
step "Multipath: one connection sprayed over all $N paths"
say "ib_write_bw (one RC QP, perftest's defaults: 64 KiB messages, timeout 14)"
say "writes from hostB to hostA. MRC sends each"
say "packet on one of the QP's $EVS entropy values (EVs: UDP source ports) and"
say "every ECMP hop hashes the port, so one QP uses every path at once."
say "Each line: the goodput (the payload the QP sent for the first time, from"
say "its own counters), the Mbit/s each router"
say "forwarded towards hostA, and the QP's EVs (rdma -dd res show qp): how"
say "many are GOOD and how many ASSUMED_BAD (carrying only probes). MRC takes"
say "every lost packet as a sign of a bad path, drops at a path's $RATE Mbit/s"
say "limit included, so an EV is now and then probed back; a broken path"
say "shows as a whole group of them at once, and as a router's count at zero."
say "The operator watches the paths change state as it happens:"
printf '$ ip netns exec hostB mrc-ip monitor dev mrcB > %s &\n' "$EVENTS"
ip netns exec hostB timeout 600 mrc-ip monitor dev mrcB > "$EVENTS" 2>&1 &
monitor=$!
printf '$ ip netns exec hostB ib_write_bw -d mrcB -x %s -D 1 --run_infinitely -F %s\n' \
	"$GB4" "$MP_A4"
watch_start || fail "ib_write_bw did not start (see above)"
watch_header
watch_phase "all up" "$PHASE" || fail "traffic stopped with every path up"

step "Path 2 breaks: r2's link towards hostB goes down (a blackhole)"
say "ECMP still hashes about a quarter of the EVs onto r2. MRC finds their"
say "packets lost, resends them on GOOD EVs, marks those EVs ASSUMED_BAD and"
say "probes them; the QP carries on over the other paths, without an error."
printf '$ ip -n r2 link set ethB down\n'
mp_path_down 2 || fail "taking path 2 down"
watch_phase "r2 down" "$PHASE" || fail "traffic stopped when path 2 broke"
say "The operator's view of the QP's paths (EV profile 0, the default), the"
say "ASSUMED_BAD ones: each is an EV whose packets r2 took, with its losses."
path_view

step "Path 2 comes back: probes get answers, its EVs turn GOOD and carry data"
printf '$ ip -n r2 link set ethB up\n'
mp_path_up 2 || fail "bringing path 2 back"
watch_phase "r2 back" "$PHASE" || fail "traffic stopped after path 2 came back"
say "And now: every EV GOOD again, each with its own counters."
path_view
watch_stop
kill "$monitor" 2>/dev/null
wait "$monitor" 2>/dev/null

step "What mrc-ip monitor printed: every EV state change, with its reason"
say "$(wc -l < "$EVENTS") events; the first ones after r2 broke, then the counts:"
grep -m 8 assumed_bad "$EVENTS" | cut -c 1-150 | sed 's/^/    /'
say "..."
grep -m 4 probe_ok "$EVENTS" | cut -c 1-150 | sed 's/^/    /'
grep -o 'reason [a-z_]*' "$EVENTS" | sort | uniq -c | sed 's/^/    /'
grep -q 'state assumed_bad' "$EVENTS" ||
	fail "mrc-ip monitor saw no EV go ASSUMED_BAD"
grep -q 'reason probe_ok' "$EVENTS" ||
	fail "mrc-ip monitor saw no EV probed back to GOOD"

step "Per path and phase (each phase's first second is the transition)"
watch_summary
echo
say "One path carries at most $RATE Mbit/s. With all $N up the routers forwarded"
say "$(watch_rate 0) Mbit/s of the QP's packets in all (goodput $(watch_goodput 0)); with r2 down $(watch_rate 1)."

step "Where the wire bytes went: the routers' count against the QP's own"
say "The sending QP counts every packet on the EV it takes (mrc-ip -s path"
say "show): all it sent, the payload of first transmissions (what the"
say "application gets), what it resent, its probes. Bytes towards hostA:"
watch_accounting
say "While r2 was down the QP counts what it sent into r2 before it knew;"
say "no router forwarded that. Headers alone leave a payload share of 0.913."
watch_verdict || fail "$WATCH_WHY"
for p in 0 2; do
	watch_agrees $p || fail "phase $((p + 1)): the QP's count is more than 5% off the routers'"
done

step "Tear down: the namespaces, both MRC devices, the module"
mp_teardown
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

printf '\nDemo complete: one MRC connection used %s paths, lost one and got it back\n' "$N"
printf 'without an error.\n'
