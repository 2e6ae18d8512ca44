# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# MRC devices on netdevs in non-initial network namespaces: each namespace
# gets its own UDP socket, and a namespace can die with its device in it.
. ../lib.sh

dmesg_mark
ip netns add nsA
ip netns add nsB
# One pair per namespace: deleting nsA must not take nsB's netdev along.
veth_pair vethA vethA1 nsA
veth_pair vethB vethB1 nsB

check "rdma link add inside nsA" \
	ip netns exec nsA rdma link add mrcA type mrc netdev vethA
check "rdma link add inside nsB" \
	ip netns exec nsB rdma link add mrcB type mrc netdev vethB
check_output "rdma link show in nsA lists mrcA on vethA" \
	'^link mrcA/1 .*netdev vethA' ip netns exec nsA rdma link show
check_output "ibv_devinfo mrcA: PORT_ACTIVE" 'state:[[:space:]]+PORT_ACTIVE' \
	ip netns exec nsA ibv_devinfo -d mrcA
check_output "nsA has its own MRC socket" '^1$' ip netns exec nsA bash -c \
	". ../lib.sh; mrc_socket_count"
check_output "nsB has its own MRC socket" '^1$' ip netns exec nsB bash -c \
	". ../lib.sh; mrc_socket_count"
check_output "the initial namespace has none" '^0$' mrc_socket_count
check_output "mrc-ip in nsA shows mrcA only" '^mrcA: ' \
	ip netns exec nsA mrc-ip dev show
check_no_output "mrc-ip in nsA does not show mrcB" 'mrcB' \
	ip netns exec nsA mrc-ip dev show
check_output "mrc-ip in the initial namespace shows nothing" '^$' mrc-ip dev show
check_output "mrc-ip -n nsB shows mrcB" '^mrcB: ' mrc-ip -n nsB dev show
check_no_output "mrc-ip -n nsB does not show mrcA" 'mrcA' mrc-ip -n nsB dev show
check_output "mrc-ip -n of a missing namespace fails with exit 2" '^rc=2$' \
	bash -c 'mrc-ip -n nsZ dev show; echo rc=$?'

check "ip netns del nsA with mrcA alive" ip netns del nsA
wait_until 15 rdma_dev_absent mrcA
check "mrcA is gone with its namespace" rdma_dev_absent mrcA
check "mrcB is untouched" rdma_dev_exists mrcB
check "rdma link delete inside nsB" ip netns exec nsB rdma link delete mrcB
check_output "nsB's socket is closed" '^0$' ip netns exec nsB bash -c \
	". ../lib.sh; mrc_socket_count"
check "rmmod mrc" rmmod mrc
check_dmesg_clean
done_testing
