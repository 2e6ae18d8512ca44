#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# iperf3 with a process spinning on the same CPU, as perftest's CQ
# polling does during the RDMA bandwidth steps: the TCP figure those
# steps can be compared with. Usage: iperf3-busy.sh IPERF3-ARGS...
spin() { while :; do :; done; }
spin &
spinner=$!
iperf3 "$@"
rc=$?
kill "$spinner"
wait "$spinner" 2>/dev/null
exit $rc
