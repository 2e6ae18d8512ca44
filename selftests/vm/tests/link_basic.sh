# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# rdma link add creates an MRC device that the RDMA core, Debian's
# libibverbs (through our provider) and mrc-ip all see, with port state and
# MTU following the netdev.
. ../lib.sh

PROBE=$MRC_BUILD/selftests/progs/mrc-verbs-probe

dmesg_mark
veth_pair veth0 veth1

check "module is not loaded before first use" bash -c '! lsmod | grep -qw ^mrc'
check "rdma link add autoloads mrc and creates mrc0" \
	rdma link add mrc0 type mrc netdev veth0
check "mrc module is loaded" grep -qw ^mrc /proc/modules
check_output "rdma link show lists mrc0/1 on veth0" \
	'^link mrc0/1 .*state ACTIVE .*netdev veth0' rdma link show
check "mrc0 is in /sys/class/infiniband" rdma_dev_exists mrc0
check_output "ibv_devices lists mrc0 (no environment)" '^ +mrc0 ' \
	env -i PATH="$PATH" ibv_devices
check_output "ibv_devinfo: transport InfiniBand (0)" \
	'transport:[[:space:]]+InfiniBand \(0\)' env -i PATH="$PATH" ibv_devinfo -d mrc0
check_output "ibv_devinfo: link_layer Ethernet" \
	'link_layer:[[:space:]]+Ethernet' ibv_devinfo -d mrc0
check_output "ibv_devinfo: port PORT_ACTIVE" \
	'state:[[:space:]]+PORT_ACTIVE \(4\)' ibv_devinfo -d mrc0
check_output "ibv_devinfo: active_mtu 1024 for a 1500-byte netdev" \
	'active_mtu:[[:space:]]+1024 \(3\)' ibv_devinfo -d mrc0
mac=$(cat /sys/class/net/veth0/address)
guid=$(printf '%02x%s:%sff:fe%s:%s%s' $((0x${mac:0:2} ^ 2)) "${mac:3:2}" \
	"${mac:6:2}" "${mac:9:2}" "${mac:12:2}" "${mac:15:2}")
check_output "node GUID is the EUI-64 of veth0's MAC ($guid)" \
	"node_guid:[[:space:]]+$guid" ibv_devinfo -d mrc0
check_output "GID table holds veth0's IPv4 address (RoCE v2)" \
	'GID\[ *[0-9]+\]:[[:space:]]+::ffff:10\.0\.0\.1, RoCE v2' ibv_devinfo -v -d mrc0
check_output "GID table holds veth0's IPv6 address" \
	'GID\[ *[0-9]+\]:[[:space:]]+fd00::1, RoCE v2' ibv_devinfo -v -d mrc0
check_output "open + query + alloc_pd + dealloc_pd through libmrc-rdmav34.so" \
	'provider libmrc-rdmav34.so serves it' "$PROBE" mrc0
check_output "one MRC UDP socket on port $MRC_PORT" '^1$' mrc_socket_count

ip link set veth0 mtu 9000
check_output "active_mtu follows the netdev MTU (9000 -> 4096)" \
	'active_mtu:[[:space:]]+4096 \(5\)' ibv_devinfo -d mrc0
ip link set veth0 down
check_output "port goes PORT_DOWN with the netdev" \
	'state:[[:space:]]+PORT_DOWN \(1\)' ibv_devinfo -d mrc0
ip link set veth0 up
wait_until 5 bash -c "ibv_devinfo -d mrc0 | grep -q PORT_ACTIVE"
check_output "port returns to PORT_ACTIVE" \
	'state:[[:space:]]+PORT_ACTIVE' ibv_devinfo -d mrc0

check_output "mrc-ip dev show lists mrc0 on veth0" \
	'^mrc0: .*netdev veth0 .*udp_port 4792 .*state ACTIVE' mrc-ip dev show
check_output "mrc-ip -j dev show prints JSON" \
	'^\[\{"ifname":"mrc0","netdev":"veth0"' mrc-ip -j dev show
check_fails "mrc-ip dev show of an unknown device fails" mrc-ip dev show nosuch

check "rdma link delete mrc0" rdma link delete mrc0

# A name without the mrc prefix: only the driver-id match can find the
# provider for it, so this proves that match works.
check "rdma link add fabric7 (no mrc prefix)" \
	rdma link add fabric7 type mrc netdev veth1
check_output "libibverbs binds fabric7 to our provider by driver id" \
	'provider libmrc-rdmav34.so serves it' "$PROBE" fabric7
check "rdma link delete fabric7" rdma link delete fabric7
check_dmesg_clean
done_testing
