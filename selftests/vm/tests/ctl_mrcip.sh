# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# mrc-ip against the real kernel: each object kind added, shown (text and
# JSON), changed and deleted; EVs listed with the ports they are sent
# with; deny and undeny; the device defaults; the refusals an operator
# meets, with exit 2 and the kernel's reason; what a user without
# CAP_NET_ADMIN reads (profile sums, and the QPs it made).
. ../lib.sh

dmesg_mark
veth_pair veth0 veth1
check "rdma link add mrc0" rdma link add mrc0 type mrc netdev veth0

# exit_code WANT CMD...: CMD exits with WANT.
exit_code() {
	local want=$1
	shift
	"$@"
	[ $? -eq "$want" ]
}

# --- EV formats ---
check "evfmt add: STEV, fields 8,8,16" \
	mrc-ip evfmt add dev mrc0 id 3 mode stev fields 8,8,16
check_output "evfmt show -j: online, stev, 8,8,16" '^online stev 8,8,16$' \
	json_py 'd[0]["state"], d[0]["mode"], d[0]["fields"]' mrc-ip -j evfmt show dev mrc0 id 3
check_output "evfmt show (text) lists formats 0 and 3" '^ *(mrc0 )?.*3' \
	mrc-ip evfmt show dev mrc0
check_output "a prefix works: mrc-ip evf s" 'stev' mrc-ip evf s dev mrc0 id 3
check "evfmt add 4 offline" mrc-ip evfmt add dev mrc0 id 4 mode udp fields 16 offline
check_output "... stays offline" '^offline$' \
	json_py 'd[0]["state"]' mrc-ip -j evfmt show dev mrc0 id 4
check "evfmt set 4: fields 12" mrc-ip evfmt set dev mrc0 id 4 fields 12
check_output "... shows 12" '^12$' json_py 'd[0]["fields"]' mrc-ip -j evfmt show dev mrc0 id 4
check "evfmt del 4" mrc-ip evfmt del dev mrc0 id 4
check_output "an evfmt too wide for its mode: exit 2, the kernel's reason" \
	'wider than the mode' bash -c "mrc-ip evfmt add dev mrc0 id 5 mode udp fields 17 2>&1; [ \$? -eq 2 ]"

# --- EV profiles ---
check "evprofile add: GENERATED over format 3" \
	mrc-ip evprofile add dev mrc0 id 5 mode generated fmt 3 min-active 2 \
	field 8:0:1:4:255 field 8:0:1:2:255 field 16:4096:0:0:0
check_output "evprofile show -j: online, generated, 8 EVs" '^online generated 8$' \
	json_py 'd[0]["state"], d[0]["mode"], d[0]["count"]' mrc-ip -j evprofile show dev mrc0 id 5
check_output "its EVs: EV 5 is sent from port 4096, flow label 0x0202" \
	'^4096 514$' json_py '[(e["sport"], e["flowlabel"]) for e in d if e["index"] == 5][0]' \
	mrc-ip -j evprofile show dev mrc0 id 5 evs
check_output "path is an alias of evprofile" 'generated' mrc-ip path show dev mrc0 id 5
check "evprofile deny index 1-2" mrc-ip evprofile deny dev mrc0 id 5 index 1-2
check_output "EVs 1 and 2 are denied" '^\[1, 2\]$' \
	json_py '[e["index"] for e in d if e["state"] == "denied"]' \
	mrc-ip -j evprofile show dev mrc0 id 5 evs
check "evprofile undeny index 1" mrc-ip evprofile undeny dev mrc0 id 5 index 1
check_output "only EV 2 stays denied" '^\[2\]$' \
	json_py '[e["index"] for e in d if e["state"] == "denied"]' \
	mrc-ip -j evprofile show dev mrc0 id 5 evs
check "evprofile add: EXPLICIT over format 0, two ports" \
	mrc-ip evprofile add dev mrc0 id 6 mode explicit fmt 0 ev 0x12340000 ev 0xbeef0000
check_output "its EVs go out on ports 4660 and 48879" '^\[4660, 48879\]$' \
	json_py '[e["sport"] for e in d]' mrc-ip -j evprofile show dev mrc0 id 6 evs
check "dev set: default EV profile 6" mrc-ip dev set dev mrc0 evprofile 6
check_output "dev show -j: evprofile 6" '^6$' json_py 'd[0]["evprofile"]' mrc-ip -j dev show dev mrc0
check_output "deleting the default: exit 2, says why" "device('s)? default" \
	bash -c "mrc-ip evprofile del dev mrc0 id 6 2>&1; [ \$? -eq 2 ]"
check_output "taking format 3 offline under profile 5: exit 2" 'used by EV profiles' \
	bash -c "mrc-ip evfmt set dev mrc0 id 3 state offline 2>&1; [ \$? -eq 2 ]"
check "dev set: default back to 0" mrc-ip dev set dev mrc0 evprofile 0
check "evprofile del 6" mrc-ip evprofile del dev mrc0 id 6
check "evprofile set 5 offline, then del" bash -c \
	"mrc-ip evprofile set dev mrc0 id 5 state offline && mrc-ip evprofile del dev mrc0 id 5"
check "evfmt del 3, free again" mrc-ip evfmt del dev mrc0 id 3

# --- MRC_EV_PROFILE and MRC_CC_PROFILE: decimal digits only ---
# ibv_rc_pingpong makes its QP before it connects (to nobody here):
# "Couldn't connect" means the provider made the QP, "Couldn't create QP"
# that it refused.
qp_with() {
	env "$@" ibv_rc_pingpong -d mrc0 127.0.0.1 2>&1
	true
}
check "evprofile add 10: EXPLICIT over format 0" \
	mrc-ip evprofile add dev mrc0 id 10 mode explicit fmt 0 ev 0x10000000
check_output "MRC_EV_PROFILE=010 is profile 10, as mrc-ip reads it: QP made" \
	"Couldn.t connect" qp_with MRC_EV_PROFILE=010
check_output "MRC_EV_PROFILE=' 10' (white space): QP refused" \
	"Couldn.t create QP" qp_with "MRC_EV_PROFILE= 10"
check_output "MRC_CC_PROFILE=0x0: QP refused" "Couldn.t create QP" qp_with MRC_CC_PROFILE=0x0
check "evprofile 10 offline and deleted" bash -c \
	"mrc-ip evprofile set dev mrc0 id 10 state offline && mrc-ip evprofile del dev mrc0 id 10"

# --- CC profiles ---
check "ccprofile add: mrc-window, init-pkts 64" \
	mrc-ip ccprofile add dev mrc0 id 4 alg mrc-window init-pkts 64
check_output "ccprofile show -j: online mrc-window, init-pkts 64" '^online mrc-window 64$' \
	json_py 'd[0]["state"], d[0]["alg"], d[0]["init-pkts"]' mrc-ip -j ccprofile show dev mrc0 id 4
check_output "changing an online profile: exit 2, says to take it offline" 'offline' \
	bash -c "mrc-ip ccprofile set dev mrc0 id 4 min-pkts 2 2>&1; [ \$? -eq 2 ]"
check "set it offline, change it" bash -c \
	"mrc-ip ccprofile set dev mrc0 id 4 state offline && mrc-ip ccprofile set dev mrc0 id 4 min-pkts 2"
check_output "... min-pkts 2" '^2$' json_py 'd[0]["min-pkts"]' mrc-ip -j ccprofile show dev mrc0 id 4
check_output "uet-1.0-nscc with qa-gate 32 (a shift of 0..31): exit 2, names it" \
	'attribute qa-gate' \
	bash -c "mrc-ip ccprofile add dev mrc0 id 7 alg uet-1.0-nscc qa-gate 32 2>&1; [ \$? -eq 2 ]"
check "uet-1.0-nscc with gamma 0.5 goes online" \
	mrc-ip ccprofile add dev mrc0 id 7 alg uet-1.0-nscc gamma 0.5
# Shown as the kernel stores it, Q16 fixed point (0.5 is 32768); the
# parameters not given keep NSCC's defaults (base RTT 1 ms).
check_output "... online, with its gamma (Q16 0.5) and the default base RTT" \
	'^online 32768 1000000$' \
	json_py 'd[0]["state"], d[0]["gamma"], d[0]["base-rtt"]' mrc-ip -j ccprofile show dev mrc0 id 7
check "... offline again" mrc-ip ccprofile set dev mrc0 id 7 state offline
check "ccprofile del 4 and 7" bash -c \
	"mrc-ip ccprofile del dev mrc0 id 4 && mrc-ip ccprofile del dev mrc0 id 7"

# --- eight mrc-ip processes at once ---
# Each adds, shows, changes, lists and deletes profiles of its own ids
# while the others do the same and dump everything; none may see an
# error, and only the built-in profiles may remain.
churn() {
	local id=$((100 + $1)) i
	for i in 1 2; do
		mrc-ip evfmt add dev mrc0 id $id mode stev fields 16,16 &&
		mrc-ip evprofile add dev mrc0 id $id mode generated fmt $id \
			field 16:0:1:64:65535 field 16:4096:0:0:0 &&
		mrc-ip -j evprofile show dev mrc0 id $id evs >/dev/null &&
		mrc-ip -s evprofile show dev mrc0 >/dev/null &&
		mrc-ip evprofile deny dev mrc0 id $id index 3-9 &&
		mrc-ip ccprofile add dev mrc0 id $id alg mrc-window init-pkts $((8 + i)) &&
		mrc-ip -j ccprofile show >/dev/null &&
		mrc-ip evprofile set dev mrc0 id $id state offline &&
		mrc-ip evprofile del dev mrc0 id $id &&
		mrc-ip evfmt del dev mrc0 id $id &&
		mrc-ip ccprofile set dev mrc0 id $id state offline &&
		mrc-ip ccprofile del dev mrc0 id $id || { echo "worker $1 round $i failed"; return 1; }
	done
}
pids=()
for w in $(seq 8); do
	churn "$w" > "/tmp/churn.$w" 2>&1 &
	pids+=($!)
done
failed=0
for p in "${pids[@]}"; do
	wait "$p" || failed=$((failed + 1))
done
if [ $failed -eq 0 ]; then
	ok "8 concurrent mrc-ip workers, 2 rounds each: no error"
else
	not_ok "8 concurrent mrc-ip workers: $failed failed"
	cat /tmp/churn.* | head -n 20 | diag
fi
check_output "afterwards only the built-in profiles remain" '^\[0\] \[0\] \[0\]$' \
	bash -c "for o in evfmt evprofile ccprofile; do mrc-ip -j \$o show dev mrc0 |
		python3 -c 'import json,sys; print([p[\"id\"] for p in json.load(sys.stdin)])'; done | paste -sd' '"
check_output "format 0 has its one user again" '^1$' \
	json_py 'd[0]["users"]' mrc-ip -j evfmt show dev mrc0 id 0

# --- the port's admin state ---
check "port set down" mrc-ip port set dev mrc0 down
check_output "port show -j: admin down, state DOWN" '^down DOWN$' \
	json_py 'd[0]["admin"], d[0]["state"]' mrc-ip -j port show dev mrc0
check_output "ibv_devinfo: PORT_DOWN" 'state:[[:space:]]+PORT_DOWN' ibv_devinfo -d mrc0
check "port set up" mrc-ip port set dev mrc0 up
check_output "port show -j: admin up, state ACTIVE" '^up ACTIVE$' \
	json_py 'd[0]["admin"], d[0]["state"]' mrc-ip -j port show dev mrc0
check_output "ibv_devinfo: PORT_ACTIVE" 'state:[[:space:]]+PORT_ACTIVE' ibv_devinfo -d mrc0

# --- a network device whose name is not UTF-8 ---
# -j aborted on it (nlohmann throws on invalid UTF-8, exit 134) and text
# printed the byte raw; both write it as \xff (mrc-ip(8), NAMES IN OUTPUT).
bad=$'x\377y'
check "a dummy netdev named x\\377y" ip link add name "$bad" type dummy
check "rdma link add mrc1 on it" rdma link add mrc1 type mrc netdev "$bad"
check "mrc-ip -j dev show: exit 0, valid JSON" bash -c \
	'set -o pipefail; mrc-ip -j dev show | python3 -c "import json, sys; json.load(sys.stdin)"'
check_output "... mrc1's netdev is x\\xffy" '^x\\xffy$' \
	json_py '[e["netdev"] for e in d if e["ifname"] == "mrc1"][0]' mrc-ip -j dev show
check_output "text: netdev x\\xffy" '^mrc1: netdev x\\xffy ifindex' mrc-ip dev show dev mrc1
check "rdma link delete mrc1, the dummy deleted" bash -c \
	'rdma link delete mrc1 && ip link delete "$1"' _ "$bad"

# --- reads: profile sums to everyone, a QP's own data to its owner ---
# ibv_rc_pingpong's server holds its QP while it waits for a client: one
# of root's, one of nobody's (uid 65534). With the kernel's GSI QP (1)
# all three use EV profile 0. QPNs, a QP's table and the events go to
# CAP_NET_ADMIN and, but for the events, to the QP's creator only.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
no_net_admin() {
	capsh --drop=cap_net_admin -- -c '"$@"' _ "$@"
}
ibv_rc_pingpong -d mrc0 -p 18601 > /tmp/pp-root.log 2>&1 &
pp_root=$!
# (setpriv itself, not as_nobody: $! must be the program's own pid.)
setpriv --reuid=65534 --regid=65534 --clear-groups \
	ibv_rc_pingpong -d mrc0 -p 18602 > /tmp/pp-nobody.log 2>&1 &
pp_nobody=$!
# qpn_of PID: the QPN of the QP that process PID made (rdma res).
qpn_of() {
	rdma -j res show qp link mrc0/1 | python3 -c '
import json, sys
print(*[q["lqpn"] for q in json.load(sys.stdin) if q.get("pid") == int(sys.argv[1])])' "$1" |
		grep -E '^[0-9]+$'
}
both_made() { qpn_of "$pp_root" && qpn_of "$pp_nobody"; }
check "root's and nobody's ibv_rc_pingpong hold a QP each" wait_until 30 both_made
QR=$(qpn_of "$pp_root")
QN=$(qpn_of "$pp_nobody")
echo "root's QP $QR, nobody's QP $QN" | diag
# users [WRAPPER...]: EV profile 0's count of users and the QPNs its
# EVPROF_GET names (MRC_ATTR_PROF_USERS), sorted, as the caller sees them.
users() {
	"$@" python3 ../mrc-genl.py EVPROF_GET DEV_NAME=str:mrc0 PROF_ID=u64:0 | python3 -c '
import json, sys
d = json.loads(sys.stdin.readline())
u = d.get("MRC_ATTR_PROF_USERS", {}).get("MRC_ATTR_QPN", [])
print(d["MRC_ATTR_PROF_NUSERS"], *sorted(u if isinstance(u, list) else [u]))'
}
check_output "root: EV profile 0 names its 3 users, the GSI QP, root's and nobody's" \
	"^3 $(printf '%s\n' 1 "$QR" "$QN" | sort -n | paste -sd ' ')\$" users
check_output "nobody: the same 3 users counted, only its own QP named" "^3 $QN\$" \
	users as_nobody
check_output "nobody: mrc-ip qp show of root's QP: exit 2, no such QP of its own" \
	'No such file or directory: no QP with this number' \
	bash -c "$(declare -f as_nobody); as_nobody mrc-ip -j qp show dev mrc0 qpn $QR 2>&1; [ \$? -eq 2 ]"
check_output "nobody: ... nor of the kernel's GSI QP" 'no QP with this number' \
	bash -c "$(declare -f as_nobody); as_nobody mrc-ip -j qp show dev mrc0 qpn 1 2>&1; [ \$? -eq 2 ]"
check_output "nobody: mrc-ip qp show of its own QP lists its EVs" '"index"' \
	as_nobody mrc-ip -j qp show dev mrc0 qpn "$QN"
check_output "root: mrc-ip qp show of nobody's QP (CAP_NET_ADMIN)" '"index"' \
	mrc-ip -j qp show dev mrc0 qpn "$QN"
check_output "uid 0 without CAP_NET_ADMIN reads root's QP" '"index"' \
	no_net_admin mrc-ip -j qp show dev mrc0 qpn "$QR"
check_output "... but not nobody's" 'no QP with this number' \
	bash -c "$(declare -f no_net_admin); no_net_admin mrc-ip -j qp show dev mrc0 qpn $QN 2>&1; [ \$? -eq 2 ]"
# drv_ev_count QPN [WRAPPER...]: the ev_count MRC adds for QP QPN to
# `rdma -dd res show qp`, as the caller sees it; empty when not shown.
drv_ev_count() {
	local q=$1
	shift
	"$@" rdma -dd res show qp link mrc0/1 | awk -v q="$q" '
		{ for (i = 1; i < NF; i++) if ($i == "lqpn" && $(i + 1) == q) l = $0 }
		END { n = split(l, f); for (i = 1; i < n; i++)
			if (f[i] == "drv_ev_count") print f[i + 1] }'
}
check_output "nobody: rdma -dd res show qp has its own QP's EV count" '^[0-9]+$' \
	drv_ev_count "$QN" as_nobody
check_output "... but not root's QP's (the core still lists that QP)" '^$' \
	drv_ev_count "$QR" as_nobody
check_output "root: rdma -dd res show qp has nobody's QP's EV count" '^[0-9]+$' \
	drv_ev_count "$QN"
check_output "nobody: profile 0's sums are open (stats show)" '"tx_pkts"' \
	as_nobody mrc-ip -s -j stats show dev mrc0 evprofile 0
check_output "nobody: evprofile show counts 3 users" '^3$' \
	json_py 'd[0]["users"]' as_nobody mrc-ip -j evprofile show dev mrc0 id 0
# Events name QPs: joining the group takes CAP_NET_ADMIN. (The timeout
# ends a monitor that was let in.)
check_output "nobody: mrc-ip monitor cannot join the events group" \
	'joining the events group needs CAP_NET_ADMIN' \
	bash -c "$(declare -f as_nobody); as_nobody timeout 10 mrc-ip monitor dev mrc0 2>&1; [ \$? -eq 2 ]"
check_output "... nor uid 0 without CAP_NET_ADMIN" 'needs CAP_NET_ADMIN' \
	bash -c "$(declare -f no_net_admin); no_net_admin timeout 10 mrc-ip monitor dev mrc0 2>&1; [ \$? -eq 2 ]"
kill "$pp_root" "$pp_nobody"
wait "$pp_root" "$pp_nobody"

# --- the tool's own errors ---
check "a syntax error exits 1" exit_code 1 mrc-ip evfmt add dev mrc0 mode nosuchmode
check "a missing device exits 2" exit_code 2 mrc-ip evfmt show dev mrc9

check "rdma link delete mrc0" rdma link delete mrc0
check "rmmod mrc" rmmod mrc
check_dmesg_clean
done_testing
