# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 600
# Destroying a QP does not wait for its packets stuck in a local queue
# (issue 17). A tbf qdisc draining at 8 kbit/s holds the client's packets
# of an ib_write_bw; killing the client destroys its QPs, and the program
# must be gone within seconds, not after the queue drained (minutes).
# Unloading the module must still wait for those packets: their
# destructor is module code.
. ../lib.sh

GONE_MAX=10

# proc_gone PID: PID has exited (absent, or a zombie not yet reaped).
proc_gone() {
	local state
	state=$(awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ]
}

# backlog_pkts NS DEV: packets the root qdisc of DEV holds.
backlog_pkts() {
	ip netns exec "$1" tc -s qdisc show dev "$2" |
		awk '/backlog/ { sub("p", "", $3); print $3; exit }'
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
within() { awk -v t="$1" -v m="$2" 'BEGIN { exit !(t <= m) }'; }

dmesg_mark
two_hosts
ip netns exec hostA ib_write_bw -d mrcA -x "$GA4" -D 60 -F \
	> /tmp/srv.log 2>&1 &
srv=$!
wait_until 20 bash -c "ip netns exec hostA ss -Hltn | grep -q ."
ip netns exec hostB ib_write_bw -d mrcB -x "$GB4" -D 60 -F 10.0.0.1 \
	> /tmp/cli.log 2>&1 &
cli=$!
sleep 4
check "the client runs" kill -0 "$cli"

# 1 MB of queue at 8 kbit/s: what the client sends stays in it.
ip netns exec hostB tc qdisc add dev vethB root tbf rate 8kbit \
	burst 1600 limit 1000000
sleep 3
held=$(backlog_pkts hostB vethB)
diag <<< "tbf on vethB holds ${held:-?} packets"
check "the queue holds the client's packets (${held:-?})" \
	test "${held:-0}" -gt 10

t0=$(now)
kill -9 "$cli"
wait_until 60 proc_gone "$cli"
dt=$(elapsed "$t0" "$(now)")
diag <<< "client gone $dt s after SIGKILL"
check "the killed client is gone within $GONE_MAX s ($dt s)" \
	within "$dt" "$GONE_MAX"
check "its packets are still queued" test "$(backlog_pkts hostB vethB)" -gt 0
wait "$cli" 2> /dev/null
kill "$srv" 2> /dev/null
wait "$srv" 2> /dev/null

# rmmod waits while the queue holds packets whose destructor is ours,
# and finishes once the queue is gone.
ip netns exec hostA rdma link delete mrcA
ip netns exec hostB rdma link delete mrcB
wait_until 20 bash -c '! ls /sys/class/infiniband | grep -q mrc'
rmmod mrc &
rmm=$!
sleep 3
check "rmmod waits for the queued packets" kill -0 "$rmm"
ip netns exec hostB tc qdisc del dev vethB root
check "rmmod finishes once they are freed" wait_until 20 \
	bash -c "! kill -0 $rmm"
wait "$rmm"
check "rmmod succeeded" test $? -eq 0
check "the module is gone" test ! -d /sys/module/mrc
ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
