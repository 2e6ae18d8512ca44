# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# Every way an MRC device can go away leaves no device, no UDP socket and
# no kernel warning: rdma link delete, deleting the netdev, rmmod.
. ../lib.sh

dmesg_mark
veth_pair veth0 veth1
modprobe mrc

check "rdma link add mrc0" rdma link add mrc0 type mrc netdev veth0
check "rdma link delete mrc0" rdma link delete mrc0
check "mrc0 is gone" rdma_dev_absent mrc0
check_output "no MRC UDP socket after the last device" '^0$' mrc_socket_count

check "re-create mrc0 with the same name" rdma link add mrc0 type mrc netdev veth0
check "second device on the peer netdev" rdma link add mrc1 type mrc netdev veth1
check_output "both devices share one socket" '^1$' mrc_socket_count
check "ip link del veth0 (removes both ends of the pair)" ip link del veth0
wait_until 10 bash -c '! ls /sys/class/infiniband | grep -q mrc'
check "mrc0 is gone with its netdev" rdma_dev_absent mrc0
check "mrc1 is gone with its netdev" rdma_dev_absent mrc1
check_output "no MRC UDP socket left" '^0$' mrc_socket_count
check_no_output "rdma link show lists no MRC device" 'mrc[01]' rdma link show

veth_pair veth2 veth3
check "add mrc2" rdma link add mrc2 type mrc netdev veth2
check "add mrc3" rdma link add mrc3 type mrc netdev veth3
check "rmmod mrc with two devices present" rmmod mrc
check "no MRC device after rmmod" bash -c '! ls /sys/class/infiniband | grep -q mrc'
check_output "no MRC UDP socket after rmmod" '^0$' mrc_socket_count
check "module is gone" bash -c '! grep -qw ^mrc /proc/modules'
check "veth2 still exists after rmmod" ip link show veth2

check "modprobe again and re-create" rdma link add mrc2 type mrc netdev veth2
check "rdma link delete after reload" rdma link delete mrc2
check "rmmod with no device" rmmod mrc
check_dmesg_clean
done_testing
