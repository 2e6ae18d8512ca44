# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The MRC demo, run inside the test VM by `make demo`.
#
# Today: two hosts (network namespaces) joined by a link, MRC loaded on
# demand, one MRC device per host, what the RDMA stack, Debian's libibverbs
# and mrc-ip see, and RC traffic from unmodified programs. Multiple paths
# and failover join as the multipath transport lands.
set -u
PROBE=$(cd "$(dirname "$0")/../../.." && pwd)/build/cmake/selftests/progs/mrc-verbs-probe

step() {
	printf '\n==> %s\n' "$*"
}

run() {
	printf '$ %s\n' "$*"
	"$@" 2>&1 | sed 's/^/    /'
	return "${PIPESTATUS[0]}"
}

step "Two hosts, hostA and hostB (network namespaces), joined by a veth link"
ip netns add hostA
ip netns add hostB
ip link add ethA type veth peer name ethB
ip link set ethA netns hostA
ip link set ethB netns hostB
ip -n hostA addr add 192.168.10.1/24 dev ethA
ip -n hostA -6 addr add fd10::1/64 dev ethA nodad
ip -n hostB addr add 192.168.10.2/24 dev ethB
ip -n hostB -6 addr add fd10::2/64 dev ethB nodad
ip -n hostA link set ethA up
ip -n hostB link set ethB up
run ip -n hostA -br addr show ethA
run ip -n hostB -br addr show ethB

step "rdma link add loads mrc.ko on demand and creates one MRC device per host"
grep -qw ^mrc /proc/modules || echo "    (mrc is not loaded yet)"
run ip netns exec hostA rdma link add mrcA type mrc netdev ethA || exit 1
run ip netns exec hostB rdma link add mrcB type mrc netdev ethB || exit 1
run grep -w ^mrc /proc/modules

step "The RDMA core sees them (rdma link show, in each host)"
run ip netns exec hostA rdma link show
run ip netns exec hostB rdma link show

step "Unmodified libibverbs programs see them through libmrc-rdmav34.so"
run ip netns exec hostA ibv_devices
run ip netns exec hostA ibv_devinfo -d mrcA
run ip netns exec hostB ibv_devinfo -v -d mrcB | grep -E 'hca_id|node_guid|state|mtu|link_layer|GID'
run ip netns exec hostA "$PROBE" mrcA

step "mrc-ip talks to the driver over generic netlink (text and JSON)"
run ip netns exec hostA mrc-ip dev show
run ip netns exec hostB mrc-ip -j -p dev show

step "Each host has its own MRC UDP socket (port 4792; rxe keeps 4791)"
run ip netns exec hostA ss -Huan
run ip netns exec hostB ss -Huan

step "Traffic: an unmodified ibv_rc_pingpong (data checked) and ib_write_bw hostB -> hostA"
GA=$(ibv_devinfo -v -d mrcA | sed -n 's/.*GID\[ *\([0-9]*\)\]:.*::ffff:192\.168\.10\.1, RoCE v2/\1/p')
GB=$(ibv_devinfo -v -d mrcB | sed -n 's/.*GID\[ *\([0-9]*\)\]:.*::ffff:192\.168\.10\.2, RoCE v2/\1/p')
ip netns exec hostA ibv_rc_pingpong -d mrcA -g "$GA" -s 4096 -n 200 -c > /dev/null 2>&1 &
sleep 1
run ip netns exec hostB ibv_rc_pingpong -d mrcB -g "$GB" -s 4096 -n 200 -c 192.168.10.1
wait
ip netns exec hostA ib_write_bw -d mrcA -x "$GA" -D 3 -F > /dev/null 2>&1 &
sleep 1
printf '$ ip netns exec hostB ib_write_bw -d mrcB -x %s -D 3 -F 192.168.10.1\n' "$GB"
ip netns exec hostB ib_write_bw -d mrcB -x "$GB" -D 3 -F 192.168.10.1 2>&1 |
	grep -A1 '#bytes' | sed 's/^/    /'
wait
run ip -n hostB -s link show ethB

step "Port state follows the link: take ethB down, then up"
ip -n hostB link set ethB down
run ip netns exec hostB ibv_devinfo -d mrcB | grep -E '^\s+state'
ip -n hostB link set ethB up
sleep 1
run ip netns exec hostB ibv_devinfo -d mrcB | grep -E '^\s+state'

step "Tear down: deleting hostA's namespace deletes ethA and its veth peer ethB, and both MRC devices with them"
ip netns del hostA
for _ in $(seq 50); do ls /sys/class/infiniband | grep -q mrc || break; sleep 0.2; done
run rdma link show
run rmmod mrc
printf '$ dmesg | grep mrc\n'
dmesg | grep -E 'mrc: |infiniband mrc' | sed 's/^/    /'

printf '\nDemo complete.\n'
