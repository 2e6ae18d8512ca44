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

cd "$(dirname "$test")" || finish 127
printf "\nMRC-VM-BEGIN\n"
timeout -k 5 "${limit:-300}" bash "$test"
finish $?
