# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 600
# Spraying is real: one QP's packets spread over every path of the
# multipath topology, each router carrying a share within 30% of 1/N.
# With one EV the same traffic takes a single path (the control that
# shows the measure can fail).
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

# spray_run TAG: one ib_write_bw (one QP, hostB writes to hostA); the
# packets each router forwarded towards hostA land in $spread.
spray_run() {
	local before after
	before=$(mp_counts_to_a)
	pair_start 300 ib_write_bw -d mrcA -x "$GA4" -s 65536 -n 500 -F -- \
		ib_write_bw -d mrcB -x "$GB4" -s 65536 -n 500 -F "$MP_A4"
	# Read the sender's QP while it exists.
	for _ in $(seq 100); do
		evs=$(mp_qp_attr mrcB ev_count)
		[ -n "$evs" ] && break
		sleep 0.1
	done
	pair_finish "$1: ib_write_bw over $N paths"
	after=$(mp_counts_to_a)
	spread=$(mp_delta "$before" "$after")
	echo "$1: packets per router towards hostA: $spread" | diag
}

spray_run "1024 EVs"
check_output "the sending QP has 1024 EVs (rdma -dd res show qp)" '^1024$' \
	echo "$evs"
check_output "every router carries 1/$N +- 30% of the packets" '^r1' \
	mp_shares_within "$spread" 0.3

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
