# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# SRv6 failover (issue 20) on the 2 x 4 fabric: hostB sprays one perftest
# connection over seven uSID containers, one per spine but 0:0 (which
# carries the hosts' plain route between their addresses). hostA has the
# same profile toward hostB as its device default, so the answers to EV
# n's requests cross EV n's spine too: with every spine up, the spines'
# counters show requests and ACKs on all seven and none on 0:0. Then,
# mid-transfer, a spine fails: its
# links down (WRITE), its SID routes deleted so that it drops what it
# receives (SEND), a whole plane down (READ). Each transfer ends with
# exit 0 (no error completion); exactly the EVs through the failed spines
# stay ASSUMED_BAD while it lasts, and `mrc-ip monitor` reports each; once
# repaired, each of them is probed back to GOOD (a probe_ok event) while
# the transfer still runs. Last, a spine's links go down, then another's
# SIDs are deleted, under mrc-rc-check, which compares every byte.
# vm-timeout: 900
# shellcheck disable=SC2317 # functions run through check and wait_until
. ../lib.sh
. ../srv6_fabric.sh

dmesg_mark
modprobe mrc
fab_test_up 2 4
GA=$FAB_GA GB=$FAB_GB

mrcip_b() {
	ip netns exec hostB mrc-ip "$@"
}
# EV n is the container through spine v >> 2 : v & 3, v = n + 1, ending
# at the peer's End.DT6 uSID (d00a, d00b); each device's default, so
# hostA's answers take it too.
for H in B A; do
	check "mrc$H path 7: GENERATED, spines 0:1..1:3, the default" \
		fab_mrc_profile $H 7 1 7
done

# bad_evs: the EVs of path 7 some QP holds ASSUMED_BAD, one line. Text
# and awk, not JSON and Python: this is polled, and Python's start-up
# under emulation would load the CPUs the transfer needs.
bad_evs() {
	mrcip_b path show dev mrcB id 7 evs |
		awk 'NR > 1 && $4 == "assumed_bad" { printf "%s%s", s, $1; s = " " }
		     END { print "" }'
}
# bad_include WANT: every EV of WANT is held ASSUMED_BAD now; others may
# be too, for a moment (see held_bad).
bad_include() {
	covers "$(bad_evs)" "$1"
}
# held_bad: the EVs ASSUMED_BAD in each of 6 reads 0.5 s apart. A real
# congestion loss on a working path makes its EV ASSUMED_BAD too, until
# a probe or the late packet's answer gives it back; a dead path's EV
# stays.
held_bad() {
	local held i now e keep
	held=$(bad_evs)
	for i in 1 2 3 4 5; do
		sleep 0.5
		now=$(bad_evs)
		keep=
		for e in $held; do
			[[ " $now " == *" $e "* ]] && keep+="${keep:+ }$e"
		done
		held=$keep
	done
	echo "$held"
}
# bad_are WANT: bad_evs prints exactly WANT, and the QP is live (no EV
# reads unknown).
bad_are() {
	local t
	t=$(mrcip_b path show dev mrcB id 7 evs) &&
	[ "$(awk 'NR > 1 && $4 == "assumed_bad" { printf "%s%s", s, $1; s = " " }
		 END { print "" }' <<<"$t")" = "$1" ] &&
	! grep -q unknown <<<"$t"
}

ip netns exec hostB timeout 600 mrc-ip -j monitor dev mrcB evprofile 7 \
	> /run/events.json 2>&1 &
mon=$!

# events_for STATE SINCE: the EV indexes with a STATE event after line
# SINCE of the monitor's output, sorted, one line.
events_for() {
	tail -n +"$(($2 + 1))" /run/events.json | python3 -c '
import json, sys
seen = set()
for line in sys.stdin:
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("state") == sys.argv[1] and "index" in e:
        seen.add(e["index"])
print(" ".join(str(i) for i in sorted(seen)))' "$1"
}

# event_summary SINCE: the monitor's events after line SINCE, counted by
# EV, state and reason.
event_summary() {
	tail -n +"$(($1 + 1))" /run/events.json | python3 -c '
import collections, json, sys
n = collections.Counter()
for line in sys.stdin:
    try:
        e = json.loads(line)
    except ValueError:
        n[("unparsed", line.strip()[:60])] += 1
        continue
    n[(e.get("index"), e.get("state"), e.get("reason"))] += 1
for k, v in sorted(n.items(), key=str):
    print(v, *k)'
}

# scenario TAG PROG BAD BREAK... -- FIX...: PROG from hostB on path 7;
# BREAK after 4 s; the EVs BAD (indexes) and only they go ASSUMED_BAD,
# with events; FIX; all GOOD again, with events for BAD. The transfer
# outlasts every deadline and stops once they are met (pair_stop).
scenario() {
	local tag=$1 prog=$2 bad=$3 brk=() fix=() since fixed back=no went=no
	shift 3
	while [ "$1" != -- ]; do brk+=("$1"); shift; done
	shift
	fix=("$@")
	since=$(wc -l < /run/events.json)
	pair_start 200 "$prog" -d mrcA -x "$GA" -D 120 -f 1 -F -- \
		env MRC_EV_PROFILE=7 "$prog" -d mrcB -x "$GB" -D 120 -f 1 -F "$FAB_MGMT_A4"
	wait_until 20 bad_are ""
	sleep 4
	"${brk[@]}"
	wait_until 15 bad_include "$bad" && went=yes
	check_output "$tag: EVs $bad went ASSUMED_BAD together (bad now: $(bad_evs))" \
		'^yes$' echo "$went"
	check_output "$tag: exactly EVs $bad stay ASSUMED_BAD" "^$bad\$" held_bad
	fixed=$(wc -l < /run/events.json)
	"${fix[@]}"
	wait_until 25 back_good "$fixed" "$bad" &&
		kill -0 "$_pair_cli" 2>/dev/null && back=yes
	check_output "$tag: EVs $bad probed back to GOOD after the repair, while the transfer runs" \
		'^yes$' echo "$back"
	# Which way they came back, if not by probes: their events from the
	# failure on, the repair marked.
	[ $back = yes ] || tail -n +"$((since + 1))" /run/events.json |
		awk -v fixed=$((fixed - since)) -v bad=" $bad " '
			NR == fixed + 1 { print "-- repaired" }
			match($0, /"index": *[0-9]+/) {
				i = substr($0, RSTART, RLENGTH); sub(/.*: */, "", i)
				if (index(bad, " " i " ")) print substr($0, 1, 160) }' |
		tail -n 40 | diag
	pair_stop
	pair_finish "$tag: $prog exits 0 (no error completion)"
	sleep 1
	event_summary "$since" | diag
	check "$tag: monitor reported EVs $bad ASSUMED_BAD" \
		covers "$(events_for assumed_bad "$since")" "$bad"
	check "$tag: ... and GOOD again" \
		covers "$(events_for good "$since")" "$bad"
}

# back_good SINCE WANT: every EV of WANT was probed back to GOOD (an
# event of reason probe_ok, which a dead path cannot earn) after line
# SINCE of the monitor's output. Not "all GOOD at one moment": a working
# EV may be ASSUMED_BAD for a moment (see held_bad).
back_good() {
	local i
	for i in $2; do
		tail -n +"$(($1 + 1))" /run/events.json |
			grep -q "\"index\": *$i,.*\"state\": *\"good\".*\"reason\": *\"probe_ok\"" ||
			return 1
	done
}

# covers LIST WANT: every index of WANT is in LIST. The event summary
# shows how often the others changed state.
covers() {
	local i
	for i in $2; do
		[[ " $1 " == *" $i "* ]] || return 1
	done
}

# Answers pinned: with every spine up, hostB's writes and hostA's ACKs
# both cross the seven spines of path 7 and none crosses spine 0:0, the
# plain route's (the test programs' TCP set-up runs over the mgmt link).
# Unpinned, every ACK would cross 0:0.
c0=$(fab_spine_counts)
pair "all up: ib_write_bw 6 s" 60 ib_write_bw -d mrcA -x "$GA" -D 6 -F -- \
	env MRC_EV_PROFILE=7 ib_write_bw -d mrcB -x "$GB" -D 6 -F "$FAB_MGMT_A4"
c1=$(fab_spine_counts)
# to_spines C0 C1 FIELD: "P:S=N" per spine, N the packets it sent toward
# hostA (FIELD 3) or hostB (FIELD 5) between the two counts.
to_spines() {
	printf '%s\n--\n%s\n' "$1" "$2" | awk -v f="$3" '
		$0 == "--" { after = 1; next }
		!after { b[$1 ":" $2] = $f; next }
		{ printf "%s%s:%s=%d", sep, $1, $2, $f - b[$1 ":" $2]; sep = " " }'
}
# spines_carry LIST: in "P:S=N" LIST, 0:0 carried under 20 packets (MLD
# and neighbour noise) and every other spine at least 50 and a quarter
# of their mean. (How many ACKs a 6 s transfer sends depends on its
# rate and on how many packets each ACK covers: a fixed "over 100" once
# failed at 100 on a spine whose requests were all acknowledged.)
spines_carry() {
	local e n sum=0 k=0
	for e in $1; do
		case $e in 0:0=*) ;; *) sum=$((sum + ${e#*=})); k=$((k + 1)) ;; esac
	done
	[ "$k" -gt 0 ] || return 1
	for e in $1; do
		n=${e#*=}
		case $e in
		0:0=*) [ "$n" -lt 20 ] || return 1 ;;
		*) [ "$n" -ge 50 ] && [ $((n * 4 * k)) -ge "$sum" ] || return 1 ;;
		esac
	done
}
check "all up: requests toward hostA by their EVs' spines ($(to_spines "$c0" "$c1" 3))" \
	spines_carry "$(to_spines "$c0" "$c1" 3)"
check "all up: ACKs toward hostB by the same spines ($(to_spines "$c0" "$c1" 5))" \
	spines_carry "$(to_spines "$c0" "$c1" 5)"

scenario "spine 0:2 links down" ib_write_bw "1" \
	fab_spine_down 0 2 -- fab_spine_up 0 2
scenario "spine 1:1 SIDs deleted" ib_send_bw "4" \
	fab_spine_sid_del 1 1 -- fab_spine_sid_add 1 1
scenario "plane 1 down" ib_read_bw "3 4 5 6" \
	fab_plane_down 1 -- fab_plane_up 1

# Once mrc-rc-check's first scenario passed over path 7 (both devices'
# default), a spine fails; every scenario must pass.
DEVS=(--dev-a mrcA --gid-a "$GA" --dev-b mrcB --gid-b "$GB")
verified_failure "spine 0:3 links down mid-run" "${DEVS[@]}" -- \
	fab_spine_down 0 3 -- fab_spine_up 0 3
verified_failure "spine 1:2 SIDs deleted mid-run" "${DEVS[@]}" -- \
	fab_spine_sid_del 1 2 -- fab_spine_sid_add 1 2

kill "$mon" 2>/dev/null
wait "$mon" 2>/dev/null
fab_test_down
check_dmesg_clean
done_testing
