# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# TAP helpers and fixtures for guest test scripts. Source it; end the
# script with done_testing, which prints the plan and sets the exit status.

_tap_n=0
_tap_failed=0
_tap_last=$SECONDS

# _tap_took: a point that took 3 s or more says how long, to show where
# the suite's time goes.
_tap_took() {
	[ $((SECONDS - _tap_last)) -lt 3 ] ||
		echo "# took $((SECONDS - _tap_last)) s"
	_tap_last=$SECONDS
}

ok() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $*"
	_tap_took
}

not_ok() {
	_tap_n=$((_tap_n + 1))
	_tap_failed=$((_tap_failed + 1))
	echo "not ok $_tap_n - $*"
	_tap_took
}

diag() {
	sed 's/^/# /'
}

# check DESC CMD...: passes when CMD exits 0.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc"
		{ echo "command: $*"; echo "$out"; } | diag
	fi
}

# check_fails DESC CMD...: passes when CMD exits non-zero.
check_fails() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		not_ok "$desc"
		{ echo "unexpected success: $*"; echo "$out"; } | diag
	else
		ok "$desc"
		echo "$out" | head -n 3 | diag
	fi
}

# check_output DESC REGEX CMD...: CMD succeeds and its output matches REGEX.
check_output() {
	local desc=$1 re=$2 out
	shift 2
	if out=$("$@" 2>&1) && grep -Eq -- "$re" <<<"$out"; then
		ok "$desc"
	else
		not_ok "$desc"
		{ echo "command: $*"; echo "wanted: /$re/"; echo "$out"; } | diag
	fi
}

# check_no_output DESC REGEX CMD...: CMD succeeds and its output does not
# match REGEX.
check_no_output() {
	local desc=$1 re=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || grep -Eq -- "$re" <<<"$out"; then
		not_ok "$desc"
		{ echo "command: $* (exit $rc)"; echo "unwanted: /$re/"; echo "$out"; } | diag
	else
		ok "$desc"
	fi
}

# wait_until SECONDS CMD...: poll CMD every 0.2 s until it succeeds.
wait_until() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -ge $deadline ] && return 1
		sleep 0.2
	done
}

# done_testing: print the plan and exit, failing if any point failed. A
# test that never called check_dmesg_clean gets that check here.
done_testing() {
	[ -n "$_dmesg_checked" ] ||
		check_dmesg_clean "no kernel warning in dmesg (at done_testing)"
	echo "1..$_tap_n"
	[ $_tap_failed -eq 0 ]
	exit
}

# Kernel log lines that must never appear: the reports of a kernel bug
# (oops, BUG(), WARN(); slub_debug's "BUG kmalloc-16 (...): Right Redzone
# overwritten", "Poison overwritten"; refcount_t saturation), leaks, and
# device errors. The VM tests boot with slub_debug=FZP (run-vm.sh), so a
# slab overflow or use-after-free leaves such a line.
DMESG_BUGS='\<BUG\>|\<WARNING\>|Redzone|Poison|refcount_t|Call Trace|general protection|kmemleak'
DMESG_BAD="$DMESG_BUGS|unregister_netdevice: waiting|infiniband .* failed|ib_query_port failed"
_dmesg_checked=

# dmesg_mark: start a fresh kernel log for the checks that read dmesg.
# (guest-init.sh keeps the whole log apart and still checks it for
# DMESG_BUGS after the test.)
dmesg_mark() {
	dmesg --clear
}

check_dmesg_clean() {
	_dmesg_checked=1
	check_no_output "${1:-no kernel warning in dmesg}" "$DMESG_BAD" dmesg
}

MRC_PORT=${MRC_PORT:-4792}

# The UDP socket of MRC, as ss shows it, in the current namespace.
# hw_counter DEV NAME: port 1's counter NAME of RDMA device DEV (those of
# every namespace appear in the initial namespace's sysfs).
hw_counter() {
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"
}

# nvme_dev NQN: the block device of the namespace an NVMe host attached
# from subsystem NQN (with native NVMe multipath, the subsystem's head
# disk); fails while there is none.
nvme_dev() {
	local s n
	for s in /sys/class/nvme-subsystem/* /sys/class/nvme/*; do
		[ "$(cat "$s/subsysnqn" 2>/dev/null)" = "$1" ] || continue
		for n in "$s"/nvme*n*; do
			[ -b "/dev/${n##*/}" ] && echo "/dev/${n##*/}" && return
		done
	done
	return 1
}

# check_direct_roundtrip BLK SRC: write file SRC (whole MiBs) to block
# device BLK with O_DIRECT in 1 MiB I/Os, read as many back the same way,
# and check that the bytes match.
check_direct_roundtrip() {
	local mib want got
	mib=$(($(stat -c %s "$2") >> 20))
	want=$(sha256sum < "$2")
	check "write $mib MiB with O_DIRECT, 1 MiB I/Os" \
		dd if="$2" of="$1" bs=1M oflag=direct status=none
	got=$(dd if="$1" bs=1M count="$mib" iflag=direct status=none | sha256sum)
	check "read back with O_DIRECT: the $mib MiB match (sha256 ${want%% *})" \
		test "$got" = "$want"
}

mrc_socket_count() {
	ss -Huan "sport = :$MRC_PORT" | wc -l
}

rdma_dev_exists() {
	[ -e "/sys/class/infiniband/$1" ]
}

rdma_dev_absent() {
	! rdma_dev_exists "$1"
}

# json_py EXPR CMD...: evaluate a Python expression over CMD's JSON output
# (d). Not named jq: that would hide the jq program from every test.
json_py() {
	local expr=$1
	shift
	"$@" | python3 -c '
import json, sys
d = json.load(sys.stdin)
v = eval(sys.argv[1])
print(*v) if isinstance(v, tuple) else print(v)' "$expr"
}

# veth_pair A B [NS_A NS_B]: a veth pair, up, with 10.0.0.1/2 and fd00::1/2.
veth_pair() {
	local a=$1 b=$2 nsa=${3:-} nsb=${4:-}
	ip link add "$a" type veth peer name "$b" || return
	if [ -n "$nsa" ]; then ip link set "$a" netns "$nsa" || return; fi
	if [ -n "$nsb" ]; then ip link set "$b" netns "$nsb" || return; fi
	_in_ns "$nsa" ip addr add 10.0.0.1/24 dev "$a"
	_in_ns "$nsa" ip -6 addr add fd00::1/64 dev "$a" nodad
	_in_ns "$nsa" ip link set "$a" up
	_in_ns "$nsb" ip addr add 10.0.0.2/24 dev "$b"
	_in_ns "$nsb" ip -6 addr add fd00::2/64 dev "$b" nodad
	_in_ns "$nsb" ip link set "$b" up
}

_in_ns() {
	local ns=$1
	shift
	if [ -n "$ns" ]; then ip netns exec "$ns" "$@"; else "$@"; fi
}

# Path of build artefacts on the host root, shared into the guest.
MRC_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MRC_BUILD=${MRC_BUILD:-$MRC_TOP/build/cmake}

# two_hosts: namespaces hostA and hostB joined by vethA/vethB, an MRC
# device on each (mrcA, mrcB), and GID indexes GA4/GB4 (IPv4) and
# GA6/GB6 (IPv6) of their addresses.
two_hosts() {
	ip netns add hostA
	ip netns add hostB
	veth_pair vethA vethB hostA hostB
	ip netns exec hostA rdma link add mrcA type mrc netdev vethA
	ip netns exec hostB rdma link add mrcB type mrc netdev vethB
	gid_vars mrcA GA4='::ffff:10\.0\.0\.1' GA6='fd00::1'
	gid_vars mrcB GB4='::ffff:10\.0\.0\.2' GB6='fd00::2'
}

# kernel_host NETDEV ADDR: for kernel consumers, which listen in the
# initial namespace on 6.1: a veth pair NETDEV and NETDEV-peer there, up,
# ADDR/24 on NETDEV, and the MRC device mrc0 on it (a check).
kernel_host() {
	ip link add "$1" type veth peer name "$1-peer"
	ip addr add "$2/24" dev "$1"
	ip link set "$1" up
	ip link set "$1-peer" up
	check "rdma link add mrc0 on $1" rdma link add mrc0 type mrc netdev "$1"
}

# gid_index DEV ADDR-REGEX: the GID table index of an address.
gid_index() {
	ibv_devinfo -v -d "$1" |
		sed -n "s/.*GID\[ *\([0-9]*\)\]:[[:space:]]*$2, RoCE v2/\1/p" |
		head -n1
}

# gid_vars DEV VAR=ADDR-REGEX...: set each VAR to gid_index DEV
# ADDR-REGEX (empty if there is none), all from one ibv_devinfo: it costs
# over half a second under emulation. Fails if one is empty.
gid_vars() {
	local _dev=$1 _info _kv _line _pat _rc=0
	shift
	_info=$(ibv_devinfo -v -d "$_dev")
	for _kv; do
		printf -v "${_kv%%=*}" '%s' ''
		_pat="GID\[ *([0-9]+)\]:[[:space:]]*${_kv#*=}, RoCE v2"
		while IFS= read -r _line; do
			[[ $_line =~ $_pat ]] || continue
			printf -v "${_kv%%=*}" '%s' "${BASH_REMATCH[1]}"
			continue 2
		done <<<"$_info"
		_rc=1
	done
	return $_rc
}

# rc_qpn NS DEV: the number of DEV's first RC QP in RTS, seen from
# namespace NS; empty if there is none.
rc_qpn() {
	ip netns exec "$1" rdma -j res show qp link "$2/1" | python3 -c '
import json, sys
for q in json.load(sys.stdin):
    if q.get("type") == "RC" and q.get("state") == "RTS":
        print(q["lqpn"]); break'
}

# wait_rc_qpn SECS NS DEV: rc_qpn, retried for up to SECS seconds.
wait_rc_qpn() {
	local deadline=$((SECONDS + $1)) q
	until q=$(rc_qpn "$2" "$3") && [ -n "$q" ]; do
		[ $SECONDS -ge $deadline ] && return 1
		sleep 0.2
	done
	echo "$q"
}

# pair_start SECONDS SERVER-CMD... -- CLIENT-CMD...: start the server in
# hostA and, once it listens, the client in hostB against it, both in the
# background; pair_finish collects them. Both run at nice PAIR_NICE (19):
# perftest and the ping-pongs busy-poll, and at the test's own priority
# they took the emulated CPUs from the test's steps, which then took
# seconds each. The engine runs in a WQ_HIGHPRI workqueue and softirq,
# above both, so the traffic itself does not slow.
PAIR_NICE=${PAIR_NICE:-19}
pair_start() {
	local limit=$1 sargs=()
	shift
	while [ "$1" != -- ]; do sargs+=("$1"); shift; done
	shift
	_pair_client=("$@")
	timeout "$limit" nice -n "$PAIR_NICE" ip netns exec hostA "${sargs[@]}" \
		> /tmp/srv.log 2>&1 &
	_pair_srv=$!
	# Start the client once the server listens: TCP for the programs that
	# exchange QP numbers over TCP, a pause for rdma_cm ones.
	case ${sargs[0]} in
	rping|ucmatose|udaddy) sleep 2 ;;
	*) wait_until 20 bash -c \
		"ip netns exec hostA ss -Hltn | grep -q ." ;;
	esac
	timeout "$limit" nice -n "$PAIR_NICE" ip netns exec hostB "${_pair_client[@]}" \
		> /tmp/cli.log 2>&1 &
	_pair_cli=$!
}

# What the programs print, while still exiting 0, when they found wrong
# data: ibv_*_pingpong -c ("invalid data in page N"; it checks one byte
# per page, so its silence proves little) and rping -V ("data mismatch").
PAIR_BAD_DATA='invalid data|data mismatch'

# pair_finish NAME: wait for the pair_start programs; both must exit 0
# and neither may report wrong data.
pair_finish() {
	local name=$1 rc src
	wait "$_pair_cli"
	rc=$?
	wait "$_pair_srv"
	src=$?
	if grep -Eq "$PAIR_BAD_DATA" /tmp/cli.log /tmp/srv.log; then
		not_ok "$name (wrong data reported)"
		grep -EH "$PAIR_BAD_DATA" /tmp/cli.log /tmp/srv.log | head -n 6 | diag
	elif [ $rc -eq 0 ] && [ $src -eq 0 ]; then
		ok "$name"
		tail -n 2 /tmp/cli.log | diag
	else
		not_ok "$name (client rc $rc, server rc $src)"
		# Programs print errors on stderr before their buffered stdout
		# reaches the log, so the tail alone can miss them.
		{ echo "client: ${_pair_client[*]}";
		  grep -iE 'error|fail|couldn' /tmp/cli.log | head -n 6;
		  tail -n 15 /tmp/cli.log;
		  echo "server:"; grep -iE 'error|fail|couldn' /tmp/srv.log | head -n 6;
		  tail -n 15 /tmp/srv.log;
		  dmesg | grep 'retry count exceeded' | tail -n 3; } | diag
	fi
}

# pair_stop: end the pair_start programs' -D runs now rather than at
# their set duration, once a test has seen what it needs; pair_finish
# then checks their exit as usual. perftest's duration timer is SIGALRM:
# sent while it samples, the run goes into its closing margin and ends
# after it, as when the timer fires (give -f 1 for a margin of 1 s).
# Only a process that catches SIGALRM gets it: the passive side of WRITE
# and READ does not, and the signal would kill it.
pair_stop() {
	local t p mask
	for t in "$_pair_cli" "$_pair_srv"; do
		# timeout's child: nice and ip netns exec exec the program.
		for p in $(pgrep -P "$t"); do
			mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$p/status" 2>/dev/null)
			[ -n "$mask" ] && (((0x$mask >> 13) & 1)) && kill -ALRM "$p"
		done
	done
	return 0
}

# pair NAME SECONDS SERVER-CMD... -- CLIENT-CMD...: run the server in
# hostA and the client in hostB against it; both must exit 0.
pair() {
	local name=$1
	shift
	pair_start "$@"
	pair_finish "$name"
}

# mrc_genl ARGS...: one raw request to the "mrc" family (mrc-genl.py),
# through the coprocess mrc_genl_serve started, if any.
mrc_genl() {
	local line rc
	if [ -z "${MRC_GENL_IN:-}" ]; then
		/usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/mrc-genl.py" "$@"
		return
	fi
	# The id lets a call skip what an earlier one left unread (its
	# reader killed by SIGPIPE, say).
	local id=$BASHPID.$RANDOM words ifs=$IFS
	IFS=$'\x1f'
	words="$*"
	IFS=$ifs
	printf '%s\x1f%s\n' "$id" "$words" >&"$MRC_GENL_IN"
	while :; do
		IFS= read -r line <&"$MRC_GENL_OUT" || return 1
		[ "${line%%$'\x1f'*}" = "$id" ] && break
	done
	rc=${line#*$'\x1f'$'\x04'}
	while IFS= read -r line; do
		case $line in
		$'\x02'*) echo "${line#?}" >&2 ;;
		*) echo "$line" ;;
		esac
	done < "$_mrc_genl_reply"
	return "$rc"
}

# mrc_genl_serve [NETNS]: answer this shell's mrc_genl calls from one
# Python process (starting one per request costs seconds under
# emulation), in network namespace NETNS if given.
mrc_genl_serve() {
	local ns=()
	[ $# -gt 0 ] && ns=(ip netns exec "$1")
	# exec: the coprocess's PID is Python's own, for mrc_genl_stop.
	# Replies come through a file: bash reads a pipe a byte at a time.
	_mrc_genl_reply=/run/mrc-genl.$BASHPID.reply
	coproc MRC_GENL { exec "${ns[@]}" /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/mrc-genl.py" --serve "$_mrc_genl_reply"; }
	# Bash closes a coprocess's own descriptors in subshells, such as
	# the $(...) of check_output: use copies.
	exec {MRC_GENL_IN}>&"${MRC_GENL[1]}" {MRC_GENL_OUT}<&"${MRC_GENL[0]}"
	# shellcheck disable=SC2153 # coproc sets MRC_GENL_PID
	_mrc_genl_pid=$MRC_GENL_PID
}

# mrc_genl_stop: end mrc_genl_serve's process and wait for it; mrc_genl
# starts a process per request again. While it lives it holds its
# network namespace, which `ip netns del` then does not free, nor the
# MRC device in it (rmmod fails).
mrc_genl_stop() {
	[ -n "${MRC_GENL_IN:-}" ] || return 0
	exec {MRC_GENL_IN}>&- {MRC_GENL_OUT}<&-
	unset MRC_GENL_IN MRC_GENL_OUT
	kill "$_mrc_genl_pid" 2>/dev/null
	wait "$_mrc_genl_pid" 2>/dev/null
	return 0
}

# check_genl_error DESC ERRNAME REGEX ARGS...: the request fails with
# errno ERRNAME and an extack message matching REGEX.
check_genl_error() {
	local desc=$1 name=$2 re=$3 out
	shift 3
	if out=$(mrc_genl "$@" 2>&1); then
		not_ok "$desc"
		{ echo "unexpected success: mrc-genl.py $*"; echo "$out"; } | diag
	elif grep -Eq -- "^error [0-9]+ $name: .*($re)" <<<"$out"; then
		ok "$desc"
		grep '^error' <<<"$out" | diag
	else
		not_ok "$desc"
		{ echo "request: $*"; echo "wanted: error $name: /$re/"; echo "$out"; } | diag
	fi
}

# verified_failure TAG DEVARGS... -- BREAK... -- FIX...: mrc-rc-check
# with DEVARGS (--dev-a, --gid-a, --dev-b, --gid-b) runs WRITE, READ and
# SEND scenarios (write many read many send many), comparing every byte;
# BREAK runs once its first scenario passed, with the long ones still to
# come, and FIX once it ended. Two points: it was still running when
# BREAK came, and all six scenarios passed.
verified_failure() {
	local tag=$1 dev=() brk=() running=no pid rc
	shift
	while [ "$1" != -- ]; do dev+=("$1"); shift; done
	shift
	while [ "$1" != -- ]; do brk+=("$1"); shift; done
	shift
	timeout 600 "$MRC_BUILD/selftests/progs/mrc-rc-check" "${dev[@]}" \
		write many read many send many > /run/verified.log 2>&1 &
	pid=$!
	wait_until 300 grep -q '^ok write' /run/verified.log
	"${brk[@]}"
	kill -0 "$pid" 2>/dev/null && running=yes
	wait "$pid"
	rc=$?
	"$@"
	check_output "$tag: mrc-rc-check still running when it failed" '^yes$' \
		echo "$running"
	if [ "$rc" -eq 0 ] && [ "$(grep -c '^ok ' /run/verified.log)" -eq 6 ]; then
		ok "$tag: WRITE, READ and SEND, every byte verified"
	else
		not_ok "$tag: WRITE, READ and SEND, every byte verified (exit $rc)"
		diag < /run/verified.log
	fi
}
