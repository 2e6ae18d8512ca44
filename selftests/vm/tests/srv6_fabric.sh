# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The SRv6 fabric (srv6_fabric.sh) with plain kernel traffic, no MRC: a
# uSID container or a segment list pins a flow to exactly the spine it
# names, End.DT6 delivers it, a spine down or without its SID loses
# exactly its flows, a plane down leaves the other, no ECMP anywhere, and
# fab_down leaves nothing behind.
# vm-timeout: 420
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

echo "at $SECONDS s" | diag
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

# One pair of addresses per path, so that a test switches paths by
# address, not by rewriting routes (an `ip -n` costs over half a second
# under emulation): the hosts' gid0 also hold fd00:a::MPS and fd00:b::MPS
# (M 1: uSID container, 2: segment list; plane P, spine S), and each host
# routes the other's through that path.
PATHS=()
path_routes() {
	local m mode p s dst src segs
	for ((p = 0; p < PLANES; p++)); do
		for ((s = 0; s < SPINES; s++)); do
			for m in 1 2; do
				dst=fd00:b::$m$p$s src=fd00:a::$m$p$s
				PATHS+=("$m:$p,$s=$dst")
				if [ "$m" = 1 ]; then
					mode=encap.red
					segs=$(fab_usid_container A B "$p" "$s")
					echo "b route add $src/128 encap seg6 mode $mode" \
						"segs $(fab_usid_container B A "$p" "$s") via fd01:$p:b::2 dev up$p"
				else
					mode=encap
					segs=$(fab_segs A B "$p" "$s")
					echo "b route add $src/128 encap seg6 mode $mode" \
						"segs $(fab_segs B A "$p" "$s") via fd01:$p:b::2 dev up$p"
				fi
				echo "b addr add $dst/128 dev gid0 nodad"
				echo "a addr add $src/128 dev gid0 nodad"
				echo "a route add $dst/128 encap seg6 mode $mode segs $segs" \
					"via fd01:$p:a::2 dev up$p src $src"
			done
		done
	done > /run/fab.paths
	sed -n 's/^a //p' /run/fab.paths | ip -n hostA -batch - &&
	sed -n 's/^b //p' /run/fab.paths | ip -n hostB -batch -
}
if path_routes 2> /run/fab.paths.err; then
	ok "per-path addresses and routes on both hosts"
else
	not_ok "per-path addresses and routes on both hosts"
	diag < /run/fab.paths.err
fi
check "${#PATHS[@]} paths" test ${#PATHS[@]} -eq $((2 * PLANES * SPINES))

# pinned M P S: hostA -> hostB and back through spine (P,S) (M 1: uSID
# container, 2: segment list): N pings and N UDP datagrams cross that
# spine only, and reach hostB.
pinned() {
	local m=$1 p=$2 s=$3 sz=$PING_USID mode=usid dst=fd00:b::$1$2$3
	[ "$m" = 2 ] && sz=$PING_SEGS mode=segs
	snap C0
	check "$mode ($p,$s): $N pings hostA -> hostB answered" \
		ip netns exec hostA bash -c "busybox ping -c $N -A -W 2 -q $dst &&
			for i in \$(seq $N); do echo x > /dev/udp/$dst/9; done"
	sleep 0.2
	snap C1
	delta
	check "$mode ($p,$s): pings, replies, datagrams crossed spine ($p,$s) only, $sz bytes a ping" \
		only "$p" "$s" $sz
}

echo "at $SECONDS s" | diag
# --- Pinning, uSID containers and segment lists ----------------------------
t0=$SECONDS
for ((p = 0; p < PLANES; p++)); do
	for ((s = 0; s < SPINES; s++)); do
		pinned 1 $p $s
		pinned 2 $p $s
	done
done
echo "pinning through $((PLANES * SPINES)) spines: $((SECONDS - t0)) s" | diag

# The same through fab_pin, on the hosts' own addresses.
# only_pings P S SZ: spine (P,S) carried N pings and N replies of SZ
# bytes, every other spine nothing.
only_pings() {
	local k bad=
	[ "${D[$1,$2]}" = "$N $((N * $3)) $N $((N * $3))" ] || bad=" ($1,$2): ${D[$1,$2]}"
	for k in "${!D[@]}"; do
		[ "$k" = "$1,$2" ] || [ "${D[$k]}" = "0 0 0 0" ] || bad+=" ($k): ${D[$k]}"
	done
	[ -z "$bad" ] || { echo "unexpected counts (pktsA bytesA pktsB bytesB):$bad"; return 1; }
}
pin_both() {
	fab_pin A "$2" "$3" "$1" && fab_pin B "$2" "$3" "$1"
}
check "fab_pin A 1 2 segs; fab_pin B 1 2 segs" pin_both segs 1 2
check_output "hostA's route to hostB encapsulates with the segment list" \
	"encap seg6 mode encap segs 2 \[ fc00:1102::e +fc00:d00b::d6 \]" \
	ip -n hostA -6 route show "$B"
snap C0
check "fab_pin segs (1,2): $N pings $A -> $B answered" \
	ip netns exec hostA busybox ping -c $N -A -W 2 -q "$B"
snap C1
delta
check "...through spine (1,2) only" only_pings 1 2 $PING_SEGS
check "fab_pin A 0 3; fab_pin B 0 3" pin_both usid 0 3
check_output "hostA's route to hostB: reduced encapsulation, the uSID container" \
	'encap seg6 mode encap.red segs 1 \[ fcbb:bb00:1003:d00b:: \]' \
	ip -n hostA -6 route show "$B"
snap C0
check "fab_pin usid (0,3): $N pings $A -> $B answered" \
	ip netns exec hostA busybox ping -c $N -A -W 2 -q "$B"
snap C1
delta
check "...through spine (0,3) only" only_pings 0 3 $PING_USID

# Linux 6.1's End.DT6 in legacy mode looks the inner destination up in
# its table only: hostB's own address is in table local, not main.
dt6_table() {
	ip -n hostB -6 route replace fcbb:bb00:d00b::/48 \
		encap seg6local action End.DT6 table "$1" dev gid0
}
check "hostB's uSID End.DT6 with table main" dt6_table main
check_fails "End.DT6 table main does not deliver to hostB's address" \
	ip netns exec hostA busybox ping -c1 -W1 -q fd00:b::100
check "hostB's uSID End.DT6 with table local again" dt6_table local

echo "at $SECONDS s" | diag
# --- Failures --------------------------------------------------------------
# answer BROKEN...: exactly the paths named (1:P,S for the uSID
# container through spine (P,S), 2:P,S for the segment list) get no
# answer to a ping; all pinged at once, from one namespace entered once.
# shellcheck disable=SC2120 # called through check, with arguments
answer() {
	local want='' got path
	[ ${#PATHS[@]} -gt 0 ] || { echo "no paths"; return 1; }
	for path in "${PATHS[@]}"; do
		[[ " $* " == *" ${path%%=*} "* ]] || want+="${path%%=*} "
	done
	# shellcheck disable=SC2016 # expanded by the inner shell
	got=$(ip netns exec hostA bash -c 'for a; do
		{ busybox ping -c1 -W2 -q "${a#*=}" > /dev/null 2>&1 &&
			echo "${a%%=*}"; } &
		done; wait' _ "${PATHS[@]}" | sort | paste -sd ' ')
	want=$(tr ' ' '\n' <<<"$want" | sed '/^$/d' | sort | paste -sd ' ')
	[ "$got" = "$want" ] ||
		{ echo "answered: $got"; echo "expected: $want"; return 1; }
}
check "every path answers" answer

check "fab_spine_down 0 1" fab_spine_down 0 1
check "spine (0,1) down: exactly its 2 paths fail" answer 1:0,1 2:0,1
check "fab_spine_up 0 1" fab_spine_up 0 1
check "spine (0,1) up: every path answers" answer

check "fab_spine_sid_del 1 2" fab_spine_sid_del 1 2
check_no_output "spine (1,2) has no End route" 'seg6local action End ' \
	ip -n spine_1_2 -6 route show
snap C0
check "spine (1,2) without SIDs: exactly its 2 paths fail" answer 1:1,2 2:1,2
snap C1
delta
check "...blackholed: spine (1,2) forwarded nothing toward hostB (${D[1,2]})" \
	test "$(cut -d' ' -f3 <<<"${D[1,2]}")" -eq 0
sid_stays_deleted() {
	fab_spine_down 1 2 && fab_spine_up 1 2 &&
	! ip -n spine_1_2 -6 route show | grep -q "action End "
}
check "fab_spine_up keeps a deleted SID deleted" sid_stays_deleted
check "fab_spine_sid_add 1 2" fab_spine_sid_add 1 2
check "spine (1,2) SIDs back: every path answers" answer

check "fab_plane_down 0" fab_plane_down 0
check "plane 0 down: exactly its 8 paths fail" answer \
	1:0,0 2:0,0 1:0,1 2:0,1 1:0,2 2:0,2 1:0,3 2:0,3
check "fab_plane_up 0" fab_plane_up 0
check "plane 0 up: every path answers" answer

check "fab_spine_loss 1 1 100" fab_spine_loss 1 1 100
check_output "spine (1,1): netem loss 100% under tbf" \
	'qdisc netem 10: parent 1:1 .*loss 100%' tc -n spine_1_1 qdisc show dev leafB
check "spine (1,1) loses everything: exactly its 2 paths fail" answer 1:1,1 2:1,1
check "fab_spine_clear" fab_spine_clear
check_no_output "no netem left after fab_spine_clear" netem \
	tc -n spine_1_1 qdisc show
check "spine (1,1) clear: every path answers" answer

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

# answer can fail: a path named broken that answers.
check_fails "answer fails when a path named broken answers" answer 1:0,0

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
