# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# vm-cpus: 1
# vm-group: misc
# libibverbs conformance: mrc-verbs-conform reads the device attributes
# consumers check (ibv_query_device against ibv_query_device_ex and sysfs)
# and calls each verb once on an MRC
# device and on rdma_rxe in the same kernel, and each answer must be the
# one in the table below, which Documentation/admin-guide.rst ("Verbs")
# lists too. "-": the verb is not reached (it needs what the row before
# refused). Both devices talk only to themselves (RC QPs connected to
# their own QPN), so no traffic crosses the veth.
. ../lib.sh

PROG=$MRC_BUILD/selftests/progs/mrc-verbs-conform

# verb | MRC | rxe  (attr_*: device attributes; "same": the two sources
# agree, e.g. ibv_query_device and sysfs)
EXPECTED='
attr_vendor_id               | 0xffffff           | 0xffffff
attr_query_device_ex_orig_attr | same             | same
attr_node_guid_sysfs         | same               | same
attr_sys_image_guid_sysfs    | same               | same
attr_fw_ver_sysfs            | same               | differs
attr_cap_sys_image_guid      | yes                | yes
attr_cap_port_active_event   | yes                | yes
attr_cap_mem_mgt_extensions  | yes                | yes
attr_cap_rc_rnr_nak_gen      | yes                | yes
attr_atomic_cap_hca          | yes                | yes
attr_page_size_cap_has_page  | yes                | yes
attr_max_pkeys_port_table    | same               | differs
attr_completion_timestamp_mask | 0                | 0
query_device_ex              | ok                 | ok
create_cq_ex                 | ok                 | ok
create_cq_ex_timestamp       | errno EOPNOTSUPP   | errno EOPNOTSUPP
modify_cq                    | errno EOPNOTSUPP   | errno EOPNOTSUPP
resize_cq                    | ok                 | ok
rereg_mr                     | errno EOPNOTSUPP   | errno EOPNOTSUPP
alloc_mw                     | ok                 | ok
dealloc_mw                   | ok                 | ok
alloc_dm                     | errno EOPNOTSUPP   | errno EOPNOTSUPP
create_wq                    | errno EOPNOTSUPP   | errno EOPNOTSUPP
create_rwq_ind_table         | errno EOPNOTSUPP   | errno EOPNOTSUPP
open_xrcd                    | errno EOPNOTSUPP   | errno EOPNOTSUPP
alloc_td                     | errno EOPNOTSUPP   | errno EOPNOTSUPP
create_counters              | errno EOPNOTSUPP   | errno EOPNOTSUPP
create_srq_ex                | ok                 | ok
attach_mcast                 | errno EOPNOTSUPP   | ok
detach_mcast                 | errno EOPNOTSUPP   | ok
create_flow                  | errno EOPNOTSUPP   | errno EOPNOTSUPP
query_ece                    | errno EOPNOTSUPP   | errno EOPNOTSUPP
modify_qp_rate_limit         | errno EOPNOTSUPP   | errno EOPNOTSUPP
create_qp_ex                 | ok                 | ok
create_qp_ex_bind_mw         | ok                 | ok
create_qp_ex_atomic_write    | errno EOPNOTSUPP   | ok
create_qp_ex_create_flags    | errno EOPNOTSUPP   | errno EOPNOTSUPP
start_poll                   | ok                 | ok
wr_rdma_write                | ok                 | ok
wc_read_getters              | ok                 | ok
wr_rdma_write_data           | ok                 | ok
wr_send_inline               | ok                 | ok
wr_complete_inline_too_long  | errno ENOSPC       | errno ENOSPC
wr_local_inv                 | ok                 | ok
wr_local_inv_completion      | wc LOC_QP_OP_ERR   | wc LOC_QP_OP_ERR
post_send_local_inv          | ok                 | ok
post_send_local_inv_completion | wc LOC_QP_OP_ERR | wc LOC_QP_OP_ERR
alloc_mw_type1               | ok                 | ok
bind_mw                      | ok                 | ok
'

# expected COLUMN: "verb|answer" lines for column 2 (MRC) or 3 (rxe).
expected() {
	awk -F'|' -v col="$1" 'NF == 3 {
		v = $1; a = $col
		gsub(/^ +| +$/, "", v); gsub(/^ +| +$/, "", a)
		print v "|" a
	}' <<<"$EXPECTED"
}

# compare NAME COLUMN OUTPUT: one check per row of the table, and none of
# OUTPUT's lines left out of it.
compare() {
	local name=$1 col=$2 out=$3 verb want got rows=0
	while IFS='|' read -r verb want; do
		rows=$((rows + 1))
		got=$(sed -n "s/^$verb: //p" <<<"$out")
		[ -n "$got" ] || got=-
		if [ "$got" = "$want" ]; then
			ok "$name $verb: $want"
		else
			not_ok "$name $verb: $want"
			echo "got: $got" | diag
		fi
	done <<<"$(expected "$col")"
	# (Files, not process substitution: the VM has no /dev/fd.)
	expected "$col" | cut -d'|' -f1 | sort > /run/verbs-want
	sed -n 's/^\([a-z_0-9]*\): .*/\1/p' <<<"$out" | sort > /run/verbs-got
	check_output "$name: each of the table's rows compared ($rows)" '^[1-9][0-9]*$' \
		bash -c "[ \$(grep -c . /run/verbs-want) = $rows ] && echo $rows"
	check_no_output "$name: every verb it answered is in the table" '.' \
		comm -13 /run/verbs-want /run/verbs-got
}

dmesg_mark
veth_pair veth0 veth1
check "rdma link add mrc0 on veth0" rdma link add mrc0 type mrc netdev veth0
check "rdma link add rxe0 on veth1" rdma link add rxe0 type rxe netdev veth1
gm=$(gid_index mrc0 '::ffff:10\.0\.0\.1')
gr=$(gid_index rxe0 '::ffff:10\.0\.0\.2')

for rdev in mrc0 rxe0; do
	if [ "$rdev" = mrc0 ]; then gid=$gm col=2; else gid=$gr col=3; fi
	if out=$(timeout 60 "$PROG" "$rdev" "${gid:-1}" 2>&1); then
		ok "mrc-verbs-conform $rdev ran to the end"
	else
		not_ok "mrc-verbs-conform $rdev ran to the end"
	fi
	echo "$out" | diag
	compare "$rdev" "$col" "$out"
done

check "rdma link delete rxe0" rdma link delete rxe0
check "rdma link delete mrc0" rdma link delete mrc0
ip link del veth0
check_dmesg_clean
done_testing
