#!/bin/bash
# Runs as PID 1 inside the test VM, on the overlay over the host root.
# Installs the freshly built stage, runs one test script under a timeout,
# reports its exit status on the console and powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8

arg() {
	tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p" | head -n1
}

finish() {
	printf '\n'
	echo "MRC-VM-EXIT: $1"
	if [ "$1" != 0 ]; then
		echo "MRC-VM-DMESG-BEGIN"
		dmesg
		echo "MRC-VM-DMESG-END"
	fi
	sync
	/bin/busybox poweroff -f
}

# The overlay is already writable, so /tmp stays as the host's (the
# checkout may live there). /run gets a fresh tmpfs so the host's runtime
# state (its /run/netns among it) does not leak in.
mount -t tmpfs tmpfs /run
mkdir -p /run/netns /root
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
hostname mrc-vm
# Kernel messages would interleave with test output; tests read dmesg.
dmesg -n 1
ip link set lo up

stage=$(arg mrcvm.stage)
test=$(arg mrcvm.test)
limit=$(arg mrcvm.timeout)

if [ -n "$stage" ]; then
	# /lib is a symlink into /usr on Debian: keep it one. The stage
	# carries its own modules.dep (made on the host: depmod here would
	# read every module over 9p under emulation).
	tar -C "$stage" -cf - . | tar -C / -xf - --keep-directory-symlink ||
		finish 126
fi

# With slub_debug on the command line (run-vm.sh adds it for the VM
# tests), the slab checks must really be on, and the whole kernel log is
# kept from boot: a test may clear dmesg (dmesg_mark) or never get to its
# own check_dmesg_clean, but a kernel bug report still fails the run.
kcheck=
if [ -n "$(arg slub_debug)" ]; then
	for f in sanity_checks red_zone poison store_user; do
		if [ "$(cat /sys/kernel/slab/kmalloc-16/$f 2>/dev/null)" != 1 ]; then
			echo "guest-init: slub_debug=$(arg slub_debug) but kmalloc-16 $f is not 1"
			finish 125
		fi
	done
	kcheck=/run/kmsg.log
	# A reader the log overtook gets EPIPE: open it again.
	while :; do cat /dev/kmsg 2>/dev/null; sleep 0.1; done > "$kcheck" &
	kmsg_pid=$!
fi

cd "$(dirname "$test")" || finish 127
printf "\nMRC-VM-BEGIN\n"
timeout -k 5 "${limit:-300}" bash "$test"
rc=$?
if [ -n "$kcheck" ]; then
	# shellcheck source=lib.sh
	. "$(dirname "$0")/lib.sh"
	sleep 1
	kill "$kmsg_pid"
	if grep -E "$DMESG_BUGS" "$kcheck" > /run/kmsg.bad; then
		echo "# guest-init: the kernel log has bug reports:"
		sed 's/^[^;]*;/# /' /run/kmsg.bad | head -n 40
		[ "$rc" != 0 ] || rc=3
	fi
fi
finish $rc
