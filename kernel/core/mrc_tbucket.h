/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A token bucket on a caller-given clock: at most @burst events at once,
 * one more every @ns_per_token. Pure arithmetic, no lock (the caller
 * serialises), so KUnit drives it with made-up times.
 */
#ifndef MRC_TBUCKET_H
#define MRC_TBUCKET_H

#include <linux/types.h>

/**
 * struct mrc_tbucket - a token bucket
 * @stamp_ns: the time @tokens was last brought up to date; time since,
 *	short of one token, is not lost
 * @tokens: events allowed now
 */
struct mrc_tbucket {
	u64 stamp_ns;
	u32 tokens;
};

void mrc_tbucket_init(struct mrc_tbucket *tb, u64 now_ns, u32 burst);
bool mrc_tbucket_take(struct mrc_tbucket *tb, u64 now_ns, u32 ns_per_token,
		      u32 burst);

#endif /* MRC_TBUCKET_H */
