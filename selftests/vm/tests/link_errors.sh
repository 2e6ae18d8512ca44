# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# Bad input to rdma link add and to the module fails with a clear error
# and leaves nothing half-created.
. ../lib.sh

veth_pair veth0 veth1
dmesg_mark

check_fails "modprobe mrc udp_port=0 is refused" modprobe mrc udp_port=0
check_output "dmesg names the bad udp_port value" "invalid udp_port '0'" dmesg
check_fails "modprobe mrc udp_port=70000 is refused" modprobe mrc udp_port=70000
check "modprobe mrc" modprobe mrc
check_fails "ev_count 0 is refused" \
	bash -c 'printf 0 > /sys/module/mrc/parameters/ev_count'
check_fails "ev_count 4097 is refused" \
	bash -c 'printf 4097 > /sys/module/mrc/parameters/ev_count'
check_output "dmesg names the bad ev_count value" "invalid ev_count '4097'" dmesg
check_output "ev_count keeps its default" '^64$' \
	cat /sys/module/mrc/parameters/ev_count
check_fails "ev_min_active 5000 is refused" \
	bash -c 'printf 5000 > /sys/module/mrc/parameters/ev_min_active'
dmesg_mark

check_fails "unknown netdev is refused" rdma link add mrcX type mrc netdev nosuch0
check "no device left after a bad netdev name" rdma_dev_absent mrcX

check_fails "loopback is refused" rdma link add mrcL type mrc netdev lo
check_output "dmesg says lo is not Ethernet" 'netdev lo is not an Ethernet device' dmesg
check "no device left after loopback" rdma_dev_absent mrcL
check_output "no socket left after refusals" '^0$' mrc_socket_count

ip link set veth1 mtu 300
check_fails "a netdev MTU too small for MRC is refused" \
	rdma link add mrcS type mrc netdev veth1
check_output "dmesg names the MTU" 'veth1 MTU 300 is too small' dmesg
ip link set veth1 mtu 1500

check "rdma link add mrc0" rdma link add mrc0 type mrc netdev veth0
check_fails "duplicate device name is refused" \
	rdma link add mrc0 type mrc netdev veth1
check_output "dmesg names the duplicate name" 'name mrc0 is already in use' dmesg
check "veth1 carries no device after the duplicate" \
	bash -c '! rdma link show | grep -q "netdev veth1"'
check_fails "second device on the same netdev is refused" \
	rdma link add mrc9 type mrc netdev veth0
check_output "dmesg says veth0 already carries mrc0" \
	'veth0 already carries MRC device mrc0' dmesg
check "no mrc9 left" rdma_dev_absent mrc9
check_output "still exactly one socket" '^1$' mrc_socket_count
check "rdma link delete mrc0" rdma link delete mrc0

# Someone else holds the port in a namespace: MRC cannot start there.
ip netns add nsP
ip link set veth1 netns nsP
ip netns exec nsP ip link set veth1 up
ip netns exec nsP python3 -c '
import socket, time
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.bind(("::", 4792))
open("/tmp/bound", "w").close()
time.sleep(60)' &
holder=$!
wait_until 10 test -e /tmp/bound
check_fails "port already in use in the namespace is refused" \
	ip netns exec nsP rdma link add mrcP type mrc netdev veth1
check_output "dmesg names the port and the error" \
	'cannot open UDP port 4792 for veth1: -98' dmesg
check "no mrcP left" rdma_dev_absent mrcP
kill $holder
wait $holder 2>/dev/null
# The refused device held veth1 and never let go: deleting it then
# waited forever ("unregister_netdevice: waiting for veth1"), in a
# sleep no signal ends, so the delete runs in the background.
ip -n nsP link delete veth1 &
deleter=$!
check "veth1 can be deleted after the refusal: nothing holds it" \
	wait_until 20 bash -c "[ ! -e /proc/$deleter ] ||
		grep -q '^State:.*zombie' /proc/$deleter/status"

check "rmmod mrc" rmmod mrc
check_dmesg_clean "no kernel warning after all refusals"
done_testing
