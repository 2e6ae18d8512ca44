# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash disable=SC2154 # GIDX_* come from rdma_up
# Benchmark guest "server" (10.9.0.1): runs the server side of every step
# of the schedule, each under a timeout, in the client's order.
. ./common.sh

link_up "$SERVER_IP" || { echo "# server: eth0 did not come up"; exit 1; }
rdma_up "$SERVER_IP" || { echo "# server: RDMA devices failed"; exit 1; }
echo "# server: up, mrc0 GID $GIDX_mrc0, rxe0 GID $GIDX_rxe0"

k=0
mp=
while read -r metric impl rep; do
	k=$((k + 1))
	limit=$STEP_LIMIT
	case $metric in
	mp_*)
		if [ -z "$mp" ]; then
			echo "# server: joining the multipath topology as hostB"
			mp=up
			mp_server_up < /dev/null || { mp=failed; echo "# server: no multipath topology"; }
		fi
		[ $mp = up ] || continue
		cmd=$(mp_server_cmd "$impl" $((PORT_BASE + k)))
		limit=$((MPB_STEP_LIMIT + 10)) ;;
	*) cmd=$(bench_cmd "$metric" "$impl" $((PORT_BASE + k))) ;;
	esac
	drops=
	[ "$mp" = up ] && drops=$(mp_server_drops)
	# Before the counters: perf's own set-up is not the step's.
	perf_start
	counters=$(hw_counters mrc0)
	local0=$(local_drops)
	ticks0=$(cpu_ticks)
	# shellcheck disable=SC2086 # the command is split on purpose
	timeout -k 5 "$limit" $cmd < /dev/null > /tmp/step.out 2> /tmp/step.err
	rc=$?
	perf_stop "server: step $k"
	[ -n "$drops" ] && drops="; dropped (softnet, links): $(mp_delta "$drops" "$(mp_server_drops)")"
	echo "# server: step $k $metric $impl rep $rep: rc $rc$drops"
	read -r qd sd <<<"$(local_drops)"
	read -r qd0 sd0 <<<"$local0"
	echo "# server: drops during step $k: qdisc $((qd - qd0)), softnet $((sd - sd0)); CPU $(cpu_busy "$ticks0" "$(cpu_ticks)")"
	[ "$impl" = mrc ] &&
		echo "# server: mrc0 counters: $(hw_counters_delta "$counters" "$(hw_counters mrc0)")"
	if [ $rc -ne 0 ]; then
		{ tail -n 10 /tmp/step.err; tail -n 2 /tmp/step.out; } | diag
	fi
done <<<"$(schedule)"
echo "# server: done"
