#!/bin/bash
# Print the Debian 6.1 kernel version to build for and boot: $KVER if set,
# else the running kernel when its headers exist (a real node), else the
# newest installed 6.1 kernel that has both headers and an image.
set -euo pipefail

if [ -n "${KVER:-}" ]; then
	echo "$KVER"
	exit 0
fi
if [ -d "/lib/modules/$(uname -r)/build" ]; then
	uname -r
	exit 0
fi
for d in $(ls -d /lib/modules/6.1.* 2>/dev/null | sort -V -r); do
	v=$(basename "$d")
	if [ -d "$d/build" ] && [ -r "/boot/vmlinuz-$v" ]; then
		echo "$v"
		exit 0
	fi
done
echo "kver: no Debian 6.1 kernel with headers found (run scripts/setup-deps.sh)" >&2
exit 1
