# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# rdma_rxe and mrc run side by side in one kernel on different netdevs:
# different UDP ports, and rxe traffic flows while an MRC device exists.
. ../lib.sh

dmesg_mark
veth_pair veth0 veth1

check "rdma link add mrc0 on veth0" rdma link add mrc0 type mrc netdev veth0
check "rdma link add rxe0 on veth1" rdma link add rxe0 type rxe netdev veth1
check_output "both devices listed" 'link mrc0/1.*' rdma link show
check_output "rxe0 listed" 'link rxe0/1.*netdev veth1' rdma link show
check_output "rxe owns UDP 4791" '4791' ss -Huan
check_output "mrc owns UDP 4792" '4792' ss -Huan
check_output "ibv_devinfo still works for rxe0" 'PORT_ACTIVE' ibv_devinfo -d rxe0

gid=$(ibv_devinfo -v -d rxe0 | sed -n 's/.*GID\[ *\([0-9]*\)\]:.*::ffff:10\.0\.0\.2, RoCE v2/\1/p' | head -n1)
timeout 30 ibv_rc_pingpong -d rxe0 -g "${gid:-1}" -n 200 -s 4096 > /tmp/srv.log 2>&1 &
srv=$!
sleep 1
check_output "rxe traffic (ibv_rc_pingpong 4 KiB x 200) with mrc0 present" \
	'iters in' timeout 30 ibv_rc_pingpong -d rxe0 -g "${gid:-1}" -n 200 -s 4096 10.0.0.2
wait $srv
check "the rxe pingpong server finished cleanly" test $? -eq 0
check "mrc0 unaffected" rdma_dev_exists mrc0

check "rdma link delete rxe0" rdma link delete rxe0
check "rdma link delete mrc0" rdma link delete mrc0
check_dmesg_clean
done_testing
