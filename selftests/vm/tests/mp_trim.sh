# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Packet trimming (Documentation/multipath.rst, wire-format.rst): each
# router queues through selftests/trimq's mrc_trim under its tbf, which
# cuts MRC data to its headers above 8 packets, re-marks it DSCP 11 and
# sends it first. The receiver (trim_dscp=11) NACKs a trimmed WRITE
# packet at once and the sender resends it, counted on the EV that
# carried it, with no timeout; a trimmed READ response is asked for again
# at once. Every byte still arrives (mrc-rc-check, under NSCC).
MP_TBF_BURST=3k
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh

N=2
dmesg_mark
check_output "sch_mrc_trim refuses limit 0, naming it" "limit '0'" \
	bash -c "modprobe sch_mrc_trim limit=0 2>&1; dmesg | tail -3; ! lsmod | grep -q sch_mrc_trim"
check "sch_mrc_trim loads with limit 8, dscp 11" \
	modprobe sch_mrc_trim limit=8 dscp=11
check_output "... and refuses dscp 64 later, keeping 11" '^11$' \
	bash -c "echo 64 > /sys/module/sch_mrc_trim/parameters/dscp; cat /sys/module/sch_mrc_trim/parameters/dscp"
dmesg_mark
modprobe mrc
check_output "mrc refuses trim_dscp 64" 'Invalid argument' \
	bash -c "echo 64 2>&1 > /sys/module/mrc/parameters/trim_dscp; true"
check "mrc reads DSCP 11 as trimmed" \
	bash -c "echo 11 > /sys/module/mrc/parameters/trim_dscp"
mp_up "topology: $N paths shaped to 20mbit" $N 20mbit

# trimq DEV: mrc_trim under each router's tbf on DEV.
trimq() {
	local i
	for ((i = 1; i <= N; i++)); do
		tc -n "r$i" qdisc replace dev "$1" parent 1:1 handle 20: \
			mrc_trim || return
	done
}
# trimmed DEV: the routers' trims on DEV, summed (tc's "overlimits").
trimmed() {
	local i n=0 v
	for ((i = 1; i <= N; i++)); do
		v=$(tc -n "r$i" -s qdisc show dev "$1" | awk '
			/^qdisc mrc_trim/ { f = 1; next }
			f && /overlimits/ { sub(/.*overlimits /, ""); sub(/ .*/, ""); print; exit }')
		n=$((n + ${v:-0}))
	done
	echo "$n"
}

check "mrc_trim under the tbf towards hostA" trimq ethA
check "mrc_trim under the tbf towards hostB" trimq ethB

# through TAG DEV PROG [ENV...]: PROG from hostB through the trimming
# queues on DEV. The routers trimmed; the receiver of the data counted
# as many trimmed packets as the requester counted trims on its EVs (no
# NACK is lost: they travel the other way, first); trims were recovered
# by their NACKs, not by timers: EV timeouts at most 1% of the trims,
# rounded up (a stalled vCPU can still fire one; a READ run of 194 trims
# once saw 2, which "under 1%" counted a failure).
through() {
	local tag=$1 dev=$2 prog=$3 t0 r0 e0 l0 t r e l recv
	shift 3
	recv=mrcA
	[ "$dev" = ethB ] && recv=mrcB
	t0=$(trimmed "$dev") r0=$(hw_counter "$recv" rcvd_trimmed)
	e0=$(hw_counter mrcB path_trims) l0=$(hw_counter mrcB path_loss_timeout)
	pair "$tag: $prog -n 150 through the trimming queues" 240 \
		"$prog" -d mrcA -x "$GA4" -n 150 -F -- \
		env "$@" "$prog" -d mrcB -x "$GB4" -n 150 -F "$MP_A4"
	t=$(($(trimmed "$dev") - t0)) r=$(($(hw_counter "$recv" rcvd_trimmed) - r0))
	e=$(($(hw_counter mrcB path_trims) - e0)) l=$(($(hw_counter mrcB path_loss_timeout) - l0))
	check "$tag: the routers trimmed ($t)" test "$t" -gt 0
	if [ "$recv" = mrcA ]; then
		check "$tag: hostA NACKed trimmed packets ($r), hostB counted each ($e)" \
			test "$r" -gt 0 -a "$r" -le "$t" -a "$e" -eq "$r"
	else
		check "$tag: hostB counted trimmed responses ($e), at most the routers' ($t)" \
			test "$e" -gt 0 -a "$e" -le "$t"
	fi
	check "$tag: EV timeouts ($l) at most 1% of the trims ($t), rounded up" \
		test $((l * 100)) -le $((t + 99))
}

through WRITE ethA ib_write_bw MRC_CC_PROFILE=0
through READ ethB ib_read_bw MRC_CC_PROFILE=0
for dev in mrcA mrcB; do
	check "$dev: CC profile 5, uet-1.0-nscc" \
		ip netns exec "host${dev#mrc}" mrc-ip ccprofile add dev "$dev" \
		id 5 alg uet-1.0-nscc
done
through "NSCC WRITE" ethA ib_write_bw MRC_CC_PROFILE=5

# Incast: 8 WRITE streams (one QP each) from hostA into hostB at once
# through the trimming queues, under NSCC. Every one runs to its end,
# the routers trim, the trims are recovered by NACKs (EV timeouts under
# 1% of them) and no stream starves (each gets at least a third of an
# even share). make bench's cc_incast measures the slowest completion
# against the ideal and the bottleneck's use.
# The QPs' timeout attribute is 18 (268 ms, 2.1 s without progress
# before IBV_WC_RETRY_EXC_ERR): the 8 windows' first 2 MiB take 0.84 s
# through a 20 Mbit/s bottleneck, where perftest's 14 (134 ms in all)
# suits links 5000 times faster. At 14 two of the 8 QPs failed 0.2 s in.
MP_STREAM_TIMEOUT=18
S=/run/mp_trim
mkdir -p "$S"
t0=$(trimmed ethB) l0=$(hw_counter mrcA path_loss_timeout)
mp_streams_start "$S" 8 5 5
mp_streams_wait "$S"
check "incast: 8 NSCC streams into hostB ran to their end" \
	mp_streams_ended_well $? "$S"
t=$(($(trimmed ethB) - t0)) l=$(($(hw_counter mrcA path_loss_timeout) - l0))
check "incast: the routers trimmed ($t)" test "$t" -gt 0
check "incast: EV timeouts ($l) under 1% of the trims" test $((l * 100)) -lt "$t"
starved=$(jq -s 'map(.goodput_mbit) | (add / length / 3) as $third |
	map(select(. < $third)) | length' "$S/results")
check "incast: no stream under a third of an even share ($starved did)" \
	test "$starved" = 0
jq -c '{goodput_mbit}' "$S/results" | diag

# The same incast under mrc-window with a floor of 2 PSNs, where a
# window holds few packets: those in flight behind a trimmed one that
# had asked for the ACK are acknowledged without asking. Before that,
# only the timer ended their wait: about 500 timeouts in 5 s.
for dev in mrcA mrcB; do
	check "$dev: CC profile 6, mrc-window min-pkts 2" \
		ip netns exec "host${dev#mrc}" mrc-ip ccprofile add dev "$dev" \
		id 6 alg mrc-window min-pkts 2
done
l0=$(hw_counter mrcA path_loss_timeout)
mp_streams_start "$S" 8 5 6
mp_streams_wait "$S"
check "incast, mrc-window min-pkts 2: 8 streams ran to their end" \
	mp_streams_ended_well $? "$S"
l=$(($(hw_counter mrcA path_loss_timeout) - l0))
check "incast, mrc-window min-pkts 2: EV timeouts ($l) under 100" \
	test "$l" -lt 100
jq -c '{goodput_mbit}' "$S/results" | diag
check "NSCC: mrc-rc-check verifies every byte through the trimming queues" \
	env MRC_CC_PROFILE=5 timeout 600 \
	"$MRC_BUILD/selftests/progs/mrc-rc-check" --dev-a mrcA \
	--gid-a "$GA4" --dev-b mrcB --gid-b "$GB4" write send read order

mp_teardown
# ip netns del returns before the namespaces' qdiscs are destroyed (that
# runs in the kernel's netns cleanup work): a leaked reference holds the
# module past the wait.
check "sch_mrc_trim unloads (once the namespaces are gone)" \
	wait_until 30 modprobe -r sch_mrc_trim
check_dmesg_clean
done_testing
