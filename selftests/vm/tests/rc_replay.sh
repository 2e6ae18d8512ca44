# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 900
# Mutated copies of real packets, replayed into live QPs from the peer's
# address and EV ports, do the receiver no harm. For each of WRITE, READ,
# SEND and atomic perftest streams, mrc-mutate.py captures the packets of
# both directions on vethB, then each host sends REPLAY_N mutated copies
# (bit flips, truncation, extension, extreme BTH/RETH/DPH/AETH/SACKH/
# AtomicETH fields, unmodified replays; seeded) of what it sent itself
# while the stream runs. Then: no oops, WARN or slab report, the module
# unloads, and a fresh connection moves verified data.
#
# rcvd_malformed (header checks) and rcvd_duplicate or
# rcvd_out_of_window (PSN checks of packets that passed them) must move on
# both devices, so the copies reached the driver's receive path. A stream
# may end with an error completion (a mutated copy can be a valid request
# with a wrong R_Key, or a NACK): that is reported, not a failure.
. ../lib.sh

MUT="python3 $MRC_TOP/selftests/vm/mrc-mutate.py"
CHECK=$MRC_BUILD/selftests/progs/mrc-rc-check
# Each run mutates differently (the seed is the time, printed; REPLAY_SEED
# repeats one), so runs together cover more than one run could afford.
REPLAY_N=${REPLAY_N:-1000}
REPLAY_SEED=${REPLAY_SEED:-$(date +%s)}
COUNTERS="rcvd_pkts rcvd_malformed rcvd_duplicate rcvd_out_of_window
	rcvd_unknown_qp rcvd_wrong_peer rcvd_qp_not_ready rcvd_no_state
	rcvd_rnr_gated rcvd_trimmed sent_pkts"

snapshot() {
	local d c
	for d in mrcA mrcB; do
		for c in $COUNTERS; do
			echo "$d.$c $(hw_counter $d $c)"
		done
	done
}

dmesg_mark
two_hosts
snapshot | sort > /tmp/cnt0
t_start=$SECONDS
total=0
seed=$REPLAY_SEED
echo "mutation seeds from $seed (REPLAY_SEED=$seed repeats them)" | diag

for t in ib_write_bw ib_read_bw ib_send_bw ib_atomic_bw; do
	# -b: both hosts issue requests, so each direction carries requests,
	# responses and ACKs.
	pair_start 200 "$t" -d mrcA -x "$GA4" -D 60 -b -F -- \
		"$t" -d mrcB -x "$GB4" -D 60 -b -F 10.0.0.1
	ip netns exec hostB $MUT capture vethB --out /tmp/cap.$t --max 400 \
		--seconds 3 > /tmp/capout 2>&1
	na=$(grep -c '"src": "10.0.0.1"' /tmp/cap.$t)
	nb=$(grep -c '"src": "10.0.0.2"' /tmp/cap.$t)
	if [ "$na" -gt 0 ] && [ "$nb" -gt 0 ]; then
		ok "$t: packets of both directions captured (A $na, B $nb)"
	else
		not_ok "$t: captured A $na, B $nb packets"
	fi
	diag < /tmp/capout
	ip netns exec hostA $MUT replay /tmp/cap.$t --src 10.0.0.1 \
		--count "$REPLAY_N" --seed $seed --log /tmp/mut.$t.A > /tmp/rep.A 2>&1 &
	ra=$!
	ip netns exec hostB $MUT replay /tmp/cap.$t --src 10.0.0.2 \
		--count "$REPLAY_N" --seed $((seed + 1)) --log /tmp/mut.$t.B > /tmp/rep.B 2>&1
	wait $ra
	seed=$((seed + 2))
	for h in A B; do
		check_output "$t: $REPLAY_N mutated copies sent from host$h" \
			"^sent $REPLAY_N\$" cat /tmp/rep.$h
		diag < /tmp/rep.$h
		n=$(sed -n 's/^sent //p' /tmp/rep.$h)
		total=$((total + ${n:-0}))
	done
	# Did the stream live through it? Then stop it.
	if kill -0 "$_pair_cli" 2>/dev/null && kill -0 "$_pair_srv" 2>/dev/null; then
		echo "$t: stream still running after the replay" | diag
	else
		wait "$_pair_cli"; c=$?
		wait "$_pair_srv"; v=$?
		echo "$t: stream ended before the replay did (client rc $c, server rc $v):" | diag
		tail -n 3 /tmp/cli.log /tmp/srv.log | diag
	fi
	kill "$_pair_cli" "$_pair_srv" 2>/dev/null
	wait "$_pair_cli" "$_pair_srv" 2>/dev/null
done

snapshot | sort > /tmp/cnt1
echo "replayed $total packets in $((SECONDS - t_start)) s; counter deltas:" | diag
join /tmp/cnt0 /tmp/cnt1 | awk '{ print $1, $3 - $2 }' | diag
delta() {
	join /tmp/cnt0 /tmp/cnt1 | awk -v k="$1" '$1 == k { print $3 - $2 }'
}
for d in mrcA mrcB; do
	m=$(delta $d.rcvd_malformed)
	p=$(($(delta $d.rcvd_duplicate) + $(delta $d.rcvd_out_of_window)))
	if [ "${m:-0}" -gt 0 ] && [ "$p" -gt 0 ]; then
		ok "$d: copies reached the driver (malformed +$m, duplicate/out of window +$p)"
	else
		not_ok "$d: malformed +${m:-0}, duplicate/out of window +$p"
	fi
done
check_dmesg_clean "no kernel warning after the replay"

check "rdma link delete mrcA" ip netns exec hostA rdma link delete mrcA
check "rdma link delete mrcB" ip netns exec hostB rdma link delete mrcB
check "modprobe -r mrc" modprobe -r mrc
check "module is gone" bash -c '! grep -qw ^mrc /proc/modules'
ip netns del hostA
ip netns del hostB

modprobe mrc
two_hosts
check_output "fresh connection: mrc-rc-check write read send atomic" \
	'^ok atomic' timeout 120 "$CHECK" --dev-a mrcA --gid-a "$GA4" \
	--dev-b mrcB --gid-b "$GB4" write read send atomic
ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
