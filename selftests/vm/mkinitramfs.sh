#!/bin/bash
# Build the test VM's initramfs: static busybox, the modules needed to mount
# the host root over virtio-9p with an overlay, and our /init.
# Usage: mkinitramfs.sh KVER OUTPUT
set -euo pipefail

kver=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
moddir=/lib/modules/$kver
# Load order matters: each module's dependencies come first.
mods="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev
      virtio_pci netfs fscache 9pnet 9pnet_virtio 9p overlay"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work"/{bin,dev,proc,sys,newroot,host,lib/modules}
cp /bin/busybox "$work/bin/busybox"
for applet in sh mount umount mkdir insmod switch_root cat sleep poweroff \
	      echo grep tr; do
	ln -s busybox "$work/bin/$applet"
done

order=""
for m in $mods; do
	f=$(find "$moddir/kernel" -name "$m.ko" -o -name "$m.ko.xz" \
		-o -name "$m.ko.zst" | head -n1)
	if [ -z "$f" ]; then
		# Built into this kernel: nothing to load.
		continue
	fi
	case $f in
	*.xz) xz -dc "$f" > "$work/lib/modules/$m.ko" ;;
	*.zst) zstd -qdc "$f" > "$work/lib/modules/$m.ko" ;;
	*) cp "$f" "$work/lib/modules/$m.ko" ;;
	esac
	order="$order $m"
done
echo "$order" > "$work/lib/modules/order"
install -m 0755 "$here/initramfs-init" "$work/init"

tmp="$out.tmp.$$"
(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) > "$tmp"
mv "$tmp" "$out"
