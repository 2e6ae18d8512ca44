# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# SRv6 EVs on the fabric (srv6_fabric.sh, two planes of four spines): an
# EXPLICIT profile of an SRV6 format whose EVs are uSID containers
# through spines 1 and 2 (16-byte values: outer IPv6 header, no SRH) and
# then segment lists through spines 1 and 3 (32 bytes: outer IPv6 + SRH)
# carries a verified RC transfer from hostA to hostB. The spines' counters
# toward hostB show every EV's spine carrying the data and the spine no
# EV names carrying nothing; spine 0:0 carries the plain traffic (fab_up
# pins each host's route to the other through it: hostA's ACKs). Bad
# values are refused with a message naming them. A GENERATED uSID program
# over both planes, configured with mrc-ip, expands to one container per
# spine, each shown leaving by its plane's uplink, and carries the same
# transfer over seven spines; with plane 1 cut under hostA, over plane 0.
# The OCP API (libmrc) does the same with a controller's SRV6 profile.
# Hostile encapsulated packets (a container pointing back at the sender,
# an inner source that is not the peer) reach no QP.
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
fab_test_up 2 4
GA=$FAB_GA GB=$FAB_GB
fab_counts_serve
D="DEV_NAME=str:mrcA"
# lib.sh's mrc_genl in hostA, from one Python process: a start costs
# seconds under emulation. (Bash warns that fab_counts_serve's coprocess
# still exists: both keep working, each through its own copies of its
# descriptors.)
mrc_genl_serve hostA
# genl_out ARGS...: mrc_genl's reply or its error line, whatever its exit.
genl_out() {
	mrc_genl "$@" 2>&1
	true
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

check "EVFMT_NEW 1: SRV6, ONLINE" mrc_genl EVFMT_NEW $D PROF_ID=u64:1 \
	EVFMT={ MRC_EVFMT_MODE=u8:1 MRC_EVFMT_FIELDS={ MRC_EVFMT_FIELD_WIDTH=u8:128 } } \
	PROF_STATE=u8:2

# --- Bad values: refused, naming the value ---------------------------------
bad_ev() {
	local desc=$1 name=$2 re=$3 out
	shift 3
	if out=$(mrc_genl EVPROF_NEW $D PROF_ID=u64:9 EVPROF={ MRC_EVPROF_MODE=u8:1 \
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
check "EVFMT_NEW 2: UDP, ONLINE" mrc_genl EVFMT_NEW $D PROF_ID=u64:2 \
	EVFMT={ MRC_EVFMT_MODE=u8:2 MRC_EVFMT_FIELDS={ MRC_EVFMT_FIELD_WIDTH=u8:16 } } \
	PROF_STATE=u8:2
check_output "an IPv6 address on a UDP format" "EV value: a STEV or UDP EV is 4 bytes" \
	genl_out EVPROF_NEW $D PROF_ID=u64:9 \
	EVPROF={ MRC_EVPROF_MODE=u8:1 MRC_EVPROF_FMT_ID=u64:2 } \
	EVS={ $(ev fcbb:bb00:1001:d00b::) }
check_fails "profile 9 was never made" mrc_genl EVPROF_GET $D PROF_ID=u64:9

# run_ev PROFILE SPINE... : a verified ping-pong from hostA on PROFILE;
# every spine listed (P:S, plane and spine) carries hostA's data toward
# hostB, every other spine but 0:0 nothing. "Carries" is at least a tenth
# of an even share: the spray follows each EV's window, not a rotation,
# and an EV penalised for queueing delay gets less for a while (one CI
# run: 50 packets of an even share of 213, with 4 qdelay penalties).
# (Each EV's own byte count is checked against its spine's below.)
run_ev() {
	local prof=$1 p s spine
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
	# Why an EV carried less, if it did: its losses and state changes.
	ip netns exec hostA mrc-ip -s -s stats show dev mrcA evprofile "$prof" 2>&1 | diag
	# Packets (bytes with a third argument) spine P S sent toward hostB
	# meanwhile.
	toward_b() {
		paste /run/c0 /run/c1 | awk -v p="$1" -v s="$2" -v c="${3:+1}" \
			'$1 == p && $2 == s { print c ? $12 - $6 : $11 - $5 }'
	}
	for spine in "$@"; do
		p=${spine%:*} s=${spine#*:}
		check "profile $prof: spine $spine carried hostA's data ($(toward_b "$p" "$s") packets)" \
			test "$(toward_b "$p" "$s")" -ge $((ITERS * SIZE / 1024 / $# / 10))
	done
	for ((p = 0; p < FAB_PLANES; p++)); do
		for ((s = 0; s < FAB_SPINES; s++)); do
			case " 0:0 $* " in *" $p:$s "*) continue ;; esac
			check "profile $prof: spine $p:$s, no EV's, carried nothing toward hostB" \
				test "$(toward_b "$p" "$s")" -eq 0
		done
	done
	# Spine 0:0: hostA's plain packets (ACKs), small beside the data.
	check "profile $prof: spine 0:0 carried under a tenth of the data's bytes ($(toward_b 0 0 b))" \
		test "$(toward_b 0 0 b)" -lt $((ITERS * SIZE / 10))
}

# --- uSID containers: spines 1 and 2 ---------------------------------------
check "EVPROF_NEW 5: containers through spines 1 and 2, ONLINE" \
	mrc_genl EVPROF_NEW $D PROF_ID=u64:5 EVPROF={ MRC_EVPROF_MODE=u8:1 \
	MRC_EVPROF_FMT_ID=u64:1 } EVS={ $(ev fcbb:bb00:1001:d00b::) \
	$(ev fcbb:bb00:1002:d00b::) } PROF_STATE=u8:2
check_output "EV dump gives back the containers" \
	"$(hex fcbb:bb00:1002:d00b::)" mrc_genl --dump EVPROF_EV_GET $D PROF_ID=u64:5
run_ev 5 0:1 0:2

# --- Segment lists: spines 1 and 3 -----------------------------------------
check "EVPROF_NEW 6: segment lists through spines 1 and 3, ONLINE" \
	mrc_genl EVPROF_NEW $D PROF_ID=u64:6 EVPROF={ MRC_EVPROF_MODE=u8:1 \
	MRC_EVPROF_FMT_ID=u64:1 } EVS={ $(ev fc00:1001::e fc00:d00b::d6) \
	$(ev fc00:1003::e fc00:d00b::d6) } PROF_STATE=u8:2
run_ev 6 0:1 0:3

# --- The OCP MRC API over SRv6 (libmrc): a controller written against
# mrc_ctl.h makes SRV6 format 4 and EXPLICIT profile 10 (containers through
# spines 1 and 3) and exits; mrc-api-check's QP takes profile 10 by id at
# RESET->INIT and sweeps WRITE and WRITE with immediate up to 1 MiB, each
# verified by the receiver. Spines 0:1 and 0:3 carry it, no other.
API=$MRC_BUILD/selftests/progs/mrc-api-check
ip netns exec hostA "$MRC_BUILD/selftests/progs/mrc-rebind-check" srv6-controller \
	--dev mrcA --fmt 4 --ev 10 --usid fcbb:bb00:1001:d00b:: --usid fcbb:bb00:1003:d00b:: \
	> /run/srv6-ctl.log 2>&1
rc=$?
diag < /run/srv6-ctl.log
check "mrc_ctl.h: SRV6 format 4 and EXPLICIT profile 10 made and read back, controller exited ($rc)" \
	bash -c "[ $rc = 0 ] && tail -n1 /run/srv6-ctl.log | grep -qx ok"
fab_spine_counts > /run/c0
ip netns exec hostB timeout 240 "$API" server --dev mrcB --gid "$GB" --port 18621 \
	--max-size 1048576 > /run/api-srv.log 2>&1 &
srv=$!
ip netns exec hostA timeout 240 "$API" client --dev mrcA --gid "$GA" --host "$FAB_MGMT_B4" \
	--port 18621 --max-size 1048576 --ev-profile 10 > /run/api-cli.log 2>&1
crc=$?
wait "$srv"
src=$?
fab_spine_counts > /run/c1
diag < /run/api-cli.log
sed 's/^/server: /' /run/api-srv.log | diag
check "mrc.h over SRv6 profile 10: every step passed, sweeps verified (client $crc, server $src)" \
	bash -c "[ $crc = 0 ] && [ $src = 0 ] && tail -n1 /run/api-cli.log | grep -qx ok"
check_output "... the QP reports EV profile 10 (mrc_query_qp)" \
	'^ok [0-9]+ - mrc_query_qp: RTS' cat /run/api-cli.log
api_toward_b() {
	paste /run/c0 /run/c1 | awk -v p="$1" -v s="$2" '$1 == p && $2 == s { print $11 - $5 }'
}
for spine in 0:1 0:3; do
	n=$(api_toward_b "${spine%:*}" "${spine#*:}")
	check "mrc.h over SRv6: spine $spine carried hostA's data ($n packets)" test "$n" -ge 100
done
for spine in 0:2 1:0 1:1 1:2 1:3; do
	n=$(api_toward_b "${spine%:*}" "${spine#*:}")
	check "mrc.h over SRv6: spine $spine, no EV's, carried nothing toward hostB ($n)" \
		test "$n" -eq 0
done

# --- A GENERATED uSID program over both planes, through mrc-ip: block
# fcbb:bb00, spine uSID 0x1000 | P << 8 | S (mask 0x103: the generated
# part's top bit is the plane, its low two the spine; 1..7 leaves out
# 0:0, which carries the plain traffic), hostB's End.DT6 uSID d00b. Seven
# containers, one per spine, each leaving by its plane's uplink.
mrcip_a() {
	ip netns exec hostA mrc-ip "$@"
}
check "evfmt 3: SRV6 32,16,16 (block, spine uSID, host uSID)" \
	mrcip_a evfmt add dev mrcA id 3 mode srv6 fields 32,16,16
check "path 7: GENERATED, spines 0:1..1:3" \
	mrcip_a path add dev mrcA id 7 mode generated fmt 3 \
	field 32:0xfcbbbb00:0:0:0 field 16:0x1000:1:7:0x103 field 16:0xd00b:0:0:0
mrcip_a path show dev mrcA id 7 evs > /run/p7 2>&1
diag < /run/p7
check_output "path 7: EV n is spine (n+1)>>2 : (n+1)&3 and leaves by up<plane>" \
	'^ok 7$' bash -c "ip netns exec hostA mrc-ip -j path show dev mrcA id 7 evs |
	python3 -c '
import json, sys
evs = json.load(sys.stdin)
good = 0
for e in evs:
    v = e[\"index\"] + 1
    p, s = v >> 2, v & 3
    want = \"fcbb:bb00:1%d%02x:d00b::\" % (p, s)
    if e[\"value\"] == want and e[\"via\"] == \"up%d\" % p:
        good += 1
    else:
        print(\"EV\", e[\"index\"], e[\"value\"], e[\"via\"], \"want\", want, file=sys.stderr)
print(\"ok\" if good == len(evs) else \"bad\", good)'"
run_ev 7 0:1 0:2 0:3 1:0 1:1 1:2 1:3
# What each spine forwarded toward hostB is what hostA's QP counted on the
# EV through it (outer header included, 14 bytes of Ethernet a packet)
# within 1%: ib_write_bw, whose receiver only acknowledges (by the plain
# route, through 0:0). Without the outer header the count is 3.5% short.
ev_bytes() {
	ip netns exec hostA mrc-ip -s -s -j path show dev mrcA id 7 |
		python3 -c 'import json, sys; print(" ".join(str(e["tx_bytes"] + 14 * e["tx_pkts"]) for e in json.load(sys.stdin)))'
}
fab_spine_counts > /run/c0
e0=$(ev_bytes)
timeout 300 ip netns exec hostB ib_write_bw -d mrcB -x "$GB" -n 100 -F > /run/srv.log 2>&1 &
srv=$!
sleep 2
check "profile 7: ib_write_bw -n 100 from hostA" timeout 300 ip netns exec hostA \
	env MRC_EV_PROFILE=7 ib_write_bw -d mrcA -x "$GA" -n 100 -F "$FAB_MGMT_B4"
wait "$srv" || { not_ok "profile 7: the ib_write_bw server exits 0"; diag < /run/srv.log; }
fab_spine_counts > /run/c1
check_output "profile 7: each spine's bytes toward hostB are its EV's within 1%" '^ok' \
	python3 -c '
import sys
e0, e1 = ([int(v) for v in a.split()] for a in sys.argv[1:3])
c0, c1 = ({(int(l.split()[0]), int(l.split()[1])): int(l.split()[5]) for l in open(f)}
          for f in ("/run/c0", "/run/c1"))
bad, dev = [], 0.0
for i, (x, y) in enumerate(zip(e0, e1)):
    v = i + 1
    spine = (v >> 2, v & 3)
    got, want = c1[spine] - c0[spine], y - x
    dev = max(dev, abs(got - want) / max(want, 1))
    if not want or abs(got - want) > 0.01 * want:
        bad.append("EV %d: %d bytes, spine %d:%d %d" % (i, want, *spine, got))
print("off: %s" % "; ".join(bad) if bad else "ok, at most %.2f%% apart" % (100 * dev))' "$e0" "$(ev_bytes)"
# Statistics (STATS_GET) name each EV by its container too.
mrcip_a -s path show dev mrcA id 7 > /run/p7s 2>&1
diag < /run/p7s
check "path 7 statistics: EV 2 is the container through spine 0:3" \
	grep -Eq "^ *2 +fcbb:bb00:1003:d00b:: " /run/p7s
# Plane 1 fails under hostA: leafA_1's port to it goes down, so hostA's
# routes stay and its plane-1 packets vanish (no carrier). The same
# transfer completes over plane 0; plane 1's spines carry nothing of it.
# losses: each EV's losses on profile 7 so far (its QPs' counters stay
# with the profile when they go).
losses() {
	ip netns exec hostA mrc-ip -j -s path show dev mrcA id 7 |
		python3 -c 'import json, sys; print(" ".join(str(e["loss"]) for e in json.load(sys.stdin)))'
}
# probe INDEX: an endpoint probe to hostB over path 7's EV INDEX.
probe() {
	ip netns exec hostA mrc-ip probe dev mrcA to "$B" evprofile 7 index "$1" \
		timeout 2s 2>&1
}
# probe_fails INDEX: the same, printing mrc-ip's error (exit 2) instead.
probe_fails() {
	! probe "$1"
}
check_output "a probe over EV 3 (spine 1:0) is answered" '^probe 1 result ok rtt [0-9]+' \
	probe 3
l0=$(losses)
check "leafA_1's port to hostA down" ip -n leafA_1 link set host down
check_output "... then a probe over EV 3 is not answered" 'no probe was answered' \
	probe_fails 3
check_output "... and one over EV 0 (spine 0:1) is" '^probe 1 result ok rtt [0-9]+' \
	probe 0
run_ev 7 0:1 0:2 0:3
l1=$(losses)
echo "losses per EV before: $l0; after: $l1" | diag
check_output "each plane-1 EV (3 to 6) saw losses" '^ok$' python3 -c '
import sys
a, b = ([int(x) for x in v.split()] for v in sys.argv[1:3])
print("ok" if all(b[i] > a[i] for i in range(3, 7)) else "no")' "$l0" "$l1"
# Fields that put fe80::/10 first make link-local containers: refused.
check_output "a GENERATED program of link-local addresses is refused, naming why" \
	"link-local address" bash -c "ip netns exec hostA mrc-ip path add dev mrcA \
	id 8 mode generated fmt 3 field 32:0xfe800000:0:0:0 \
	field 16:0x1000:1:3:3 field 16:0xd00b:0:0:0 2>&1; true"
check_fails "profile 8 was never made" mrc_genl EVPROF_GET $D PROF_ID=u64:8

# --- Hostile SRv6 packets, from a raw socket on hostA (mrc-craft.py) ---
CRAFT="python3 $MRC_TOP/selftests/vm/mrc-craft.py"
# A container that ends back at the sender (hostA's own End.DT6 d00a):
# the packets go round spine 0:1 and hostA's kernel drops them (their
# inner destination is not its own); no MRC device sees one.
fab_spine_counts > /run/c0
r0="$(hw_counter mrcA rcvd_pkts) $(hw_counter mrcB rcvd_pkts)"
check_output "20 SENDs in a container pointing back at hostA, sent" '^sent 20$' \
	ip netns exec hostA $CRAFT srv6-spoof fcbb:bb00:1001:d00a:: --src "$A" \
	--inner-src "$A" --dst "$B" --dqpn 291 --count 20
sleep 1
fab_spine_counts > /run/c1
r1="$(hw_counter mrcA rcvd_pkts) $(hw_counter mrcB rcvd_pkts)"
back=$(paste /run/c0 /run/c1 | awk '$1 == 0 && $2 == 1 { print $9 - $3 }')
check "... spine 0:1 carried them back toward hostA ($back packets)" test "$back" -ge 20
check "... and neither device received one (rcvd_pkts $r0, then $r1)" \
	test "$r0" = "$r1"

# A decapsulated packet whose inner source is not the QP's peer: counted
# rcvd_wrong_peer by hostB, never delivered to the live QP. The outer
# source is the inner one, as MRC's sender builds it (another is
# rcvd_encap_src: srv6_hostile.sh).
timeout 120 ip netns exec hostB ibv_rc_pingpong -d mrcB -g "$GB" -n 100000 \
	> /run/srv.log 2>&1 &
srv=$!
sleep 2
timeout 120 ip netns exec hostA ibv_rc_pingpong -d mrcA -g "$GA" -n 100000 \
	"$FAB_MGMT_B4" > /run/cli.log 2>&1 &
cli=$!
qpn=$(wait_rc_qpn 20 hostB mrcB)
check "a connected RC QP on hostB (QPN ${qpn:-none})" test -n "$qpn"
w0=$(hw_counter mrcB rcvd_wrong_peer)
check_output "20 SENDs from inner source fd00:a::99 through spine 0:1, sent" \
	'^sent 20$' ip netns exec hostA $CRAFT srv6-spoof fcbb:bb00:1001:d00b:: \
	--src fd00:a::99 --inner-src fd00:a::99 --dst "$B" --dqpn "${qpn:-0}" \
	--count 20
sleep 1
w1=$(hw_counter mrcB rcvd_wrong_peer)
check "... each dropped as not the peer (rcvd_wrong_peer +$((w1 - w0)))" \
	test $((w1 - w0)) -eq 20
check "... and the ping-pong still runs" kill -0 "$srv" "$cli"
kill "$cli" "$srv" 2>/dev/null
wait "$cli" "$srv" 2>/dev/null

check "the QPs gone, profile 5 can be deleted" mrc_genl EVPROF_DEL $D PROF_ID=u64:5
# The server holds hostA: it goes first, so the namespace goes with
# fab_test_down.
mrc_genl_stop
fab_test_down
check_dmesg_clean
done_testing
