// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MRC retransmission timeout. The formulas are in mrc_rto.h.
 */
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>

#include "mrc_rto.h"

/*
 * Doublings past which the timer is pinned at its ceiling anyway: any
 * RTO is at least MRC_RTO_FLOOR_NS (over 2^21 ns) and at most 2^34 ns, so
 * 24 doublings reach any ceiling without overflowing 64 bits.
 */
#define MRC_RTO_MAX_BACKOFF	24

u64 mrc_rto_from_ib_timeout(u8 timeout)
{
	u64 ns;

	if (!timeout)
		timeout = MRC_RTO_DEFAULT_TIMEOUT;
	timeout = min_t(u8, timeout, MRC_RTO_MAX_TIMEOUT);
	ns = MRC_TS_UNIT_NS << timeout;
	return clamp(ns, MRC_RTO_MIN_NS, MRC_RTO_MAX_NS);
}

/* RTO from the estimate alone; the attribute only before a sample. */
static void mrc_rto_update(struct mrc_rto *rto)
{
	u64 ns;

	if (!rto->has_sample) {
		rto->rto_ns = min(rto->attr_ns, MRC_RTO_INIT_NS);
		return;
	}
	ns = (rto->srtt8 >> 3) + max(MRC_TS_UNIT_NS, rto->rttvar4);
	rto->rto_ns = clamp(ns, MRC_RTO_FLOOR_NS, MRC_RTO_MAX_NS);
}

/*
 * attr * (linear_cnt + 1) + attr * (2^(exp_cnt + 1) - 2). With attr at
 * most 2^34 ns and exp_cnt at most 24 the sum stays below 2^60.
 */
u64 mrc_rto_budget_ns(const struct mrc_rto *rto)
{
	if (rto->exp_cnt >= MRC_RTO_EXP_INFINITE)
		return U64_MAX;
	return rto->attr_ns * (rto->linear_cnt + 1) +
	       rto->attr_ns * ((2ULL << rto->exp_cnt) - 2);
}

/* The longest wait the backoff reaches: the attribute, or a longer RTO. */
static u64 mrc_rto_ceiling_ns(const struct mrc_rto *rto)
{
	return max(rto->rto_ns, rto->attr_ns);
}

void mrc_rto_set_timeout(struct mrc_rto *rto, u8 timeout)
{
	rto->attr_ns = max(mrc_rto_from_ib_timeout(timeout), MRC_RTO_FLOOR_NS);
	mrc_rto_update(rto);
}

int mrc_rto_set_retry(struct mrc_rto *rto, u8 linear_cnt, u8 exp_cnt)
{
	if (linear_cnt > MRC_RTO_MAX_RETRY_CNT || exp_cnt > MRC_RTO_EXP_INFINITE)
		return -EINVAL;
	rto->linear_cnt = linear_cnt;
	rto->exp_cnt = exp_cnt;
	return 0;
}

int mrc_rto_init(struct mrc_rto *rto, u8 timeout, u8 retry_cnt)
{
	if (retry_cnt > MRC_RTO_MAX_RETRY_CNT)
		return -EINVAL;
	*rto = (struct mrc_rto){};
	mrc_rto_set_timeout(rto, timeout);
	/* As a NIC: retry_cnt more intervals of the attribute. */
	return mrc_rto_set_retry(rto, retry_cnt, 0);
}

void mrc_rto_sample(struct mrc_rto *rto, u64 rtt_ns)
{
	u64 srtt, err;

	rtt_ns = min(rtt_ns, MRC_RTO_MAX_NS);
	if (!rto->has_sample) {
		rto->srtt8 = rtt_ns << 3;
		rto->mdev4 = rtt_ns << 1;
		rto->has_sample = true;
	} else {
		srtt = rto->srtt8 >> 3;
		err = rtt_ns > srtt ? rtt_ns - srtt : srtt - rtt_ns;
		/* RTTVAR += (|err| - RTTVAR) / 4, with the old SRTT. */
		rto->mdev4 = rto->mdev4 - (rto->mdev4 >> 2) + err;
		/* SRTT += (R - SRTT) / 8 */
		rto->srtt8 = rto->srtt8 - srtt + rtt_ns;
	}
	rto->mdev4_max = max(rto->mdev4_max, rto->mdev4);
	rto->rttvar4 = max(rto->rttvar4, rto->mdev4_max);
	mrc_rto_update(rto);
}

void mrc_rto_end_round(struct mrc_rto *rto)
{
	if (rto->rttvar4 > rto->mdev4_max)
		rto->rttvar4 -= (rto->rttvar4 - rto->mdev4_max) >> 2;
	rto->mdev4_max = rto->mdev4;
	mrc_rto_update(rto);
}

u64 mrc_rto_timeout_ns(const struct mrc_rto *rto)
{
	u64 ceiling = mrc_rto_ceiling_ns(rto);

	if (rto->backoff >= MRC_RTO_MAX_BACKOFF)
		return ceiling;
	return min(rto->rto_ns << rto->backoff, ceiling);
}

static void mrc_rto_add_wait(struct mrc_rto *rto, u64 waited_ns)
{
	rto->waited_ns = min(rto->waited_ns + min(waited_ns, MRC_RTO_MAX_NS),
			     U64_MAX - MRC_RTO_MAX_NS);
}

bool mrc_rto_on_timeout(struct mrc_rto *rto, u64 waited_ns)
{
	mrc_rto_add_wait(rto, waited_ns);
	if (rto->waited_ns >= mrc_rto_budget_ns(rto) &&
	    rto->retries >= rto->linear_cnt + rto->exp_cnt)
		return true;
	if (rto->retries < U32_MAX)
		rto->retries++;
	if (rto->backoff < MRC_RTO_MAX_BACKOFF &&
	    mrc_rto_timeout_ns(rto) < mrc_rto_ceiling_ns(rto))
		rto->backoff++;
	return false;
}

void mrc_rto_on_probe(struct mrc_rto *rto, u64 waited_ns)
{
	mrc_rto_add_wait(rto, waited_ns);
}

void mrc_rto_on_progress(struct mrc_rto *rto)
{
	rto->waited_ns = 0;
	rto->retries = 0;
	rto->backoff = 0;
}
