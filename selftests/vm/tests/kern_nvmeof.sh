# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 300
# A kernel consumer on MRC: the NVMe over Fabrics target (nvmet-rdma)
# exports a RAM disk, the host (nvme-rdma, `nvme connect -t rdma` from
# nvme-cli) attaches it, and 64 MiB written with O_DIRECT reads back
# byte for byte. The host registers each I/O's pages with IB_WR_REG_MR,
# the target moves the data with rdma_rw READs and WRITEs and answers
# with SEND_WITH_INV, which invalidates the host's MR (or the host posts
# IB_WR_LOCAL_INV). On 6.1 both transports listen in the initial
# namespace, so host and target share one MRC device here and their
# packets cross the loopback device, as blktests runs them on rxe.
# shellcheck disable=SC2317 # functions run through check and wait_until
. ../lib.sh

NQN=mrc-test
CFG=/sys/kernel/config/nvmet
IMG=/dev/ram0
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:5c1d1d2e-6a40-4b7e-9a55-6d7263000001

dmesg_mark
kernel_host nvm0 10.9.0.1

check "modprobe nvmet-rdma and nvme-rdma" \
	modprobe -a nvmet nvmet-rdma nvme-rdma
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config

# The target: one namespace on a 96 MiB RAM disk (brd).
check "modprobe brd: $IMG" modprobe brd rd_nr=1 rd_size=98304
S=$CFG/subsystems/$NQN
P=$CFG/ports/1
target_up() {
	mkdir "$S" && echo 1 > "$S/attr_allow_any_host" &&
	mkdir "$S/namespaces/1" &&
	echo "$IMG" > "$S/namespaces/1/device_path" &&
	echo 1 > "$S/namespaces/1/enable" &&
	mkdir "$P" && echo rdma > "$P/addr_trtype" &&
	echo ipv4 > "$P/addr_adrfam" && echo 10.9.0.1 > "$P/addr_traddr" &&
	echo 4420 > "$P/addr_trsvcid" &&
	ln -s "$S" "$P/subsystems/$NQN"
}
check "nvmet exports $IMG over rdma at 10.9.0.1:4420" target_up

check "nvme connect -t rdma -a 10.9.0.1 -n $NQN" \
	nvme connect -t rdma -a 10.9.0.1 -s 4420 -n "$NQN" -q "$HOSTNQN"
wait_until 30 nvme_dev "$NQN"
blk=$(nvme_dev "$NQN")
check "the namespace appears as a block device (${blk:-none}), transport rdma" \
	test -b "$blk"

# 64 MiB of random data in 1 MiB I/Os, then 2 MiB in 4 KiB ones: each
# 1 MiB I/O is one fast-registered MR of 256 pages.
head -c 64M /dev/urandom > /tmp/nvme.src
check_direct_roundtrip "$blk" /tmp/nvme.src
want=$(sha256sum < /tmp/nvme.src)
check "write 4 KiB I/Os at an offset of 68 MiB" \
	dd if=/tmp/nvme.src of="$blk" bs=4k count=512 seek=17408 \
	oflag=direct status=none
got=$(dd if="$blk" bs=4k count=512 skip=17408 iflag=direct status=none |
	sha256sum)
want2=$(head -c 2M /tmp/nvme.src | sha256sum)
check "read back the 2 MiB of 4 KiB I/Os: they match" test "$got" = "$want2"
check_output "the target's RAM disk holds what the host wrote" \
	"^${want%% *} " bash -c "head -c 64M $IMG | sha256sum"

reg=$(hw_counter mrc0 mr_fast_reg)
inv=$(( $(hw_counter mrc0 mr_remote_inv) + $(hw_counter mrc0 mr_local_inv) ))
check "the host registered each 1 MiB I/O's pages (mr_fast_reg $reg >= 128)" \
	test "$reg" -ge 128
check "and its MRs were invalidated (remote $(hw_counter mrc0 mr_remote_inv), local $(hw_counter mrc0 mr_local_inv))" \
	test "$inv" -ge 128
check "rdma res shows the kernel QPs of nvme-rdma and nvmet-rdma" \
	bash -c "rdma res show qp link mrc0/1 | grep -c 'state RTS' |
		 awk '{ exit !(\$1 >= 4) }'"

check "nvme disconnect -n $NQN" nvme disconnect -n "$NQN"
target_down() {
	rm -f "$P/subsystems/$NQN" && rmdir "$P" &&
	echo 0 > "$S/namespaces/1/enable" && rmdir "$S/namespaces/1" &&
	rmdir "$S"
}
check "the target is taken down" target_down
check "rmmod nvme-rdma nvmet-rdma brd" modprobe -r nvme-rdma nvmet-rdma brd
check "rdma link delete mrc0" rdma link delete mrc0
rm -f /tmp/nvme.src
ip link del nvm0

done_testing
