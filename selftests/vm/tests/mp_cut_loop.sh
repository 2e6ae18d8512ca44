# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-timeout: 1200
# Repeated path cuts under traffic (issue 17): while any path works, MRC
# owes the application no error completion. One QP sprays over 4 shaped
# paths; every few seconds one path (a different one each time) is
# blackholed for 2-4 s, by link down or by 100% loss, and brought back.
# ib_write_bw must end with exit 0, and so must mrc-rc-check, which
# compares every byte; both run through the same loop of cuts at once,
# each on its own QP.
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh

N=4
# Four cuts take each path out once, two by link down and two by loss;
# make soak runs many more (MRC_CUTS, Documentation/testing.rst).
CUTS=${MRC_CUTS:-4}
CHECK=$MRC_BUILD/selftests/progs/mrc-rc-check
dmesg_mark
mp_up "topology: $N paths shaped to 20mbit" $N 20mbit

# alive PID...: every PID still runs.
alive() {
	kill -0 "$@" 2>/dev/null
}

# cut_loop PID...: cut path 1, 2, ..., N, 1, ... CUTS times while the PIDs
# run; odd cuts take the link down, even ones drop all its packets.
# Prints how many cuts happened while all were alive, and the seconds the
# loop took.
cut_loop() {
	local c i done=0 start=$SECONDS
	for ((c = 0; c < CUTS; c++)); do
		alive "$@" || break
		i=$((c % N + 1))
		if ((c % 2)); then mp_path_loss "$i" 100; else mp_path_down "$i"; fi
		sleep $((2 + c % 3))
		if ((c % 2)); then mp_path_clear "$i"; else mp_path_up "$i"; fi
		alive "$@" && done=$((done + 1))
		sleep 2
	done
	echo "$done $((SECONDS - start))"
}

# ib_write_bw for long enough to see every cut: each takes 4-6 s of
# sleeps plus the path commands, about 5 s under TCG on a quiet host (8
# cuts: 79 s) and more on a loaded one, so half as much again to spare;
# it stops when the cuts are over (pair_stop). (The "# vm-timeout" above
# holds make soak's 30 cuts.) Beside it, mrc-rc-check runs again and
# again until the cuts are over, every byte compared; every run must pass.
dur=$((CUTS * 14 + 10))
pair_start $((dur + 120)) \
	ib_write_bw -d mrcA -x "$GA4" -D "$dur" -f 1 -F -s 65536 -- \
	ib_write_bw -d mrcB -x "$GB4" -D "$dur" -f 1 -F -s 65536 "$MP_A4"
rm -f /run/cut.stop /run/cutcheck.log
(
	runs=0
	until [ -e /run/cut.stop ]; do
		timeout 600 "$CHECK" --dev-a mrcA --gid-a "$GA4" --dev-b mrcB \
			--gid-b "$GB4" many read-large >> /run/cutcheck.log 2>&1 ||
			exit 1
		runs=$((runs + 1))
	done
	echo "$runs" > /run/cut.runs
) &
pid=$!
sleep 4
read -r cuts secs <<< "$(cut_loop "$_pair_cli" "$pid")"
touch /run/cut.stop
pair_stop
bad=$(mp_qp_attr mrcB ev_assumed_bad)
diag <<< "$cuts cuts under traffic in $secs s (-D $dur); EVs ASSUMED_BAD ${bad:-?}"
check "all $CUTS cuts happened under both loads ($cuts)" test "$cuts" -eq "$CUTS"
pair_finish "ib_write_bw: exit 0 through $CUTS path cuts"
tail -n 4 /tmp/cli.log | diag
wait "$pid"
rc=$?
runs=$(cat /run/cut.runs 2>/dev/null)
diag <<< "mrc-rc-check: ${runs:-?} runs through the cuts"
if [ "$rc" -eq 0 ] && ! grep -q '^not ok' /run/cutcheck.log; then
	ok "mrc-rc-check: every byte verified through the cuts ($(grep -c '^ok ' /run/cutcheck.log) scenarios)"
else
	not_ok "mrc-rc-check: every byte verified through the cuts (exit $rc)"
	grep -v '^ok ' /run/cutcheck.log | tail -n 20 | diag
fi

mp_teardown
check_dmesg_clean
done_testing
