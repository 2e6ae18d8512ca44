#!/bin/bash
# Generate module dependency files for a staged install, on the host.
# Running `depmod -a` inside the VM would read every module of the kernel
# over 9p under emulation (minutes); natively it takes a second or two.
# Usage: depmod-stage.sh STAGE KVER
set -euo pipefail

stage=$(realpath "$1")
kver=$2
sys=/lib/modules/$kver
dst=$stage/lib/modules/$kver

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lib/modules/$kver"
cp -al "$sys/kernel" "$tmp/lib/modules/$kver/" 2>/dev/null ||
	cp -r "$sys/kernel" "$tmp/lib/modules/$kver/" 2>/dev/null ||
	ln -s "$sys/kernel" "$tmp/lib/modules/$kver/kernel"
cp "$sys"/modules.order "$sys"/modules.builtin* "$tmp/lib/modules/$kver/"
cp -r "$dst/updates" "$tmp/lib/modules/$kver/updates"
# Test-only modules (make stage: selftests/trimq).
[ ! -d "$dst/extra" ] || cp -r "$dst/extra" "$tmp/lib/modules/$kver/extra"
depmod -b "$tmp" "$kver"
for f in "$tmp/lib/modules/$kver"/modules.*; do
	case $(basename "$f") in
	modules.order|modules.builtin|modules.builtin.modinfo) ;;
	*) cp "$f" "$dst/" ;;
	esac
done
