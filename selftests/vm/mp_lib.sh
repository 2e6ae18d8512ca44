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
	mp_stream_said "$1" "$2" streaming "$3"
}

# mp_stream_said PID FILE WORD SECS: wait up to SECS s until the
# mrc-stream client PID says WORD ("connected", "streaming") on FILE,
# its stderr; fails if it ends first.
mp_stream_said() {
	local deadline=$((SECONDS + $4))
	while ! grep -q "^mrc-stream client: $3" "$2" 2>/dev/null; do
		kill -0 "$1" 2>/dev/null && [ $SECONDS -lt $deadline ] || return 1
		sleep 0.1
	done
}

# mp_streams_start DIR N SECS PROFILE: N mrc-stream WRITE streams at once
# from hostA to hostB of mp_topology, each its own RC QP under CC profile
# PROFILE, for SECS seconds: MP_STREAM_SIZE-byte WRITEs (64 KiB),
# MP_STREAM_DEPTH outstanding (8), QP timeout attribute MP_STREAM_TIMEOUT
# (14), TCP ports from MP_STREAM_PORT (22000), 100 ms bins. All connect
# first and start posting together when mp_streams_start has seen each
# one connected (--go-file): no connection waits behind the others' data.
# Client J writes its JSON to DIR/outJ and its stderr to DIR/errJ; the
# clients' pids are in MP_STREAM_PIDS. With MP_STREAM_WRITES each client
# sends that many WRITEs (one message) and ends; with MP_STREAM_GO=later
# the caller creates DIR/go itself (to sample something just before).
mp_streams_start() {
	local dir=$1 n=$2 secs=$3 prof=$4 j
	local size=${MP_STREAM_SIZE:-65536} depth=${MP_STREAM_DEPTH:-8}
	local to=${MP_STREAM_TIMEOUT:-14} port=${MP_STREAM_PORT:-22000}
	local -a writes=()
	[ -z "${MP_STREAM_WRITES:-}" ] || writes=(--writes "$MP_STREAM_WRITES")
	local limit=$((secs + 120))
	local stream=$MRC_BUILD/selftests/progs/mrc-stream
	rm -f "$dir/go"
	MP_STREAM_PIDS=() MP_STREAM_SERVERS=()
	for ((j = 0; j < n; j++)); do
		ip netns exec hostB env MRC_CC_PROFILE="$prof" timeout -k 5 "$limit" \
			"$stream" server --dev mrcB --gid "$GB4" --port $((port + j)) \
			--size "$size" --outstanding "$depth" --timeout "$to" \
			--wait-s "$limit" > /dev/null 2> "$dir/server$j.err" &
		MP_STREAM_SERVERS+=($!)
	done
	for ((j = 0; j < n; j++)); do
		ip netns exec hostA env MRC_CC_PROFILE="$prof" timeout -k 5 "$limit" \
			"$stream" client --dev mrcA --gid "$GA4" --host "$MP_B4" \
			--port $((port + j)) --size "$size" --outstanding "$depth" \
			--timeout "$to" --seconds "$secs" --bin-ms 100 \
			--connect-wait-s 60 --go-file "$dir/go" --wait-s 60 \
			"${writes[@]}" > "$dir/out$j" 2> "$dir/err$j" &
		MP_STREAM_PIDS+=($!)
	done
	# Go once every client is connected or has ended (within 60 s).
	for ((j = 0; j < n; j++)); do
		mp_stream_said "${MP_STREAM_PIDS[j]}" "$dir/err$j" connected 60
	done
	[ "${MP_STREAM_GO:-}" = later ] || touch "$dir/go"
}

# mp_streams_running DIR: wait until every stream of mp_streams_start
# streams; fails if one ends first.
mp_streams_running() {
	local j
	for j in "${!MP_STREAM_PIDS[@]}"; do
		mp_stream_started "${MP_STREAM_PIDS[j]}" "$1/err$j" 60 || return
	done
}

# mp_streams_wait DIR: wait for the streams of mp_streams_start; their
# JSON results, one per line, in DIR/results. Non-zero unless every
# client ended well and gave one.
mp_streams_wait() {
	local dir=$1 j p rc=0
	: > "$dir/results"
	for j in "${!MP_STREAM_PIDS[@]}"; do
		wait "${MP_STREAM_PIDS[j]}" || rc=1
		jq -ce 'select(.bytes != null)' "$dir/out$j" >> "$dir/results" \
			2> /dev/null || rc=1
	done
	for p in "${MP_STREAM_SERVERS[@]}"; do wait "$p"; done
	return $rc
}

# mp_streams_ended_well RC DIR: passes when RC (mp_streams_wait's status)
# is 0; otherwise prints each client's last complaint from DIR. (A check
# cannot wait for the streams itself: it runs in a subshell.)
mp_streams_ended_well() {
	local f
	[ "$1" = 0 ] && return
	for f in "$2"/err*; do
		echo "${f##*/}: $(grep -Ev '^mrc-stream client: (connected|streaming)' "$f" |
			tail -n 1)"
	done
	return 1
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
