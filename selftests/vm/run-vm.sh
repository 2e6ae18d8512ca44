#!/bin/bash
# Boot the Debian 6.1 kernel under qemu, install the build stage into the
# guest and run one guest test script there.
#
# Usage: run-vm.sh [-t SECONDS] [-s STAGE_DIR] [-n NAME] TEST_SCRIPT...
# Prints the script's output (TAP) and exits with its status. The full
# serial console log of a failed run is kept in $MRC_VM_LOGDIR.
#
# Several scripts run one after the other in one boot (guest-init.sh
# cleans up between them), each under its own "# vm-timeout: N" (else
# -t); each one's output lies between "MRC-VM-TEST-BEGIN PATH" and
# "MRC-VM-TEST-END PATH STATUS SECONDS" lines, and the exit status is the
# last non-zero one.
#
# -n NAME names the VM (default: the script's name): its console log is
# NAME.console.log and the guest sees mrcvm.name=NAME on its command line,
# so several VMs can run side by side. Optional environment:
#   MRC_VM_CPUS, MRC_VM_MEM  vCPUs (default 2) and memory (default 2G)
#   MRC_VM_QEMU_ARGS         extra qemu arguments, split on white space
#                            (e.g. a -netdev/-device pair joining two VMs)
#   MRC_VM_APPEND            extra words for the guest kernel command line
#   MRC_VM_ENV               NAME=VALUE words (NAME starting MRC_) the
#                            guest exports to the tests (e.g. MRC_CUTS=30)
# A test under selftests/vm/tests boots with slub_debug=FZP (MRC_VM_SLUB).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
limit=300
stage=$top/build/stage
name=
usage="usage: $0 [-t SECONDS] [-s STAGE] [-n NAME] TEST..."

while getopts "t:s:n:" opt; do
	case $opt in
	t) limit=$OPTARG ;;
	s) stage=$OPTARG ;;
	n) name=$OPTARG ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
tests=()
for t in "$@"; do
	[ -r "$t" ] || { echo "run-vm: no such test: $t" >&2; exit 2; }
	tests+=("$(realpath "$t")")
done
test=${tests[0]}
[ -d "$stage" ] || { echo "run-vm: stage $stage missing (make stage)" >&2; exit 2; }

kver=$("$here/kver.sh")
cache=${MRC_CACHE:-/var/cache/mrc}
logdir=${MRC_VM_LOGDIR:-$top/build/vm-logs}
mkdir -p "$cache" "$logdir"

initrd=$cache/initramfs-$kver.cpio.gz
if [ ! -s "$initrd" ] || [ "$here/initramfs-init" -nt "$initrd" ] ||
   [ "$here/mkinitramfs.sh" -nt "$initrd" ]; then
	"$here/mkinitramfs.sh" "$kver" "$initrd"
fi

# TCG by default: nested KVM on the build machines hangs at boot.
accel=tcg,thread=multi
if [ "${MRC_VM_ACCEL:-tcg}" = kvm ] && [ -w /dev/kvm ]; then
	accel=kvm
fi

name=${name:-$(basename "$test" .sh)}
log=$logdir/$name.console.log
cmdline="console=ttyS0 quiet panic=-1 loglevel=4 mrcvm.run=$here/guest-init.sh"
cmdline="$cmdline mrcvm.stage=$(realpath "$stage")"
if [ ${#tests[@]} -eq 1 ]; then
	cmdline="$cmdline mrcvm.test=$test mrcvm.timeout=$limit"
else
	# The list lives on the host; the guest reads it through 9p.
	list=$(realpath "$logdir")/$name.tests
	total=0
	for t in "${tests[@]}"; do
		tl=$(sed -n 's/^# vm-timeout: \([0-9]*\)$/\1/p' "$t")
		echo "$t ${tl:-$limit}"
		total=$((total + ${tl:-$limit} + 60))
	done > "$list"
	limit=$total
	cmdline="$cmdline mrcvm.tests=$list"
fi
cmdline="$cmdline mrcvm.name=$name${MRC_VM_APPEND:+ $MRC_VM_APPEND}"
if [ -n "${MRC_VM_ENV:-}" ]; then
	for kv in $MRC_VM_ENV; do
		[[ $kv =~ ^MRC_[A-Z0-9_]+=[A-Za-z0-9_.:/-]*$ ]] ||
			{ echo "run-vm: MRC_VM_ENV: '$kv' is not MRC_NAME=VALUE" >&2; exit 2; }
	done
	cmdline="$cmdline mrcvm.env=$(echo $MRC_VM_ENV | tr ' ' ,)"
fi
# The VM tests run with the slab allocator's checks (sanity checks, red
# zones, poisoning): an overflow or a use after free then leaves a report
# in the kernel log, which fails the test (lib.sh, guest-init.sh). Owner
# tracking (U) adds who allocated and freed to a report at the cost of a
# stack walk per allocation, a third of a test's time: MRC_VM_SLUB=FZPU
# reruns a failure with it. The demo and the benchmarks run without.
case $test in
"$(realpath "$here")"/tests/*) cmdline="$cmdline slub_debug=${MRC_VM_SLUB:-FZP}" ;;
esac
# shellcheck disable=SC2206 # word splitting is the point
extra=(${MRC_VM_QEMU_ARGS:-})

# Stream the guest's test output live (between the markers) while the
# whole console, cleaned of carriage returns and terminal escapes, goes
# to the log. (sed -u, not awk: Debian's mawk reads a pipe in blocks, which
# held every line back until the guest powered off.)
set +e
timeout -k 10 $((limit + 120)) qemu-system-x86_64 \
	-accel "$accel" -m "${MRC_VM_MEM:-2G}" -smp "${MRC_VM_CPUS:-2}" \
	-kernel "/boot/vmlinuz-$kver" -initrd "$initrd" -append "$cmdline" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-nographic -nodefaults -serial stdio -no-reboot -net none "${extra[@]}" \
	< /dev/null 2>&1 |
	sed -u -e 's/\r//g' -e 's/\x1b\[[0-9;?]*[a-zA-Z]//g' -e 's/\x1bc//g' |
	tee "$log" |
	sed -u -n -e '/^MRC-VM-BEGIN$/,/^MRC-VM-EXIT: /{/^MRC-VM-BEGIN$/d;/^MRC-VM-EXIT: /d;p}'
qemu_rc=${PIPESTATUS[0]}
set -e

rc=$(sed -n 's/^MRC-VM-EXIT: \([0-9]*\)$/\1/p' "$log" | tail -n1)
if [ -z "$rc" ]; then
	echo "run-vm: $name: no exit status from the guest (qemu rc $qemu_rc); console log: $log" >&2
	exit 124
fi
if [ "$rc" != 0 ]; then
	echo "run-vm: $name: exit $rc; console log: $log" >&2
elif [ -z "${MRC_VM_KEEP_LOG:-}" ]; then
	rm -f "$log"
fi
exit "$rc"
