# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash disable=SC2034 # variables used by the guest scripts
# Shared by the two benchmark guests (server.sh, client.sh): parameters
# from the kernel command line, the link and RDMA device setup, and the
# measurement schedule, which both guests walk in the same order.
#
# The guests coordinate over the benchmark link itself: step K of the
# schedule uses TCP port PORT_BASE+K for perftest's (or iperf3's) own
# connection setup. The server runs step K's server under a timeout and
# moves on; the client retries step K's client until that server accepts.
# A step that fails or hangs on one side therefore cannot be confused
# with the next one.

. ../vm/lib.sh
. ./guest.sh

REPS=$(barg reps)
REPS=${REPS:-3}
BW_SECS=$(barg bwsecs)		# perftest -D for the bandwidth tests
BW_SECS=${BW_SECS:-6}
LAT_ITERS=$(barg latiters)	# ib_write_lat -n
LAT_ITERS=${LAT_ITERS:-1000}
TCP_SECS=$(barg tcpsecs)	# iperf3 -t
TCP_SECS=${TCP_SECS:-5}
METRICS=$(barg metrics)		# comma-separated subset of the default
METRICS=${METRICS:-tcp,tcp_busy,write_bw,send_bw,read_bw,write_lat,mp_cpu,mp_bw,mp_blackhole,mp_loss}
METRICS=${METRICS//,/ }

SERVER_IP=10.9.0.1
CLIENT_IP=10.9.0.2
PORT_BASE=20000
# How long one step may run on either side.
STEP_LIMIT=$((BW_SECS + TCP_SECS + 40))

# local_drops: "QDISC SOFTNET" packets this VM dropped so far on its way
# out (eth0's qdiscs) and in (the input backlogs).
local_drops() {
	# The root qdisc's counters include its children's.
	echo "$(tc -s qdisc show dev eth0 | awk '
		/dropped/ && !seen { gsub(/[(),]/, " "); seen = 1
			for (i = 1; i < NF; i++)
				if ($i == "dropped") d = $(i + 1) }
		END { print d + 0 }') $(mp_softnet_drops)"
}

# cpu_busy BEFORE AFTER (cpu_ticks): "B% busy, K% in the kernel" in
# between.
cpu_busy() {
	echo "$1 $2" | awk '{ d = $6 - $3; if (!d) d = 1
		printf "%d%% busy, %d%% in the kernel", 100 * ($4 - $1) / d,
			100 * ($5 - $2) / d }'
}

# hw_counters DEV: "NAME VALUE" lines of DEV's port counters.
hw_counters() {
	local f
	for f in /sys/class/infiniband/"$1"/ports/1/hw_counters/*; do
		[ -f "$f" ] && echo "${f##*/} $(cat "$f")"
	done
}

# hw_counters_delta BEFORE AFTER: the counters that moved, "NAME +N ...".
hw_counters_delta() {
	printf '%s\n--\n%s\n' "$1" "$2" | awk '
		$0 == "--" { after = 1; next }
		!after { b[$1] = $2; next }
		$2 != b[$1] { printf "%s%s +%d", sep, $1, $2 - b[$1]; sep = ", " }'
}

# link_up ADDR: load virtio_net and put ADDR/24 on eth0.
link_up() {
	modprobe virtio_net || return
	wait_until 20 test -e /sys/class/net/eth0 || return
	ip addr add "$1/24" dev eth0 || return
	ip link set eth0 up || return
	wait_until 20 grep -q up /sys/class/net/eth0/operstate
}

# rdma_up ADDR: an MRC device (mrc0) and an rxe device (rxe0) on eth0;
# GIDX_mrc0 and GIDX_rxe0 hold the RoCE v2 GID index of ADDR.
rdma_up() {
	rdma link add mrc0 type mrc netdev eth0 || return
	rdma link add rxe0 type rxe netdev eth0 || return
	rdma_gids "$1"
}

# rdma_gids ADDR: GIDX_mrc0 and GIDX_rxe0 for ADDR, once the devices have it.
rdma_gids() {
	local dev gidx re="::ffff:${1//./\\.}"
	for dev in mrc0 rxe0; do
		wait_until 20 test -n "$(gid_index "$dev" "$re")" || {
			echo "# no RoCE v2 GID for $1 on $dev"
			ibv_devinfo -v -d "$dev" | grep GID | diag
			return 1
		}
		gidx=$(gid_index "$dev" "$re")
		printf -v "GIDX_$dev" %s "$gidx"
	done
}

# The schedule: one "METRIC IMPL REP" line per step. For every metric,
# mrc and rxe alternate, the one going first changing with each
# repetition (and from one metric to the next); each repetition also
# measures TCP once alone and once beside a spinning process (tcp_busy).
# The multipath metrics (mp_*, mp.sh) come after all the others, as they
# rebuild the link: mp_cpu in the first repetition only, mp_blackhole for
# MRC only.
schedule() {
	local r m j
	for ((r = 1; r <= REPS; r++)); do
		j=0
		for m in $METRICS; do
			case $m in
			mp_*) ;;
			tcp | tcp_busy) echo "$m tcp $r" ;;
			*) both "$m" "$r" $((r + j)); j=$((j + 1)) ;;
			esac
		done
	done
	for ((r = 1; r <= REPS; r++)); do
		j=0
		for m in $METRICS; do
			case $m in
			mp_blackhole) echo "$m mrc $r" ;;
			mp_cpu) [ "$r" -gt 1 ] || both "$m" "$r" 1 ;;
			mp_*) both "$m" "$r" $((r + j)); j=$((j + 1)) ;;
			esac
		done
	done
}

# both METRIC REP ORDER: the steps of mrc and rxe, mrc first if ORDER is odd.
both() {
	if (($3 % 2)); then
		printf '%s\n' "$1 mrc $2" "$1 rxe $2"
	else
		printf '%s\n' "$1 rxe $2" "$1 mrc $2"
	fi
}

# bench_cmd METRIC IMPL PORT [SERVER_IP]: the command line of one side of
# a step (the server side without SERVER_IP).
bench_cmd() {
	local metric=$1 impl=$2 port=$3 ip=${4:-} dev gidx
	case $metric in
	tcp | tcp_busy)
		if [ -z "$ip" ]; then
			echo "iperf3 -s -1 -p $port"
		elif [ "$metric" = tcp ]; then
			echo "iperf3 -c $ip -p $port -t $TCP_SECS -J"
		else
			echo "./iperf3-busy.sh -c $ip -p $port -t $TCP_SECS -J"
		fi
		return ;;
	esac
	dev=${impl}0
	gidx=GIDX_$dev
	gidx=${!gidx}
	case $metric in
	write_bw) echo "ib_write_bw -d $dev -x $gidx -s 65536 -D $BW_SECS -F -p $port $ip" ;;
	send_bw) echo "ib_send_bw -d $dev -x $gidx -s 4096 -D $BW_SECS -F -p $port $ip" ;;
	read_bw) echo "ib_read_bw -d $dev -x $gidx -s 65536 -D $BW_SECS -F -p $port $ip" ;;
	write_lat) echo "ib_write_lat -d $dev -x $gidx -s 8 -n $LAT_ITERS -F -p $port $ip" ;;
	esac
}

. ./mp.sh
