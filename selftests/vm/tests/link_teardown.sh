# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 600
# A device goes away under traffic (issue 17): deleting its netdev or the
# rdma link while ib_write_bw runs on it returns at once instead of
# waiting for the program to close its user context, and the program
# fails within seconds (IBV_EVENT_DEVICE_FATAL, its next doorbell EIO)
# rather than running to the end of its -D period.
. ../lib.sh

# Bounds on what takes well under a second on real hardware. The VM runs
# under TCG emulation on a loaded machine, where one ib_write_bw iteration
# or a netdev unregistration can take seconds, so the bounds are generous;
# without disassociation both are the whole -D 30 period or more
# (55 s and 85 s were seen).
DEL_MAX=15
EXIT_MAX=15

sent_pkts() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/sent_pkts"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
within() { awk -v t="$1" -v m="$2" 'BEGIN { exit !(t <= m) }'; }

# teardown NAME DEV-GONE CMD...: ib_write_bw -D 30 from hostB to hostA;
# after a few seconds of traffic run CMD, which must remove DEV-GONE.
teardown() {
	local name=$1 dev=$2 t0 t1 dt rc p0 p1
	shift 2
	pair_start 120 \
		ib_write_bw -d mrcA -x "$GA4" -D 30 -F -- \
		ib_write_bw -d mrcB -x "$GB4" -D 30 -F 10.0.0.1
	# Traffic flows when the device goes: mrcB's sent_pkts grows.
	sleep 4
	p0=$(sent_pkts mrcB)
	sleep 2
	p1=$(sent_pkts mrcB)
	diag <<< "$name: mrcB sent_pkts $p0 -> $p1 in the 2 s before"
	check "$name: traffic flows before ($p0 -> $p1 packets)" \
		test "${p1:-0}" -gt "${p0:-0}"
	check "$name: the client still runs after 6 s" kill -0 "$_pair_cli"
	t0=$(now)
	timeout 150 "$@"
	rc=$?
	t1=$(now)
	dt=$(elapsed "$t0" "$t1")
	diag <<< "$name: $* returned $rc after $dt s"
	check "$name: returns 0" test "$rc" -eq 0
	check "$name: returns within $DEL_MAX s ($dt s)" within "$dt" "$DEL_MAX"
	check "$name: $dev is gone" wait_until 10 rdma_dev_absent "$dev"

	# The client exits, with an error, well before its 30 s are over:
	# within EXIT_MAX s of the start of the deletion.
	wait "$_pair_cli"
	rc=$?
	dt=$(elapsed "$t0" "$(now)")
	diag <<< "$name: client exit status $rc, $dt s after the deletion began"
	{ grep -iE 'error|fail|couldn' /tmp/cli.log | head -n 4;
	  tail -n 3 /tmp/cli.log; } | diag
	check "$name: the client exits within $EXIT_MAX s ($dt s)" \
		within "$dt" "$EXIT_MAX"
	check "$name: the client exits with an error" test "$rc" -ne 0 -a "$rc" -ne 124
	# The server, whose device stays, would run out its -D period (it
	# was waited for up to 20 s); nothing is checked of it.
	kill "$_pair_srv" 2>/dev/null
	wait "$_pair_srv"
}

dmesg_mark
two_hosts
teardown "ip link del vethB" mrcB ip -n hostB link del vethB
ip netns del hostA
ip netns del hostB

two_hosts
teardown "rdma link delete mrcB" mrcB ip netns exec hostB rdma link delete mrcB
ip netns del hostA
ip netns del hostB
wait_until 20 bash -c '! ls /sys/class/infiniband | grep -q mrc'
check "no MRC device left" bash -c '! ls /sys/class/infiniband | grep -q mrc'
check_dmesg_clean
done_testing
