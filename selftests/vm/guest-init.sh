#!/bin/bash
# Runs as PID 1 inside the test VM, on the overlay over the host root.
# Installs the freshly built stage, runs one test script under a timeout
# (mrcvm.test), or several one after the other (mrcvm.tests: a file
# listing them, one path and time limit a line), reports the exit status
# on the console and powers off.
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

# Settings from the host (run-vm.sh's MRC_VM_ENV), for the tests.
for kv in $(arg mrcvm.env | tr , ' '); do
	export "${kv?}"
done

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
	flags=$(arg slub_debug)
	for f in F:sanity_checks Z:red_zone P:poison U:store_user; do
		case $flags in *"${f%%:*}"*) f=${f#*:} ;; *) continue ;; esac
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

# shellcheck source=lib.sh
DMESG_BUGS=$(. "$(dirname "$0")/lib.sh"; echo "$DMESG_BUGS")

# kernel_bugs FROM: bug reports in the kernel log after its line FROM
# (printed as TAP comments); fails when there are none. A line of our
# own, written to the log now, shows when the reader has caught up with
# everything the test made the kernel say (a fixed pause of 1 s after
# each test cost the suite most of a minute, and proved nothing). The
# mark must never match DMESG_BUGS or lib.sh's DMESG_BAD.
kmsg_marks=0
kernel_bugs() {
	local mark i
	[ -n "$kcheck" ] || return 1
	kmsg_marks=$((kmsg_marks + 1))
	mark="mrc-vm: kernel log read up to here (mark $kmsg_marks, line $1)"
	echo "$mark" > /dev/kmsg
	for ((i = 0; i < 100; i++)); do
		grep -qF "$mark" "$kcheck" && break
		sleep 0.05
	done
	[ "$i" -lt 100 ] ||
		echo "# guest-init: the kernel log reader did not catch up in 5 s"
	tail -n "+$(($1 + 1))" "$kcheck" | grep -E "$DMESG_BUGS" > /run/kmsg.bad ||
		return 1
	echo "# guest-init: the kernel log has bug reports:"
	sed 's/^[^;]*;/# /' /run/kmsg.bad | head -n 40
}

# run_one TEST LIMIT: the test in its directory, under its time limit;
# leftovers of its background jobs are killed with it. Returns its status,
# or 3 when it passed but the kernel logged a bug meanwhile.
run_one() {
	local from=0 rc
	[ -z "$kcheck" ] || from=$(wc -l < "$kcheck")
	cd "$(dirname "$1")" || return 127
	setsid -w timeout -k 5 "$2" bash "$1"
	rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "# guest-init: timed out after $2 s; the kernel log's end:"
		dmesg | tail -n 80 | sed 's/^/# /'
	fi
	if kernel_bugs "$from"; then
		[ "$rc" != 0 ] || rc=3
	fi
	return "$rc"
}

# vm_reset: what one test left behind goes before the next: its
# processes, namespaces, RDMA links, modules and init-namespace links.
vm_reset() {
	local pid i link sid
	# Tests run in sessions of their own (run_one); kernel threads in 0.
	sid=$(ps -o sid= -p $$)
	for pid in $(ps -eo pid=,sid= | awk -v init="$sid" \
		     '$2 != init && $2 != 0 { print $1 }'); do
		kill -KILL "$pid" 2>/dev/null
	done
	for link in $(rdma -j link show 2>/dev/null |
		      grep -o '"ifname":"[^"]*"' | cut -d'"' -f4); do
		rdma link delete "$link" 2>/dev/null
	done
	ip -all netns delete 2>/dev/null
	for i in $(seq 60); do
		rmmod mrc rdma_rxe 2>/dev/null
		grep -qE '^(mrc|rdma_rxe) ' /proc/modules || break
		sleep 0.5
	done
	ip -o link show | awk -F': ' '$2 != "lo" { sub(/@.*/, "", $2); print $2 }' |
		while read -r link; do ip link delete "$link" 2>/dev/null; done
	rm -rf /run/netns/* /tmp/mrc-* 2>/dev/null
	# A test's deliberate errors must not fail the next one's dmesg
	# check; $kcheck keeps the whole log for the bug check.
	dmesg --clear
	cd /
}

if [ -n "$(arg mrcvm.tests)" ]; then
	# One line a test: "PATH LIMIT". Each test's output lies between
	# MRC-VM-TEST-BEGIN and MRC-VM-TEST-END lines naming it, the latter
	# with its exit status and the seconds it took.
	printf "\nMRC-VM-BEGIN\n"
	rc=0
	while read -r t tlimit; do
		echo "MRC-VM-TEST-BEGIN $t"
		t0=$(date +%s)
		run_one "$t" "$tlimit" < /dev/null
		trc=$?
		echo "MRC-VM-TEST-END $t $trc $(($(date +%s) - t0))"
		[ "$trc" = 0 ] || rc=$trc
		vm_reset
	done < "$(arg mrcvm.tests)"
	finish $rc
fi

printf "\nMRC-VM-BEGIN\n"
run_one "$test" "${limit:-300}"
finish $?
