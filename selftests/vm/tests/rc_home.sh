# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 420
# A QP's work runs on its home CPU (Documentation/architecture.rst, "Home
# CPU"). With the two ends of a connection pinned to the VM's two CPUs,
# each received train is handed to the other CPU, the QP's home: both
# devices count rcvd_steered, and the programs complete (rping -V
# compares every ping). Then a QP's home CPU goes offline in the middle
# of a transfer: its work moves to a CPU that is online, and
# mrc-rc-check still compares every byte.
. ../lib.sh

CHECK=$MRC_BUILD/selftests/progs/mrc-rc-check
CPU1=/sys/devices/system/cpu/cpu1/online

dmesg_mark
two_hosts
modprobe rdma_ucm

# pinned NAME PROGRAM SERVER-ARGS -- CLIENT-ARGS: the server on CPU 0
# and the client on CPU 1; both exit 0 and each device steers trains.
pinned() {
	local name=$1 a0 b0 a1 b1
	shift
	a0=$(hw_counter mrcA rcvd_steered)
	b0=$(hw_counter mrcB rcvd_steered)
	pair "$name: completes with its ends on two CPUs" 180 "$@"
	a1=$(hw_counter mrcA rcvd_steered)
	b1=$(hw_counter mrcB rcvd_steered)
	diag <<< "$name: trains steered to the home CPU: mrcA $((a1 - a0)), mrcB $((b1 - b0))"
	check "$name: both devices hand trains to the QP's home CPU" \
		test $((a1 - a0)) -gt 0 -a $((b1 - b0)) -gt 0
}

pinned "ib_write_bw" \
	taskset -c 0 ib_write_bw -d mrcA -x "$GA4" -n 1000 -F -- \
	taskset -c 1 ib_write_bw -d mrcB -x "$GB4" -n 1000 -F 10.0.0.1
pinned "ib_read_bw" \
	taskset -c 0 ib_read_bw -d mrcA -x "$GA4" -n 1000 -F -- \
	taskset -c 1 ib_read_bw -d mrcB -x "$GB4" -n 1000 -F 10.0.0.1
pinned "rping -V -C 100 (every ping compared)" \
	taskset -c 0 rping -s -a 10.0.0.1 -V -C 100 -S 16384 -- \
	taskset -c 1 rping -c -a 10.0.0.1 -V -C 100 -S 16384

# The home CPU goes offline mid-transfer: the scheduler moves the
# program, and the QPs' work, homed on CPU 1, runs where it can.
if [ -w "$CPU1" ]; then
	taskset -c 1 timeout 300 "$CHECK" --dev-a mrcA --gid-a "$GA4" \
		--dev-b mrcB --gid-b "$GB4" write read send order \
		> /tmp/home-check.log 2>&1 &
	chk=$!
	sleep 3
	echo 0 > "$CPU1"
	check "CPU 1 went offline during the transfer" \
		test "$(cat "$CPU1")" = 0
	wait "$chk"
	rc=$?
	echo 1 > "$CPU1"
	tail -n 3 /tmp/home-check.log | diag
	check "mrc-rc-check verifies every byte across its home CPU going offline" \
		test "$rc" = 0
	check "CPU 1 came back" test "$(cat "$CPU1")" = 1
	pair "ib_write_bw after CPU 1 came back" 180 \
		ib_write_bw -d mrcA -x "$GA4" -n 500 -F -- \
		ib_write_bw -d mrcB -x "$GB4" -n 500 -F 10.0.0.1
else
	not_ok "CPU 1 can be taken offline ($CPU1 not writable)"
fi

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
