# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The multipath test topology, in network namespaces of one VM. Source it
# after lib.sh. Documentation/testing.rst has the drawing.
#
# hostA and hostB have one interface each (eth0, where the MRC device
# binds, as on a NIC). Between them N routers r1..rN, each a distinct
# path: every router's ethA sits on bridge swA with hostA's eth0, every
# ethB on bridge swB with hostB's eth0. Each host routes to the other's
# subnet over an ECMP route with one nexthop per router, hashed on the L4
# header (fib_multipath_hash_policy=1), so a UDP flow's source port picks
# its path. Each router shapes both its egresses with tbf, so the paths
# are the bottleneck.

# shellcheck disable=SC2034 # MP_*, GA4..GB6: for the sourcing script
MP_A4=10.1.0.1
MP_B4=10.2.0.1
MP_A6=fd01::1
MP_B6=fd02::1
MP_NET_A4=10.1.0.0/24
MP_NET_B4=10.2.0.0/24
MP_NET_A6=fd01::/64
MP_NET_B6=fd02::/64
MP_TBF_BURST=${MP_TBF_BURST:-32k}
MP_TBF_LATENCY=${MP_TBF_LATENCY:-50ms}
# MP_MRC=0: no MRC devices (for traffic that is not MRC).
MP_MRC=${MP_MRC:-1}
MP_SPRAY=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/mp-udp-spray.py
# Per-router netem settings (loss, delay), kept in files so that helpers
# called in a subshell (check, $(...)) still update them.
_MP_STATE=/run/mp-topo

# mp_raddr I a4|a6|b4|b6: router I's address on the A or B side.
mp_raddr() {
	case $2 in
	a4) echo "10.1.0.$((100 + $1))" ;;
	b4) echo "10.2.0.$((100 + $1))" ;;
	a6) echo "fd01::$((100 + $1))" ;;
	b6) echo "fd02::$((100 + $1))" ;;
	esac
}

_mp() {
	"$@" || { echo "mp_topo: failed: $*" >&2; return 1; }
}

# _mp_batch NS [tc]: the ip (or tc) commands on stdin in namespace NS
# (empty: this one), in one process. Under TCG each process costs a
# tenth of a second or more (Documentation/testing.rst).
_mp_batch() {
	local out where=()
	[ -n "$1" ] && where=(-n "$1")
	out=$("${2:-ip}" "${where[@]}" -batch - 2>&1) ||
		{ echo "mp_topo: ${1:-init}: $out" >&2; return 1; }
}

# _mp_ns NS [KEY=VALUE...]: a namespace, its loopback up, its sysctls
# set (no reverse path filter, and KEY=VALUE...).
_mp_ns() {
	local ns=$1
	shift
	_mp ip netns add "$ns" &&
	_mp ip -n "$ns" link set lo up &&
	_mp ip netns exec "$ns" sysctl -qw net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.default.rp_filter=0 "$@"
}

_mp_switch() {
	_mp_ns "$1" net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 &&
	printf '%s\n' "link add br0 type bridge forward_delay 0 mcast_snooping 0" \
		"link set br0 up" | _mp_batch "$1"
}

# _mp_port SW PORT: enslave PORT to SW's bridge and bring it up.
_mp_port() {
	printf '%s\n' "link set $2 master br0" "link set $2 up" |
		_mp_batch "$1"
}

# _mp_addr_cmds DEV ADDR4/LEN ADDR6/LEN: the batch lines that give DEV
# both addresses and bring it up.
_mp_addr_cmds() {
	printf '%s\n' "addr add $2 dev $1" "addr add $3 dev $1 nodad" \
		"link set $1 up"
}

# _mp_addr NS DEV ADDR4/LEN ADDR6/LEN
_mp_addr() {
	_mp_addr_cmds "$2" "$3" "$4" | _mp_batch "$1"
}

_mp_check_index() {
	case $1 in
	'' | *[!0-9]*) ;;
	*) [ "$1" -ge 1 ] && [ "$1" -le "${MP_N:-0}" ] && return 0 ;;
	esac
	echo "mp_topo: no router '$1' (1..${MP_N:-0})" >&2
	return 1
}

_mp_router() {
	local i=$1 r=r$1
	# Addresses survive mp_path_down, so mp_path_up needs only the link.
	_mp_ns "$r" net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1 \
		net.ipv6.conf.all.keep_addr_on_down=1 \
		net.ipv6.conf.default.keep_addr_on_down=1 || return
	printf '%s\n' "link add ethA netns $r type veth peer name p$i netns swA" \
		"link add ethB netns $r type veth peer name p$i netns swB" |
		_mp_batch "" &&
	_mp_port swA "p$i" && _mp_port swB "p$i" &&
	{
		_mp_addr_cmds ethA "$(mp_raddr "$i" a4)/24" "$(mp_raddr "$i" a6)/64"
		_mp_addr_cmds ethB "$(mp_raddr "$i" b4)/24" "$(mp_raddr "$i" b6)/64"
	} | _mp_batch "$r" &&
	_mp_qdisc "$i" new
}

# _mp_host NS ADDR4 ADDR6 SWITCH PEER-NET4 PEER-NET6 SIDE: a host, its
# eth0 on SWITCH, and ECMP routes to the peer's subnets via every router's
# address on SIDE (a or b).
_mp_host() {
	_mp_ns "$1" && _mp_host_in "$@"
}

# _mp_host_in: _mp_host in the existing namespace NS.
_mp_host_in() {
	local ns=$1
	echo "link add eth0 netns $ns type veth peer name host netns $4" |
		_mp_batch "" &&
	_mp_port "$4" host &&
	_mp_addr "$ns" eth0 "$2/24" "$3/64" &&
	_mp_routes "$ns" eth0 "$5" "$6" "$7"
}

# _mp_routes NS DEV PEER-NET4 PEER-NET6 SIDE: NS hashes on the L4 header
# and reaches the peer's subnets over DEV via every router's SIDE address.
_mp_routes() {
	local ns=$1 dev=$2 side=$5 i nh4=() nh6=()
	_mp ip netns exec "$ns" sysctl -qw \
		net.ipv4.fib_multipath_hash_policy=1 \
		net.ipv6.fib_multipath_hash_policy=1 || return
	for ((i = 1; i <= MP_N; i++)); do
		nh4+=(nexthop via "$(mp_raddr "$i" "${side}4")" dev "$dev")
		nh6+=(nexthop via "$(mp_raddr "$i" "${side}6")" dev "$dev")
	done
	printf '%s\n' "route add $3 ${nh4[*]}" "route add $4 ${nh6[*]}" |
		_mp_batch "$ns"
}

# _mp_ping NS ADDR...: each address answers a ping from NS (retried for a
# few seconds while links come up and neighbours resolve). busybox, a
# dependency already (the VM's initramfs), has the ping; iputils is not one.
_mp_ping() {
	local ns=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner shell
	ip netns exec "$ns" bash -c '
		for a; do
			for try in 1 2 3 4 5 6 7 8 9 10; do
				busybox ping -c1 -W1 -q "$a" >/dev/null 2>&1 &&
					continue 2
				sleep 0.3
			done
			echo "mp_topo: $0: no reply from $a" >&2
			exit 1
		done' "$ns" "$@"
}

# Every router reaches both hosts and both hosts reach every nexthop, so
# every neighbour entry the ECMP routes need is resolved. The namespaces
# ping side by side: each mostly waits for its first replies.
_mp_resolve() {
	local i a=() b=() pids=() p rc=0
	for ((i = 1; i <= MP_N; i++)); do
		_mp_ping "r$i" "$MP_A4" "$MP_A6" "$MP_B4" "$MP_B6" &
		pids+=($!)
		a+=("$(mp_raddr "$i" a4)" "$(mp_raddr "$i" a6)")
		b+=("$(mp_raddr "$i" b4)" "$(mp_raddr "$i" b6)")
	done
	_mp_ping hostA "${a[@]}" "$MP_B4" "$MP_B6" &
	pids+=($!)
	_mp_ping hostB "${b[@]}" "$MP_A4" "$MP_A6" &
	pids+=($!)
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	return $rc
}

# _mp_gids DEV VAR=ADDR-REGEX...: lib.sh's gid_vars, once the RDMA core
# has every one of the GIDs.
_mp_gids() {
	local t
	for ((t = 0; t < 50; t++)); do
		gid_vars "$@" && return 0
		sleep 0.2
	done
	echo "mp_topo: $1 lacks a GID of: ${*:2}" >&2
	return 1
}

_mp_mrc() {
	_mp ip netns exec hostA rdma link add mrcA type mrc netdev eth0 &&
	_mp ip netns exec hostB rdma link add mrcB type mrc netdev eth0 &&
	_mp_gids mrcA GA4="::ffff:${MP_A4//./\\.}" GA6="$MP_A6" &&
	_mp_gids mrcB GB4="::ffff:${MP_B4//./\\.}" GB6="$MP_B6"
}

# _mp_set_count WHO N: MP_N=N when N is a path count, 1..32; otherwise a
# message that names WHO and the bad value, and non-zero.
_mp_set_count() {
	case $2 in
	'' | *[!0-9]*) ;;
	*)
		if [ "$2" -ge 1 ] && [ "$2" -le 32 ]; then
			MP_N=$2
			return 0
		fi
		;;
	esac
	echo "$1: bad path count '$2' (1..32)" >&2
	return 1
}

# _mp_fresh RATE: record the routers' rate (0 or none: unshaped), then
# start from an empty state directory and make the two switches.
_mp_fresh() {
	case $1 in 0 | none) MP_RATE= ;; *) MP_RATE=$1 ;; esac
	rm -rf "$_MP_STATE" && mkdir -p "$_MP_STATE" || return
	_mp_switch swA && _mp_switch swB
}

# mp_topology [N [RATE]]: build the topology with N paths (default 4, at
# most 32), each shaped to RATE in tc's units (default 20mbit; 0 or none:
# unshaped). With MP_MRC=1 (default), MRC devices mrcA and mrcB on the
# hosts' eth0 and their GID indexes in GA4 GB4 GA6 GB6, as two_hosts
# sets them. Returns non-zero, with a message, if any step fails.
mp_topology() {
	local i
	_mp_set_count mp_topology "${1:-4}" && _mp_fresh "${2:-20mbit}" || return
	for ((i = 1; i <= MP_N; i++)); do
		_mp_router "$i" || return
	done
	_mp_host hostA "$MP_A4" "$MP_A6" swA "$MP_NET_B4" "$MP_NET_B6" a &&
	_mp_host hostB "$MP_B4" "$MP_B6" swB "$MP_NET_A4" "$MP_NET_A6" b &&
	_mp_resolve && _mp_control_plane || return
	if [ "$MP_MRC" != 0 ]; then
		_mp_mrc || return
	fi
}

# _mp_control_plane: the tests break data paths under MRC, not the
# control plane the programs need around it. So the hosts' neighbour
# entries for every router become permanent (the RDMA core resolves the
# gateway's MAC when a QP goes to RTR; the ECMP hash without ports may
# pick a broken router), and TCP (perftest's and mrc-stream's connection
# setup and result exchange) takes router N, which tests never break.
_mp_control_plane() {
	local ns side peer i a lladdr neigh cmds
	for ns in hostA hostB; do
		side=a peer=B
		[ "$ns" = hostB ] && side=b peer=A
		neigh=$(ip -n "$ns" neigh show dev eth0) || return
		cmds=()
		for ((i = 1; i <= MP_N; i++)); do
			for a in "$(mp_raddr "$i" "${side}4")" "$(mp_raddr "$i" "${side}6")"; do
				lladdr=$(awk -v a="$a" '$1 == a {
					for (j = 2; j < NF; j++) if ($j == "lladdr") print $(j + 1) }' <<<"$neigh")
				[ -n "$lladdr" ] || { echo "mp_topo: $ns: no neighbour $a" >&2; return 1; }
				cmds+=("neigh replace $a lladdr $lladdr dev eth0 nud permanent")
			done
		done
		a=MP_NET_${peer}4
		cmds+=("rule add ipproto tcp table 100"
		       "route add ${!a} via $(mp_raddr "$MP_N" "${side}4") table 100")
		a=MP_NET_${peer}6
		cmds+=("route add ${!a} via $(mp_raddr "$MP_N" "${side}6") table 100")
		printf '%s\n' "${cmds[@]}" | _mp_batch "$ns" &&
		# A rule has no address to tell its family by: its own process.
		_mp ip -n "$ns" -6 rule add ipproto tcp table 100 || return
	done
}

# _mp_qdisc I [new]: rebuild router I's egress qdiscs: tbf at the
# topology's rate at the root, netem (loss, delay) as its child; netem
# alone at the root on an unshaped topology. "new": the links were just
# made, with no qdisc of ours to delete.
_mp_qdisc() {
	local i=$1 dev loss delay netem='' cmds=()
	loss=$(cat "$_MP_STATE/r$i.loss" 2>/dev/null)
	delay=$(cat "$_MP_STATE/r$i.delay" 2>/dev/null)
	[ -n "$delay" ] && netem+=" delay ${delay}ms"
	[ -n "$loss" ] && netem+=" loss ${loss}%"
	for dev in ethA ethB; do
		[ "${2:-}" = new ] || tc -n "r$i" qdisc del dev "$dev" root 2>/dev/null
		if [ -n "$MP_RATE" ]; then
			cmds+=("qdisc add dev $dev root handle 1: tbf rate $MP_RATE burst $MP_TBF_BURST latency $MP_TBF_LATENCY")
			[ -z "$netem" ] ||
				cmds+=("qdisc add dev $dev parent 1:1 handle 10: netem$netem")
		elif [ -n "$netem" ]; then
			cmds+=("qdisc add dev $dev root handle 10: netem$netem")
		fi
	done
	[ ${#cmds[@]} -eq 0 ] || printf '%s\n' "${cmds[@]}" | _mp_batch "r$i" tc
}

# mp_path_down I / mp_path_up I: take router I's B-side link down (a
# blackhole: hostA's ECMP route still hashes flows to router I) and back.
# mp_path_up returns once router I reaches hostB again.
mp_path_down() {
	_mp_check_index "$1" && _mp ip -n "r$1" link set ethB down
}

mp_path_up() {
	_mp_check_index "$1" && _mp ip -n "r$1" link set ethB up &&
	_mp_ping "r$1" "$MP_B4" "$MP_B6"
}

# _mp_netem NAME I KEY VALUE WHAT: keep netem setting KEY (loss, delay)
# of router I at VALUE, a non-negative number, and rebuild its qdiscs.
_mp_netem() {
	_mp_check_index "$2" || return
	case $4 in
	'' | *[!0-9.]*) echo "$1: bad $5 '$4'" >&2; return 1 ;;
	esac
	echo "$4" > "$_MP_STATE/r$2.$3" && _mp_qdisc "$2"
}

# mp_path_loss I PCT: netem drops PCT percent of the packets router I
# sends, both ways; the tbf shaping stays.
mp_path_loss() {
	_mp_netem mp_path_loss "$1" loss "$2" percentage
}

# mp_path_delay I MS: router I delays what it sends by MS milliseconds.
mp_path_delay() {
	_mp_netem mp_path_delay "$1" delay "$2" delay
}

# mp_path_reorder [STEP]: path I delays by (I-1)*STEP ms (default 2), so
# a flow sprayed over the paths arrives out of order.
mp_path_reorder() {
	local step=${1:-2} i
	for ((i = 1; i <= MP_N; i++)); do
		mp_path_delay "$i" "$(awk -v i="$i" -v s="$step" \
			'BEGIN { print (i - 1) * s }')" || return
	done
}

# mp_path_clear [I]: no more loss or delay on router I (default: all).
mp_path_clear() {
	local i first=1 last=$MP_N
	if [ $# -gt 0 ]; then
		_mp_check_index "$1" || return
		first=$1 last=$1
	fi
	for ((i = first; i <= last; i++)); do
		rm -f "$_MP_STATE/r$i.loss" "$_MP_STATE/r$i.delay"
		_mp_qdisc "$i" || return
	done
}

# mp_router_packets I [in]: packets router I sent towards hostB (the A to
# B direction; after its own shaping and loss), or with "in" those it
# received from the A side. Read on the switch side of its links.
mp_router_packets() {
	_mp_check_index "$1" && _mp_counts "$1" "$1" "${2:-}"
}

# mp_router_counts [in]: mp_router_packets of every router, on one line.
mp_router_counts() {
	_mp_counts 1 "$MP_N" "${1:-}"
}

# _mp_counts FIRST LAST [in]: one namespace entered, not one per router.
_mp_counts() {
	local sw=swB stat=rx_packets i files=()
	[ "$3" = in ] && sw=swA stat=tx_packets
	for ((i = $1; i <= $2; i++)); do
		files+=("/sys/class/net/p$i/statistics/$stat")
	done
	ip netns exec "$sw" cat "${files[@]}" | paste -sd ' '
}

# mp_route_paths NS DST FIRST COUNT DPORT: for each UDP source port
# FIRST..FIRST+COUNT-1 from NS's host address to DST:DPORT, the router
# the kernel's ECMP hash picks, one a line.
mp_route_paths() {
	local ns=$1 dst=$2 first=$3 count=$4 dport=$5 src p
	case $ns:$dst in
	hostA:*:*) src=$MP_A6 ;;
	hostA:*) src=$MP_A4 ;;
	hostB:*:*) src=$MP_B6 ;;
	hostB:*) src=$MP_B4 ;;
	*) echo "mp_route_paths: not a host: $ns" >&2; return 1 ;;
	esac
	for ((p = first; p < first + count; p++)); do
		echo "route get $dst from $src ipproto udp sport $p dport $dport"
	done | ip -n "$ns" -batch - |
		awk '{ for (i = 1; i < NF; i++) if ($i == "via") {
			v = $(i + 1); sub(/.*[.:]/, "", v); print v - 100 } }'
}

# mp_teardown: delete the MRC devices and every namespace of the topology.
mp_teardown() {
	local ns
	ip netns exec hostA rdma link delete mrcA 2>/dev/null
	ip netns exec hostB rdma link delete mrcB 2>/dev/null
	for ns in $(ip netns list | awk '{ print $1 }'); do
		case $ns in
		hostA | hostB | swA | swB | r[0-9] | r[0-9][0-9]) ip netns del "$ns" ;;
		esac
	done
	rm -rf "$_MP_STATE"
}

# The same topology across two VMs, for what works only in a VM's initial
# namespace (rdma_rxe in Linux 6.1): VM A's init namespace is hostA and VM
# A holds the switches and routers; VM B's init namespace is hostB, its
# NIC on the link between the VMs. VM A's NIC on that link moves into swB
# (as "uplink"), so swB spans both VMs:
#
#   VM A: hostA (init) eth0 - swA - r1..rN - swB - uplink ~~ VM B: eth0 hostB (init)
#
# Both sides name their init namespace hostA or hostB (ip netns attach),
# so the helpers above work on them. The addresses and per-router helpers
# (mp_path_down, mp_path_loss, mp_router_counts...) are those of
# mp_topology; no MRC device is made.

# _mp_attach NAME: NAME for this VM's initial namespace, set up as _mp_ns
# sets up a new one.
_mp_attach() {
	_mp ip netns attach "$1" 1 &&
	_mp ip netns exec "$1" sysctl -qw net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.default.rp_filter=0
}

# mp_split_a N RATE NIC [WAIT]: VM A's side: N routers shaped to RATE (as
# for mp_topology), NIC moved into swB (delete its RDMA devices first; it
# may be eth0: it leaves before hostA's eth0, a new veth, is made).
# Waits up to WAIT seconds (default 300) for hostB to answer router 1, then
# resolves every neighbour as mp_topology does.
mp_split_a() {
	local nic=$3 wait=${4:-300} i a=()
	_mp_set_count mp_split_a "$1" && _mp_fresh "$2" || return
	_mp ip link set "$nic" netns swB &&
	_mp ip -n swB link set "$nic" name uplink &&
	_mp_port swB uplink || return
	for ((i = 1; i <= MP_N; i++)); do
		_mp_router "$i" || return
	done
	_mp_attach hostA &&
	_mp_host_in hostA "$MP_A4" "$MP_A6" swA "$MP_NET_B4" "$MP_NET_B6" a || return
	wait_until "$wait" ip netns exec r1 busybox ping -c1 -W1 -q "$MP_B4" || {
		echo "mp_split_a: hostB ($MP_B4) did not answer in ${wait}s" >&2
		return 1
	}
	for ((i = 1; i <= MP_N; i++)); do
		_mp_ping "r$i" "$MP_A4" "$MP_A6" "$MP_B4" "$MP_B6" || return
		a+=("$(mp_raddr "$i" a4)" "$(mp_raddr "$i" a6)")
	done
	_mp_ping hostA "${a[@]}" "$MP_B4" "$MP_B6"
}

# mp_split_b N NIC [WAIT]: VM B's side: hostB's addresses on NIC (which
# keeps any it has) and ECMP routes via the N routers in VM A. Waits up to
# WAIT seconds (default 300) for every router and hostA to answer.
mp_split_b() {
	local nic=$2 wait=${3:-300} i b=()
	_mp_set_count mp_split_b "$1" || return
	_mp_attach hostB &&
	_mp_addr hostB "$nic" "$MP_B4/24" "$MP_B6/64" &&
	_mp_routes hostB "$nic" "$MP_NET_A4" "$MP_NET_A6" b || return
	wait_until "$wait" busybox ping -c1 -W1 -q "$MP_A4" || {
		echo "mp_split_b: hostA ($MP_A4) did not answer in ${wait}s" >&2
		return 1
	}
	for ((i = 1; i <= MP_N; i++)); do
		b+=("$(mp_raddr "$i" b4)" "$(mp_raddr "$i" b6)")
	done
	_mp_ping hostB "${b[@]}" "$MP_A4" "$MP_A6"
}

# mp_set_rate RATE: every router shaped to RATE from now on (0 or none:
# unshaped); loss and delay settings stay.
mp_set_rate() {
	local i
	case $1 in 0 | none) MP_RATE= ;; *) MP_RATE=$1 ;; esac
	for ((i = 1; i <= MP_N; i++)); do
		_mp_qdisc "$i" || return
	done
}
