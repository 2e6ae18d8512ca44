# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Helpers for the multipath tests, on top of lib.sh and mp_topo.sh.

# mp_counts_to_a: packets each router sent towards hostA (the B to A
# direction), one line, as mp_router_counts prints the other direction.
mp_counts_to_a() {
	local i files=()
	for ((i = 1; i <= MP_N; i++)); do
		files+=("/sys/class/net/p$i/statistics/rx_packets")
	done
	ip netns exec swA cat "${files[@]}" | paste -sd ' '
}

# mp_delta BEFORE AFTER: element-wise AFTER - BEFORE of two count lines.
mp_delta() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? " " : ""), y[i] - x[i]
		print "" }'
}

# mp_shares_within COUNTS TOLERANCE: every count is within TOLERANCE
# (0.3 = 30%) of an even share; prints the shares.
mp_shares_within() {
	awk -v c="$1" -v tol="$2" 'BEGIN {
		n = split(c, x, " "); t = 0
		for (i = 1; i <= n; i++) t += x[i]
		if (t == 0) { print "no packets"; exit 1 }
		bad = 0
		for (i = 1; i <= n; i++) {
			s = x[i] / t
			printf "r%d %.3f  ", i, s
			if (s < (1 - tol) / n || s > (1 + tol) / n) bad = 1
		}
		print ""; exit bad }'
}

# mp_qp_attr DEV NAME: a driver attribute (rdma -dd res show qp prints it
# as drv_NAME) of the newest RC QP on DEV, e.g. ev_assumed_bad; empty if
# there is none.
mp_qp_attr() {
	rdma -dd res show qp link "$1/1" 2>/dev/null |
		awk -v k="drv_$2" '/ type RC / { for (i = 1; i < NF; i++)
			if ($i == k) v = $(i + 1) } END { print v }'
}

# mp_up DESC N RATE: mp_topology in this shell (check would run it in a
# subshell and lose GA4, MP_N and the rest) as one test point; on failure
# the test cannot go on.
mp_up() {
	if mp_topology "$2" "$3" 2> /run/mp_up.err; then
		ok "$1"
	else
		not_ok "$1"
		diag < /run/mp_up.err
		done_testing
	fi
}

# mp_stream_started PID FILE SECS: wait up to SECS s until the
# mrc-stream client PID says (on FILE, its stderr) that it streams; fails
# if it ends first.
mp_stream_started() {
	local deadline=$((SECONDS + $3))
	while ! grep -q '^mrc-stream client: streaming' "$2" 2>/dev/null; do
		kill -0 "$1" 2>/dev/null && [ $SECONDS -lt $deadline ] || return 1
		sleep 0.1
	done
}

# mp_qp_attrs_raw DEV: rdma's JSON dump of DEV's QPs, for
# mp_qp_attrs_parse. A sample taken while a run is measured stays raw
# until it ends: the parse (a python3 start under TCG) would take a
# share of the guest's only CPU from MRC's run alone.
mp_qp_attrs_raw() {
	rdma -j -dd res show qp link "$1/1" 2>/dev/null
}

# mp_qp_attrs_parse: from mp_qp_attrs_raw's output on stdin, every driver
# attribute of the newest RC QP, as one JSON object without the drv_
# prefixes ({} if there is no QP).
mp_qp_attrs_parse() {
	python3 -c '
import json, sys
out = {}
try:
    qps = json.load(sys.stdin)
except ValueError:
    qps = []
for qp in qps:
    if qp.get("type") == "RC":
        out = {k[4:]: v for k, v in qp.items() if k.startswith("drv_")}
print(json.dumps(out, separators=(",", ":")))'
}
