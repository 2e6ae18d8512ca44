# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 600
# Spraying is real: one QP's packets spread over every path of the
# multipath topology, each router carrying a share within 30% of 1/N:
# WRITEs, and READs both ways (requests toward hostA, the responses,
# which go back on their request's source port, toward hostB). With one
# EV the same traffic takes a single path (the control that shows the
# measure can fail).
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh

N=4
dmesg_mark
modprobe mrc
# Each EV hashes to a random path: 1024 of them make the path shares even
# (64, the default, leaves each share about +-22% off at one sigma).
echo 1024 > /sys/module/mrc/parameters/ev_count
mp_up "topology: $N routed paths, ECMP on the L4 hash" $N 0

# spray_run TAG [PROG]: one PROG (ib_write_bw, or ib_read_bw; one QP,
# hostB the requester); the packets each router forwarded towards hostA
# land in $spread, towards hostB in $spread_b.
spray_run() {
	local prog=${2:-ib_write_bw} before after before_b after_b
	before=$(mp_counts_to_a)
	before_b=$(mp_router_counts)
	pair_start 300 "$prog" -d mrcA -x "$GA4" -s 65536 -n 500 -F -- \
		"$prog" -d mrcB -x "$GB4" -s 65536 -n 500 -F "$MP_A4"
	# Read the sender's QP while it exists.
	for _ in $(seq 100); do
		evs=$(mp_qp_attr mrcB ev_count)
		[ -n "$evs" ] && break
		sleep 0.1
	done
	pair_finish "$1: $prog over $N paths"
	after=$(mp_counts_to_a)
	after_b=$(mp_router_counts)
	spread=$(mp_delta "$before" "$after")
	spread_b=$(mp_delta "$before_b" "$after_b")
	echo "$1: packets per router towards hostA: $spread; towards hostB: $spread_b" | diag
}

spray_run "1024 EVs"
check_output "the sending QP has 1024 EVs (rdma -dd res show qp)" '^1024$' \
	echo "$evs"
check_output "every router carries 1/$N +- 30% of the packets" '^r1' \
	mp_shares_within "$spread" 0.3
# A READ request opens a run of responses that echo its EV: were its EV
# recycled, the next requests would follow it. Shaped, as the paths of
# mp_failover are, losses come, and the re-requests all take the EV that
# delivered last (mrc_ev_choose_retx()): with recycling, that one EV then
# carried every request, one router 86% of the packets. The re-requests
# still skew the shares more than WRITE's: +-60%.
check "paths shaped to 20mbit" mp_set_rate 20mbit
spray_run "1024 EVs, READ, shaped" ib_read_bw
check_output "READ requests: every router carries 1/$N +- 60%" '^r1' \
	mp_shares_within "$spread" 0.6
check_output "READ responses: every router carries 1/$N +- 60%" '^r1' \
	mp_shares_within "$spread_b" 0.6
check "paths unshaped again" mp_set_rate 0

echo 1 > /sys/module/mrc/parameters/ev_count
spray_run "1 EV"
check_fails "one EV: the shares are not even" mp_shares_within "$spread" 0.3
check_output "one EV: one router carries over 95% of the packets" '^yes$' \
	awk -v c="$spread" 'BEGIN { n = split(c, x, " "); t = 0; m = 0
		for (i = 1; i <= n; i++) { t += x[i]; if (x[i] > m) m = x[i] }
		print (t > 0 && m > 0.95 * t) ? "yes" : "no" }'

echo 64 > /sys/module/mrc/parameters/ev_count
mp_teardown
check_dmesg_clean
done_testing
