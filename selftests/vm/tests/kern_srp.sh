# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# vm-timeout: 300
# A kernel consumer on MRC: SCSI RDMA Protocol. The LIO target's SRP
# fabric (ib_srpt) exports a RAM disk over RDMA/CM, the initiator (ib_srp)
# logs in through its add_target file, and 64 MiB written with O_DIRECT
# to the SCSI disk that appears read back byte for byte. The initiator
# registers each command's pages with IB_WR_REG_MR and the target moves
# the data with rdma_rw READs and WRITEs. Both listen in the initial
# namespace on 6.1, so initiator and target share one MRC device, as in
# kern_nvmeof. Configured through configfs and sysfs alone (targetcli is
# not needed).
# shellcheck disable=SC2317 # functions run through check and wait_until
. ../lib.sh

ADDR=10.9.2.1
PORT=5555
CFG=/sys/kernel/config/target
DISK=$CFG/core/rd_mcp_0/mrcdisk

dmesg_mark
kernel_host srp0 "$ADDR"

# sd_mod too: the VM runs no udev to load it when the LUN appears.
check "modprobe ib_srpt, ib_srp and sd_mod" \
	modprobe -a target_core_mod ib_srpt ib_srp sd_mod
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config

# srpt names a port by its GID's interface id, xxxx:xxxx:xxxx:xxxx (an
# RDMA/CM login is looked up there by the initiator's IP address).
gid0=$(tr -d : < /sys/class/infiniband/mrc0/ports/1/gids/0)
WWN=$CFG/srpt/$(echo "${gid0:16}" | sed 's/..../&:/g; s/:$//')
TPG=$WWN/tpg_1
ACL=$TPG/acls/$ADDR

# The target: a 96 MiB RAM disk (LIO's rd_mcp), the srpt fabric (LIO
# registers a fabric when its directory is made), one LUN, an ACL for the
# initiator's address with the LUN mapped, RDMA/CM on $PORT.
target_up() {
	mkdir -p "$DISK" &&
	echo rd_pages=24576 > "$DISK/control" &&
	echo 1 > "$DISK/enable" &&
	mkdir -p "$CFG/srpt" &&
	mkdir "$WWN" "$TPG" "$TPG/lun/lun_0" &&
	ln -s "$DISK" "$TPG/lun/lun_0/mrcdisk" &&
	mkdir "$ACL" "$ACL/lun_0" &&
	ln -s "$TPG/lun/lun_0" "$ACL/lun_0/lun_0" &&
	echo "$PORT" > "$CFG/srpt/discovery_auth/rdma_cm_port" &&
	echo 1 > "$TPG/enable"
}
check "ib_srpt exports a RAM disk over RDMA/CM at $ADDR:$PORT" target_up

# The initiator logs in to the target port srpt derives from the node
# GUID of the first device it served.
guid=$(cat /sys/module/ib_srpt/parameters/srpt_service_guid)
guid=${guid#0x}
check "ib_srp add_target id_ext=$guid,dest=$ADDR:$PORT" \
	bash -c "echo id_ext=$guid,ioc_guid=$guid,dest=$ADDR:$PORT > \
		/sys/class/infiniband_srp/srp-mrc0-1/add_target"
# srp_disk: the block device of the LUN (LIO's vendor string).
srp_disk() {
	local d
	for d in /sys/block/sd*; do
		grep -qx 'LIO-ORG *' "$d/device/vendor" 2>/dev/null &&
			[ -b "/dev/${d##*/}" ] && echo "/dev/${d##*/}" && return
	done
	return 1
}
wait_until 30 srp_disk
blk=$(srp_disk)
check "the LUN appears as a SCSI disk (${blk:-none})" test -b "$blk" ||
	grep -H . /sys/class/scsi_device/*/device/vendor | diag
check_output "its SCSI host is ib_srp's" '^ib_srp$' bash -c \
	"cat /sys/block/${blk##*/}/device/../../scsi_host/*/proc_name"

# 64 MiB of random data in 1 MiB I/Os (kern_nvmeof covers 4 KiB ones).
head -c 64M /dev/urandom > /tmp/srp.src
check_direct_roundtrip "$blk" /tmp/srp.src

reg=$(hw_counter mrc0 mr_fast_reg)
check "the initiator registered its I/Os' pages (mr_fast_reg $reg >= 64)" \
	test "$reg" -ge 64
check "rdma res shows the kernel QPs of ib_srp and ib_srpt" \
	bash -c "rdma res show qp link mrc0/1 | grep -c 'state RTS' |
		 awk '{ exit !(\$1 >= 2) }'"

logout() {
	local p
	for p in /sys/class/srp_remote_ports/*/delete; do
		echo 1 > "$p" || return 1
	done
}
check "the initiator logs out (srp_remote_ports delete)" logout
no_srp_disk() { ! srp_disk; }
check "its SCSI disk goes away" wait_until 30 no_srp_disk
target_down() {
	echo 0 > "$TPG/enable" &&
	rm "$ACL/lun_0/lun_0" && rmdir "$ACL/lun_0" "$ACL" &&
	rm "$TPG/lun/lun_0/mrcdisk" && rmdir "$TPG/lun/lun_0" "$TPG" "$WWN" &&
	rmdir "$CFG/srpt" "$DISK" "${DISK%/*}"
}
check "the target is taken down" target_down
check "rmmod ib_srp ib_srpt" modprobe -r ib_srp ib_srpt
check "rdma link delete mrc0" rdma link delete mrc0
rm -f /tmp/srp.src
ip link del srp0

done_testing
