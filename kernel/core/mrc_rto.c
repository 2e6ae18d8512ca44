// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MRC retransmission timeout. The formulas are in mrc_rto.h.
 */
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>

#include "mrc_rto.h"

/*
 * Doublings past which the timer is pinned at MRC_RTO_MAX_NS anyway: any
 * RTO is at least MRC_RTO_MIN_NS (2^17 ns) and at most 2^34 ns, so 24
 * doublings saturate it without overflowing 64 bits.
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

/* RTO from the estimate, never below the attribute. */
static void mrc_rto_update(struct mrc_rto *rto)
{
	u64 ns;

	if (!rto->has_sample) {
		rto->rto_ns = rto->attr_ns;
		return;
	}
	ns = (rto->srtt8 >> 3) + max(MRC_TS_UNIT_NS, rto->rttvar4);
	ns = clamp(ns, MRC_RTO_FLOOR_NS, MRC_RTO_MAX_NS);
	rto->rto_ns = max(ns, rto->attr_ns);
}

void mrc_rto_set_timeout(struct mrc_rto *rto, u8 timeout)
{
	rto->attr_ns = mrc_rto_from_ib_timeout(timeout);
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
	return mrc_rto_set_retry(rto, 0, retry_cnt);
}

void mrc_rto_sample(struct mrc_rto *rto, u64 rtt_ns)
{
	u64 srtt, err;

	rtt_ns = min(rtt_ns, MRC_RTO_MAX_NS);
	if (!rto->has_sample) {
		rto->srtt8 = rtt_ns << 3;
		rto->rttvar4 = rtt_ns << 1;
		rto->has_sample = true;
	} else {
		srtt = rto->srtt8 >> 3;
		err = rtt_ns > srtt ? rtt_ns - srtt : srtt - rtt_ns;
		/* RTTVAR += (|err| - RTTVAR) / 4, with the old SRTT. */
		rto->rttvar4 = rto->rttvar4 - (rto->rttvar4 >> 2) + err;
		/* SRTT += (R - SRTT) / 8 */
		rto->srtt8 = rto->srtt8 - srtt + rtt_ns;
	}
	mrc_rto_update(rto);
}

u64 mrc_rto_timeout_ns(const struct mrc_rto *rto)
{
	return min(rto->rto_ns << rto->backoff, MRC_RTO_MAX_NS);
}

bool mrc_rto_on_timeout(struct mrc_rto *rto)
{
	u32 allowed = rto->linear_cnt + rto->exp_cnt;

	if (rto->exp_cnt < MRC_RTO_EXP_INFINITE && rto->retries >= allowed)
		return true;
	if (rto->retries < U32_MAX)
		rto->retries++;
	if (rto->retries > rto->linear_cnt &&
	    rto->backoff < MRC_RTO_MAX_BACKOFF)
		rto->backoff++;
	return false;
}

void mrc_rto_on_progress(struct mrc_rto *rto)
{
	rto->retries = 0;
	rto->backoff = 0;
}
