# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Unmodified libibverbs programs over MRC between two hosts (network
# namespaces joined by a veth pair), with data verified where the program
# can verify it.
. ../lib.sh

dmesg_mark
ip netns add hostA
ip netns add hostB
veth_pair vethA vethB hostA hostB
ip netns exec hostA rdma link add mrcA type mrc netdev vethA
ip netns exec hostB rdma link add mrcB type mrc netdev vethB

# gid_index DEV ADDR-REGEX: the GID table index of an address.
gid_index() {
	ibv_devinfo -v -d "$1" |
		sed -n "s/.*GID\[ *\([0-9]*\)\]:[[:space:]]*$2, RoCE v2/\1/p" |
		head -n1
}
GA4=$(gid_index mrcA '::ffff:10\.0\.0\.1')
GB4=$(gid_index mrcB '::ffff:10\.0\.0\.2')
GA6=$(gid_index mrcA 'fd00::1')
GB6=$(gid_index mrcB 'fd00::2')

# pair NAME SECONDS SERVER-ARGS -- CLIENT-ARGS: run a server in hostA and a
# client in hostB against it; both must exit 0.
pair() {
	local name=$1 limit=$2 sargs=() cargs=() out srv rc src
	shift 2
	while [ "$1" != -- ]; do sargs+=("$1"); shift; done
	shift
	cargs=("$@")
	timeout "$limit" ip netns exec hostA "${sargs[@]}" > /tmp/srv.log 2>&1 &
	srv=$!
	sleep 1
	out=$(timeout "$limit" ip netns exec hostB "${cargs[@]}" 2>&1)
	rc=$?
	wait $srv
	src=$?
	if [ $rc -eq 0 ] && [ $src -eq 0 ]; then
		ok "$name"
		echo "$out" | tail -n 2 | diag
	else
		not_ok "$name (client rc $rc, server rc $src)"
		{ echo "client: ${cargs[*]}"; echo "$out" | tail -n 15;
		  echo "server:"; tail -n 15 /tmp/srv.log; } | diag
	fi
}

for size in 1 4096 65536; do
	pair "ibv_rc_pingpong IPv4 -s $size -n 100" 60 \
		ibv_rc_pingpong -d mrcA -g "$GA4" -s "$size" -n 100 -- \
		ibv_rc_pingpong -d mrcB -g "$GB4" -s "$size" -n 100 10.0.0.1
done
pair "ibv_rc_pingpong IPv6 -s 4096 -n 100" 60 \
	ibv_rc_pingpong -d mrcA -g "$GA6" -s 4096 -n 100 -- \
	ibv_rc_pingpong -d mrcB -g "$GB6" -s 4096 -n 100 10.0.0.1
pair "ibv_rc_pingpong -e (completion events) -s 4096" 60 \
	ibv_rc_pingpong -d mrcA -g "$GA4" -s 4096 -n 100 -e -- \
	ibv_rc_pingpong -d mrcB -g "$GB4" -s 4096 -n 100 -e 10.0.0.1
pair "ibv_srq_pingpong -s 4096" 60 \
	ibv_srq_pingpong -d mrcA -g "$GA4" -s 4096 -n 100 -- \
	ibv_srq_pingpong -d mrcB -g "$GB4" -s 4096 -n 100 10.0.0.1

for t in ib_write_bw ib_send_bw ib_read_bw ib_atomic_bw; do
	pair "$t" 120 \
		"$t" -d mrcA -x "$GA4" -n 200 -F -- \
		"$t" -d mrcB -x "$GB4" -n 200 -F 10.0.0.1
done
for t in ib_write_lat ib_send_lat ib_read_lat; do
	pair "$t" 120 \
		"$t" -d mrcA -x "$GA4" -n 200 -F -- \
		"$t" -d mrcB -x "$GB4" -n 200 -F 10.0.0.1
done

ip netns del hostA
ip netns del hostB
check_dmesg_clean
done_testing
