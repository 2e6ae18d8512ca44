# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# SRv6 EVs on the fabric (srv6_fabric.sh, one plane of four spines): an
# EXPLICIT profile of an SRV6 format whose EVs are uSID containers
# through spines 1 and 2 (16-byte values: outer IPv6 header, no SRH) and
# then segment lists through spines 1 and 3 (32 bytes: outer IPv6 + SRH)
# carries a verified RC transfer from hostA to hostB. The spines' counters
# toward hostB show every EV's spine carrying the data and the spine no
# EV names carrying nothing; spine 0 carries the plain traffic (fab_up
# pins each host's route to the other through it: hostA's ACKs). Bad
# values are refused with a message naming them. A GENERATED uSID program
# configured with mrc-ip expands to one container per spine and carries
# the same transfer over spines 1 to 3.
# vm-timeout: 600
# shellcheck disable=SC2317,SC2046 # functions run through check; EV words split
. ../lib.sh
. ../srv6_fabric.sh

A=$(fab_host_addr A)
B=$(fab_host_addr B)
ITERS=40
SIZE=16384

dmesg_mark
modprobe mrc
if fab_up 1 4 2> /run/fab_up.err; then
	ok "fab_up 1 4 ($SECONDS s)"
	fab_counts_serve
else
	not_ok "fab_up 1 4"
	diag < /run/fab_up.err
	fab_down
	done_testing
fi

check "mrcA on hostA's gid0" ip netns exec hostA rdma link add mrcA type mrc netdev gid0
check "mrcB on hostB's gid0" ip netns exec hostB rdma link add mrcB type mrc netdev gid0
GA=$(ip netns exec hostA bash -c ". ../lib.sh; gid_index mrcA 'fd00:a::1'")
GB=$(ip netns exec hostB bash -c ". ../lib.sh; gid_index mrcB 'fd00:b::1'")
check "the hosts' GIDs $A ($GA) and $B ($GB)" test -n "$GA" -a -n "$GB"
D="DEV_NAME=str:mrcA"
genl_a() {
	ip netns exec hostA python3 ../mrc-genl.py "$@"
}

# hex ADDR: an IPv6 address as 32 hex digits.
hex() {
	python3 -c 'import ipaddress, sys; print(ipaddress.IPv6Address(sys.argv[1]).packed.hex())' "$1"
}
ev() {
	local v=
	for a in "$@"; do v+=$(hex "$a"); done
	echo "MRC_ATTR_EV_ENTRY={ MRC_EV_VALUE=bin:$v }"
}

check "EVFMT_NEW 1: SRV6, ONLINE" genl_a EVFMT_NEW $D PROF_ID=u64:1 \
	EVFMT={ MRC_EVFMT_MODE=u8:1 MRC_EVFMT_FIELDS={ MRC_EVFMT_FIELD_WIDTH=u8:128 } } \
	PROF_STATE=u8:2

# --- Bad values: refused, naming the value ---------------------------------
bad_ev() {
	local desc=$1 name=$2 re=$3 out
	shift 3
	if out=$(genl_a EVPROF_NEW $D PROF_ID=u64:9 EVPROF={ MRC_EVPROF_MODE=u8:1 \
		MRC_EVPROF_FMT_ID=u64:1 } EVS={ $* } PROF_STATE=u8:2 2>&1); then
		not_ok "$desc"
		diag <<<"$out"
	elif grep -Eq "^error [0-9]+ $name: .*($re)" <<<"$out"; then
		ok "$desc"
	else
		not_ok "$desc"
		diag <<<"$out"
	fi
}
bad_ev "a 4-byte value on an SRV6 format" EINVAL "SRV6 EV is one or two IPv6" \
	"MRC_ATTR_EV_ENTRY={ MRC_EV_VALUE=bin:20010db8 }"
bad_ev "an 8-byte value" EINVAL "4 bytes .* or 16 or 32" \
	"MRC_ATTR_EV_ENTRY={ MRC_EV_VALUE=bin:20010db820010db8 }"
bad_ev "a multicast segment" EINVAL "multicast" "$(ev fcbb:bb00:1001:d00b:: ff02::1)"
bad_ev "a link-local segment" EINVAL "link-local" "$(ev fe80::1)"
bad_ev "a v4-mapped segment" EINVAL "IPv4-mapped" "$(ev ::ffff:10.0.0.1)"
bad_ev "the unspecified address" EINVAL "unspecified" "$(ev ::)"
bad_ev "the loopback address" EINVAL "loopback" "$(ev ::1)"
bad_ev "the device's own GID" EINVAL "own address" "$(ev "$A")"
check "EVFMT_NEW 2: UDP, ONLINE" genl_a EVFMT_NEW $D PROF_ID=u64:2 \
	EVFMT={ MRC_EVFMT_MODE=u8:2 MRC_EVFMT_FIELDS={ MRC_EVFMT_FIELD_WIDTH=u8:16 } } \
	PROF_STATE=u8:2
check_output "an IPv6 address on a UDP format" "EV value: a STEV or UDP EV is 4 bytes" \
	bash -c "ip netns exec hostA python3 ../mrc-genl.py EVPROF_NEW $D PROF_ID=u64:9 \
	EVPROF={ MRC_EVPROF_MODE=u8:1 MRC_EVPROF_FMT_ID=u64:2 } \
	EVS={ $(ev fcbb:bb00:1001:d00b::) } 2>&1; true"
check_fails "profile 9 was never made" genl_a EVPROF_GET $D PROF_ID=u64:9

# run_ev PROFILE SPINES... : a verified ping-pong from hostA on PROFILE;
# every spine listed carries hostA's data toward hostB (at least a quarter
# of an even share: the spray follows each EV's window, not a rotation),
# the spines 1-3 not listed nothing.
run_ev() {
	local prof=$1 quiet
	shift
	fab_spine_counts > /run/c0
	timeout 300 ip netns exec hostB ibv_rc_pingpong -d mrcB -g "$GB" -c \
		-n $ITERS -s $SIZE > /run/srv.log 2>&1 &
	local srv=$!
	sleep 2
	check "profile $prof: a verified ping-pong ($ITERS x $SIZE bytes)" \
		timeout 300 ip netns exec hostA env MRC_EV_PROFILE="$prof" \
		ibv_rc_pingpong -d mrcA -g "$GA" -c -n $ITERS -s $SIZE "$FAB_MGMT_B4"
	wait "$srv" || { not_ok "profile $prof: the server exits 0"; diag < /run/srv.log; }
	fab_spine_counts > /run/c1
	diag < /run/c1
	# Packets (bytes with a second argument) each spine sent toward
	# hostB meanwhile.
	toward_b() {
		paste /run/c0 /run/c1 |
			awk -v s="$1" -v c="${2:+1}" '$2 == s { print c ? $12 - $6 : $11 - $5 }'
	}
	for s in "$@"; do
		check "profile $prof: spine $s carried hostA's data ($(toward_b "$s") packets)" \
			test "$(toward_b "$s")" -ge $((ITERS * SIZE / 1024 / $# / 4))
	done
	for quiet in 1 2 3; do
		case " $* " in *" $quiet "*) continue ;; esac
		check "profile $prof: spine $quiet, no EV's, carried nothing toward hostB" \
			test "$(toward_b "$quiet")" -eq 0
	done
	# Spine 0: hostA's plain packets (ACKs), small beside the data.
	check "profile $prof: spine 0 carried under a tenth of the data's bytes ($(toward_b 0 b))" \
		test "$(toward_b 0 b)" -lt $((ITERS * SIZE / 10))
}

# --- uSID containers: spines 1 and 2 ---------------------------------------
check "EVPROF_NEW 5: containers through spines 1 and 2, ONLINE" \
	genl_a EVPROF_NEW $D PROF_ID=u64:5 EVPROF={ MRC_EVPROF_MODE=u8:1 \
	MRC_EVPROF_FMT_ID=u64:1 } EVS={ $(ev fcbb:bb00:1001:d00b::) \
	$(ev fcbb:bb00:1002:d00b::) } PROF_STATE=u8:2
check_output "EV dump gives back the containers" \
	"$(hex fcbb:bb00:1002:d00b::)" genl_a --dump EVPROF_EV_GET $D PROF_ID=u64:5
run_ev 5 1 2

# --- Segment lists: spines 1 and 3 -----------------------------------------
check "EVPROF_NEW 6: segment lists through spines 1 and 3, ONLINE" \
	genl_a EVPROF_NEW $D PROF_ID=u64:6 EVPROF={ MRC_EVPROF_MODE=u8:1 \
	MRC_EVPROF_FMT_ID=u64:1 } EVS={ $(ev fc00:1001::e fc00:d00b::d6) \
	$(ev fc00:1003::e fc00:d00b::d6) } PROF_STATE=u8:2
run_ev 6 1 3

# --- A GENERATED uSID program, through mrc-ip: block fcbb:bb00, spine
# uSIDs 0x1001..0x1003 (the mask's two low bits count 1 to 3), hostB's
# End.DT6 uSID d00b: three containers, one per spine.
mrcip_a() {
	ip netns exec hostA mrc-ip "$@"
}
check "evfmt 3: SRV6 32,16,16 (block, spine uSID, host uSID)" \
	mrcip_a evfmt add dev mrcA id 3 mode srv6 fields 32,16,16
check "path 7: GENERATED, spine uSIDs 0x1001..0x1003" \
	mrcip_a path add dev mrcA id 7 mode generated fmt 3 \
	field 32:0xfcbbbb00:0:0:0 field 16:0x1000:1:3:3 field 16:0xd00b:0:0:0
mrcip_a path show dev mrcA id 7 evs > /run/p7 2>&1
diag < /run/p7
for s in 1 2 3; do
	check "path 7: EV $((s - 1)) is the container through spine $s" \
		grep -Eq "^ *$((s - 1)) +fcbb:bb00:100$s:d00b:: " /run/p7
done
check_output "path 7: 3 EVs (JSON count)" '^3$' bash -c "ip netns exec hostA \
	mrc-ip -j path show dev mrcA id 7 | python3 -c 'import json, sys; \
	print(json.load(sys.stdin)[0][\"count\"])'"
run_ev 7 1 2 3
# Statistics (STATS_GET) name each EV by its container too.
mrcip_a -s path show dev mrcA id 7 > /run/p7s 2>&1
diag < /run/p7s
check "path 7 statistics: EV 2 is the container through spine 3" \
	grep -Eq "^ *2 +fcbb:bb00:1003:d00b:: " /run/p7s
# Fields that put fe80::/10 first make link-local containers: refused.
check_output "a GENERATED program of link-local addresses is refused, naming why" \
	"link-local address" bash -c "ip netns exec hostA mrc-ip path add dev mrcA \
	id 8 mode generated fmt 3 field 32:0xfe800000:0:0:0 \
	field 16:0x1000:1:3:3 field 16:0xd00b:0:0:0 2>&1; true"
check_fails "profile 8 was never made" genl_a EVPROF_GET $D PROF_ID=u64:8

check "the QPs gone, profile 5 can be deleted" genl_a EVPROF_DEL $D PROF_ID=u64:5
check "rdma link delete mrcA" ip netns exec hostA rdma link delete mrcA
check "rdma link delete mrcB" ip netns exec hostB rdma link delete mrcB
echo "the test took $SECONDS s" | diag
check "fab_down" fab_down
check_dmesg_clean
done_testing
