# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A two-plane SRv6 fabric in network namespaces of one VM, for the SRv6
# tests, the benchmarks and the demo. Source it after lib.sh;
# Documentation/testing.rst has the same drawing and the address plan.
#
#   plane 0:   spine_0_0   spine_0_1   spine_0_2   spine_0_3
#               (each spine: its leafA to leafA_0, its leafB to leafB_0)
#                 leafA_0 (sp0..sp3)            leafB_0 (sp0..sp3)
#                   | host                        | host
#                   | up0                         | up0
#                 hostA ---------- mgmt --------- hostB
#            gid0 fd00:a::1                  gid0 fd00:b::1
#                   | up1                         | up1
#                   | host                        | host
#                 leafA_1 (sp0..sp3)            leafB_1 (sp0..sp3)
#               (each spine: its leafA to leafA_1, its leafB to leafB_1)
#   plane 1:   spine_1_0   spine_1_1   spine_1_2   spine_1_3
#
# Routing is static and there is no ECMP route anywhere: the sender picks
# the path with the outer destination, a uSID container or a segment
# list. Namespaces: hostA hostB, leafA_P leafB_P, spine_P_S (planes P and
# spines S count from 0).
#
# Addresses (H is a or b):
#   host H's address, the future RoCE GID: fd00:H::1/128 on dummy gid0
#   uSID block, F3216: fcbb:bb00::/32; 16-bit uSIDs:
#     spine (P,S): 1PSS in hex, 0x1000 | P << 8 | S (plane 1 spine 2: 1102)
#     host H's End.DT6: d00H (d00a, d00b)
#   uSID container hostA -> spine(0,2) -> hostB: fcbb:bb00:1002:d00b::
#   classic SIDs (segment lists), locators fc00:<uSID>::/32:
#     spine (P,S) End: fc00:1PSS::e     host H End.DT6: fc00:d00H::d6
#   links (/64, lower end ::1): host H uplink of plane P fd01:P:H::1 (the
#     leaf ::2); leaf H_P to spine (P,S) fd02:P:S:H::1 (the spine ::2)
#   mgmt, a direct link between the hosts that never crosses the fabric
#     (TCP set-up of the test programs): 10.255.0.1/24 fd00:ff::a/64 on
#     hostA, 10.255.0.2/24 fd00:ff::b/64 on hostB
#
# Routes: a host routes each spine's uSID /48 and End locator out of the
# uplink of the spine's plane (the first uSID or segment picks the
# plane); a leaf routes each spine's SIDs to that spine and its host's
# SIDs down to the host; a spine routes each host's SIDs to that host's
# leaf. Spines: `seg6local action End flavors next-csid lblen 32 nflen 16`
# on their uSID /48 and `seg6local action End` on their End SID. Hosts:
# `seg6local action End.DT6 table local count` on their uSID /48 and DT6
# SID (`count`: the packets each decapsulated and dropped, fab_dt6_drops);
# `ip sr tunsrc` is the host's address, the outer source of its own seg6
# encapsulation (fab_pin), which MRC wants equal to the inner source.
# fab_up also pins each host's route to the other host's address through
# spine (0,0) with a uSID container (fab_pin changes it).
#
# What Linux 6.1 (Debian's 6.1.x) and iproute2 6.1 accept, as found:
# - `flavors next-csid lblen 32 nflen 16` on End exists (NEXT-C-SID):
#   when the argument after the node's uSID is zero it falls back to a
#   plain End, which needs an SRH (read in seg6_local.c), so the last
#   uSID of a program must be the receiver's End.DT6, never an End.
# - End.DT6 takes `table N` (legacy mode) or `vrftable N` (a VRF device
#   needed); in legacy mode the inner destination is looked up in table N
#   only, and a host's own address is in table local, not main: `table
#   main` does not deliver it (the test checks), so the hosts use
#   `table local`.
# - seg6 encapsulation modes inline, encap, l2encap, encap.red and
#   l2encap.red all exist; `encap` always pushes an SRH, `encap.red` with
#   one segment none (the test counts the bytes).
# - seg6local routes do not check seg6_enabled (only a received SRH at a
#   local address does, ipv6_srh_rcv); it is on in every namespace anyway
#   for the kernel's own decapsulation at SL=0.
#
# Quiet links, so that the interface counters count only what is sent
# through the fabric: no link-local addresses (addr_gen_mode 1: no DAD,
# no router solicitation), addresses without DAD, permanent neighbour
# entries (fixed MAC addresses: no neighbour discovery), and MLD's
# unsolicited reports, the only packets left, within 10 ms of a link
# coming up. Host uplinks have gso_max_segs 1 so that a GSO packet is cut
# before it enters the fabric and every counter counts wire packets.
#
# Parameters (environment, or fab_up's arguments, which win):
#   FAB_PLANES  planes, 1..8 (default 2)
#   FAB_SPINES  spines per plane, 1..32 (default 4)
#   FAB_RATE    tbf rate of every spine egress in tc's units (default
#               empty: unshaped; 0 or none: unshaped)
#   FAB_TBF_BURST (default 32k), FAB_TBF_LATENCY (default 50ms)
#   FAB_MTU     MTU of every link and of the hosts' gid0 (default 1500;
#               9000 lets MRC carry 4096-byte payloads over SRv6)
#
# Helpers (P plane, S spine, H host A or B); each returns non-zero with a
# message on stderr when a step fails or an argument is out of range:
#   fab_up [PLANES [SPINES [RATE]]]   build it; fab_down: remove it all
#   fab_host_addr H                   host H's address (fd00:a::1)
#   fab_usid_container SRC DST P S    outer destination SRC -> (P,S) -> DST
#   fab_segs SRC DST P S              segment list "End SID,DT6 SID"
#   fab_pin SRC P S [usid|segs]       SRC's route to the other host's
#                                     address pinned through (P,S):
#                                     seg6 mode encap.red (no SRH) with
#                                     the container, encap with the list
#   fab_mrc_up                        mrcA, mrcB on the hosts' gid0; FAB_GA,
#                                     FAB_GB their GID indexes
#   fab_mrc_profile H ID MIN MAX      mrcH's default EV profile ID: spines
#                                     MIN..MAX, GENERATED uSID containers
#   fab_test_up [P [S [RATE]]], fab_test_down  a VM test's start and end,
#                                     as test points (lib.sh)
#   fab_plain P S                     the hosts' routes to each other
#                                     through (P,S), plain IPv6 (no SRv6)
#   fab_spine_down P S / fab_spine_up P S        both spine links
#   fab_spine_sid_del P S / fab_spine_sid_add P S  the spine's End routes
#   fab_plane_down P / fab_plane_up P            every spine of plane P
#   fab_uplink_mtu P MTU              both hosts' plane-P uplinks, both ends
#   fab_spine_loss P S PCT, fab_spine_delay P S MS, fab_spine_clear [P S]
#   fab_rate RATE                     every spine shaped to RATE (or none)
#   fab_spine_counts                  "P S pktsA bytesA pktsB bytesB" a
#                                     line: what each spine sent toward
#                                     hostA and toward hostB
#   fab_counts_serve                  fab_spine_counts through one
#                                     long-lived process (fab-counters.py)
#   fab_namespaces                    every namespace of the fabric

# shellcheck disable=SC2034 # FAB_*: for the sourcing script
FAB_BLOCK=fcbb:bb00
FAB_MGMT_A4=10.255.0.1
FAB_MGMT_B4=10.255.0.2
FAB_MGMT_A6=fd00:ff::a
FAB_MGMT_B6=fd00:ff::b
FAB_TBF_BURST=${FAB_TBF_BURST:-32k}
FAB_TBF_LATENCY=${FAB_TBF_LATENCY:-50ms}
# The size of the fabric and the per-spine settings live in files, so
# that helpers called in a subshell (check, $(...)) see what fab_up made.
_FAB_STATE=/run/srv6-fabric
_FAB_COUNTERS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/fab-counters.py

_fab() {
	"$@" || { echo "srv6_fabric: failed: $*" >&2; return 1; }
}

# _fab_batch NS [tc]: the ip (or tc) commands on stdin in namespace NS
# (empty: this one), in one process.
_fab_batch() {
	local out ns=()
	[ -n "$1" ] && ns=(-n "$1")
	out=$("${2:-ip}" "${ns[@]}" -batch - 2>&1) ||
		{ echo "srv6_fabric: ${1:-init}: $out" >&2; return 1; }
}

# _fab_load: FAB_PLANES and FAB_SPINES of the fabric that is up.
_fab_load() {
	[ -r "$_FAB_STATE/size" ] ||
		{ echo "srv6_fabric: no fabric (fab_up)" >&2; return 1; }
	read -r FAB_PLANES FAB_SPINES < "$_FAB_STATE/size"
}

# _fab_int WHAT VALUE MIN MAX: VALUE is an integer in MIN..MAX.
_fab_int() {
	case $2 in
	'' | *[!0-9]*) ;;
	*) [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] && return 0 ;;
	esac
	echo "srv6_fabric: bad $1 '$2' ($3..$4)" >&2
	return 1
}

# _fab_spine_arg P S: an existing spine of the fabric that is up.
_fab_spine_arg() {
	_fab_load &&
	_fab_int plane "$1" 0 $((FAB_PLANES - 1)) &&
	_fab_int spine "$2" 0 $((FAB_SPINES - 1))
}

# _fab_host_arg H: a or b for host A or B.
_fab_host_arg() {
	case $1 in
	A | a) echo a ;;
	B | b) echo b ;;
	*) echo "srv6_fabric: no host '$1' (A or B)" >&2; return 1 ;;
	esac
}

fab_host_addr() {
	local h
	h=$(_fab_host_arg "$1") && echo "fd00:$h::1"
}

# _fab_spine_usid P S / _fab_host_usid h: the 16-bit uSIDs, in hex.
_fab_spine_usid() {
	printf '%04x\n' $((0x1000 | $1 << 8 | $2))
}

_fab_host_usid() {
	echo "d00$1"
}

fab_usid_container() {
	local d
	_fab_host_arg "$1" > /dev/null && d=$(_fab_host_arg "$2") &&
	_fab_spine_arg "$3" "$4" || return
	echo "$FAB_BLOCK:$(_fab_spine_usid "$3" "$4"):$(_fab_host_usid "$d")::"
}

fab_segs() {
	local d
	_fab_host_arg "$1" > /dev/null && d=$(_fab_host_arg "$2") &&
	_fab_spine_arg "$3" "$4" || return
	echo "fc00:$(_fab_spine_usid "$3" "$4")::e,fc00:$(_fab_host_usid "$d")::d6"
}

# fab_pin SRC P S [usid|segs]: host SRC's route to the other host's
# address encapsulates (seg6 mode encap) with the uSID container (the
# default) or the segment list through spine (P,S); its source is SRC's
# own address.
fab_pin() {
	local s d segs mode
	s=$(_fab_host_arg "$1") || return
	d=a
	[ "$s" = a ] && d=b
	case ${4:-usid} in
	usid) mode=encap.red segs=$(fab_usid_container "$s" "$d" "$2" "$3") ;;
	segs) mode=encap segs=$(fab_segs "$s" "$d" "$2" "$3") ;;
	*) echo "fab_pin: '$4' is neither usid nor segs" >&2; return 1 ;;
	esac || return
	_fab ip -n "host${s^^}" -6 route replace "fd00:$d::1/128" \
		encap seg6 mode "$mode" segs "$segs" via "fd01:$2:$s::2" dev "up$2" \
		src "fd00:$s::1"
}

# fab_plain P S: the hosts' routes to each other's address through spine
# (P,S) as plain IPv6 forwarding, no SRv6 (fab_pin A|B restores a pin):
# the UDP format's baseline over the same three routers. Routes on the
# hosts, on both leaves of plane P and on the spine; a spine or plane
# brought back up (fab_spine_up) loses the spine's and keeps the others.
fab_plain() {
	local p=$1 s=$2 h o
	_fab_spine_arg "$p" "$s" || return
	for h in a b; do
		o=b
		[ $h = b ] && o=a
		printf 'route replace fd00:%s::1/128 via fd01:%s:%s::2 dev up%s src fd00:%s::1\n' \
			"$o" "$p" "$h" "$p" "$h" | _fab_batch "host${h^^}" || return
		printf 'route replace fd00:%s::1/128 via fd01:%s:%s::1 dev host\nroute replace fd00:%s::1/128 via fd02:%s:%s:%s::2 dev sp%s\n' \
			"$h" "$p" "$h" "$o" "$p" "$s" "$h" "$s" |
			_fab_batch "leaf${h^^}_$p" || return
		printf 'route replace fd00:%s::1/128 via fd02:%s:%s:%s::1 dev leaf%s\n' \
			"$h" "$p" "$s" "$h" "${h^^}" | _fab_batch "spine_${p}_$s" || return
	done
}

# fab_mrc_up: an MRC device on each host's gid0 (mrcA, mrcB); sets
# FAB_GA and FAB_GB to the indexes of the hosts' RoCE v2 GIDs, waiting
# up to 10 s for them. Needs lib.sh's gid_index.
fab_mrc_up() {
	local h i
	for h in A B; do
		_fab ip netns exec "host$h" rdma link add "mrc$h" type mrc netdev gid0 ||
			return
	done
	for ((i = 0; i < 50; i++)); do
		FAB_GA=$(_fab_gid A) FAB_GB=$(_fab_gid B)
		[ -n "$FAB_GA" ] && [ -n "$FAB_GB" ] && return 0
		sleep 0.2
	done
	echo "srv6_fabric: no RoCE v2 GID for the hosts' addresses" >&2
	return 1
}

# fab_test_up [PLANES [SPINES [RATE]]]: for the VM tests (after lib.sh):
# the fabric as a test point (when it fails: torn down, and the test
# ends), then fab_mrc_up and a point for the hosts' GIDs. Not through
# check: its subshell would keep FAB_GA and FAB_GB.
fab_test_up() {
	if fab_up "$@" 2> /run/fab_up.err; then
		ok "fab_up $* ($SECONDS s)"
	else
		not_ok "fab_up $*"
		diag < /run/fab_up.err
		fab_down
		done_testing
	fi
	fab_mrc_up 2> /run/mrc_up.err || diag < /run/mrc_up.err
	check "the hosts' GIDs $(fab_host_addr A) ($FAB_GA) and $(fab_host_addr B) ($FAB_GB)" \
		test -n "$FAB_GA" -a -n "$FAB_GB"
}

# fab_test_down: the end of a VM test: both devices deleted and the
# fabric torn down, as test points.
fab_test_down() {
	check "rdma link delete mrcA" ip netns exec hostA rdma link delete mrcA
	check "rdma link delete mrcB" ip netns exec hostB rdma link delete mrcB
	echo "the test took $SECONDS s" | diag
	check "fab_down" fab_down
}

# _fab_gid H: host H's GID index of its address on mrcH.
_fab_gid() {
	ip netns exec "host$1" bash -c "$(declare -f gid_index); gid_index mrc$1 $(fab_host_addr "$1")"
}

# fab_mrc_profile H ID MIN MAX: on mrcH, EV format 3 (SRV6, fields
# 32,16,16) unless it exists, and GENERATED EV profile ID, with events,
# as the device's default: a uSID container per spine MIN..MAX (spine v
# is (v / FAB_SPINES):(v % FAB_SPINES)) ending at the other host's
# End.DT6 uSID. Planes and spines per plane must be powers of 2.
fab_mrc_profile() {
	local h=$1 o=b mask
	_fab_load || return
	[ "$h" = B ] && o=a
	if ((FAB_PLANES & (FAB_PLANES - 1) || FAB_SPINES & (FAB_SPINES - 1))); then
		echo "fab_mrc_profile: $FAB_PLANES x $FAB_SPINES: not powers of 2" >&2
		return 1
	fi
	printf -v mask '0x%x' $((((FAB_PLANES - 1) << 8) | (FAB_SPINES - 1)))
	if ! ip netns exec "host$h" mrc-ip evfmt show dev "mrc$h" id 3 > /dev/null 2>&1; then
		_fab ip netns exec "host$h" mrc-ip evfmt add dev "mrc$h" id 3 mode srv6 \
			fields 32,16,16 || return
	fi
	_fab ip netns exec "host$h" mrc-ip path add dev "mrc$h" id "$2" mode generated \
		fmt 3 events all field 32:0xfcbbbb00:0:0:0 \
		"field" "16:0x1000:$3:$4:$mask" field "16:0xd00$o:0:0:0" &&
	_fab ip netns exec "host$h" mrc-ip dev set "mrc$h" evprofile "$2"
}

# _fab_sysctl NAME VALUE: set /proc/sys/NAME (dots as in sysctl) in this
# namespace, without a process.
_fab_sysctl() {
	echo "$2" > "/proc/sys/${1//.//}" ||
		{ echo "srv6_fabric: cannot set $1" >&2; return 1; }
}

# _fab_namespaces ROUTER NS...: make the namespaces, in one process. A
# new namespace gets its IPv6 settings from the initial one's while
# net.core.devconf_inherit_init_net is 1: so these are set there for the
# time it takes (see the header: quiet links; forwarding on routers) and
# then put back, which saves a process per namespace and setting.
_fab_namespaces() {
	local fwd=$1
	local ns k rc=0 saved=() keys=(
		net.core.devconf_inherit_init_net=1
		net.ipv6.conf.default.addr_gen_mode=1
		net.ipv6.conf.all.accept_ra=0
		net.ipv6.conf.default.accept_ra=0
		net.ipv6.conf.all.keep_addr_on_down=1
		net.ipv6.conf.default.keep_addr_on_down=1
		net.ipv6.conf.default.mldv1_unsolicited_report_interval=10
		net.ipv6.conf.default.mldv2_unsolicited_report_interval=10
		net.ipv6.conf.all.seg6_enabled=1
		net.ipv6.conf.default.seg6_enabled=1
		"net.ipv6.conf.all.forwarding=$fwd")
	shift
	for k in "${keys[@]}"; do
		k=${k%%=*}
		saved+=("$k=$(< "/proc/sys/${k//.//}")")
	done
	for k in "${keys[@]}"; do
		_fab_sysctl "${k%%=*}" "${k#*=}" || { rc=1; break; }
	done
	if [ $rc -eq 0 ]; then
		for ns; do echo "netns add $ns"; done | _fab_batch "" || rc=1
	fi
	for k in "${saved[@]}"; do
		_fab_sysctl "${k%%=*}" "${k#*=}" || rc=1
	done
	return $rc
}

# _fab_mac P X H SIDE: the fixed MAC address of one end of a link: X is
# the spine (ff: a host uplink), H the host side (a, b), SIDE 1 the lower
# end (host or leaf), 2 the upper one (leaf or spine). In _FAB_MAC.
_fab_mac() {
	printf -v _FAB_MAC '02:fb:%02x:%02x:0%s:%02x' "$1" "$2" "$3" "$4"
}

# _fab_veth NS1 IF1 MAC1 NS2 IF2 MAC2: the ip command for a veth pair
# between two namespaces, with fixed MAC addresses.
_fab_veth() {
	echo "link add $2 netns $1 address $3 mtu $FAB_MTU type veth" \
		"peer name $5 netns $4 address $6 mtu $FAB_MTU"
}

# _fab_links: the ip commands for every link of the fabric: each host's
# uplink to its leaf of each plane, each leaf to every spine of its plane,
# the hosts' mgmt link.
_fab_links() {
	local p h s H m1 m2
	_fab_veth hostA mgmt 02:fb:ff:ff:0a:01 hostB mgmt 02:fb:ff:ff:0b:01
	for ((p = 0; p < FAB_PLANES; p++)); do
		for h in a b; do
			H=${h^^}
			_fab_mac "$p" 255 "$h" 1; m1=$_FAB_MAC
			_fab_mac "$p" 255 "$h" 2; m2=$_FAB_MAC
			_fab_veth "host$H" "up$p" "$m1" "leaf${H}_$p" host "$m2"
			for ((s = 0; s < FAB_SPINES; s++)); do
				_fab_mac "$p" "$s" "$h" 1; m1=$_FAB_MAC
				_fab_mac "$p" "$s" "$h" 2; m2=$_FAB_MAC
				_fab_veth "leaf${H}_$p" "sp$s" "$m1" "spine_${p}_$s" "leaf$H" "$m2"
			done
		done
	done
}

# _fab_spine_sid_routes P S: the spine's End routes (uSID, classic), on
# its dummy sid0, which stays up when its links go down.
_fab_spine_sid_routes() {
	local id
	id=$(_fab_spine_usid "$1" "$2")
	echo "route replace $FAB_BLOCK:$id::/48 encap seg6local action End" \
		"flavors next-csid lblen 32 nflen 16 dev sid0"
	echo "route replace fc00:$id::e/128 encap seg6local action End dev sid0"
}

# _fab_spine_cfg P S: the ip commands that bring spine (P,S)'s links up
# and (re)install its neighbours and routes, and its End routes unless
# they were deleted (fab_spine_sid_del). fab_spine_up replays them: a
# link taken down loses its routes and permanent neighbours.
_fab_spine_cfg() {
	local p=$1 s=$2 h
	for h in a b; do
		_fab_mac "$p" "$s" "$h" 1
		echo "link set leaf${h^^} up"
		echo "neigh replace fd02:$p:$s:$h::1 lladdr $_FAB_MAC" \
			"dev leaf${h^^} nud permanent"
		echo "route replace $FAB_BLOCK:d00$h::/48 via fd02:$p:$s:$h::1 dev leaf${h^^}"
		echo "route replace fc00:d00$h::/32 via fd02:$p:$s:$h::1 dev leaf${h^^}"
	done
	[ -e "$_FAB_STATE/spine_${p}_$s.nosid" ] || _fab_spine_sid_routes "$p" "$s"
}

# _fab_spine P S: spine (P,S) from scratch (its links exist, down).
_fab_spine() {
	local p=$1 s=$2
	{
		echo "link set lo up"
		echo "link add sid0 type dummy"
		echo "link set sid0 up"
		echo "addr add fd02:$p:$s:a::2/64 dev leafA nodad"
		echo "addr add fd02:$p:$s:b::2/64 dev leafB nodad"
		_fab_spine_cfg "$p" "$s"
	} | _fab_batch "spine_${p}_$s"
}

# _fab_leaf H P: leaf H of plane P: its host and every spine of the plane.
_fab_leaf() {
	local h=$1 p=$2 s id
	{
		_fab_mac "$p" 255 "$h" 1
		echo "addr add fd01:$p:$h::2/64 dev host nodad"
		echo "link set host up"
		echo "neigh replace fd01:$p:$h::1 lladdr $_FAB_MAC dev host nud permanent"
		echo "route replace $FAB_BLOCK:d00$h::/48 via fd01:$p:$h::1 dev host"
		echo "route replace fc00:d00$h::/32 via fd01:$p:$h::1 dev host"
		for ((s = 0; s < FAB_SPINES; s++)); do
			id=$(_fab_spine_usid "$p" "$s")
			_fab_mac "$p" "$s" "$h" 2
			echo "addr add fd02:$p:$s:$h::1/64 dev sp$s nodad"
			echo "link set sp$s up"
			echo "neigh replace fd02:$p:$s:$h::2 lladdr $_FAB_MAC" \
				"dev sp$s nud permanent"
			echo "route replace $FAB_BLOCK:$id::/48 via fd02:$p:$s:$h::2 dev sp$s"
			echo "route replace fc00:$id::/32 via fd02:$p:$s:$h::2 dev sp$s"
		done
	} | _fab_batch "leaf${h^^}_$p"
}

# _fab_host H: host H's address, its decapsulating SIDs, its mgmt link
# and, per plane, its uplink and the routes to the plane's spines.
_fab_host() {
	local h=$1 p s id n=1
	[ "$h" = b ] && n=2
	{
		echo "link set lo up"
		echo "link add gid0 mtu $FAB_MTU type dummy"
		echo "addr add fd00:$h::1/128 dev gid0 nodad"
		echo "link set gid0 up"
		echo "addr add 10.255.0.$n/24 dev mgmt"
		echo "addr add fd00:ff::$h/64 dev mgmt nodad"
		echo "link set mgmt up"
		echo "route replace $FAB_BLOCK:d00$h::/48" \
			"encap seg6local action End.DT6 table local count dev gid0"
		echo "route replace fc00:d00$h::d6/128" \
			"encap seg6local action End.DT6 table local count dev gid0"
		# The outer source of the host's own seg6 routes (fab_pin):
		# its address, as the inner one, which MRC requires.
		echo "sr tunsrc set fd00:$h::1"
		for ((p = 0; p < FAB_PLANES; p++)); do
			_fab_mac "$p" 255 "$h" 2
			echo "addr add fd01:$p:$h::1/64 dev up$p nodad"
			echo "link set up$p gso_max_segs 1"
			echo "link set up$p up"
			echo "neigh replace fd01:$p:$h::2 lladdr $_FAB_MAC dev up$p nud permanent"
			for ((s = 0; s < FAB_SPINES; s++)); do
				id=$(_fab_spine_usid "$p" "$s")
				echo "route replace $FAB_BLOCK:$id::/48 via fd01:$p:$h::2 dev up$p"
				echo "route replace fc00:$id::/32 via fd01:$p:$h::2 dev up$p"
			done
		done
	} | _fab_batch "host${h^^}"
}

# _fab_qdisc P S: rebuild spine (P,S)'s egress qdiscs, in one process:
# tbf at the fabric's rate at the root and netem (loss, delay) as its
# child; netem alone at the root when unshaped.
_fab_qdisc() {
	local n=spine_$1_$2 dev rate='' loss='' delay='' netem=
	read -r rate < "$_FAB_STATE/rate"
	[ -e "$_FAB_STATE/$n.loss" ] && read -r loss < "$_FAB_STATE/$n.loss"
	[ -e "$_FAB_STATE/$n.delay" ] && read -r delay < "$_FAB_STATE/$n.delay"
	[ -n "$delay" ] && netem+=" delay ${delay}ms"
	[ -n "$loss" ] && netem+=" loss ${loss}%"
	[ -z "$rate$netem" ] && [ ! -e "$_FAB_STATE/$n.qdisc" ] && return
	{
		for dev in leafA leafB; do
			# Replacing whatever root is there by a tbf 1: (a tbf 1:
			# is changed in place: the kernel refuses another kind
			# under the same handle), then deleting it, leaves none,
			# and neither step can fail.
			echo "qdisc replace dev $dev root handle 1: tbf rate 1gbit" \
				"burst $FAB_TBF_BURST latency $FAB_TBF_LATENCY"
			echo "qdisc del dev $dev root"
			if [ -n "$rate" ]; then
				echo "qdisc add dev $dev root handle 1: tbf rate $rate" \
					"burst $FAB_TBF_BURST latency $FAB_TBF_LATENCY"
				[ -z "$netem" ] ||
					echo "qdisc add dev $dev parent 1:1 handle 10: netem$netem"
			elif [ -n "$netem" ]; then
				echo "qdisc add dev $dev root handle 10: netem$netem"
			fi
		done
	} | _fab_batch "$n" tc && touch "$_FAB_STATE/$n.qdisc"
}

fab_namespaces() {
	local p s
	_fab_load || return
	echo hostA hostB
	for ((p = 0; p < FAB_PLANES; p++)); do
		echo "leafA_$p leafB_$p"
		for ((s = 0; s < FAB_SPINES; s++)); do
			echo "spine_${p}_$s"
		done
	done
}

# fab_up [PLANES [SPINES [RATE]]]: build the fabric (see the header).
# Fails, with a message, if a namespace of that name exists already.
fab_up() {
	local planes=${1:-${FAB_PLANES:-2}} spines=${2:-${FAB_SPINES:-4}}
	local rate=${3:-${FAB_RATE:-}} p s routers=()
	FAB_MTU=${FAB_MTU:-1500}
	_fab_int planes "$planes" 1 8 && _fab_int spines "$spines" 1 32 &&
	_fab_int mtu "$FAB_MTU" 1280 65535 || return
	case $rate in 0 | none) rate= ;; esac
	rm -rf "$_FAB_STATE" && mkdir -p "$_FAB_STATE" || return
	echo "$planes $spines" > "$_FAB_STATE/size" &&
	echo "$rate" > "$_FAB_STATE/rate" || return
	FAB_PLANES=$planes FAB_SPINES=$spines FAB_RATE=$rate
	for ((p = 0; p < planes; p++)); do
		routers+=("leafA_$p" "leafB_$p")
		for ((s = 0; s < spines; s++)); do
			routers+=("spine_${p}_$s")
		done
	done
	_fab_namespaces 0 hostA hostB && _fab_namespaces 1 "${routers[@]}" &&
	_fab_links | _fab_batch "" || return
	for ((p = 0; p < planes; p++)); do
		for ((s = 0; s < spines; s++)); do
			_fab_spine "$p" "$s" && _fab_qdisc "$p" "$s" || return
		done
		_fab_leaf a "$p" && _fab_leaf b "$p" || return
	done
	_fab_host a && _fab_host b && fab_pin A 0 0 && fab_pin B 0 0
}

# fab_down: delete every namespace of the fabric (and their links) and
# its state. Idempotent; it also clears a fabric half made.
fab_down() {
	local ns
	for ns in $(ip netns list | awk '{ print $1 }'); do
		case $ns in
		hostA | hostB | leaf[AB]_[0-9] | spine_[0-9]_[0-9] | spine_[0-9]_[0-9][0-9])
			ip netns del "$ns" || return ;;
		esac
	done
	rm -rf "$_FAB_STATE"
}

# _fab_spine_links P S up|down
_fab_spine_links() {
	printf 'link set leafA %s\nlink set leafB %s\n' "$3" "$3" |
		_fab_batch "spine_$1_$2"
}

# fab_spine_down P S: both links of spine (P,S) down: what the leaves
# send it is lost (their routes stay; no ECMP to fall back on).
fab_spine_down() {
	_fab_spine_arg "$1" "$2" && _fab_spine_links "$1" "$2" down
}

# fab_spine_up P S: its links up again, with their routes and neighbours.
fab_spine_up() {
	_fab_spine_arg "$1" "$2" &&
	_fab_spine_cfg "$1" "$2" | _fab_batch "spine_$1_$2" &&
	_fab_qdisc "$1" "$2"
}

# fab_spine_sid_del P S: delete the spine's End routes (uSID and classic):
# it drops what is sent through it (no route), links up.
fab_spine_sid_del() {
	local id
	_fab_spine_arg "$1" "$2" || return
	id=$(_fab_spine_usid "$1" "$2")
	touch "$_FAB_STATE/spine_$1_$2.nosid" &&
	_fab ip -n "spine_$1_$2" -6 route del "$FAB_BLOCK:$id::/48" &&
	_fab ip -n "spine_$1_$2" -6 route del "fc00:$id::e/128"
}

fab_spine_sid_add() {
	_fab_spine_arg "$1" "$2" || return
	rm -f "$_FAB_STATE/spine_$1_$2.nosid"
	_fab_spine_sid_routes "$1" "$2" | _fab_batch "spine_$1_$2"
}

fab_plane_down() {
	local s
	_fab_spine_arg "$1" 0 || return
	for ((s = 0; s < FAB_SPINES; s++)); do
		_fab_spine_links "$1" "$s" down || return
	done
}

fab_plane_up() {
	local s
	_fab_spine_arg "$1" 0 || return
	for ((s = 0; s < FAB_SPINES; s++)); do
		fab_spine_up "$1" "$s" || return
	done
}

# fab_uplink_mtu P MTU: both hosts' plane-P uplinks get MTU, at both ends
# (the host's upP and its leaf's host): the MTU of the routes the hosts'
# plane-P EVs leave by.
fab_uplink_mtu() {
	local h
	_fab_spine_arg "$1" 0 && _fab_int mtu "$2" 1280 65535 || return
	for h in A B; do
		_fab ip -n "host$h" link set "up$1" mtu "$2" &&
		_fab ip -n "leaf${h}_$1" link set host mtu "$2" || return
	done
}

# _fab_netem NAME P S KEY VALUE WHAT: keep netem setting KEY (loss,
# delay) of spine (P,S) at VALUE, a non-negative number, and rebuild its
# qdiscs.
_fab_netem() {
	_fab_spine_arg "$2" "$3" || return
	case $5 in
	'' | *[!0-9.]*) echo "$1: bad $6 '$5'" >&2; return 1 ;;
	esac
	echo "$5" > "$_FAB_STATE/spine_$2_$3.$4" && _fab_qdisc "$2" "$3"
}

# fab_spine_loss P S PCT: netem drops PCT percent of what spine (P,S)
# sends, both ways; the shaping stays.
fab_spine_loss() {
	_fab_netem fab_spine_loss "$1" "$2" loss "$3" percentage
}

# fab_spine_delay P S MS: spine (P,S) delays what it sends by MS ms.
fab_spine_delay() {
	_fab_netem fab_spine_delay "$1" "$2" delay "$3" delay
}

# fab_spine_clear [P S]: no more loss or delay on spine (P,S) (default:
# on every spine).
fab_spine_clear() {
	local p s
	_fab_load || return
	if [ $# -gt 0 ]; then
		_fab_spine_arg "$1" "$2" || return
		rm -f "$_FAB_STATE/spine_$1_$2".{loss,delay}
		_fab_qdisc "$1" "$2"
		return
	fi
	for ((p = 0; p < FAB_PLANES; p++)); do
		for ((s = 0; s < FAB_SPINES; s++)); do
			[ -e "$_FAB_STATE/spine_${p}_$s.loss" ] ||
				[ -e "$_FAB_STATE/spine_${p}_$s.delay" ] || continue
			rm -f "$_FAB_STATE/spine_${p}_$s".{loss,delay}
			_fab_qdisc "$p" "$s" || return
		done
	done
}

# fab_rate RATE: shape every spine to RATE (tc units; 0 or none:
# unshaped), keeping their loss and delay.
fab_rate() {
	local p s rate=$1
	_fab_load || return
	case $rate in 0 | none) rate= ;; esac
	echo "$rate" > "$_FAB_STATE/rate" || return
	for ((p = 0; p < FAB_PLANES; p++)); do
		for ((s = 0; s < FAB_SPINES; s++)); do
			_fab_qdisc "$p" "$s" || return
		done
	done
}

# fab_spine_counts: one line per spine, "P S pktsA bytesA pktsB bytesB":
# the packets and bytes it sent toward hostA (on leafA) and toward hostB
# (on leafB), from the interface counters (after its qdiscs); through
# the coprocess fab_counts_serve started, if any (fab-counters.py).
fab_spine_counts() {
	local line
	if [ -z "${_FAB_CNT_IN:-}" ]; then
		python3 "$_FAB_COUNTERS"
		return
	fi
	echo >&"$_FAB_CNT_IN" || return
	while IFS= read -r line <&"$_FAB_CNT_OUT"; do
		case $line in
		.) return 0 ;;
		error*) echo "fab_spine_counts: $line" >&2; return 1 ;;
		*) echo "$line" ;;
		esac
	done
	return 1
}

# fab_counts_serve: answer this shell's fab_spine_counts from one Python
# process (starting one per call costs seconds under emulation).
fab_counts_serve() {
	coproc _FAB_CNT { python3 "$_FAB_COUNTERS" --serve; }
	# Bash closes a coprocess's own descriptors in subshells, such as
	# the $(...) of check: use copies.
	exec {_FAB_CNT_IN}>&"${_FAB_CNT[1]}" {_FAB_CNT_OUT}<&"${_FAB_CNT[0]}"
}

# fab_dt6_drops H: the packets host H's End.DT6 routes (its uSID /48 and
# its DT6 SID) dropped, e.g. for an SRH with segments left, from their
# `count` counters.
fab_dt6_drops() {
	ip -s -n "host${1^^}" -6 route show |
		awk '/End.DT6/ { for (i = 1; i < NF; i++) if ($i == "errors") n += $(i + 1) }
			END { print n + 0 }'
}
