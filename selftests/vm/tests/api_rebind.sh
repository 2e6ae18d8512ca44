# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: ctl
# OCP profile ids at RESET->INIT (issue 38). mrc-rebind-check
# (selftests/progs/mrc_rebind_check.c) as a controller makes, on hostB's
# mrcB, a GENERATED EV profile 5 (ports 0xd000-0xd007), a CC profile 4
# (uet-1.0-nscc) and an OFFLINE EV profile 6, and exits. The same program
# as an application creates a QP with the default profiles and moves it
# RESET->INIT naming 5 and 4 (libmrc binds it with the family's QP_BIND
# before the verbs transition): refused for an unknown and an OFFLINE
# profile, bound back when the verbs transition fails, bound when it
# succeeds. Meanwhile: nobody may not rebind root's QP (EPERM), an unknown
# QPN is ENOENT, the kernel's messages name what is wrong. The QP then
# writes 64 KiB to a QP on mrcA over profile 5's ports, and once in RTS
# may not be rebound (EBUSY, naming the state). Its PSN ranges (MPR) are
# set through QP_BIND in INIT, checked against the window, and refused in
# RTS.
# shellcheck disable=SC2317 # functions run through check and wait_until
. ../lib.sh

CHECK=$MRC_BUILD/selftests/progs/mrc-rebind-check
LOG=/run/rebind-app.log
FIFO=/run/rebind-app.in

inb() {
	ip netns exec hostB "$@"
}

# at TAG: wait until the application pauses at TAG.
at() {
	wait_until 60 grep -qx "pause $1" "$LOG"
}

# go: let the application go on from its pause.
go() {
	echo go >&"$gofd"
}

dmesg_mark
two_hosts
mrc_genl_serve hostB

inb "$CHECK" controller --dev mrcB --ev 5 --cc 4 --offline 6 > /run/rebind-ctl.log 2>&1
rc=$?
diag < /run/rebind-ctl.log
check "a controller made EV profile 5, CC profile 4, OFFLINE EV profile 6 and exited ($rc)" \
	bash -c "[ $rc = 0 ] && tail -n1 /run/rebind-ctl.log | grep -qx ok"
check_output "... mrc-ip: EV profile 5 online, generated, 8 EVs" '^online generated 8$' \
	json_py 'd[0]["state"], d[0]["mode"], d[0]["count"]' inb mrc-ip -j evprofile show dev mrcB id 5
check_output "... EV profile 6 offline" '^offline$' \
	json_py 'd[0]["state"]' inb mrc-ip -j evprofile show dev mrcB id 6

rm -f "$FIFO"
mkfifo "$FIFO"
inb timeout 120 "$CHECK" app --dev mrcB --gid "$GB4" --peer-dev mrcA --peer-gid "$GA4" \
	--ev 5 --cc 4 --offline 6 < "$FIFO" > "$LOG" 2>&1 &
app=$!
exec {gofd}>"$FIFO"

check "the application's QP tried profiles and was refused or bound back" at rolled-back
QPN=$(sed -n 's/^# qpn //p' "$LOG")
echo "QP $QPN on mrcB" | diag
qp_show() {
	inb mrc-ip -j -s qp show dev mrcB qpn "$QPN"
}
check_output "after the refusals: the QP keeps CC profile 0 (mrc-window)" '^mrc-window 0$' \
	json_py 'd["cc"]["cc"], d["cc"]["cc_profile"]' qp_show
check_output "... and EV profile 5 has no user" '^0$' \
	json_py 'd[0].get("users", 0)' inb mrc-ip -j evprofile show dev mrcB id 5
go

check "RESET->INIT naming profiles 5 and 4 passed" at bound
check_output "the QP runs CC profile 4, uet-1.0-nscc" '^uet-1.0-nscc 4$' \
	json_py 'd["cc"]["cc"], d["cc"]["cc_profile"]' qp_show
check_output "... sprays over EV profile 5's ports 0xd000-0xd007" \
	'^\[53248, 53249, 53250, 53251, 53252, 53253, 53254, 53255\]$' \
	json_py 'sorted(e["sport"] for e in d["evs"])' qp_show
check_output "... and EV profile 5 counts it as its one user" '^1$' \
	json_py 'd[0]["users"]' inb mrc-ip -j evprofile show dev mrcB id 5
check_output "nobody may not rebind root's QP: EPERM, with the reason" \
	"^error 1 EPERM: not a QP of the caller's" bash -c \
	"ip netns exec hostB setpriv --reuid=65534 --regid=65534 --clear-groups \
	python3 ../mrc-genl.py QP_BIND DEV_NAME=str:mrcB QPN=u32:$QPN QP_EVPROF=u64:0 2>&1; \
	[ \$? -eq 1 ]"
check_genl_error "QP_BIND of a QPN with no QP: ENOENT, naming it" ENOENT \
	'no QP with this number' QP_BIND DEV_NAME=str:mrcB QPN=u32:16777214 QP_EVPROF=u64:5
check_genl_error "QP_BIND to the OFFLINE EV profile: create's EINVAL and reason" EINVAL \
	'no ONLINE EV profile with this id' \
	QP_BIND DEV_NAME=str:mrcB QPN=u32:"$QPN" QP_EVPROF=u64:6
check_genl_error "QP_BIND to a CC profile that does not exist: EINVAL" EINVAL \
	'no ONLINE CC profile with this id' \
	QP_BIND DEV_NAME=str:mrcB QPN=u32:"$QPN" QP_CCPROF=u64:77
check_genl_error "QP_BIND naming no profile: EINVAL" EINVAL 'profile id' \
	QP_BIND DEV_NAME=str:mrcB QPN=u32:"$QPN"
check_output "the refused requests changed nothing: still CC profile 4" '^4$' \
	json_py 'd["cc"]["cc_profile"]' qp_show

# PSN ranges (OCP's MPR), which libmrc sets through QP_BIND on the way to
# RTR and RTS; in INIT both may change, the reply gives them back.
qp_ranges() {
	inb rdma -dd res show qp link mrcB/1 lqpn "$QPN" |
		awk '{ for (i = 1; i < NF; i++) if ($i ~ /^drv_mpr/) printf "%s %s ", $i, $(i + 1) }'
}
check_output "a QP starts with both PSN ranges at the window, 1024 PSNs" \
	'^drv_mpr_psns 1024 drv_mpr_dest_psns 1024 $' qp_ranges
check_output "QP_BIND in INIT sets both PSN ranges; the reply gives them in units of 128" \
	'"MRC_ATTR_QP_MPR": 2, "MRC_ATTR_QP_MPR_DEST": 3' \
	mrc_genl QP_BIND DEV_NAME=str:mrcB QPN=u32:"$QPN" QP_MPR=u8:2 QP_MPR_DEST=u8:3
check_output "... the QP's windows: 256 PSNs as requester, 384 as responder" \
	'^drv_mpr_psns 256 drv_mpr_dest_psns 384 $' qp_ranges
check_genl_error "QP_BIND with a PSN range beyond the window (9 x 128): ERANGE" ERANGE \
	'out of range' QP_BIND DEV_NAME=str:mrcB QPN=u32:"$QPN" QP_MPR=u8:9
check_genl_error "QP_BIND with a PSN range of 0: ERANGE" ERANGE 'out of range' \
	QP_BIND DEV_NAME=str:mrcB QPN=u32:"$QPN" QP_MPR_DEST=u8:0
check_genl_error "QP_BIND naming a profile and a PSN range at once: EINVAL" EINVAL \
	'name one kind' QP_BIND DEV_NAME=str:mrcB QPN=u32:"$QPN" QP_EVPROF=u64:5 QP_MPR=u8:1
check_output "the refused requests changed no range" \
	'^drv_mpr_psns 256 drv_mpr_dest_psns 384 $' qp_ranges
go

check "the QP went to RTS and wrote to mrcA" at sent
check_output "the WRITE left on profile 5's ports" '^[1-9][0-9]* 0$' \
	json_py 'sum(e["tx_pkts"] for e in d["evs"]), sum(1 for e in d["evs"] if not 53248 <= e["sport"] <= 53255)' \
	qp_show
check_genl_error "QP_BIND of a QP in RTS: EBUSY, naming the state" EBUSY 'the QP is in RTS' \
	QP_BIND DEV_NAME=str:mrcB QPN=u32:"$QPN" QP_EVPROF=u64:0
check_genl_error "QP_BIND of a requester's PSN range in RTS: EBUSY" EBUSY \
	'MPR\) is set in RESET, INIT or RTR only' \
	QP_BIND DEV_NAME=str:mrcB QPN=u32:"$QPN" QP_MPR=u8:8
check_genl_error "QP_BIND of a responder's PSN range in RTS: EBUSY" EBUSY \
	'MPR_DEST\) is set in RESET or INIT only' \
	QP_BIND DEV_NAME=str:mrcB QPN=u32:"$QPN" QP_MPR_DEST=u8:8
go

wait "$app"
rc=$?
exec {gofd}>&-
diag < "$LOG"
check_no_output "every step of the application passed" '^not ok|^FAIL' cat "$LOG"
check "the application ended with ok (exit $rc)" \
	bash -c "[ $rc = 0 ] && tail -n1 $LOG | grep -qx ok"
check_output "its QP gone, EV profile 5 has no user" '^0$' \
	json_py 'd[0].get("users", 0)' inb mrc-ip -j evprofile show dev mrcB id 5

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
