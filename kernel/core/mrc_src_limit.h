/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A token bucket per source address, in a table of fixed size: what a
 * flood of packets from many addresses can cost is the table, never
 * more memory. The table is set associative; an address not in its set
 * takes the place of the least recently active of the set's entries
 * and starts with a full bucket. Pure arithmetic on a caller-given
 * clock and hash (keyed by the caller, so that a sender cannot choose
 * addresses that meet in one set); the caller serialises.
 */
#ifndef MRC_SRC_LIMIT_H
#define MRC_SRC_LIMIT_H

#include <linux/in6.h>
#include <linux/types.h>

#include "mrc_tbucket.h"

#define MRC_SRC_LIMIT_SETS	32	/* a power of 2 */
#define MRC_SRC_LIMIT_WAYS	4
#define MRC_SRC_LIMIT_ENTRIES	(MRC_SRC_LIMIT_SETS * MRC_SRC_LIMIT_WAYS)

/**
 * struct mrc_src_bucket - one source address and its bucket
 * @addr: the address (IPv4 as IPv4-mapped IPv6); all zero when unused
 * @tb: its bucket; @tb.stamp_ns is also when the entry was last active
 */
struct mrc_src_bucket {
	struct in6_addr addr;
	struct mrc_tbucket tb;
};

/**
 * struct mrc_src_limit - per-source token buckets
 * @ns_per_token: each source's refill interval
 * @burst: each source's depth
 * @b: MRC_SRC_LIMIT_SETS sets of MRC_SRC_LIMIT_WAYS entries
 */
struct mrc_src_limit {
	u32 ns_per_token;
	u32 burst;
	struct mrc_src_bucket b[MRC_SRC_LIMIT_ENTRIES];
};

void mrc_src_limit_init(struct mrc_src_limit *sl, u32 ns_per_token,
			u32 burst);
bool mrc_src_limit_take(struct mrc_src_limit *sl, const struct in6_addr *src,
			u32 hash, u64 now_ns);

#endif /* MRC_SRC_LIMIT_H */
