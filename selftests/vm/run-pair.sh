#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Run one VM test in two VMs joined by virtio-net over a qemu stream
# socket: separate kernels, each with its own initial network namespace,
# as kernel RDMA consumers need (on 6.1 nvme-rdma, nvmet-rdma and
# rpcrdma open their rdma_cm ids there).
#
# Usage: run-pair.sh [-t SECONDS] [-n NAME] TEST
#
# The test runs in both VMs, one vCPU each (two host cores), with
# MRC_PAIR=b in the one that listens on the link (started first) and
# MRC_PAIR=a in the one that connects; eth0 is the link in both. The
# test syncs its halves over that link. Prints A's output, then B's with
# "B: " before each point and diagnostic, then one plan for both (none if
# either half ended without one, which the runner counts as a failure).
# Exits with the first non-zero status of A, then B. Full console logs
# stay in $MRC_VM_LOGDIR when a half fails.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
limit=300
name=
usage="usage: $0 [-t SECONDS] [-n NAME] TEST"
while getopts "t:n:" opt; do
	case $opt in
	t) limit=$OPTARG ;;
	n) name=$OPTARG ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "$usage" >&2; exit 2; }
test=$1
name=${name:-$(basename "$test" .sh)}
logdir=${MRC_VM_LOGDIR:-$top/build/vm-logs}
mkdir -p "$logdir"

# A fresh directory for the socket (its path must stay short, and no
# stale listener may answer for it); a unix socket rather than TCP, whose
# Nagle delays small frames (selftests/bench/bench.sh).
dir=$(mktemp -d /tmp/mrc-pair.XXXXXX)
sock=$dir/link.sock
stop() {
	local f
	for f in "$dir"/{a,b}.pid; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM

# half ROLE SERVER MAC: one VM, its test output to $dir/ROLE.out.
half() {
	MRC_VM_CPUS=1 MRC_VM_ENV="${MRC_VM_ENV:-} MRC_PAIR=$1" \
	MRC_VM_QEMU_ARGS="-pidfile $dir/$1.pid
		-netdev stream,id=n0,server=$2,addr.type=unix,addr.path=$sock
		-device virtio-net-pci,netdev=n0,mac=$3,romfile=" \
		"$here/run-vm.sh" -t "$limit" -n "$name-$1" "$test" > "$dir/$1.out" 2>&1
}

half b on 52:54:00:00:0a:02 &
bpid=$!
for ((i = 0; i < 600; i++)); do
	[ -S "$sock" ] && [ -n "$(ss -Hlx "src $sock")" ] && break
	kill -0 "$bpid" 2>/dev/null || break
	sleep 0.1
done
arc=0
if [ -S "$sock" ] && [ -n "$(ss -Hlx "src $sock")" ]; then
	half a off 52:54:00:00:0a:01 || arc=$?
else
	echo "run-pair: VM B did not listen on the link" > "$dir/a.out"
	arc=124
fi
# B ends once A has told it to (or fails); it gets a minute more.
for ((i = 0; i < 600; i++)); do
	kill -0 "$bpid" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$bpid" 2>/dev/null && { echo "# run-pair: stopping VM B"; stop; }
brc=0
wait "$bpid" || brc=$?

awk '
	{ file = FILENAME == ARGV[1] ? 1 : 2 }
	/^1\.\.[0-9]+$/ { plan[file] = substr($0, 4) + 0; next }
	file == 2 && /^(not )?ok [0-9]+/ { sub(/ - /, " - B: "); print; next }
	file == 2 && /^#/ { sub(/^# ?/, "# B: "); print; next }
	{ print }
	END { if ((1 in plan) && (2 in plan)) print "1.." plan[1] + plan[2] }
' "$dir/a.out" "$dir/b.out"
[ "$arc" = 0 ] || exit "$arc"
exit "$brc"
