// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * AIMD congestion window. Slow start doubles the window each round trip
 * until ssthresh, then it grows by one PSN per window acknowledged. A
 * loss or an ECN mark halves it, at most once per window of data (the
 * PSNs sent before the reaction), down to the profile's minimum; a
 * timeout drops it to the minimum. At the minimum, marks go on cutting
 * as DCTCP does, by half the marked fraction (mrc_cwnd_on_marks()).
 * A window of data in which even the lowest queueing delay sampled
 * exceeds the target cuts a quarter: without it a loss-free bottleneck
 * queue (a slow NIC's, or a shaper's) grows until the round trip passes
 * the RTO and every window ends in a timeout. The lowest sample,
 * not each one: a standing queue delays every packet, a stalled CPU only
 * some.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>

#include "mrc_cwnd.h"
#include "mrc_psn.h"

/**
 * mrc_cwnd_default_params() - the window's parameters by default
 * @p: filled in: MRC_CWND_INIT, MRC_CWND_MIN, MRC_CWND_QDELAY_TARGET_TS
 */
void mrc_cwnd_default_params(struct mrc_cwnd_params *p)
{
	p->init = MRC_CWND_INIT;
	p->min = MRC_CWND_MIN;
	p->qdelay_ts = MRC_CWND_QDELAY_TARGET_TS;
}

/**
 * mrc_cwnd_check_params() - whether parameters make a window
 * @p: the parameters
 *
 * Return: 0, or -EINVAL unless 1 <= @p->min <= @p->init and
 * @p->qdelay_ts >= 1.
 */
int mrc_cwnd_check_params(const struct mrc_cwnd_params *p)
{
	return p->min && p->min <= p->init && p->qdelay_ts ? 0 : -EINVAL;
}

/**
 * mrc_cwnd_init_with() - start a window with given parameters
 * @cc: state
 * @p: parameters, valid by mrc_cwnd_check_params()
 * @max: largest window (the send window size)
 * @next_psn: PSN the sender will use next
 */
void mrc_cwnd_init_with(struct mrc_cwnd *cc, const struct mrc_cwnd_params *p,
			u32 max, u32 next_psn)
{
	cc->p = *p;
	cc->max = max(max, p->min);
	cc->cwnd = min(cc->max, p->init);
	cc->ssthresh = cc->max;
	cc->acc = 0;
	cc->recover = next_psn;
	cc->round_end = next_psn;
	cc->round_min = U32_MAX;
	cc->alpha = MRC_CWND_ALPHA_ONE;
	cc->alpha_end = next_psn;
	cc->win_acked = 0;
	cc->win_marked = 0;
}

/**
 * mrc_cwnd_init() - start a window with the default parameters
 * @cc: state
 * @max: largest window (the send window size)
 * @next_psn: PSN the sender will use next
 */
void mrc_cwnd_init(struct mrc_cwnd *cc, u32 max, u32 next_psn)
{
	struct mrc_cwnd_params p;

	mrc_cwnd_default_params(&p);
	mrc_cwnd_init_with(cc, &p, max, next_psn);
}

/**
 * mrc_cwnd_on_ack() - grow for newly acknowledged PSNs
 * @cc: state
 * @acked: PSNs the last acknowledgment covered for the first time
 */
void mrc_cwnd_on_ack(struct mrc_cwnd *cc, u32 acked)
{
	if (cc->cwnd < cc->ssthresh) {
		cc->cwnd = min(cc->cwnd + acked, cc->ssthresh);
		return;
	}
	cc->acc += acked;
	while (cc->acc >= cc->cwnd && cc->cwnd < cc->max) {
		cc->acc -= cc->cwnd;
		cc->cwnd++;
	}
	if (cc->cwnd >= cc->max)
		cc->acc = 0;
}

/*
 * Where a cut stops: the profile's floor, or the window itself where
 * trims took it below that (mrc_cwnd_on_trim()); a cut never raises it.
 */
static u32 mrc_cwnd_floor(const struct mrc_cwnd *cc)
{
	return min(cc->p.min, cc->cwnd);
}

/**
 * mrc_cwnd_on_congestion() - halve for a loss or an ECN mark
 * @cc: state
 * @una: oldest unacknowledged PSN
 * @next_psn: PSN the sender will use next
 *
 * Return: true when the window was reduced, false when this congestion
 * belongs to a window already reacted to.
 */
bool mrc_cwnd_on_congestion(struct mrc_cwnd *cc, u32 una, u32 next_psn)
{
	if (mrc_psn_before(una, cc->recover))
		return false;
	cc->ssthresh = max(cc->cwnd / 2, mrc_cwnd_floor(cc));
	cc->cwnd = cc->ssthresh;
	cc->acc = 0;
	cc->recover = next_psn;
	return true;
}

/* A window of data ended: fold its marked fraction into alpha. */
static void mrc_cwnd_update_alpha(struct mrc_cwnd *cc)
{
	u32 frac;

	if (!cc->win_acked)
		return;
	frac = min_t(u64, div_u64((u64)cc->win_marked * MRC_CWND_ALPHA_ONE,
				  cc->win_acked), MRC_CWND_ALPHA_ONE);
	cc->alpha += (frac >> MRC_CWND_ALPHA_GAIN_SHIFT) -
		     (cc->alpha >> MRC_CWND_ALPHA_GAIN_SHIFT);
	cc->win_acked = 0;
	cc->win_marked = 0;
}

/**
 * mrc_cwnd_on_marks() - account an acknowledgment and the marks it echoed
 * @cc: state
 * @acked: PSNs it acknowledged for the first time
 * @marked: packets it reports as arrived CE-marked
 * @una: oldest unacknowledged PSN
 * @next_psn: PSN the sender will use next
 *
 * Above the profile's floor a mark halves the window, as a loss does.
 * At the floor the window goes on shrinking, once per window of data, by
 * alpha / 2 of itself, rounded down, to one PSN at least: N senders each
 * holding a floor of 8 keep 8N packets queued at a shared bottleneck,
 * more than a shallow ECN queue holds for N >= 4, and its marks alone
 * then never empty it. Scaling the cut by the marked fraction (DCTCP's
 * alpha) rather than halving keeps the window near what the queue holds
 * where marks are few, so a flow that is marked now and then keeps its
 * share against one that is not (a TCP flow through the same queue).
 * Losses still stop at the floor: a loss may be no congestion at all.
 *
 * Return: true when the window was reduced.
 */
bool mrc_cwnd_on_marks(struct mrc_cwnd *cc, u32 acked, u32 marked, u32 una,
		       u32 next_psn)
{
	u32 cut;

	cc->win_acked += acked;
	cc->win_marked += marked;
	if (!mrc_psn_before(una, cc->alpha_end)) {
		mrc_cwnd_update_alpha(cc);
		cc->alpha_end = next_psn;
	}
	if (!marked)
		return false;
	if (cc->cwnd > cc->p.min)
		return mrc_cwnd_on_congestion(cc, una, next_psn);
	if (mrc_psn_before(una, cc->recover) || cc->cwnd <= 1)
		return false;
	/*
	 * Rounded down, as DCTCP's: rounding up cut a window of 2 by half
	 * for any mark, starving the smallest windows beside larger ones.
	 */
	cut = cc->cwnd * cc->alpha / (2 * MRC_CWND_ALPHA_ONE);
	if (!cut)
		return false;
	cc->cwnd = max(cc->cwnd - cut, 1U);
	cc->ssthresh = cc->cwnd;
	cc->acc = 0;
	cc->recover = next_psn;
	return true;
}

/**
 * mrc_cwnd_on_trim() - cut for a packet a switch trimmed
 * @cc: state
 * @una: oldest unacknowledged PSN
 * @next_psn: PSN the sender will use next
 *
 * The first trim of a window halves it, as a mark does. A trim within a
 * window already cut says the cut window still overflows the switch's
 * queue, so it costs one PSN more: the trimmed packet is resent into the
 * window, and without this the packets it could not hold would circulate
 * as trims, each taking a header's time on the bottleneck, until the
 * window of data ends (NSCC's trim rule too costs each trim its packet).
 * These cuts go below the profile's floor, down to MRC_CWND_TRIM_MIN: the
 * floor keeps a window that loss (which may be no congestion at all)
 * cannot halve away, but a trim is the switch saying its queue is full,
 * and N senders each holding the floor overflow any queue shallower than
 * N floors (8:1 at a floor of 8 hold 64 packets against 16).
 *
 * Return: true when the window was reduced.
 */
bool mrc_cwnd_on_trim(struct mrc_cwnd *cc, u32 una, u32 next_psn)
{
	if (mrc_cwnd_on_congestion(cc, una, next_psn))
		return true;
	if (cc->cwnd <= MRC_CWND_TRIM_MIN)
		return false;
	cc->cwnd--;
	cc->ssthresh = cc->cwnd;
	cc->acc = 0;
	return true;
}

/**
 * mrc_cwnd_on_delay() - account a queueing delay sample
 * @cc: state
 * @qdelay_ts: the sample's delay above its path's base RTT, 1.024 us units
 * @una: oldest unacknowledged PSN
 * @next_psn: PSN the sender will use next
 *
 * A round ends when @una passes the PSN that was next when it began. If
 * its lowest sample was over MRC_CWND_SS_EXIT_TS, slow start ends; over
 * the target (@cc->p.qdelay_ts), the window also shrinks by a quarter: the
 * queue says the window is past the path's capacity. No cut within a
 * window already cut for a loss.
 *
 * Return: true when the window was reduced.
 */
bool mrc_cwnd_on_delay(struct mrc_cwnd *cc, u32 qdelay_ts, u32 una,
		       u32 next_psn)
{
	bool standing;

	cc->round_min = min(cc->round_min, qdelay_ts);
	if (mrc_psn_before(una, cc->round_end))
		return false;
	standing = cc->round_min > cc->p.qdelay_ts;
	if (cc->round_min > MRC_CWND_SS_EXIT_TS && cc->cwnd < cc->ssthresh)
		cc->ssthresh = cc->cwnd;
	cc->round_min = U32_MAX;
	cc->round_end = next_psn;
	if (!standing || mrc_psn_before(una, cc->recover))
		return false;
	cc->cwnd = max(cc->cwnd - cc->cwnd / 4, mrc_cwnd_floor(cc));
	cc->ssthresh = cc->cwnd;
	cc->acc = 0;
	cc->recover = next_psn;
	return true;
}

/**
 * mrc_cwnd_on_timeout() - collapse after a retransmission timeout
 * @cc: state
 * @next_psn: PSN the sender will use next
 */
void mrc_cwnd_on_timeout(struct mrc_cwnd *cc, u32 next_psn)
{
	cc->prior_cwnd = cc->cwnd;
	cc->prior_ssthresh = cc->ssthresh;
	cc->ssthresh = max(cc->cwnd / 2, mrc_cwnd_floor(cc));
	cc->cwnd = mrc_cwnd_floor(cc);
	cc->acc = 0;
	cc->recover = next_psn;
}

/**
 * mrc_cwnd_undo() - the last timeout was spurious: restore the window
 * @cc: state
 *
 * A packet sent before the timeout was acknowledged after it: the path
 * was slow, not congested, and collapsing the window only adds a burst
 * of needless retransmissions to the delay that caused it.
 */
void mrc_cwnd_undo(struct mrc_cwnd *cc)
{
	cc->cwnd = max(cc->cwnd, cc->prior_cwnd);
	cc->ssthresh = max(cc->ssthresh, cc->prior_ssthresh);
	cc->acc = 0;
}
