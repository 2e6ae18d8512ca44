# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-pair: yes
# vm-group: pair-nvmeof
# vm-timeout: 480
# NVMe over Fabrics between two hosts over four paths, one of them cut
# mid-I/O. On 6.1 nvme-rdma and nvmet-rdma open their rdma_cm ids in the
# initial network namespace, so the hosts are two VMs (run-pair.sh), each
# MRC device on its VM's own kernel: VM A holds hostA and the four
# routers of mp_topo.sh's topology (mp_split_a), VM B is hostB with the
# target (mp_split_b); the kernel QPs spray over the AUTO profile's EVs,
# which ECMP spreads over the routers. The host writes 64 MiB with
# O_DIRECT and reads it back; then writes another 64 MiB and, once path
# 2 carries it, cuts that path (its router's link to hostB down) and
# reads it back while the path is still down: no I/O error, no controller
# reset, the data byte for byte, path 2 silent meanwhile, EVs failed
# over. Then a clean nvme disconnect and rmmod on both sides. A tells B
# over the link (TCP port 7001) when it cuts the path, and when it is
# done, with the SHA-256 of what it wrote; B checks its RAM disk against
# it.
#
# The data crosses the cut in B's packets (the target READs what the host
# writes), so B's QPs are the ones whose EVs through path 2 must go
# ASSUMED_BAD. A's QPs send only the 64-byte commands, one or two at a
# time: a command lost with the path is the tail of its flight, found by
# a tail loss probe's answer, and its EV must go ASSUMED_BAD too, or every
# command sent there later waits for a probe.
# shellcheck disable=SC2317 # functions run through check and wait_until
. ../lib.sh
. ../mp_topo.sh
. ../mp_lib.sh

NQN=mrc-pair
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:5c1d1d2e-6a40-4b7e-9a55-6d7263000002
SYNC=7001
CFG=/sys/kernel/config/nvmet
S=$CFG/subsystems/$NQN
P=$CFG/ports/1
IMG=/dev/ram0

link_up() {
	modprobe virtio_net && wait_until 20 test -e /sys/class/net/eth0 &&
		ip link set eth0 up
}

# in_shell DESC CMD...: CMD as one test point, in this shell (check runs
# it in a subshell, and mp_split_* set MP_N and the rest for later).
in_shell() {
	local desc=$1
	shift
	if "$@" 2> /run/pair.err; then
		ok "$desc"
	else
		not_ok "$desc"
		diag < /run/pair.err
	fi
}

# ---- VM B: hostB, the target ----

target_up() {
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	mkdir "$S" && echo 1 > "$S/attr_allow_any_host" &&
	mkdir "$S/namespaces/1" &&
	echo "$IMG" > "$S/namespaces/1/device_path" &&
	echo 1 > "$S/namespaces/1/enable" &&
	mkdir "$P" && echo rdma > "$P/addr_trtype" &&
	echo ipv4 > "$P/addr_adrfam" && echo "$MP_B4" > "$P/addr_traddr" &&
	echo 4420 > "$P/addr_trsvcid" &&
	ln -s "$S" "$P/subsystems/$NQN"
}

target_down() {
	rm -f "$P/subsystems/$NQN" && rmdir "$P" &&
	echo 0 > "$S/namespaces/1/enable" && rmdir "$S/namespaces/1" &&
	rmdir "$S"
}

# wait_word SECS [FILE]: the first line hostA sends to port SYNC within
# SECS. With FILE, also FILE's content at that moment (after a space),
# read before hostA is answered "ok", so that what it does next comes
# after the reading.
wait_word() {
	python3 - "$SYNC" "$1" "${2:-}" <<'EOF'
import socket, sys
s = socket.create_server(("", int(sys.argv[1])))
s.settimeout(int(sys.argv[2]))
c, _ = s.accept()
c.settimeout(10)
word = c.makefile().readline().strip()
if sys.argv[3]:
    with open(sys.argv[3]) as f:
        word += " " + f.read().strip()
c.sendall(b"ok\n")
print(word)
EOF
}

# mrc0's EV state changes (GOOD -> ASSUMED_BAD and back) so far, its
# departed QPs' included.
EV_CHANGES=/sys/class/infiniband/mrc0/ports/1/hw_counters/path_state_changes

target_vm() {
	check "the link to VM A is up (eth0)" link_up
	in_shell "hostB's side of four paths: hostA answers through each router" \
		mp_split_b 4 eth0 300
	check "rdma link add mrc0 on eth0" rdma link add mrc0 type mrc netdev eth0
	check "modprobe nvmet-rdma" modprobe -a nvmet nvmet-rdma
	check "modprobe brd: a 144 MiB RAM disk" modprobe brd rd_nr=1 rd_size=147456
	check "nvmet exports $IMG over rdma at $MP_B4:4420" target_up
	local word c0 c1
	word=$(wait_word 380 "$EV_CHANGES")
	check_output "hostA is about to cut path 2" '^cut [0-9]+$' echo "$word"
	c0=${word#cut }
	word=$(wait_word 380)
	c1=$(cat "$EV_CHANGES")
	check "the target's kernel QPs' EVs through path 2 went ASSUMED_BAD (EV state changes $c0, then $c1)" \
		test "$c1" -gt "$c0"
	check_output "hostA finished and said so, with the SHA-256 of what it wrote" \
		'^done [0-9a-f]{64}$' echo "$word"
	check "the RAM disk holds both 64 MiB the host wrote, byte for byte" \
		test "$(head -c 128M "$IMG" | sha256sum | cut -d' ' -f1)" = "${word#done }"
	check "the target is taken down" target_down
	check "rmmod nvmet-rdma brd" modprobe -r nvmet-rdma brd
	check "rdma link delete mrc0" rdma link delete mrc0
}

# ---- VM A: hostA and the routers, the host ----


# rc_attr_sum NAME: driver attribute NAME summed over mrc0's RC QPs.
rc_attr_sum() {
	rdma -dd res show qp link mrc0/1 | awk -v k="drv_$1" '/ type RC / {
		for (i = 1; i < NF; i++) if ($i == k) s += $(i + 1) } END { print s + 0 }'
}

# busiest_qp: the RC QP that sent the most packets (nvme's I/O queue).
busiest_qp() {
	local q best= most=-1 n
	for q in $(rdma res show qp link mrc0/1 | awk '/ type RC / {
			for (i = 1; i < NF; i++) if ($i == "lqpn") print $(i + 1) }'); do
		n=$(mrc-ip -j -s qp show dev mrc0 qpn "$q" 2>/dev/null |
			python3 -c 'import json, sys
print(sum(e.get("tx_pkts", 0) for e in json.load(sys.stdin)["evs"]))' 2>/dev/null)
		[ "${n:-0}" -gt "$most" ] && most=$n best=$q
	done
	echo "$best"
}

# path_moved I N: router I forwarded more than N packets towards hostB
# since $before.
path_moved() {
	local d
	read -ra d <<<"$(mp_delta "$before" "$(mp_router_counts)")"
	[ "${d[$(($1 - 1))]}" -gt "$2" ]
}

# say WORD...: tell hostB, and wait for its "ok".
say() {
	wait_until 60 bash -c 'exec 3<>"/dev/tcp/$0/$1" && shift &&
		echo "$@" >&3 && read -r -t 10 a <&3 && test "$a" = ok' \
		"$MP_B4" "$SYNC" "$@"
}

host_vm() {
	local blk want got rc ddpid running c1 c2 d bad bad1 q
	check "the link to VM B is up (eth0)" link_up
	in_shell "hostA's side: four unshaped routers, hostB answers through each" \
		mp_split_a 4 0 eth0 300
	check "rdma link add mrc0 on hostA's eth0" rdma link add mrc0 type mrc netdev eth0
	check "modprobe nvme-rdma" modprobe nvme-rdma
	check "nvme connect -t rdma -a $MP_B4 -n $NQN (once the target listens)" \
		wait_until 120 nvme connect -t rdma -a "$MP_B4" -s 4420 -n "$NQN" -q "$HOSTNQN"
	wait_until 30 nvme_dev "$NQN"
	blk=$(nvme_dev "$NQN")
	check "the namespace appears as a block device (${blk:-none})" test -b "$blk"

	head -c 64M /dev/urandom > /tmp/one.src
	check_direct_roundtrip "$blk" /tmp/one.src

	# The cut: a second 64 MiB at 64 MiB, path 2 down once it carries it.
	head -c 64M /dev/urandom > /tmp/two.src
	want=$(sha256sum < /tmp/two.src)
	bad=$(rc_attr_sum ev_marked_bad)
	before=$(mp_router_counts)
	dd if=/tmp/two.src of="$blk" bs=1M seek=64 oflag=direct status=none &
	ddpid=$!
	wait_until 30 path_moved 2 200
	check "hostB heard that path 2 is about to go down" say cut
	mp_path_down 2
	running=no
	kill -0 "$ddpid" 2>/dev/null && running=yes
	c1=$(mp_router_packets 2)
	wait "$ddpid"
	rc=$?
	check_output "path 2 went down while the write was under way" '^yes$' echo "$running"
	check "64 MiB written with O_DIRECT across the cut (dd exit $rc)" test "$rc" = 0
	got=$(dd if="$blk" bs=1M skip=64 count=64 iflag=direct status=none | sha256sum)
	check "read back while path 2 is still down: the 64 MiB match" test "$got" = "$want"
	c2=$(mp_router_packets 2)
	check "path 2 forwarded nothing to hostB while it was down ($c1, $c2)" \
		test "$c1" -eq "$c2"
	read -ra d <<<"$(mp_delta "$before" "$(mp_router_counts)")"
	echo "packets towards hostB per router since the second write: ${d[*]}" | diag
	check "the three other paths carried the rest (${d[0]} ${d[2]} ${d[3]})" \
		test "${d[0]}" -gt 1000 -a "${d[2]}" -gt 1000 -a "${d[3]}" -gt 1000
	bad1=$(rc_attr_sum ev_marked_bad)
	check "the host's kernel QPs, which send only commands, marked EVs bad ($bad, then $bad1 times)" \
		test "$bad1" -gt "$bad"
	echo "losses the host's tail loss probes found: $(rc_attr_sum lost_probe)" | diag
	check_no_output "no I/O error, no controller reset or reconnect" \
		'I/O error|reset|[Rr]econnect|timeout' bash -c "dmesg | grep -i nvme"
	check "path 2 comes back" mp_path_up 2

	check "the host registered each 1 MiB I/O's pages ($(hw_counter mrc0 mr_fast_reg) >= 256)" \
		test "$(hw_counter mrc0 mr_fast_reg)" -ge 256

	# The kernel's QPs as user ones: per-EV statistics, spraying.
	q=$(busiest_qp)
	check_output "mrc-ip shows nvme's busiest kernel QP ($q) sending on several EVs" \
		'^([3-9]|[1-9][0-9]+)$' bash -c "mrc-ip -j -s qp show dev mrc0 qpn '$q' |
		python3 -c 'import json, sys
print(sum(1 for e in json.load(sys.stdin)[\"evs\"] if e.get(\"tx_pkts\", 0) > 0))'"

	check "nvme disconnect -n $NQN" nvme disconnect -n "$NQN"
	check "rmmod nvme-rdma" modprobe -r nvme-rdma
	check "rdma link delete mrc0" rdma link delete mrc0
	check "hostB heard that hostA is done" \
		say done "$(cat /tmp/one.src /tmp/two.src | sha256sum | cut -d' ' -f1)"
	rm -f /tmp/one.src /tmp/two.src
}

dmesg_mark
case ${MRC_PAIR:-} in
a) host_vm ;;
b) target_vm ;;
*) not_ok "MRC_PAIR is a or b (run-pair.sh runs this test)" ;;
esac
check_dmesg_clean
done_testing
