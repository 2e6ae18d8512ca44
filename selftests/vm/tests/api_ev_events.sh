# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: ctl
# vm-timeout: 600
# The OCP controller API's EV event CQ (mrc_ctl_create_ev_event_cq,
# mrc_ctl_poll_ev_event) on the multipath topology. hostB's QP runs an
# EXPLICIT EV profile 5 of 8 source ports with events on; mrc-ev-events
# (selftests/progs/mrc_ev_events.c), a controller in C, watches mrcB's
# EV event CQ through a completion channel (arm, poll(2) on the channel's
# fd, mrc_get_cq_event, ack, poll the CQ). The busiest router is cut
# mid-transfer: the program must report an ASSUMED_BAD event of profile 5
# for each EV that router carries, and no other device's or profile's.
# Other EVs may go bad for a while too (these unshaped paths drop under
# emulation; ctl_paths shows it): every event the program reports must
# be one the kernel sent, as mrc-ip monitor saw it, with the EV value
# matching the kernel's wire source port. An OCP event names no QP: the
# profile and the EV value say which QPs (here the only one, whose qpn
# mrc-ip monitor's events name). While the router is still cut, a batch
# of EV probes (mrc-ctl-check --probe-ports) times out on exactly its EVs
# and returns RTTs for the others. Then the router comes back and GOOD
# events follow.
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh

N=4
NEV=8
SPORT0=53248	# 0xd000
EVENTS=$MRC_BUILD/selftests/progs/mrc-ev-events
dmesg_mark
mp_up "topology: $N routed paths, ECMP on the L4 hash" $N 0

evs=()
for ((i = 0; i < NEV; i++)); do
	evs+=(ev "$(printf '0x%04x0000' $((SPORT0 + i)))")
done
check "EXPLICIT EV profile 5 on mrcB: $NEV ports from $SPORT0, events on" \
	ip netns exec hostB mrc-ip evprofile add dev mrcB id 5 mode explicit \
	fmt 0 min-active 2 events all "${evs[@]}"
PORT=$(ip netns exec hostB mrc-ip -j dev show dev mrcB |
	python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["udp_port"])')
read -ra via <<<"$(mp_route_paths hostB "$MP_A4" "$SPORT0" "$NEV" "$PORT" | paste -sd ' ')"
echo "router of each EV: ${via[*]}" | diag
CUT=$(printf '%s\n' "${via[@]}" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
# The compact EVs (0xPPPP0000) the cut router carries, one per line.
cut_evs=$(for i in "${!via[@]}"; do
	[ "${via[$i]}" = "$CUT" ] && printf '0x%04x0000\n' $((SPORT0 + i))
done)
echo "router $CUT carries: $(paste -sd ' ' <<<"$cut_evs")" | diag

# The controller and, for the QP numbers, mrc-ip monitor.
ip netns exec hostB timeout 200 "$EVENTS" --dev mrcB --seconds 150 \
	--profile 5 --want-bad "$(paste -sd , <<<"$cut_evs")" > /run/ev-events.log 2>&1 &
evp=$!
ip netns exec hostB timeout 200 mrc-ip -j monitor dev mrcB evprofile 5 \
	> /run/ev-monitor.json 2>&1 &
mon=$!
check "mrc-ev-events made its EV event CQ" \
	wait_until 20 grep -qx ready /run/ev-events.log

pair_start 200 ib_write_bw -d mrcA -x "$GA4" -D 180 -f 1 -F -- \
	env MRC_EV_PROFILE=5 ib_write_bw -d mrcB -x "$GB4" -D 180 -f 1 -F "$MP_A4"
# path_tx: packets profile 5's EVs carried. (Polled: jq, as a Python
# start costs seconds under emulation.)
path_tx() {
	ip netns exec hostB mrc-ip -s -s -j path show dev mrcB id 5 |
		jq '[.[].tx_pkts] | add // 0'
}
flowing() {
	[ "$(path_tx)" -gt 1000 ]
}
check "traffic flows on profile 5" wait_until 60 flowing
echo "$(date +%T) cutting router $CUT" | diag
mp_path_down "$CUT"

wait "$evp"
rc=$?
diag < /run/ev-events.log
check "mrc-ev-events saw an ASSUMED_BAD event for each cut EV (exit $rc)" \
	bash -c "[ $rc = 0 ] && tail -n1 /run/ev-events.log | grep -qx ok"
# ev_lines STATE: the EVs of profile 5 the program reported in STATE.
ev_lines() {
	awk -v s="$1" '$1 == "event" && $3 == 5 && $9 == s { print $5 }' /run/ev-events.log |
		sort -u
}
# The kernel's own events, as mrc-ip monitor printed them: each event
# the program reported is one of them, its EV value the wire source port
# the kernel named (a compact UDP EV is 0xPPPP0000).
check_output "... each event one the kernel sent, EV value = wire port" '^ok$' python3 -c '
import json, sys
evs = [json.loads(l) for l in open("/run/ev-monitor.json") if l.startswith("{")]
kern = {"0x%04x0000" % e["sport"] for e in evs
        if e.get("evprofile") == 5 and e.get("state") == "assumed_bad"}
got = set(sys.argv[1].split())
print("kernel: %s" % sorted(kern), file=sys.stderr)
print("ok" if got and got <= kern else "reported %s, kernel %s" % (got, kern))' \
	"$(ev_lines assumed_bad)"
check_no_output "... and only events of profile 5 on port 1" \
	'.' awk '$1 == "event" && ($3 != 5 || $7 != 1)' /run/ev-events.log
check_no_output "... none lost (drop 0)" '.' \
	awk '$1 == "event" && $11 != 0' /run/ev-events.log
check_output "mrc-ip monitor: the same EVs went bad on hostB's QP" '^ok$' python3 -c '
import json, sys
qpns = {json.loads(l).get("qpn") for l in open("/run/ev-monitor.json") if l.startswith("{")}
print("ok" if len(qpns) == 1 and None not in qpns else "QPs %s" % qpns)'

# EV probes through the controller API (mrc_ctl_ep_batch_send_wait) while
# the router is still cut: the EVs it carries time out (ETIMEDOUT), every
# other one answers with an RTT. Up to three batches: a probe on a busy
# healthy path may be dropped (these paths are unshaped), a cut EV never
# answers.
ports=$(for ((i = 0; i < NEV; i++)); do echo $((SPORT0 + i)); done | paste -sd ,)
want_to=$(for i in "${!via[@]}"; do
	[ "${via[$i]}" = "$CUT" ] && echo $((SPORT0 + i))
done | sort -n | paste -sd ' ')
n_cut=$(wc -w <<<"$want_to")
: > /run/ev-answered
for try in 1 2 3; do
	ip netns exec hostB "$MRC_BUILD/selftests/progs/mrc-ctl-check" --dev mrcB \
		--peer "::ffff:$MP_A4" --probe-ports "$ports" > /run/ev-probe.log 2>&1
	echo "batch $try:" | diag
	diag < /run/ev-probe.log
	awk '$1 == "probe" && $3 == "rtt" && $4 > 0 { print $2 }' /run/ev-probe.log \
		>> /run/ev-answered
	[ "$(sort -u /run/ev-answered | wc -l)" -lt $((NEV - n_cut)) ] || break
done
got_to=$(tr , '\n' <<<"$ports" | grep -vxF -f /run/ev-answered | sort -n | paste -sd ' ')
check "EV probes while router $CUT is cut: exactly its EVs time out ($got_to)" \
	test "$got_to" = "$want_to"
check "... the $((NEV - n_cut)) other EVs answer with an RTT" \
	test "$(sort -u /run/ev-answered | wc -l)" -eq $((NEV - n_cut))
check "... and the call says ETIMEDOUT for the unanswered" \
	bash -c "tail -n1 /run/ev-probe.log | grep -qx ok"

# Recovery: GOOD events once probes succeed on the router again.
ip netns exec hostB timeout 120 "$EVENTS" --dev mrcB --seconds 60 \
	> /run/ev-good.log 2>&1 &
evp=$!
wait_until 20 grep -qx ready /run/ev-good.log
mp_path_up "$CUT"
good_seen() {
	awk '$1 == "event" && $3 == 5 && $9 == "good"' /run/ev-good.log | grep -q .
}
check "router $CUT back: GOOD events of profile 5" wait_until 60 good_seen
pair_stop
pair_finish "ib_write_bw over profile 5 across the cut"
kill "$evp" "$mon" 2>/dev/null
wait "$evp" "$mon" 2>/dev/null

ip netns exec hostB mrc-ip evprofile del dev mrcB id 5 2>/dev/null
mp_teardown
check_dmesg_clean
done_testing
