# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 300
# A kernel consumer on MRC: NFS over RDMA. nfsd listens for RPC-over-RDMA
# (svcrdma) on one MRC device, the NFS client mounts its export with
# proto=rdma (rpcrdma, which registers its buffers with IB_WR_REG_MR),
# and a 32 MiB file copied in and out compares byte for byte. As in
# kern_nvmeof, both ends share the initial namespace and one MRC device.
# shellcheck disable=SC2317 # functions run through check
. ../lib.sh

EXP=/tmp/nfs-export
MNT=/tmp/nfs-mnt

dmesg_mark
kernel_host nfs0 10.9.1.1

# The server: NFSv4 only (no rpcbind), a tmpfs export, RDMA on 20049.
server_up() {
	modprobe -a nfsd rpcrdma &&
	{ mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; } &&
	mkdir -p "$EXP" /var/lib/nfs/v4recovery &&
	mount -t tmpfs -o size=128m tmpfs "$EXP" &&
	exportfs -o rw,no_root_squash,insecure,fsid=0 "10.9.1.0/24:$EXP" &&
	rpc.mountd -N 2 -N 3 --no-udp &&
	rpc.nfsd -N 3 -U 2 &&
	echo "rdma 20049" > /proc/fs/nfsd/portlist
}
check "nfsd serves $EXP over RDMA at 10.9.1.1:20049" server_up

mkdir -p "$MNT"
check "mount -t nfs4 -o proto=rdma,port=20049 10.9.1.1:/" \
	timeout 60 mount -t nfs4 -o proto=rdma,port=20049,vers=4.2 \
	10.9.1.1:/ "$MNT"
check_output "the mount is over RDMA" 'proto=rdma' \
	grep " $MNT " /proc/mounts

head -c 32M /dev/urandom > /tmp/nfs.src
want=$(sha256sum < /tmp/nfs.src)
check "copy 32 MiB into the mount" \
	bash -c "mountpoint -q $MNT && cp /tmp/nfs.src $MNT/f"
check "sync it to the server" sync -f "$MNT/f"
check_output "the server's file matches (sha256 ${want%% *})" \
	"^${want%% *} " bash -c "sha256sum < $EXP/f"
echo 3 > /proc/sys/vm/drop_caches
check_output "the file read back through the mount matches" \
	"^${want%% *} " bash -c "mountpoint -q $MNT && sha256sum < $MNT/f"
reg=$(hw_counter mrc0 mr_fast_reg)
check "rpcrdma registered its chunks (mr_fast_reg $reg > 0)" test "$reg" -gt 0

check "umount" umount "$MNT"
server_down() {
	rpc.nfsd 0 && exportfs -ua && pkill -x rpc.mountd &&
	umount "$EXP" && umount /proc/fs/nfsd
}
check "nfsd stops" server_down
check "rmmod nfsd rpcrdma" modprobe -r nfsv4 nfsd rpcrdma
check "rdma link delete mrc0" rdma link delete mrc0
rm -f /tmp/nfs.src
ip link del nfs0

done_testing
