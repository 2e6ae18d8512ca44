# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash
# What every benchmark guest script needs (common.sh for the two-VM part,
# srv6.sh for the SRv6 VM): its parameters and the CPUs' time.

# barg NAME: the value of bench.NAME= on the kernel command line.
barg() {
	tr ' ' '\n' < /proc/cmdline | sed -n "s/^bench\.$1=//p" | head -n1
}

# cpu_ticks: "BUSY KERNEL TOTAL" jiffies of all CPUs so far (idle and
# iowait are not busy; kernel is system, irq and softirq time).
cpu_ticks() {
	awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i
		print t - $5 - $6, $4 + $7 + $8, t }' /proc/stat
}
