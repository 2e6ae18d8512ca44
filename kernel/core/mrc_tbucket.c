// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Token bucket arithmetic (mrc_tbucket.h).
 */
#include <linux/math64.h>

#include "mrc_tbucket.h"

/**
 * mrc_tbucket_init() - a full bucket
 * @tb: the bucket
 * @now_ns: the current time
 * @burst: its depth
 */
void mrc_tbucket_init(struct mrc_tbucket *tb, u64 now_ns, u32 burst)
{
	tb->stamp_ns = now_ns;
	tb->tokens = burst;
}

/**
 * mrc_tbucket_take() - take one token if there is one
 * @tb: the bucket
 * @now_ns: the current time, never before an earlier call's
 * @ns_per_token: refill interval, at least 1
 * @burst: depth, at least 1
 *
 * Return: true when the event may happen (a token was taken).
 */
bool mrc_tbucket_take(struct mrc_tbucket *tb, u64 now_ns, u32 ns_per_token,
		      u32 burst)
{
	u64 elapsed = now_ns - tb->stamp_ns;
	u64 add = div64_u64(elapsed, ns_per_token);

	if (add >= burst - tb->tokens) {
		/* Full: time spent full earns nothing. */
		tb->tokens = burst;
		tb->stamp_ns = now_ns;
	} else {
		tb->tokens += add;
		tb->stamp_ns += add * ns_per_token;
	}
	if (!tb->tokens)
		return false;
	tb->tokens--;
	return true;
}
