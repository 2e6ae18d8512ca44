# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# The control plane's EV format and CC profiles through the raw "mrc"
# family: life cycle (INIT -> OFFLINE -> ONLINE, one step at a time),
# device defaults, limits, permissions, and requests that are wrong on
# purpose, each answered with an errno and an extack message and changing
# nothing.
. ../lib.sh

dmesg_mark
veth_pair veth0 veth1
check "rdma link add mrc0" rdma link add mrc0 type mrc netdev veth0

mrc_genl_serve
D="DEV_NAME=str:mrc0"
WIN="CCPROF={ MRC_CCPROF_ALG=str:mrc-window }"

# state KIND ID: a profile's state (0 init, 1 offline, 2 online).
state() {
	mrc_genl "$1_GET" $D "PROF_ID=u64:$2" |
		grep -oE '"MRC_ATTR_PROF_STATE": [0-9]+' | grep -oE '[0-9]+$'
}

# count_dump CMD: how many objects a dump returns.
count_dump() {
	mrc_genl --dump "$1" | wc -l
}

# snapshot: every profile and the device, as the kernel dumps them.
snapshot() {
	mrc_genl DEV_GET $D
	mrc_genl --dump EVFMT_GET
	mrc_genl --dump CCPROF_GET
}

check_output "DEV_GET reports the OCP controller API version 1.0.1" \
	'"MRC_ATTR_CTL_API_VERSION": 16777217' mrc_genl DEV_GET $D
check_output "DEV_GET reports the limits" '"MRC_LIMIT_CC_PROFILES": 64' \
	mrc_genl DEV_GET $D
check_output "mrc-ip dev show -d: the CC algorithms, which QPs can run (JSON)" \
	'"cc_algs": ?"mrc-window,uet-1.0-nscc", ?"cc_runnable": ?"mrc-window,uet-1.0-nscc"' \
	mrc-ip -d -j dev show dev mrc0
check_output "... and in text" 'cc_algs mrc-window,uet-1.0-nscc cc_runnable mrc-window,uet-1.0-nscc' \
	mrc-ip -d dev show dev mrc0
check_output "the built-in CC profile 0 is the default" \
	'"MRC_ATTR_DEV_DEFAULT_CCPROF": 0' mrc_genl DEV_GET $D
check_output "CC profile 0 is mrc-window, ONLINE" \
	'"MRC_CCPROF_ALG": "mrc-window".*"MRC_ATTR_PROF_STATE": 2' \
	mrc_genl CCPROF_GET $D PROF_ID=u64:0
check_output "EV format 0 is UDP (mode 2) with one 16-bit field, ONLINE" \
	'"MRC_EVFMT_FIELD_WIDTH": 16\}, "MRC_EVFMT_MODE": 2\}.*"MRC_ATTR_PROF_STATE": 2' \
	mrc_genl EVFMT_GET $D PROF_ID=u64:0

# --- CC profiles: life cycle ---
check_output "CCPROF_NEW id 5 with mrc-window comes back OFFLINE with defaults" \
	'"MRC_CC_WIN_INIT_PKTS": 32.*"MRC_ATTR_PROF_STATE": 1' \
	mrc_genl CCPROF_NEW $D PROF_ID=u64:5 $WIN
check "CCPROF_SET 5 parameters while OFFLINE" mrc_genl CCPROF_SET $D \
	PROF_ID=u64:5 CCPROF={ MRC_CCPROF_PARAMS={ MRC_CC_WIN_INIT_PKTS=u32:64 \
	MRC_CC_WIN_MIN_PKTS=u32:4 } }
check_output "the parameters are stored" \
	'"MRC_CC_WIN_INIT_PKTS": 64, "MRC_CC_WIN_MIN_PKTS": 4' \
	mrc_genl CCPROF_GET $D PROF_ID=u64:5
check "CCPROF_SET 5 ONLINE" mrc_genl CCPROF_SET $D PROF_ID=u64:5 \
	PROF_STATE=u8:2
check_output "profile 5 is ONLINE" '^2$' state CCPROF 5
check_genl_error "parameters of an ONLINE profile cannot change" EBUSY \
	"ONLINE" CCPROF_SET $D PROF_ID=u64:5 \
	CCPROF={ MRC_CCPROF_PARAMS={ MRC_CC_WIN_INIT_PKTS=u32:16 } }
check "DEV_SET default CC profile 5" mrc_genl DEV_SET $D \
	DEV_DEFAULT_CCPROF=u64:5
check_output "the device reports default 5" \
	'"MRC_ATTR_DEV_DEFAULT_CCPROF": 5' mrc_genl DEV_GET $D
check_genl_error "the default cannot be deleted" EBUSY "device default" \
	CCPROF_DEL $D PROF_ID=u64:5
check_genl_error "the default cannot go OFFLINE" EBUSY "device default" \
	CCPROF_SET $D PROF_ID=u64:5 PROF_STATE=u8:1
check "DEV_SET default back to 0" mrc_genl DEV_SET $D DEV_DEFAULT_CCPROF=u64:0
check "profile 5 goes OFFLINE" mrc_genl CCPROF_SET $D PROF_ID=u64:5 \
	PROF_STATE=u8:1
check_genl_error "an OFFLINE profile cannot be the default" EINVAL "ONLINE" \
	DEV_SET $D DEV_DEFAULT_CCPROF=u64:5
check "profile 5 goes back to INIT" mrc_genl CCPROF_SET $D PROF_ID=u64:5 \
	PROF_STATE=u8:0
check_no_output "INIT forgets the configuration" 'MRC_CCPROF_ALG' \
	mrc_genl CCPROF_GET $D PROF_ID=u64:5
check_genl_error "INIT -> ONLINE in one step is refused" EINVAL "one step" \
	CCPROF_SET $D PROF_ID=u64:5 PROF_STATE=u8:2
check_genl_error "INIT -> OFFLINE without an algorithm is refused" EINVAL \
	"not configured" CCPROF_SET $D PROF_ID=u64:5 PROF_STATE=u8:1
check "CCPROF_DEL 5" mrc_genl CCPROF_DEL $D PROF_ID=u64:5
check_genl_error "a deleted profile is gone" ENOENT "no profile" \
	CCPROF_GET $D PROF_ID=u64:5
check_output "CCPROF_NEW without an id gets the lowest free id, 1" \
	'"MRC_ATTR_PROF_ID": 1,' mrc_genl CCPROF_NEW $D $WIN
check_genl_error "CCPROF_NEW with an existing id" EEXIST "exists" \
	CCPROF_NEW $D PROF_ID=u64:1
check_output "a 64-bit id is kept whole" '"MRC_ATTR_PROF_ID": 18446744073709551615' \
	mrc_genl CCPROF_NEW $D PROF_ID=u64:0xffffffffffffffff

# --- CC profiles: what the algorithms accept ---
check_output "uet-1.0-nscc parameters are stored" \
	'"MRC_CC_NSCC_GAMMA_Q16": 32768' mrc_genl CCPROF_NEW $D PROF_ID=u64:7 \
	CCPROF={ MRC_CCPROF_ALG=str:uet-1.0-nscc MRC_CCPROF_PARAMS={ \
	MRC_CC_NSCC_GAMMA_Q16=u32:32768 MRC_CC_NSCC_BASE_RTT_NS=u32:5000 } }
check_genl_error "a window parameter on an NSCC profile" EINVAL \
	"another algorithm" CCPROF_SET $D PROF_ID=u64:7 \
	CCPROF={ MRC_CCPROF_PARAMS={ MRC_CC_WIN_INIT_PKTS=u32:16 } }
check_genl_error "gamma above 1.0 (Q16 65537)" ERANGE "range" \
	CCPROF_SET $D PROF_ID=u64:7 \
	CCPROF={ MRC_CCPROF_PARAMS={ MRC_CC_NSCC_GAMMA_Q16=u32:65537 } }
check_genl_error "a QuickAdapt gate of 32 (a shift of the window)" ERANGE "range" \
	CCPROF_SET $D PROF_ID=u64:7 \
	CCPROF={ MRC_CCPROF_PARAMS={ MRC_CC_NSCC_QA_GATE=u8:32 } }
check "uet-1.0-nscc goes ONLINE" \
	mrc_genl CCPROF_SET $D PROF_ID=u64:7 PROF_STATE=u8:2
check_output "... and reads back ONLINE" '"MRC_ATTR_PROF_STATE": 2' \
	mrc_genl CCPROF_GET $D PROF_ID=u64:7
check_genl_error "a minimum window above the initial one" EINVAL \
	"minimum window" CCPROF_SET $D PROF_ID=u64:1 \
	CCPROF={ MRC_CCPROF_PARAMS={ MRC_CC_WIN_MIN_PKTS=u32:100 } }
check_genl_error "an unknown algorithm" EINVAL "unknown congestion" \
	CCPROF_NEW $D PROF_ID=u64:8 CCPROF={ MRC_CCPROF_ALG=str:cubic }

# --- EV format profiles ---
check_output "EVFMT_NEW 3: STEV with fields 8,8,16 comes back OFFLINE" \
	'"MRC_EVFMT_FIELD_WIDTH": \[8, 8, 16\].*"MRC_ATTR_PROF_STATE": 1' \
	mrc_genl EVFMT_NEW $D PROF_ID=u64:3 EVFMT={ MRC_EVFMT_MODE=u8:0 \
	MRC_EVFMT_FIELDS={ MRC_EVFMT_FIELD_WIDTH=u8:8 \
	MRC_EVFMT_FIELD_WIDTH=u8:8 MRC_EVFMT_FIELD_WIDTH=u8:16 } }
check "EVFMT_SET 3 ONLINE" mrc_genl EVFMT_SET $D PROF_ID=u64:3 PROF_STATE=u8:2
check_genl_error "an ONLINE format cannot change" EBUSY "ONLINE" \
	EVFMT_SET $D PROF_ID=u64:3 EVFMT={ MRC_EVFMT_MODE=u8:2 }
check_genl_error "STEV fields of 33 bits" E2BIG "wider than the mode" \
	EVFMT_NEW $D PROF_ID=u64:4 EVFMT={ MRC_EVFMT_MODE=u8:0 \
	MRC_EVFMT_FIELDS={ MRC_EVFMT_FIELD_WIDTH=u8:17 MRC_EVFMT_FIELD_WIDTH=u8:16 } }
check_genl_error "UDP fields of 17 bits" E2BIG "wider than the mode" \
	EVFMT_NEW $D PROF_ID=u64:4 EVFMT={ MRC_EVFMT_MODE=u8:2 \
	MRC_EVFMT_FIELDS={ MRC_EVFMT_FIELD_WIDTH=u8:17 } }
seventeen=$(for _ in $(seq 17); do echo -n "MRC_EVFMT_FIELD_WIDTH=u8:1 "; done)
check_genl_error "17 fields" E2BIG "more than 16" EVFMT_NEW $D PROF_ID=u64:4 \
	EVFMT={ MRC_EVFMT_MODE=u8:1 MRC_EVFMT_FIELDS={ $seventeen } }
check_genl_error "a field of width 0" ERANGE "range" EVFMT_NEW $D \
	PROF_ID=u64:4 EVFMT={ MRC_EVFMT_MODE=u8:1 \
	MRC_EVFMT_FIELDS={ MRC_EVFMT_FIELD_WIDTH=u8:0 } }
check_genl_error "mode 3 does not exist" ERANGE "range" EVFMT_NEW $D \
	PROF_ID=u64:4 EVFMT={ MRC_EVFMT_MODE=u8:3 }
check_output "SRV6 formats up to 256 bits are accepted" \
	'"MRC_EVFMT_MODE": 1' mrc_genl EVFMT_NEW $D PROF_ID=u64:6 \
	EVFMT={ MRC_EVFMT_MODE=u8:1 MRC_EVFMT_FIELDS={ \
	MRC_EVFMT_FIELD_WIDTH=u8:128 MRC_EVFMT_FIELD_WIDTH=u8:128 } }
check_output "an EVFMT_NEW with nothing is INIT" '"MRC_ATTR_PROF_STATE": 0' \
	mrc_genl EVFMT_NEW $D PROF_ID=u64:9
check_genl_error "fields before a mode" EINVAL "set mode first" \
	EVFMT_SET $D PROF_ID=u64:9 \
	EVFMT={ MRC_EVFMT_FIELDS={ MRC_EVFMT_FIELD_WIDTH=u8:8 } }
check_genl_error "ONLINE without fields" EINVAL "no fields" \
	EVFMT_NEW $D PROF_ID=u64:10 EVFMT={ MRC_EVFMT_MODE=u8:2 } PROF_STATE=u8:2
check_output "a dump lists every format" \
	'^4$' count_dump EVFMT_GET

# --- malformed requests change nothing ---
before=$(snapshot)
check_genl_error "an id of the wrong size (u32)" EINVAL "" \
	CCPROF_DEL $D PROF_ID=u32:1
check_genl_error "an attribute this command does not take" EINVAL "" \
	CCPROF_DEL $D PROF_ID=u64:1 QPN=u32:5
check_genl_error "an attribute number past the family's" EINVAL "" \
	CCPROF_DEL $D PROF_ID=u64:1 MRC_ATTR_200=u32:5
check_genl_error "a nest that is not a nest" EINVAL "" \
	CCPROF_SET $D PROF_ID=u64:1 CCPROF=u32:1
check_genl_error "a string without its NUL" EINVAL "" \
	CCPROF_SET $D PROF_ID=u64:1 CCPROF={ MRC_CCPROF_ALG=raw:6d72632d77696e646f77 }
check_genl_error "an attribute of length 0" EINVAL "" \
	CCPROF_DEL $D PROF_ID=u64:1 MRC_ATTR_PROF_STATE=raw:
check_genl_error "a missing id names the attribute" EINVAL \
	"missing MRC_ATTR_PROF_ID" CCPROF_DEL $D
check_genl_error "no device" EINVAL "device is required" \
	CCPROF_DEL PROF_ID=u64:1
check_genl_error "a device that does not exist" ENODEV "no MRC device" \
	CCPROF_DEL DEV_NAME=str:mrc9 PROF_ID=u64:1
check_genl_error "a device index that does not exist" ENODEV "no MRC device" \
	CCPROF_DEL DEV_INDEX=u32:999 PROF_ID=u64:1
check_genl_error "a QP number past 24 bits: ERANGE" ERANGE \
	"integer out of range" --dump QP_EV_GET $D QPN=u32:16777216
check_genl_error "QP number 0xffffff (the endpoint's, never a QP's)" ERANGE \
	"integer out of range" --dump QP_EV_GET $D QPN=u32:16777215
check_genl_error "QP number 0 (no such QP on RoCE)" ERANGE \
	"integer out of range" --dump QP_EV_GET $D QPN=u32:0
check_genl_error "a failing SET leaves the profile as it was" EINVAL \
	"minimum window" CCPROF_SET $D PROF_ID=u64:1 PROF_STATE=u8:2 \
	CCPROF={ MRC_CCPROF_PARAMS={ MRC_CC_WIN_INIT_PKTS=u32:2 } }
after=$(snapshot)
if [ "$before" = "$after" ]; then
	ok "the malformed requests changed nothing (state dumped before and after)"
else
	not_ok "the malformed requests changed nothing"
	diff <(echo "$before") <(echo "$after") | diag
fi

# --- permissions ---
unpriv() {
	capsh --drop=cap_net_admin -- -c "$*"
}
check "without CAP_NET_ADMIN: reads work" \
	unpriv ". ../lib.sh; mrc_genl --dump CCPROF_GET >/dev/null"
for req in "CCPROF_NEW $D PROF_ID=u64:20" "CCPROF_SET $D PROF_ID=u64:1 PROF_STATE=u8:2" \
	   "CCPROF_DEL $D PROF_ID=u64:1" "EVFMT_NEW $D" "EVFMT_DEL $D PROF_ID=u64:3" \
	   "DEV_SET $D DEV_DEFAULT_CCPROF=u64:0"; do
	check_output "without CAP_NET_ADMIN: ${req%% *} fails with EPERM" \
		'^error 1 EPERM' unpriv ". ../lib.sh; mrc_genl $req 2>&1 >/dev/null; true"
done
check "an unprivileged attempt changed nothing" test "$(snapshot)" = "$after"

# --- limits and namespaces ---
n=$(mrc_genl --dump CCPROF_GET | wc -l)
for i in $(seq $((64 - n))); do
	mrc_genl CCPROF_NEW $D >/dev/null || break
done
check_output "the device holds 64 CC profiles" '^64$' \
	count_dump CCPROF_GET
check_genl_error "the 65th is refused" ENOSPC "most profiles" CCPROF_NEW $D
ip netns add nsX
check_output "another namespace does not see the device" \
	'^error 19 ENODEV: no MRC device' bash -c \
	"ip netns exec nsX python3 ../mrc-genl.py CCPROF_GET $D PROF_ID=u64:0 2>&1; true"
check_output "another namespace dumps no profile" '^0$' \
	bash -c ". ../lib.sh; ip netns exec nsX python3 ../mrc-genl.py --dump CCPROF_GET | wc -l"
ip netns del nsX

check "rdma link delete mrc0 with its profiles" rdma link delete mrc0
check "rmmod mrc" rmmod mrc
check_dmesg_clean
done_testing
