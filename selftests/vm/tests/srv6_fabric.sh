# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The SRv6 fabric (srv6_fabric.sh) with plain kernel traffic, no MRC: a
# uSID container or a segment list pins a flow to exactly the spine it
# names, End.DT6 delivers it, a spine down or without its SID loses
# exactly its flows, a plane down leaves the other, no ECMP anywhere, and
# fab_down leaves nothing behind.
# shellcheck disable=SC2317 # the functions below run through check
. ../lib.sh
. ../srv6_fabric.sh

PLANES=2
SPINES=4
RATE=100mbit
A=$(fab_host_addr A)
B=$(fab_host_addr B)
# On the wire (veth counts the Ethernet header) a 56-byte ping is 14 +
# 40 (outer IPv6) + 40 (inner IPv6) + 8 + 56 bytes with a uSID container
# (encap.red: no SRH), and 40 more with a two-segment SRH (8 + 2 * 16); a
# 2-byte UDP datagram 54 bytes less.
PING_USID=158
PING_SEGS=198
UDP_LESS=54
N=5

dmesg_mark
check_fails "fab_up rejects 0 planes" fab_up 0
check_fails "fab_up rejects 33 spines" fab_up 2 33
check "nothing left of the refused fab_up calls" test -z "$(ip netns list)"

if fab_up $PLANES $SPINES $RATE 2> /run/fab_up.err; then
	ok "fab_up $PLANES $SPINES $RATE ($SECONDS s)"
	fab_counts_serve
else
	not_ok "fab_up $PLANES $SPINES $RATE"
	diag < /run/fab_up.err
	fab_down
	done_testing
fi

# --- Shape -------------------------------------------------------------
# (No process substitution: the VM has no /dev/fd.)
fab_namespaces | tr ' ' '\n' > /run/fab.ns
mapfile -t NS < /run/fab.ns
check "fab_namespaces names $((2 + PLANES * (2 + SPINES))) namespaces" \
	test ${#NS[@]} -eq $((2 + PLANES * (2 + SPINES)))
for ns in "${NS[@]}"; do
	[ -e "/run/netns/$ns" ] || not_ok "namespace $ns exists"
done
check "hostA: gid0 holds $A" test "$(ip -n hostA -6 -br addr show dev gid0 |
	awk '{ print $3 }')" = "$A/128"
check "hostB: gid0 holds $B" test "$(ip -n hostB -6 -br addr show dev gid0 |
	awk '{ print $3 }')" = "$B/128"
check "hostA's links: lo, gid0, mgmt, up0, up1" test "$(ip -n hostA -br link |
	awk '{ sub(/@.*/, "", $1); print $1 }' | sort | paste -sd ' ')" = \
	"gid0 lo mgmt up0 up1"
check_output "spines run End with next-csid on their uSID" \
	'fcbb:bb00:1103::/48 +encap seg6local action End flavors next-csid lblen 32 nflen 16' \
	ip -n spine_1_3 -6 route show
check_output "hosts run End.DT6 on their uSID" \
	'fcbb:bb00:d00b::/48 +encap seg6local action End.DT6 table local' \
	ip -n hostB -6 route show table main
check_output "spine egress shaped by tbf at $RATE" 'qdisc tbf 1: root .*rate 100Mbit' \
	tc -n spine_0_2 qdisc show dev leafB
check "mgmt: hostA reaches hostB directly" \
	ip netns exec hostA busybox ping -c1 -W2 "$FAB_MGMT_B6"

# --- Address helpers ---------------------------------------------------
check "uSID container hostA -> spine (1,2) -> hostB" \
	test "$(fab_usid_container A B 1 2)" = fcbb:bb00:1102:d00b::
check "segment list hostB -> spine (0,3) -> hostA" \
	test "$(fab_segs B A 0 3)" = fc00:1003::e,fc00:d00a::d6
check_fails "fab_usid_container rejects host C" fab_usid_container A C 0 0
check_fails "fab_segs rejects plane $PLANES" fab_segs A B $PLANES 0
check_fails "fab_spine_down rejects spine $SPINES" fab_spine_down 0 $SPINES
check_fails "fab_pin rejects mode 'x'" fab_pin A 0 0 x
check_fails "fab_spine_loss rejects loss 'x'" fab_spine_loss 0 0 x

# counts: C[p,s] = "pktsA bytesA pktsB bytesB" of every spine.
declare -A C0 C1 D
snap() {
	local -n c=$1
	local p s a b x y
	fab_spine_counts > /run/fab.counts || return
	while read -r p s a b x y; do
		# shellcheck disable=SC2034 # c is C0 or C1
		c["$p,$s"]="$a $b $x $y"
	done < /run/fab.counts
}

# delta: D[p,s] = "pktsA bytesA pktsB bytesB" between C0 and C1.
delta() {
	local k a b
	for k in "${!C1[@]}"; do
		read -ra a <<<"${C0[$k]}"
		read -ra b <<<"${C1[$k]}"
		D[$k]="$((b[0] - a[0])) $((b[1] - a[1])) $((b[2] - a[2])) $((b[3] - a[3]))"
	done
}

# only P S SZ: spine (P,S) carried N pings of SZ bytes and N UDP
# datagrams toward hostB, N replies and 1..N port unreachable errors
# (hostB's UDP got the datagrams: decapsulated) toward hostA; every other
# spine nothing.
only() {
	local p=$1 s=$2 sz=$3 k d bad=
	read -ra d <<<"${D[$p,$s]}"
	[ "${d[2]}" -eq $((2 * N)) ] &&
		[ "${d[3]}" -eq $((N * (2 * sz - UDP_LESS))) ] &&
		[ "${d[0]}" -gt "$N" ] && [ "${d[0]}" -le $((2 * N)) ] &&
		[ "${d[1]}" -gt $((N * sz)) ] || bad=" ($p,$s): ${D[$p,$s]}"
	for k in "${!D[@]}"; do
		[ "$k" = "$p,$s" ] || [ "${D[$k]}" = "0 0 0 0" ] ||
			bad+=" ($k): ${D[$k]}"
	done
	[ -z "$bad" ] || { echo "unexpected counts (pktsA bytesA pktsB bytesB):$bad"; return 1; }
}

ping_b() {
	ip netns exec hostA busybox ping -c "${1:-1}" -A -W "${2:-2}" -q "$B"
}

# pinned MODE P S: hostA -> hostB and back through spine (P,S): N pings
# and N UDP datagrams cross that spine only, and reach hostB.
pinned() {
	local mode=$1 p=$2 s=$3 sz=$PING_USID
	[ "$mode" = segs ] && sz=$PING_SEGS
	if ! fab_pin A "$p" "$s" "$mode" || ! fab_pin B "$p" "$s" "$mode"; then
		not_ok "$mode ($p,$s): fab_pin"
		return
	fi
	snap C0
	check "$mode ($p,$s): $N pings hostA -> hostB answered" \
		ip netns exec hostA bash -c "busybox ping -c $N -A -W 2 -q $B &&
			for i in \$(seq $N); do echo x > /dev/udp/$B/9; done"
	sleep 0.2
	snap C1
	delta
	check "$mode ($p,$s): pings, replies, datagrams crossed spine ($p,$s) only, $sz bytes a ping" \
		only "$p" "$s" $sz
}

# --- Pinning, uSID containers and segment lists ----------------------------
t0=$SECONDS
for ((p = 0; p < PLANES; p++)); do
	for ((s = 0; s < SPINES; s++)); do
		pinned usid $p $s
		pinned segs $p $s
	done
done
echo "pinning through $((PLANES * SPINES)) spines: $((SECONDS - t0)) s" | diag
check_output "hostA's route to hostB encapsulates with the segment list" \
	"encap seg6 mode encap segs 2 \[ fc00:1103::e +fc00:d00b::d6 \]" \
	ip -n hostA -6 route show "$B"

# --- Failures --------------------------------------------------------------
# reach MODE P S: hostA reaches hostB through spine (P,S); hostB replies
# through spine (1,3), which no test below breaks.
reach() {
	fab_pin A "$2" "$3" "$1" && ping_b 1 1
}
check "fab_pin B 1 3 (the replies)" fab_pin B 1 3
check "fab_pin A 1 0" fab_pin A 1 0
check_output "...reduced encapsulation with the uSID container" \
	'encap seg6 mode encap.red segs 1 \[ fcbb:bb00:1100:d00b:: \]' \
	ip -n hostA -6 route show "$B"

check "fab_spine_down 0 1" fab_spine_down 0 1
check_fails "spine (0,1) down: usid through it fails" reach usid 0 1
check_fails "spine (0,1) down: segs through it fails" reach segs 0 1
check "spine (0,1) down: usid through (0,2) works" reach usid 0 2
check "spine (0,1) down: segs through (1,1) works" reach segs 1 1
check "fab_spine_up 0 1" fab_spine_up 0 1
check "spine (0,1) up: usid through it works" reach usid 0 1
check "spine (0,1) up: segs through it works" reach segs 0 1

check "fab_spine_sid_del 1 2" fab_spine_sid_del 1 2
check_no_output "spine (1,2) has no End route" 'seg6local action End ' \
	ip -n spine_1_2 -6 route show
snap C0
check_fails "spine (1,2) without SIDs: usid through it is blackholed" reach usid 1 2
check_fails "spine (1,2) without SIDs: segs through it is blackholed" reach segs 1 2
snap C1
delta
check "...and spine (1,2) forwarded nothing toward hostB (${D[1,2]})" \
	test "$(cut -d' ' -f3 <<<"${D[1,2]}")" -eq 0
check "spine (1,2) without SIDs: usid through (1,3) works" reach usid 1 3
check "fab_spine_sid_add 1 2" fab_spine_sid_add 1 2
check "spine (1,2) SIDs back: usid through it works" reach usid 1 2
check "spine (1,2) SIDs back: segs through it works" reach segs 1 2
sid_stays_deleted() {
	fab_spine_sid_del 1 2 && fab_spine_down 1 2 && fab_spine_up 1 2 &&
	! ip -n spine_1_2 -6 route show | grep -q "action End " &&
	fab_spine_sid_add 1 2
}
check "fab_spine_up keeps a deleted SID deleted" sid_stays_deleted

check "fab_plane_down 0" fab_plane_down 0
for s in 0 3; do
	check_fails "plane 0 down: usid through (0,$s) fails" reach usid 0 $s
done
for ((s = 0; s < SPINES; s++)); do
	check "plane 0 down: usid through (1,$s) works" reach usid 1 $s
done
check "plane 0 down: segs through (1,0) works" reach segs 1 0
check "fab_plane_up 0" fab_plane_up 0
for ((s = 0; s < SPINES; s++)); do
	check "plane 0 up: usid through (0,$s) works" reach usid 0 $s
done

check "fab_spine_loss 1 1 100" fab_spine_loss 1 1 100
check_output "spine (1,1): netem loss 100% under tbf" \
	'qdisc netem 10: parent 1:1 .*loss 100%' tc -n spine_1_1 qdisc show dev leafB
check_fails "spine (1,1) loses everything: usid through it fails" reach usid 1 1
check "fab_spine_clear" fab_spine_clear
check_no_output "no netem left after fab_spine_clear" netem \
	tc -n spine_1_1 qdisc show
check "spine (1,1) clear: usid through it works" reach usid 1 1

# No ECMP: no IPv6 route of any table of any namespace has nexthops,
# after all the downs and ups (and the hosts have no IPv4 route but
# mgmt's).
multipath=
for ns in "${NS[@]}"; do
	ip -n "$ns" -6 route show table all | grep -q nexthop && multipath+=" $ns"
done
check "no multipath route in any namespace${multipath:+ (in$multipath)}" \
	test -z "$multipath"
check "hostA's only IPv4 route is mgmt's" \
	test "$(ip -n hostA -4 route show table main | awk '{ print $1, $3 }')" = \
	"10.255.0.0/24 mgmt"

# --- Teardown --------------------------------------------------------------
echo "the test took $SECONDS s" | diag
check "fab_down" fab_down
check "fab_down leaves no namespace" test -z "$(ip netns list)"
check "fab_down leaves no veth in the initial namespace" \
	test -z "$(ip -o link show type veth)"
check "fab_down again (idempotent)" fab_down
check_fails "helpers refuse without a fabric" fab_spine_down 0 0
check_dmesg_clean
done_testing
