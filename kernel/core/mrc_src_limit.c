// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Per-source token buckets in a fixed table (mrc_src_limit.h).
 */
#include <linux/string.h>

#include "mrc_src_limit.h"

/**
 * mrc_src_limit_init() - an empty table
 * @sl: the table
 * @ns_per_token: each source's refill interval, at least 1
 * @burst: each source's depth, at least 1
 */
void mrc_src_limit_init(struct mrc_src_limit *sl, u32 ns_per_token,
			u32 burst)
{
	memset(sl->b, 0, sizeof(sl->b));
	sl->ns_per_token = ns_per_token;
	sl->burst = burst;
}

static bool mrc_src_addr_equal(const struct in6_addr *a,
			       const struct in6_addr *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/**
 * mrc_src_limit_take() - take one token from a source's bucket
 * @sl: the table
 * @src: the source address
 * @hash: a hash of @src, the same for every call with it
 * @now_ns: the current time, never before an earlier call's
 *
 * A source not in the table takes the place of the entry of its set
 * that was active least recently (an unused one first), with a full
 * bucket.
 *
 * Return: true when @src may have one more event now.
 */
bool mrc_src_limit_take(struct mrc_src_limit *sl, const struct in6_addr *src,
			u32 hash, u64 now_ns)
{
	struct mrc_src_bucket *set, *victim;
	unsigned int i;

	set = &sl->b[(hash & (MRC_SRC_LIMIT_SETS - 1)) * MRC_SRC_LIMIT_WAYS];
	victim = set;
	for (i = 0; i < MRC_SRC_LIMIT_WAYS; i++) {
		if (mrc_src_addr_equal(&set[i].addr, src))
			return mrc_tbucket_take(&set[i].tb, now_ns,
						sl->ns_per_token, sl->burst);
		if (set[i].tb.stamp_ns < victim->tb.stamp_ns)
			victim = &set[i];
	}
	victim->addr = *src;
	mrc_tbucket_init(&victim->tb, now_ns, sl->burst);
	return mrc_tbucket_take(&victim->tb, now_ns, sl->ns_per_token,
				sl->burst);
}
