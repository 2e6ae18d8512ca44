# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 300
# A program written against the OCP MRC API (libmrc's mrc.h), as an
# application would be: mrc-api-check's server on hostB and client on
# hostA of the multipath topology (4 routed paths, ECMP on the L4 hash,
# so the QP's source ports spread its packets over the routers),
# connected over TCP as perftest is. RDMA WRITE and WRITE with
# immediate of every size from 1 B up, each verified byte for byte by the
# receiver, immediates in posting order; SEND, READ and an atomic refused
# by mrc_post_send() with EINVAL, posting nothing; WIMM credits: beyond
# max_wimm WRITEs with immediate in flight, ENOMEM at posting (OCP's "no
# RNR"), until completions are polled. The server waits for
# WRITEs with immediate on CQ events (a completion channel); both ends
# query their QP and tear everything down through the API.
#
# The sweep stops at 16 MiB (MRC_API_MAX) rather than mrc-api-check's
# default of 64 MiB: under TCG both processes fill and compare every byte
# on emulated CPUs, and the two 64 MiB sweeps took 14 to 37 s, as loaded as
# the 2-core host was (4 MiB: 8 s), too close to the minute a test may take;
# 16 MiB still spans thousands of pages and packets per WRITE.
# MRC_VM_ENV="MRC_API_MAX=67108864" runs the full sweep; MRC_API_TIMEOUT
# (240 s) bounds each process. Then PSN ranges (OCP's MPR) in force.
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh

CHECK=$MRC_BUILD/selftests/progs/mrc-api-check
MAX=${MRC_API_MAX:-16777216}
PORT=18620
LIMIT=${MRC_API_TIMEOUT:-240}

check_output "mrc-api-check loads libmrc.so.1" 'libmrc\.so\.1 => /' ldd "$CHECK"
# What make stage installed, found where any program finds it (the
# guest runs no ldconfig: the multiarch directory is on the system path).
check_output "the staged libmrc.so.1 loads from the system library path" \
	'^(/usr)?/lib/[a-z0-9_-]+/libmrc\.so\.1' python3 -c '
import ctypes
ctypes.CDLL("libmrc.so.1")
for l in open("/proc/self/maps"):
    if "libmrc" in l:
        print(l.split()[-1])'

dmesg_mark
mp_up "topology: 4 routed paths, ECMP on the L4 hash" 4 0
read -ra before <<<"$(mp_router_counts)"

ip netns exec hostB timeout "$LIMIT" "$CHECK" server --dev mrcB --gid "$GB4" --port "$PORT" \
	> /tmp/api-server.log 2>&1 &
spid=$!
ip netns exec hostA timeout "$LIMIT" "$CHECK" client --dev mrcA --gid "$GA4" --host "$MP_B4" \
	--port "$PORT" --max-size "$MAX" > /tmp/api-client.log 2>&1
crc=$?
wait $spid
src=$?
read -ra after <<<"$(mp_router_counts)"
diag < /tmp/api-client.log
sed 's/^/server: /' /tmp/api-server.log | diag

check_output "connected through the OCP API (mrc_create_context, mrc_create_qp, mrc_modify_qp)" \
	'^# connected' cat /tmp/api-client.log
check_output "mrc_query_qp: RTS with the MRC attributes the program set" \
	'^ok [0-9]+ - mrc_query_qp: RTS' cat /tmp/api-client.log
check_output "the published example's verbs attributes accepted and overridden, hint, MPR, CAP kept" \
	'^# verbs-style attributes accepted and overridden' cat /tmp/api-server.log
check_output "RDMA WRITE 1 B to $MAX B, every byte verified by the receiver" \
	"^ok [0-9]+ - WRITE sweep: [0-9]+ sizes, 1 B to $MAX B" cat /tmp/api-client.log
check_output "inline RDMA WRITE up to 64 B: copied at posting, verified by the receiver" \
	'^ok [0-9]+ - inline WRITE sweep: 1 B to 64 B' cat /tmp/api-client.log
check_output "WRITE_WITH_IMM 1 B to $MAX B verified, immediates in posting order" \
	"^ok [0-9]+ - WRITE_WITH_IMM sweep: [0-9]+ sizes, 1 B to $MAX B" cat /tmp/api-client.log
check_output "32 WRITE_WITH_IMM in one chain: verified, in posting order" \
	'^ok [0-9]+ - WRITE_WITH_IMM chain of 32' cat /tmp/api-client.log
check_output "the receiver waited on CQ events (mrc_get_cq_event names its CQ and context)" \
	'^# CQ events taken: [1-9]' cat /tmp/api-server.log
check_output "mrc_post_send refuses SEND with EINVAL" \
	'^ok [0-9]+ - mrc_post_send: SEND refused' cat /tmp/api-client.log
check_output "mrc_post_send refuses RDMA READ with EINVAL" \
	'^ok [0-9]+ - mrc_post_send: RDMA READ refused' cat /tmp/api-client.log
check_output "mrc_post_send refuses an atomic with EINVAL" \
	'^ok [0-9]+ - mrc_post_send: ATOMIC_FETCH_AND_ADD refused' cat /tmp/api-client.log
check_output "a chain with a refused request behind a valid WRITE is refused whole" \
	'^ok [0-9]+ - mrc_post_send: WRITE_WITH_IMM then atomic in one chain refused' \
	cat /tmp/api-client.log
check_output "refused requests posted nothing (no completion, memory untouched)" \
	'^ok [0-9]+ - refused requests posted nothing' cat /tmp/api-client.log
check_output "WIMM credits: a chain beyond max_wimm refused whole with ENOMEM" \
	'^ok [0-9]+ - mrc_post_send: a chain of max_wimm \+ 1 WRITEs with immediate refused whole' \
	cat /tmp/api-client.log
check_output "WIMM credits: max_wimm WRITE_WITH_IMM in flight land, verified" \
	'^ok [0-9]+ - max_wimm WRITEs with immediate in flight: accepted' cat /tmp/api-client.log
check_output "WIMM credits: one more before completions are polled is refused (ENOMEM), not an RNR" \
	'^ok [0-9]+ - one more WRITE with immediate before their completions are polled: refused' \
	cat /tmp/api-client.log
check_output "WIMM credits: polled completions give them back, the next lands" \
	'^ok [0-9]+ - completions polled give the credits back' cat /tmp/api-client.log
check_output "a WRITE_WITH_IMM finding no receive waits for one posted late, then lands" \
	'^ok [0-9]+ - WRITE_WITH_IMM with no receive posted waits' cat /tmp/api-client.log
check_output "a failed QP's IBV_EVENT_QP_FATAL comes from mrc_get_async_event, names the QP" \
	'^ok [0-9]+ - a WRITE with a bad lkey fails the QP' cat /tmp/api-client.log
check_output "teardown: EBUSY while objects live, then every mrc_destroy_* returns 0" \
	'^ok [0-9]+ - teardown' cat /tmp/api-client.log
check_no_output "no step failed" '^not ok|^FAIL' cat /tmp/api-client.log
check "client ended with ok (exit $crc)" \
	bash -c "[ $crc = 0 ] && tail -n1 /tmp/api-client.log | grep -qx ok"
check "server ended with ok (exit $src)" \
	bash -c "[ $src = 0 ] && tail -n1 /tmp/api-server.log | grep -qx ok"

# The spray reached several routers: which ones an EV takes depends on
# the boot's ECMP hash key, so not every router need carry a share, but
# two or more carried at least a twentieth of an even one.
total=0
for i in "${!after[@]}"; do
	total=$((total + after[i] - before[i]))
done
busy=0
for i in "${!after[@]}"; do
	n=$((after[i] - before[i]))
	echo "router $((i + 1)): $n of $total packets toward hostB" | diag
	[ $((n * 20 * ${#after[@]})) -ge "$total" ] && busy=$((busy + 1))
done
check "the program's packets spread over several routers ($busy of ${#after[@]})" \
	test "$busy" -ge 2

# PSN ranges (OCP's MPR) in force, WRITE sweeps alone, the client's QP
# on a CC profile whose window never drops below 1024 PSNs (the driver's
# whole window), so that only its range can hold it back: the
# responder's range (--mpr on the server sets its MPR_DEST) drops every
# PSN beyond it (rcvd_out_of_window), and a requester held to the same
# range never sends one. With the requester at the whole window against a
# responder range of 128 PSNs the drops must show, and the data still
# arrives. The paths delay by 20 ms meanwhile: the window alone is not
# enough, as a sender held back by the emulated CPU never had 128 PSNs
# out within a round trip of a millisecond (0 drops), and the default
# CC profile's window did not always grow past 128 PSNs even at 10 ms.
check "CC profile 7 on mrcA: mrc-window, never below 1024 packets" \
	ip netns exec hostA mrc-ip ccprofile add dev mrcA id 7 alg mrc-window \
	init-pkts 1024 min-pkts 1024
# mpr_run TAG SERVER_MPR CLIENT_MPR MAX: the pair's out-of-window drops
# on mrcB go to stdout; its logs to /tmp/api-mpr-TAG-*.log.
mpr_run() {
	local tag=$1 o0 o1 pid rc
	o0=$(hw_counter mrcB rcvd_out_of_window)
	ip netns exec hostB timeout "$LIMIT" "$CHECK" server --dev mrcB --gid "$GB4" \
		--port "$PORT" --mpr "$2" > "/tmp/api-mpr-$tag-server.log" 2>&1 &
	pid=$!
	ip netns exec hostA timeout "$LIMIT" "$CHECK" client --dev mrcA --gid "$GA4" \
		--host "$MP_B4" --port "$PORT" --max-size "$4" --mpr "$3" --cc-profile 7 \
		--writes-only 1 > "/tmp/api-mpr-$tag-client.log" 2>&1
	rc=$?
	wait "$pid" || rc=1
	o1=$(hw_counter mrcB rcvd_out_of_window)
	[ "$rc" = 0 ] || sed "s/^/$tag: /" "/tmp/api-mpr-$tag-"*.log | diag
	echo "$rc $((o1 - o0))"
}
for i in $(seq "$MP_N"); do mp_path_delay "$i" 20; done
read -r rc oow <<<"$(mpr_run same 1 1 4194304)"
check "PSN ranges of 128 PSNs at both ends: WRITEs to 4 MiB verified (exit $rc)" test "$rc" = 0
check "... no PSN sent beyond the responder's range ($oow dropped)" test "$oow" -eq 0
read -r rc oow <<<"$(mpr_run wider 1 8 1048576)"
check "a requester range wider than the responder's: WRITEs to 1 MiB still verified (exit $rc)" \
	test "$rc" = 0
check "... the responder dropped what lay beyond its 128 PSNs ($oow)" test "$oow" -gt 0
mp_path_clear

mp_teardown
check_dmesg_clean
done_testing
