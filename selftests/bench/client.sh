# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash disable=SC2154 # GIDX_* come from rdma_up
# Benchmark guest "client" (10.9.0.2): runs the client side of every step
# of the schedule against the server guest and prints one line per
# sample, which the host collects:
#   [K/N] METRIC IMPL rep R: VALUE UNIT    (VALUE "null" when it failed)
. ./common.sh

link_up "$CLIENT_IP" || { echo "# client: eth0 did not come up"; exit 1; }
rdma_up "$CLIENT_IP" || { echo "# client: RDMA devices failed"; exit 1; }
echo "# client: up, mrc0 GID $GIDX_mrc0, rxe0 GID $GIDX_rxe0"
# The server boots alongside; without a link there is nothing to measure.
if ! wait_until 120 busybox ping -c 1 -W 1 "$SERVER_IP"; then
	echo "# client: no ping reply from $SERVER_IP: the link is down"
	ip -s link show eth0 | diag
	exit 1
fi

# not_there_yet OUTPUT: the server of this step is not listening yet.
not_there_yet() {
	grep -qE "Couldn't connect to|Unable to init the socket|Connection refused|unable to connect to server" <<<"$1"
}

# value METRIC OUTPUT: the figure of a finished run, empty if none.
#   bandwidth tests: the "BW average[MB/sec]" column (MiB/s)
#   write_lat: t_typical[usec]
#   tcp, tcp_busy: iperf3's received bits_per_second, in MiB/s as
#   perftest counts
value() {
	case $1 in
	# A zero average is perftest's clock calibration failing in the
	# guest, not a measurement: no figure (why() says so).
	*_bw) awk '$1 ~ /^(65536|4096)$/ && NF >= 5 { v = $4 }
		   END { if (v + 0 > 0) print v }' <<<"$2" ;;
	write_lat) awk '$1 == 8 && NF >= 6 { v = $5 } END { print v }' <<<"$2" ;;
	tcp | tcp_busy) awk '/"sum_received"/ { r = 1 }
		  r && /"bits_per_second"/ { gsub(/[^0-9.eE+-]/, "", $2);
		    printf "%.2f\n", $2 / 8 / 1048576; exit }' <<<"$2" ;;
	esac
}

# why RC ERR OUT: one line saying why a run gave no figure.
why() {
	local st line
	case $1 in
	124 | 137) echo "timed out after ${STEP_LIMIT}s"; return ;;
	esac
	line=$(grep -m1 -oE 'Failed status [0-9]+|"error":.*|Couldn.t [^:]*|Unable [^:]*|Correlation coefficient r\^2: [0-9.]+' <<<"$2
$3")
	st=${line#Failed status }
	case $line in
	"Failed status "*)
		case $st in
		4) st="local protection error" ;;
		5) st="work request flushed" ;;
		9) st="remote invalid request" ;;
		10) st="remote access error" ;;
		11) st="remote operation error" ;;
		12) st="transport retry counter exceeded" ;;
		13) st="RNR retry counter exceeded" ;;
		*) st= ;;
		esac
		echo "completion $line${st:+: $st}" ;;
	# perftest re-measures the CPU clock for its report and, with -F, uses
	# a clock of 0 when the fit is poor (a few ms of stall under TCG on a
	# busy host): the traffic ran, only the figure is lost.
	"Correlation coefficient"*)
		echo "perftest's clock calibration failed (${line#Correlation coefficient }, below 0.9): traffic ran, figure lost" ;;
	"") line=$(grep -m1 -E '^ *(65536|4096) ' <<<"$3")
	    if [ -n "$line" ]; then
		echo "exit status $1, no usable figure: '$(tr -s ' \t' ' ' <<<"$line")'"
	    else
		echo "exit status $1, no figure in the output"
	    fi ;;
	*) echo "$line" | tr -d '"' ;;
	esac
}

unit() {
	case $1 in write_lat) echo usec ;; *) echo MiB/s ;; esac
}

mapfile -t steps <<<"$(schedule)"
n=${#steps[@]}
k=0
measured=0
mp=
for step in "${steps[@]}"; do
	read -r metric impl rep <<<"$step"
	k=$((k + 1))
	case $metric in
	mp_*)
		if [ -z "$mp" ]; then
			echo "# client: building the multipath topology (hostA and the routers)"
			mp=up
			mp_client_up || { mp=failed; echo "# client: no multipath topology"; }
		fi
		if [ $mp = failed ]; then
			echo "[$k/$n] $metric $impl rep $rep: null (no multipath topology)"
		elif mp_client_step "$metric" "$impl" "$rep" "$k" "$n"; then
			measured=$((measured + 1))
		fi
		continue ;;
	esac
	cmd=$(bench_cmd "$metric" "$impl" $((PORT_BASE + k)) "$SERVER_IP")
	# Before the counters: perf's own set-up is not the step's.
	perf_start
	drops_before=$(local_drops)
	ticks0=$(cpu_ticks)
	counters=$(hw_counters mrc0)
	# MRC's QP counters halfway through a bandwidth run, for the log:
	# they tell timeouts and losses apart when a figure is low. Parsed
	# after the run (mp_qp_attrs_raw says why).
	sampler=
	if [ "$impl" = mrc ] && [[ $metric == *_bw ]]; then
		(sleep $((BW_SECS / 2 + 2)); mp_qp_attrs_raw mrc0) > /tmp/qp.raw &
		sampler=$!
	fi
	# The server may still be finishing an earlier step that failed
	# here (up to its timeout) or still booting.
	deadline=$((SECONDS + STEP_LIMIT + 60))
	tries=0
	while :; do
		tries=$((tries + 1))
		# stderr apart: stdout reaches the pipe only at exit, so a
		# mixed capture would put the error before the banner.
		# shellcheck disable=SC2086 # the command is split on purpose
		out=$(timeout -k 5 "$STEP_LIMIT" $cmd 2>/tmp/step.err)
		rc=$?
		err=$(cat /tmp/step.err)
		v=
		if [ $rc -eq 0 ]; then
			v=$(value "$metric" "$out")
		fi
		# (iperf3 -J exits 0 when it cannot connect.)
		if [ -n "$v" ] || ! not_there_yet "$out$err" ||
		   [ $SECONDS -ge $deadline ]; then
			break
		fi
		sleep 0.5
	done
	perf_stop "[$k/$n] client"
	if [ -n "$sampler" ]; then
		wait "$sampler"
		echo "# [$k/$n] mrc QP mid-run: $(mp_qp_attrs_parse < /tmp/qp.raw)"
	fi
	read -r qd sd <<<"$(local_drops)"
	read -r qd0 sd0 <<<"$drops_before"
	echo "# [$k/$n] client drops during the run: qdisc $((qd - qd0)), softnet $((sd - sd0)); CPU $(cpu_busy "$ticks0" "$(cpu_ticks)")"
	[ "$impl" = mrc ] &&
		echo "# [$k/$n] client mrc0 counters: $(hw_counters_delta "$counters" "$(hw_counters mrc0)")"
	if [ -n "$v" ]; then
		measured=$((measured + 1))
		echo "[$k/$n] $metric $impl rep $rep: $v $(unit "$metric")"
	else
		echo "[$k/$n] $metric $impl rep $rep: null ($(why "$rc" "$err" "$out"))"
		{ echo "$cmd"; echo "$err" | tail -n 10;
		  echo "$out" | grep -Ev '^ *$|^ *-+$' | tail -n 4;
		  echo "kernel log:"; dmesg | tail -n 5; } | diag
	fi
done
echo "# client: $measured of $n samples measured"
