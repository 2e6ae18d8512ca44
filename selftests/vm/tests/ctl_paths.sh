# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-timeout: 900
# Paths as the operator sees them, on the multipath topology. hostB's QPs
# use an EXPLICIT EV profile of 16 source ports, whose route through the
# routers the kernel's ECMP hash decides (ip route get tells which):
# - the per-EV byte counters of `mrc-ip -s -s path show`, summed over the
#   EVs each router carries, equal that router's byte counter within 5%,
#   after the QP has gone (the profile keeps what its QPs counted);
# - one router cut mid-transfer: exactly its EVs go ASSUMED_BAD with
#   losses counted, with statistics and without (`path show ... evs`,
#   `evprofile show` counting them); `mrc-ip monitor -j` prints each
#   change within 100 ms of it, with the EV's value, and the recovery
#   when probes succeed once the path is back;
# - `mrc-ip qp show` and `rdma statistic` report the same counters;
# - STATS_GET and QP_EV_GET refuse what they cannot answer.
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh

N=4
NEV=16
SPORT0=53248	# 0xd000
dmesg_mark
mp_up "topology: $N routed paths, ECMP on the L4 hash" $N 0
# Routers count what they forward; a GSO packet would count as one, with
# one set of headers. Segmented on hostB's egress, as a NIC would.
check "hostB's eth0 segments what it sends (gso_max_segs 1)" \
	ip -n hostB link set eth0 gso_max_segs 1

evs=()
for ((i = 0; i < NEV; i++)); do
	evs+=(ev "$(printf '0x%04x0000' $((SPORT0 + i)))")
done
check "EXPLICIT EV profile 5 on mrcB: $NEV ports from $SPORT0, events on" \
	ip netns exec hostB mrc-ip evprofile add dev mrcB id 5 mode explicit \
	fmt 0 min-active 2 events all "${evs[@]}"
PORT=$(ip netns exec hostB mrc-ip -j dev show dev mrcB |
	python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["udp_port"])')
# (No process substitution: the VM has no /dev/fd.)
read -ra via <<<"$(mp_route_paths hostB "$MP_A4" "$SPORT0" "$NEV" "$PORT" | paste -sd ' ')"
echo "router of each EV: ${via[*]}" | diag
check_output "each of the $NEV EVs has a router" "^$NEV\$" echo "${#via[@]}"

# bytes_to_a: bytes each router sent towards hostA, one line.
bytes_to_a() {
	local i files=()
	for ((i = 1; i <= N; i++)); do
		files+=("/sys/class/net/p$i/statistics/rx_bytes")
	done
	ip netns exec swA cat "${files[@]}" | paste -sd ' '
}

# path_stats: profile 5's EVs with every counter, as JSON.
path_stats() {
	ip netns exec hostB mrc-ip -s -s -j path show dev mrcB id 5
}

# ev_states: profile 5's EVs as `mrc-ip path show ... evs` reports them
# without -s (EVPROF_EV_GET without statistics), "INDEX:STATE" each.
# (The helpers polled below parse with jq: a Python start costs seconds
# under emulation.)
ev_states() {
	ip netns exec hostB mrc-ip -j path show dev mrcB id 5 evs |
		jq -r '[.[] | "\(.index):\(.state)"] | join(" ")'
}
# states_are BAD: ev_states reads the EVs BAD (indexes) assumed_bad and
# every other one good.
states_are() {
	local i s want=()
	for ((i = 0; i < NEV; i++)); do
		s=good
		[[ " $1 " == *" $i "* ]] && s=assumed_bad
		want+=("$i:$s")
	done
	[ "$(ev_states)" = "${want[*]}" ]
}
# nbad_is N: profile 5 has N EVs some QP holds ASSUMED_BAD (evprofile show).
nbad_is() {
	[ "$(ip netns exec hostB mrc-ip -j evprofile show dev mrcB id 5 |
		jq '.[0].bad')" = "$1" ]
}

dups() { cat /sys/class/infiniband/mrcA/ports/1/hw_counters/rcvd_duplicate; }
before=$(bytes_to_a) dups0=$(dups)
pair_start 300 ib_write_bw -d mrcA -x "$GA4" -n 200 -F -- \
	env MRC_EV_PROFILE=5 ib_write_bw -d mrcB -x "$GB4" -n 200 -F "$MP_A4"
pair_finish "ib_write_bw from hostB on profile 5"
after=$(bytes_to_a)
path_stats > /run/paths.json
# A retransmission of a PSN that had arrived was not needed: the loss it
# answered was reordering.
echo "the receiver counted $(( $(dups) - dups0 )) duplicate packets" | diag
routers=$(mp_delta "$before" "$after")
echo "bytes per router towards hostA: $routers" | diag
# Per router: the IP bytes of its EVs plus 14 bytes of Ethernet header a
# packet, against what the router forwarded.
check_output "per router, the EVs' bytes are the router's bytes within 5%" \
	'^ok$' python3 -c '
import json, sys
evs = json.load(open("/run/paths.json"))
via = [int(v) for v in sys.argv[1].split()]
routers = [int(v) for v in sys.argv[2].split()]
mine = [0] * len(routers)
for e in evs:
    mine[via[e["index"]] - 1] += e["tx_bytes"] + 14 * e["tx_pkts"]
# The TCP set-up of perftest crosses the routers too (a few KiB),
# whichever the ECMP hash gives it: on a router no EV takes it is all.
bad = [i + 1 for i, (m, r) in enumerate(zip(mine, routers))
       if r == 0 and m != 0 or abs(m - r) > max(0.05 * r, 16384)]
print("EVs:", mine, "routers:", routers, file=sys.stderr)
data = sum(e["tx_data_bytes"] for e in evs)
retx = sum(e["retx_bytes"] + 14 * e["retx"] for e in evs)
print("goodput / wire bytes: %.3f; retransmitted: %.3f of the wire bytes" %
      (data / max(sum(mine), 1), retx / max(sum(mine), 1)), file=sys.stderr)
print("ok" if sum(routers) > 1000000 and not bad else "off at %s" % bad)' \
	"${via[*]}" "$routers"
python3 -c '
import json, sys
evs = json.load(open("/run/paths.json"))
wire = sum(e["tx_bytes"] + 14 * e["tx_pkts"] for e in evs)
print("wire bytes %d, goodput/wire %.3f, retransmitted/wire %.3f, acks %d, probes %d" % (
      wire, sum(e["tx_data_bytes"] for e in evs) / wire,
      sum(e["retx_bytes"] + 14 * e["retx"] for e in evs) / wire,
      sum(e["tx_acks"] for e in evs), sum(e["tx_probes"] for e in evs)))
# How the losses behind the retransmissions were found (no path is cut
# yet: each one is spurious or a real drop on an unshaped path).
print("losses: gap %d, sack %d, read %d, timeout %d" % tuple(
      sum(e[k] for e in evs) for k in ("loss_gap", "loss_sack", "loss_read",
                                       "loss_timeout")))' | diag
check_output "goodput bytes are counted: 200 x 64 KiB at least" '^ok$' \
	python3 -c '
import json
evs = json.load(open("/run/paths.json"))
print("ok" if sum(e["tx_data_bytes"] for e in evs) >= 200 * 65536 else "no")'
check_output "with no QP left, the profile's EVs read unknown" '^unknown$' \
	python3 -c '
import json
print(" ".join(sorted({e["state"] for e in json.load(open("/run/paths.json"))})))'
check_output "... and so without -s" '^unknown$' bash -c "ip netns exec hostB \
	mrc-ip -j path show dev mrcB id 5 evs | python3 -c 'import json, sys
print(\" \".join(sorted({e[\"state\"] for e in json.load(sys.stdin)})))'"

# The busiest router is cut: its EVs, and only those, go bad.
CUT=$(printf '%s\n' "${via[@]}" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
echo "router $CUT carries $(printf '%s\n' "${via[@]}" | grep -c "^$CUT\$") EVs" | diag
# Each event stamped with the time it reached the monitor. Both ends die
# with the monitor (pkill below) or their timeout. They run at a higher
# priority than perftest, whose busy polling otherwise holds both of the
# emulated CPUs and delays the reader's wake-up past what is measured
# here (the kernel's delivery).
ip netns exec hostB nice -n -10 timeout 300 mrc-ip -j monitor dev mrcB evprofile 5 |
	nice -n -10 timeout 300 python3 -u -c '
import json, sys, time
for line in sys.stdin:
    e = json.loads(line)
    e["rx_ns"] = time.clock_gettime_ns(time.CLOCK_REALTIME)
    print(json.dumps(e), flush=True)' > /run/events.json &
mon=$!
# The transfer outlasts every deadline below and stops once they are met
# (pair_stop).
pair_start 200 ib_write_bw -d mrcA -x "$GA4" -D 180 -f 1 -F -- \
	env MRC_EV_PROFILE=5 ib_write_bw -d mrcB -x "$GB4" -D 180 -f 1 -F "$MP_A4"
# bad_evs: the EVs of profile 5 some QP holds ASSUMED_BAD, one line.
bad_evs() {
	path_stats | jq -r '[.[] | select(.state == "assumed_bad") | .index |
		tostring] | join(" ")'
}
expect_bad=$(for i in "${!via[@]}"; do [ "${via[$i]}" = "$CUT" ] && echo "$i"; done | paste -sd ' ')
# evs_bad_are WANT: bad_evs prints exactly WANT.
evs_bad_are() {
	[ "$(bad_evs)" = "$1" ]
}
# qpn_b: hostB's newest RC QP.
qpn_b() {
	rdma -j res show qp link mrcB/1 |
		jq -e '[.[] | select(.type == "RC") | .lqpn] | last // empty'
}
# tx_pkts: the packets profile 5's EVs carried.
tx_pkts() {
	path_stats | jq '[.[].tx_pkts] | add // 0'
}
# flowing: profile 5's EVs carried 1000 packets more since $1.
flowing() {
	[ "$(tx_pkts)" -gt $(($1 + 1000)) ]
}
base=$(tx_pkts)
check "traffic flows on profile 5" wait_until 60 flowing "$base"
QPN=$(qpn_b)
check "without -s, mrc-ip path show reads the EVs in use GOOD" \
	wait_until 20 states_are ""
path_stats > /run/pre.json
echo "$(date +%T) traffic flows on QP $QPN; cutting router $CUT" | diag
cut_ns=$(date +%s%N)
mp_path_down "$CUT"
check "router $CUT cut: exactly its EVs ($expect_bad) go ASSUMED_BAD" \
	wait_until 20 evs_bad_are "$expect_bad"
path_stats > /run/cut.json
check "... and without -s too, the others GOOD" \
	wait_until 20 states_are "$expect_bad"
check "mrc-ip evprofile show counts them: bad $(wc -w <<<"$expect_bad")" \
	wait_until 20 nbad_is "$(wc -w <<<"$expect_bad")"
check_output "... in text as well (a table row)" \
	"^${expect_bad%% *} +0x[0-9a-f]+ +1 +assumed_bad " \
	ip netns exec hostB mrc-ip path show dev mrcB id 5 evs
check_output "mrc-ip qp show: the QP's own table holds them ASSUMED_BAD" \
	'^ok$' bash -c "ip netns exec hostB mrc-ip -j qp show dev mrcB qpn $QPN |
	python3 -c 'import json, sys
bad = {e[\"index\"] for e in json.load(sys.stdin) if e[\"state\"] == \"assumed_bad\"}
print(\"ok\" if {$(echo "$expect_bad" | tr ' ' ,)} <= bad else bad)'"
# Losses since the cut: on every cut EV. (The other EVs lose packets too
# on these unshaped paths under emulation: see the diagnostic.)
check_output "each cut EV counted losses since the cut" '^ok$' python3 -c '
import json, sys
cut = {int(i) for i in sys.argv[1].split()}
loss = lambda e: e["loss_gap"] + e["loss_sack"] + e["loss_read"] + e["loss_timeout"]
pre = {e["index"]: loss(e) for e in json.load(open("/run/pre.json"))}
d = {e["index"]: loss(e) - pre[e["index"]] for e in json.load(open("/run/cut.json"))}
print("losses since the cut:", d, file=sys.stderr)
mean = lambda v: sum(v) / max(len(v), 1)
on = [d[i] for i in d if i in cut]
off = [d[i] for i in d if i not in cut]
print("others, mean:", mean(off), file=sys.stderr)
kinds = ("loss_gap", "loss_sack", "loss_read", "loss_timeout", "retx", "tx_pkts")
pre_all = {e["index"]: e for e in json.load(open("/run/pre.json"))}
print("since the cut, EVs not cut:", {k: sum(e[k] - pre_all[e["index"]][k]
      for e in json.load(open("/run/cut.json")) if e["index"] not in cut)
      for k in kinds}, file=sys.stderr)
print("ok" if on and min(on) > 0 else "no")' "$expect_bad"
mp_path_up "$CUT"
# all_good: the QP still runs and holds every EV of profile 5 GOOD.
all_good() {
	[ "$(path_stats | jq -r '[.[].state] | unique | join(" ")')" = good ]
}
check "router $CUT back: probes bring every EV back to GOOD" \
	wait_until 30 all_good
check "... and without -s" wait_until 20 states_are ""
check "... and mrc-ip evprofile show: bad 0" wait_until 20 nbad_is 0
echo "$(date +%T) all good again" | diag
pair_stop
pair_finish "ib_write_bw through the cut and the repair: exit 0"
sleep 1
pkill -f "mrc-ip -j monitor dev mrcB"
wait "$mon"
# (Without CAP_NET_ADMIN, monitor cannot even join: ctl_mrcip.sh.)
check_output "without CAP_NET_ADMIN a change is refused: EPERM" \
	'Operation not permitted' bash -c "ip netns exec hostB capsh --drop=cap_net_admin -- \
	-c 'mrc-ip evprofile deny dev mrcB id 5 index 0' 2>&1; true"
echo "events: $(wc -l < /run/events.json)" | diag
# The kernel sends each change as it happens: the monitor must not hear of
# a cut EV only at some later event or timer. One second is far above the
# emulated delivery time (tens of ms; hundreds when perftest busy-polls
# the only vCPU) and far below the seconds between this test's steps.
# (EVs not cut may go bad too: they lose packets under emulation.)
check_output "monitor: each cut EV went good -> assumed_bad, heard within 1 s" \
	'^ok$' python3 -c '
import json, sys
cut = {int(i) for i in sys.argv[1].split()}
evs = [json.loads(l) for l in open("/run/events.json")]
bad = [e for e in evs if e.get("state") == "assumed_bad"]
after = [e for e in bad if e["time"] >= int(sys.argv[2])]
first = {}
for e in after:
    first.setdefault(e["index"], e)
delay = {i: (e["rx_ns"] - e["time"]) / 1e6 for i, e in first.items()}
late = {i: d for i, d in delay.items() if i in cut and d > 1000}
print("bad after the cut:", sorted(first), "delays (ms):",
      {i: round(d, 1) for i, d in delay.items()}, file=sys.stderr)
ok = cut <= set(first) and not late and \
     all(e["old"] == "good" and e["reason"].startswith("loss_") and
         e["dev"] == "mrcB" and e["evprofile"] == 5 for e in bad)
print("ok" if ok else "no")' "$expect_bad" "$cut_ns"
# Each event names its EV's value, as the profile holds it: the kernel
# takes it from the QP when the change happens.
check_output "monitor: each event names its EV by value (0xPPPP0000, PPPP its port)" \
	'^ok$' python3 -c '
import json, sys
evs = [json.loads(l) for l in open("/run/events.json")]
wrong = [(e.get("index"), e.get("value")) for e in evs
         if e.get("value") != "0x%04x0000" % (int(sys.argv[1]) + e.get("index", -1))]
print("events:", len(evs), "wrong values:", wrong[:4], file=sys.stderr)
print("ok" if evs and not wrong else "no")' "$SPORT0"
check_output "monitor: and back to good by probe_ok" '^ok$' python3 -c '
import json, sys
cut = {int(i) for i in sys.argv[1].split()}
evs = [json.loads(l) for l in open("/run/events.json")]
good = {e["index"] for e in evs if e.get("state") == "good" and
        e.get("reason") in ("probe_ok", "readmit")}
print("ok" if cut <= good else "no: %s" % sorted(good))' "$expect_bad"

# Eight mrc-ip processes change profiles of their own and read the
# live one's counters while a QP sends on it.
churn() {
	local id=$((100 + $1)) i
	for i in 1 2; do
		mrc-ip evfmt add dev mrcB id $id mode stev fields 16,16 &&
		mrc-ip evprofile add dev mrcB id $id mode generated fmt $id \
			field 16:0:1:64:65535 field 16:4096:0:0:0 &&
		mrc-ip -s -s -j path show dev mrcB id 5 >/dev/null &&
		mrc-ip evprofile deny dev mrcB id $id index 3-9 &&
		mrc-ip -j evprofile show dev mrcB >/dev/null &&
		mrc-ip ccprofile add dev mrcB id $id alg mrc-window init-pkts $((8 + i)) &&
		mrc-ip -s stats show dev mrcB evprofile 5 >/dev/null &&
		mrc-ip evprofile set dev mrcB id $id state offline &&
		mrc-ip evprofile del dev mrcB id $id &&
		mrc-ip evfmt del dev mrcB id $id &&
		mrc-ip ccprofile set dev mrcB id $id state offline &&
		mrc-ip ccprofile del dev mrcB id $id || { echo "worker $1 round $i failed"; return 1; }
	done
}
pair_start 300 ib_write_bw -d mrcA -x "$GA4" -D 240 -f 1 -F -- \
	env MRC_EV_PROFILE=5 ib_write_bw -d mrcB -x "$GB4" -D 240 -f 1 -F "$MP_A4"
base=$(tx_pkts)
wait_until 60 flowing "$base"
pids=()
for w in $(seq 8); do
	ip netns exec hostB bash -c "$(declare -f churn); churn $w" > "/tmp/churn.$w" 2>&1 &
	pids+=($!)
done
failed=0
for p in "${pids[@]}"; do
	wait "$p" || failed=$((failed + 1))
done
if [ $failed -eq 0 ]; then
	ok "8 concurrent mrc-ip workers while a QP sends on profile 5: no error"
else
	not_ok "8 concurrent mrc-ip workers while a QP sends: $failed failed"
	cat /tmp/churn.* | head -n 20 | diag
fi
echo "$(date +%T) churn done" | diag
pair_stop
pair_finish "ib_write_bw under the churn: exit 0"
check_output "afterwards only the built-in profiles and profile 5 remain" \
	'^\[0\] \[0, 5\] \[0\]$' bash -c "for o in evfmt evprofile ccprofile; do
		ip netns exec hostB mrc-ip -j \$o show dev mrcB |
		python3 -c 'import json,sys; print([p[\"id\"] for p in json.load(sys.stdin)])'; done | paste -sd' '"

# rdma statistic: the device's totals of the per-path counters.
check_output "rdma statistic shows path_tx_bytes and losses" \
	'path_tx_bytes [1-9][0-9]* .*path_loss_' \
	ip netns exec hostB rdma statistic show link mrcB/1

mrc_genl_serve hostB
D="DEV_NAME=str:mrcB"
check_genl_error "STATS_GET without a profile id" EINVAL \
	"an EV profile id is required" --dump STATS_GET $D
check_genl_error "STATS_GET of an unknown profile" ENOENT \
	"no EV profile with this id" --dump STATS_GET $D PROF_ID=u64:77
check_genl_error "QP_EV_GET of an unknown QP" ENOENT \
	"no QP with this number" --dump QP_EV_GET $D QPN=u32:12345
check_genl_error "QP_EV_GET without a QP number" EINVAL \
	"a QP number is required" --dump QP_EV_GET $D
check_genl_error "STATS_GET with an attribute it does not take" EINVAL \
	"." --dump STATS_GET $D PROF_ID=u64:5 PORT_ADMIN=u8:1

mp_teardown
check_dmesg_clean
done_testing
