# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 600
# The multipath topology (mp_topo.sh) spreads flows over its paths by UDP
# source port: each router's share, one path per flow, a blackholed path,
# a lossy path, reordering across paths, shaping, and MRC RC traffic
# across the routers.
. ../lib.sh
. ../mp_topo.sh

N=4
RATE=20mbit
DPORT=9000
FIRST=20000
# 1024 flows: with random hashing, a router's expected share is 256 flows
# with a standard deviation of 14, so +-30% is more than 5 deviations.
PORTS=1024
K=3

dmesg_mark
check_fails "mp_topology rejects 0 paths" mp_topology 0
check_fails "mp_topology rejects 33 paths" mp_topology 33

# spray DST FIRST COUNT K [SIZE [PPS]]: K datagrams from each of COUNT
# UDP source ports of hostA to DST:DPORT in hostB. Sets SENT, GOT, REORD,
# RECV_BPS, SEND_BPS, PORT_GOT[port] (from the receiver), and DELTA[i] /
# IN_DELTA[i]: packets router i sent towards hostB / got from hostA.
spray() {
	local dst=$1 first=$2 count=$3 k=$4 size=${5:-64} pps=${6:-5000}
	local src=$MP_A4 rpid i b a bi ai port c t0=$SECONDS
	[[ $dst == *:* ]] && src=$MP_A6
	rm -f /run/spray.ready
	timeout 120 ip netns exec hostB python3 "$MP_SPRAY" recv "$DPORT" \
		--expect $((count * k)) --idle 1.5 --timeout 60 \
		--ready /run/spray.ready --per-port > /run/spray.recv 2>&1 &
	rpid=$!
	wait_until 30 test -e /run/spray.ready
	read -ra b <<<"$(mp_router_counts)"
	read -ra bi <<<"$(mp_router_counts in)"
	ip netns exec hostA python3 "$MP_SPRAY" send "$dst" "$DPORT" \
		--src "$src" --sports "$first:$count" --count "$k" \
		--size "$size" --pps "$pps" > /run/spray.send 2>&1 ||
		{ kill "$rpid"; diag < /run/spray.send; }
	wait "$rpid"
	read -ra a <<<"$(mp_router_counts)"
	read -ra ai <<<"$(mp_router_counts in)"
	DELTA=() IN_DELTA=() PORT_GOT=()
	for ((i = 1; i <= N; i++)); do
		DELTA[i]=$((a[i - 1] - b[i - 1]))
		IN_DELTA[i]=$((ai[i - 1] - bi[i - 1]))
	done
	SENT=$(awk '$1 == "sent" { print $2 }' /run/spray.send)
	SEND_BPS=$(awk '$1 == "rate_bps" { print $2 }' /run/spray.send)
	GOT=$(awk '$1 == "total" { print $2 }' /run/spray.recv)
	REORD=$(awk '$1 == "reordered" { print $2 }' /run/spray.recv)
	RECV_BPS=$(awk '$1 == "rate_bps" { print $2 }' /run/spray.recv)
	grep '^sport ' /run/spray.recv > /run/spray.ports
	while read -r _ port c; do
		PORT_GOT[port]=$c
	done < /run/spray.ports
	: "${SENT:=0}" "${GOT:=0}" "${REORD:=0}" "${RECV_BPS:=0}" "${SEND_BPS:=0}"
	echo "spray $dst ports $first+$count x$k: sent $SENT got $GOT;" \
		"routers ${DELTA[*]} ($((SECONDS - t0)) s)" | diag
}

# one_flow DST PORT K: K datagrams from one source port, to a receiver
# already running (sink_start); sets DELTA[i] as spray does.
one_flow() {
	local src=$MP_A4 b a i
	[[ $1 == *:* ]] && src=$MP_A6
	read -ra b <<<"$(mp_router_counts)"
	ip netns exec hostA python3 "$MP_SPRAY" send "$1" "$DPORT" \
		--src "$src" --sports "$2" --count "$3" > /run/spray.send 2>&1 ||
		diag < /run/spray.send
	sleep 0.5	# through the routers' qdiscs
	read -ra a <<<"$(mp_router_counts)"
	for ((i = 1; i <= N; i++)); do DELTA[i]=$((a[i - 1] - b[i - 1])); done
	echo "flow $1 port $2 x$3: routers ${DELTA[*]}" | diag
}

sink_start() {
	rm -f /run/spray.ready
	ip netns exec hostB python3 "$MP_SPRAY" recv "$DPORT" --timeout 300 --idle 300 \
		--ready /run/spray.ready > /dev/null 2>&1 &
	SINK=$!
	wait_until 30 test -e /run/spray.ready
}

sink_stop() {
	kill "$SINK"
	wait "$SINK" 2>/dev/null
}

# predict NAME DST: NAME[j] = the router the kernel hashes source port
# FIRST+j to; NAME_COUNT[i] = how many of the PORTS flows go to router i.
predict() {
	local -n pred=$1 cnt=${1}_COUNT
	local i
	# (No process substitution: the VM has no /dev/fd.)
	mp_route_paths hostA "$2" $FIRST $PORTS $DPORT > /run/predict
	mapfile -t pred < /run/predict
	cnt=()
	for ((i = 1; i <= N; i++)); do cnt[i]=0; done
	for i in "${pred[@]}"; do cnt[i]=$((cnt[i] + 1)); done
}

# near A B SLACK: |A - B| <= SLACK
near() {
	[ $(($1 - $2)) -le "$3" ] && [ $(($2 - $1)) -le "$3" ]
}

# only_router I MIN: router I sent at least MIN packets, the others at
# most 3 (their own ARP/ND).
only_router() {
	local j
	[ "${DELTA[$1]}" -ge "$2" ] || return 1
	for ((j = 1; j <= N; j++)); do
		[ "$j" = "$1" ] || [ "${DELTA[j]}" -le 3 ] || return 1
	done
}

# first_port_of I PRED...: the first source port hashed to router I.
first_port_of() {
	local i=$1 j=0 r
	shift
	for r; do
		[ "$r" = "$i" ] && { echo $((FIRST + j)); return; }
		j=$((j + 1))
	done
	return 1
}

# check_spread TAG PRED_COUNT...: each router's share of what the routers
# forwarded is within 30% of 1/N, and each router carried exactly the
# flows the kernel's hash gives it (K packets each, give or take 4
# ARP/ND packets of its own).
check_spread() {
	local tag=$1 i total=0 d
	shift
	check "$tag: hostB got all $((PORTS * K)) datagrams" \
		test "$GOT" -eq $((PORTS * K))
	for ((i = 1; i <= N; i++)); do total=$((total + DELTA[i])); done
	for ((i = 1; i <= N; i++)); do
		d=${DELTA[i]}
		check "$tag: router $i share $d/$total within 30% of 1/$N" \
			test $((10 * N * d)) -ge $((7 * total)) -a \
			$((10 * N * d)) -le $((13 * total))
		check "$tag: router $i carried the ${!i} flows hashed to it" \
			near "$d" $((K * ${!i})) 4
	done
	awk -v t="$total" -v tag="$tag" 'BEGIN { printf "%s shares:", tag
		for (i = 1; i < ARGC; i++) printf " r%d %.1f%%", i, 100 * ARGV[i] / t
		print "" }' "${DELTA[@]:1}" | diag
}

if mp_topology $N $RATE 2> /run/mp_topology.err; then
	ok "mp_topology $N $RATE ($SECONDS s)"
else
	not_ok "mp_topology $N $RATE"
	diag < /run/mp_topology.err
	mp_teardown
	done_testing
fi

# --- Shape of the topology -------------------------------------------
for h in hostA hostB; do
	check "$h has one interface besides lo, eth0" test "$(ip -n $h -br link |
		awk '$1 != "lo" { sub(/@.*/, "", $1); print $1 }')" = eth0
done
check "hostA routes IPv4 to hostB over $N nexthops" test \
	"$(ip -n hostA route show "$MP_NET_B4" | grep -c 'nexthop via')" -eq $N
check "hostA routes IPv6 to hostB over $N nexthops" test \
	"$(ip -n hostA -6 route show "$MP_NET_B6" | grep -c 'nexthop via')" -eq $N
check "hostB routes IPv4 to hostA over $N nexthops" test \
	"$(ip -n hostB route show "$MP_NET_A4" | grep -c 'nexthop via')" -eq $N
check "hostB routes IPv6 to hostA over $N nexthops" test \
	"$(ip -n hostB -6 route show "$MP_NET_A6" | grep -c 'nexthop via')" -eq $N
for ((i = 1; i <= N; i++)); do
	for dev in ethA ethB; do
		check_output "r$i $dev shaped by tbf at $RATE" \
			'qdisc tbf 1: root .*rate 20Mbit' tc -n "r$i" qdisc show dev $dev
	done
done
check_fails "mp_path_loss rejects router 5 of 4" mp_path_loss 5 10
check_fails "mp_path_loss rejects loss 'x'" mp_path_loss 1 x
# Router 2 may forward a stray packet (neighbour discovery, MLD) between
# the reads: its own count must lie between two of the whole line's.
c0=$(mp_router_counts | cut -d' ' -f2)
c2=$(mp_router_packets 2)
c1=$(mp_router_counts | cut -d' ' -f2)
check "mp_router_packets 2 is the second of mp_router_counts ($c0 <= $c2 <= $c1)" \
	test -n "$c2" -a "$c0" -le "${c2:-0}" -a "${c2:-0}" -le "$c1"
# One echo each way proves the path: a second only added its 1 s interval.
check "IPv4 hostA -> hostB" ip netns exec hostA busybox ping -c1 -W2 "$MP_B4"
check "IPv6 hostA -> hostB" ip netns exec hostA busybox ping -c1 -W2 "$MP_B6"
check "IPv4 hostB -> hostA" ip netns exec hostB busybox ping -c1 -W2 "$MP_A4"
check "IPv6 hostB -> hostA" ip netns exec hostB busybox ping -c1 -W2 "$MP_A6"

# --- Flows spread by source port ---------------------------------------
predict P4 "$MP_B4"
predict P6 "$MP_B6"
check "the kernel names a path for each of $PORTS IPv4 flows" \
	test ${#P4[@]} -eq $PORTS
check "the kernel names a path for each of $PORTS IPv6 flows" \
	test ${#P6[@]} -eq $PORTS
echo "flows hashed per router: IPv4 ${P4_COUNT[*]}, IPv6 ${P6_COUNT[*]}" | diag

spray "$MP_B4" $FIRST $PORTS $K
check_spread "IPv4 $PORTS flows" "${P4_COUNT[@]}"
spray "$MP_B6" $FIRST $PORTS $K
check_spread "IPv6 $PORTS flows" "${P6_COUNT[@]}"

sink_start
for ((i = 1; i <= N; i++)); do
	p=$(first_port_of $i "${P4[@]}") || p=0
	one_flow "$MP_B4" "$p" 30
	check "IPv4 flow from source port $p takes router $i only" \
		only_router $i 30
	p=$(first_port_of $i "${P6[@]}") || p=0
	one_flow "$MP_B6" "$p" 30
	check "IPv6 flow from source port $p takes router $i only" \
		only_router $i 30
done
sink_stop

# --- Shaping --------------------------------------------------------------
# tbf_overlimits I: how often router I's tbf towards hostB held a packet
# back for want of tokens (the rate, not the clock of a loaded VM).
tbf_overlimits() {
	tc -n "r$1" -s qdisc show dev ethB |
		awk '/^qdisc tbf/ { n = 1; next }
		     n && /overlimits/ { sub(/.*overlimits /, ""); sub(/ .*/, ""); print; exit }'
}
p=$(first_port_of 1 "${P4[@]}")
# Unpaced 1400-byte datagrams, 4.2 MB, through r1 only: its tbf must hold
# them back. The rates are figures, not a verdict: `make bench` measures.
o0=$(tbf_overlimits 1)
spray "$MP_B4" "$p" 1 3000 1400 0
o1=$(tbf_overlimits 1)
echo "unpaced 1400-byte datagrams over r1: sender $SEND_BPS bit/s," \
	"receiver $RECV_BPS bit/s, tbf overlimits $((o1 - o0))" | diag
check "r1's tbf held back an unpaced flow ($((o1 - o0)) overlimits)" \
	test $((o1 - o0)) -gt 0
check "...and only r1 carried it (${DELTA[*]})" only_router 1 20

# --- A path down is a blackhole for exactly its flows ---------------------
lost_ports() {	# lost_ports ROUTER PRED...: flows that lost packets, by path
	local down=$1 j=0 r got
	shift
	LOST_ON=0 LOST_ELSEWHERE=0
	for r; do
		got=${PORT_GOT[FIRST + j]:-0}
		if [ "$r" = "$down" ]; then
			LOST_ON=$((LOST_ON + K - got))
		else
			LOST_ELSEWHERE=$((LOST_ELSEWHERE + K - got))
		fi
		j=$((j + 1))
	done
}
check "mp_path_down 2" mp_path_down 2
spray "$MP_B4" $FIRST $PORTS $K
lost_ports 2 "${P4[@]}"
check "path 2 down: its ${P4_COUNT[2]} flows lost all $((K * P4_COUNT[2])) packets" \
	test $LOST_ON -eq $((K * P4_COUNT[2]))
check "path 2 down: no other flow lost a packet" test $LOST_ELSEWHERE -eq 0
check "path 2 down: router 2 sent nothing towards hostB" test "${DELTA[2]}" -eq 0
check "path 2 down: router 2 still got its flows from hostA" \
	test "${IN_DELTA[2]}" -ge $((K * P4_COUNT[2]))
check "mp_path_up 2" mp_path_up 2
spray "$MP_B4" $FIRST 64 $K
check "path 2 up: hostB got all $((64 * K)) IPv4 datagrams" \
	test "$GOT" -eq $((64 * K))
spray "$MP_B6" $FIRST 64 $K
check "path 2 up: hostB got all $((64 * K)) IPv6 datagrams" \
	test "$GOT" -eq $((64 * K))

# --- A lossy path loses its share, and only there -----------------------
check "mp_path_loss 3 20" mp_path_loss 3 20
check_output "r3 keeps tbf at the root" 'qdisc tbf 1: root .*rate 20Mbit' \
	tc -n r3 qdisc show dev ethB
check_output "r3 has netem loss 20% under tbf" \
	'qdisc netem 10: parent 1:1 .*loss 20%' tc -n r3 qdisc show dev ethB
K=5
spray "$MP_B4" $FIRST $PORTS $K
lost_ports 3 "${P4[@]}"
echo "loss 20% on path 3: lost $LOST_ON of $((K * P4_COUNT[3])) packets there," \
	"$LOST_ELSEWHERE elsewhere" | diag
check "loss 20% on path 3: no flow of another path lost a packet" \
	test $LOST_ELSEWHERE -eq 0
check "loss 20% on path 3: it lost 10% to 30% of its packets" \
	test $((100 * LOST_ON)) -ge $((10 * K * P4_COUNT[3])) -a \
	$((100 * LOST_ON)) -le $((30 * K * P4_COUNT[3]))
check_output "netem on r3 counted its drops" 'dropped [1-9]' \
	tc -n r3 -s qdisc show dev ethB
check "mp_path_clear 3" mp_path_clear 3
check_no_output "r3 has no netem after mp_path_clear" netem \
	tc -n r3 qdisc show dev ethB
check_output "r3 still shaped after mp_path_clear" 'qdisc tbf 1: root' \
	tc -n r3 qdisc show dev ethB
K=3

# --- Reordering across paths ----------------------------------------------
spray "$MP_B4" $FIRST 64 10 64 2000
echo "64 flows x 10, equal paths: $REORD of $GOT out of order" | diag
check "mp_path_reorder 3" mp_path_reorder 3
check_output "r4 delays by 9 ms" 'qdisc netem 10: parent 1:1 .*delay 9ms' \
	tc -n r4 qdisc show dev ethB
spray "$MP_B4" $FIRST 64 10 64 2000
echo "64 flows x 10, paths 0/3/6/9 ms: $REORD of $GOT out of order" | diag
check "delayed paths: hostB got all 640 datagrams" test "$GOT" -eq 640
check "delayed paths: datagrams arrive out of order ($REORD)" test "$REORD" -gt 0
check "mp_path_clear" mp_path_clear
check_no_output "no netem left after mp_path_clear" netem \
	bash -c "for i in \$(seq $N); do tc -n r\$i qdisc show; done"

# --- MRC across the routers -----------------------------------------------
check "mrcA exists" rdma_dev_exists mrcA
check "mrcB exists" rdma_dev_exists mrcB
check_output "mrcA is bound to hostA's eth0" 'mrcA.* netdev eth0' \
	ip netns exec hostA rdma link show
check_output "mrcB is bound to hostB's eth0" 'mrcB.* netdev eth0' \
	ip netns exec hostB rdma link show
check "GID indexes of the hosts' addresses ($GA4 $GB4 $GA6 $GB6)" \
	test -n "$GA4" -a -n "$GB4" -a -n "$GA6" -a -n "$GB6"
for fam in 4 6; do
	ga=GA$fam gb=GB$fam
	read -ra b <<<"$(mp_router_counts)"
	pair "ibv_rc_pingpong over MRC, IPv$fam GIDs, across the routers" 120 \
		ibv_rc_pingpong -d mrcA -g "${!ga}" -s 4096 -n 100 -c -- \
		ibv_rc_pingpong -d mrcB -g "${!gb}" -s 4096 -n 100 -c "$MP_A4"
	read -ra a <<<"$(mp_router_counts)"
	total=0 used=()
	for ((i = 0; i < N; i++)); do
		used+=($((a[i] - b[i])))
		total=$((total + a[i] - b[i]))
	done
	echo "MRC IPv$fam, hostA -> hostB packets per router: ${used[*]}" | diag
	check "MRC IPv$fam packets crossed the routers ($total)" test $total -ge 100
done
# The MRC driver's route lookup names the output device (flowi oif) and
# no ports; the kernel then skips the multipath hash (fib_select_path,
# fib6_select_path), so every QP takes the first nexthop.
for fam in 4 6; do
	dst=MP_B$fam src=MP_A$fam
	n_oif=$(for ((p = 49152; p < 49152 + 64; p++)); do
		echo "route get ${!dst} from ${!src} oif eth0 ipproto udp sport $p dport 4792"
	done | ip -n hostA -batch - | grep -o 'via [^ ]*' | sort -u | wc -l)
	check "IPv$fam: 64 source ports with oif eth0 in the lookup take one nexthop ($n_oif)" \
		test "$n_oif" -eq 1
done

mp_teardown
check "mp_teardown leaves no namespace" test -z "$(ip netns list)"
check_dmesg_clean
done_testing
