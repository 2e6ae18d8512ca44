#!/bin/bash
# Install every Debian package the build, the test VM, the tests and the demo
# need. Idempotent: a second run with everything present does no network I/O.
set -euo pipefail

KPKG_IMAGE=linux-image-amd64
KPKG_HEADERS=linux-headers-amd64

PKGS=(
	build-essential cmake pkg-config xz-utils kmod cpio bc bison flex
	libelf-dev libssl-dev python3 python3-yaml python3-pyroute2
	"$KPKG_IMAGE" "$KPKG_HEADERS" linux-source-6.1
	qemu-system-x86 busybox-static
	rdma-core ibverbs-utils ibverbs-providers perftest rdmacm-utils
	libibverbs-dev librdmacm-dev
	libnl-3-dev libnl-genl-3-dev libnl-route-3-dev nlohmann-json3-dev
	libgtest-dev iproute2 iperf3 procps nvme-cli nfs-kernel-server
	linux-perf
	clang libclang-rt-14-dev llvm
)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "setup-deps: missing packages: ${missing[*]}" >&2
	echo "setup-deps: run as root (or via sudo) to install them" >&2
	exit 1
fi

echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# The kernel image is only booted inside qemu: skip initramfs generation
# and bootloader hooks that assume a real machine.
mkdir -p /etc/initramfs-tools /etc/kernel
apt-get update -qq || true
apt-get install -y -qq --no-install-recommends \
	-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
	"${missing[@]}"
