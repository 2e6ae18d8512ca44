// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * NSCC (UEC 1.0 section 3.6.13). Each acknowledgment with an RTT sample
 * falls in one of four quadrants, by its CE mark and by its queueing
 * delay against the target:
 *
 *   no mark, delay >= target   fair increase: fi bytes per window
 *   no mark, delay <  target   proportional increase, or fast increase
 *                              after a window at near-zero delay
 *   mark,    delay >= target   multiplicative decrease, once per base RTT
 *   mark,    delay <  target   nothing: the EV is penalised instead
 *
 * Increases accumulate and are applied once per adjustment period or
 * adjust_bytes. QuickAdapt sets the window to what the last period
 * delivered when that is far below the maximum and a loss, a trim or a
 * long delay says the window is far too large. A delay without a mark
 * never shrinks the window: in software it is as often a stalled CPU as
 * a queue.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "mrc_nscc.h"

/**
 * mrc_nscc_default_params() - NSCC's parameters by default
 * @p: filled in
 *
 * UEC's formulas with MRC_NSCC_BASE_RTT_NS, MRC_NSCC_MAX_CWND as 1.5 BDP
 * and MRC_NSCC_NOMINAL_MTU: target = base RTT (no trimming assumed),
 * QuickAdapt over 4 targets, fi = 5 MTU a, eta = 0.15 MTU a,
 * fi_scale = 0.25 a with a = BDP / MRC_NSCC_REF_BDP, gamma 0.8, at most
 * halving.
 */
void mrc_nscc_default_params(struct mrc_nscc_params *p)
{
	/* a = (2/3 max_cwnd) / REF_BDP, in Q16 */
	u64 a_q16 = div_u64((u64)MRC_NSCC_MAX_CWND * 2 * MRC_NSCC_ONE_Q16,
			    3 * MRC_NSCC_REF_BDP);

	p->base_rtt_ns = MRC_NSCC_BASE_RTT_NS;
	p->target_ns = MRC_NSCC_BASE_RTT_NS;
	p->max_cwnd = MRC_NSCC_MAX_CWND;
	p->adjust_bytes = 8 * MRC_NSCC_NOMINAL_MTU;
	p->adjust_period_ns = MRC_NSCC_BASE_RTT_NS;
	p->qa_threshold_ns = 4 * MRC_NSCC_BASE_RTT_NS;
	p->fi = (u32)((5 * MRC_NSCC_NOMINAL_MTU * a_q16) >> 16);
	p->eta = (u32)((15 * MRC_NSCC_NOMINAL_MTU * a_q16 / 100) >> 16);
	p->fi_scale_q16 = (u32)(a_q16 / 4);
	p->gamma_q16 = 52429;		/* 0.8 */
	p->max_md_jump_q16 = MRC_NSCC_ONE_Q16 / 2;
	p->qa_gate = 3;
	p->disable_qa = false;
}

/**
 * mrc_nscc_check_params() - whether parameters make NSCC
 * @p: the parameters
 * @why: set to why not
 *
 * Return: 0, or -EINVAL for a zero time or window, a gain over 1 or a
 * QuickAdapt gate that shifts the window to nothing.
 */
int mrc_nscc_check_params(const struct mrc_nscc_params *p, const char **why)
{
	if (!p->base_rtt_ns || !p->target_ns || !p->adjust_period_ns) {
		*why = "base RTT, target delay and adjust period must be above 0";
		return -EINVAL;
	}
	if (!p->max_cwnd || !p->adjust_bytes) {
		*why = "max window and adjust bytes must be above 0";
		return -EINVAL;
	}
	if (!p->gamma_q16 || p->gamma_q16 > MRC_NSCC_ONE_Q16 ||
	    !p->max_md_jump_q16 || p->max_md_jump_q16 > MRC_NSCC_ONE_Q16) {
		*why = "gamma and max MD jump must be in (0, 1]";
		return -EINVAL;
	}
	if (p->qa_gate > 31) {
		*why = "QuickAdapt gate is a shift of the max window: 0..31";
		return -EINVAL;
	}
	return 0;
}

/*
 * UEC's proportional gain alpha = 4 a b MTU / target, with
 * b = target / 12 us, adds 4 a b MTU (1 - delay / target) bytes per
 * window. b grows with the target: at a software target of 1 ms it would
 * add ~330 packets per round trip. Here b = target / base RTT, which is
 * UEC's b wherever UEC's ratio of target to base RTT holds, at any RTT.
 */
static u32 mrc_nscc_pi_gain(const struct mrc_nscc_params *p, u32 mtu)
{
	u64 a_q16 = div_u64((u64)p->max_cwnd * 2 * MRC_NSCC_ONE_Q16,
			    3 * MRC_NSCC_REF_BDP);
	u64 per_window = (4 * a_q16 * mtu) >> 16;

	per_window = div_u64(per_window * p->target_ns, p->base_rtt_ns);
	return (u32)min_t(u64, per_window, U32_MAX / 2);
}

/**
 * mrc_nscc_init() - start NSCC
 * @cc: state
 * @p: parameters, valid by mrc_nscc_check_params()
 * @mtu: the QP's packet size in bytes
 * @now_ns: the time now
 *
 * There is no slow start: the window starts at its maximum, as UEC's
 * does, and QuickAdapt brings it down to what the path delivers.
 */
void mrc_nscc_init(struct mrc_nscc *cc, const struct mrc_nscc_params *p,
		   u32 mtu, u64 now_ns)
{
	memset(cc, 0, sizeof(*cc));
	cc->p = *p;
	cc->mtu = max(mtu, 1U);
	cc->p.max_cwnd = max(p->max_cwnd, cc->mtu);
	cc->pi_gain = mrc_nscc_pi_gain(p, cc->mtu);
	cc->cwnd = cc->p.max_cwnd;
	cc->base_rtt_ns = p->base_rtt_ns;
	cc->last_adjust_ns = now_ns;
	cc->last_dec_ns = now_ns;
}

/* Byte counters saturate: a period never holds 4 GiB, but stay safe. */
static void mrc_nscc_add(u32 *ctr, u32 n)
{
	*ctr = min_t(u64, (u64)*ctr + n, U32_MAX);
}

static void mrc_nscc_set_cwnd(struct mrc_nscc *cc, u64 cwnd)
{
	cc->cwnd = (u32)clamp_t(u64, cwnd, cc->mtu, cc->p.max_cwnd);
}

/* A moving average over about eight samples: UEC leaves its form open. */
static void mrc_nscc_update_delay(struct mrc_nscc *cc, u32 delay)
{
	s64 diff = (s64)delay - cc->avg_delay_ns;

	cc->last_delay_ns = delay;
	cc->avg_delay_ns = (u32)((s64)cc->avg_delay_ns + diff / 8);
}

/*
 * QuickAdapt: at the end of each period of base RTT + target, if a loss,
 * a trim or a delay over the threshold came and the period delivered
 * less than max_cwnd >> qa_gate, the window becomes what it delivered.
 * Marks on the packets already in flight then say nothing new and are
 * ignored until they are acknowledged.
 *
 * Return: true when the acknowledgment was consumed here.
 */
static bool mrc_nscc_quick_adapt(struct mrc_nscc *cc, bool loss, bool ce,
				 u32 delay, u32 inflight, u64 now_ns)
{
	bool handled = false;
	bool cause;

	if (cc->p.disable_qa)
		return false;
	if (cc->ignored < cc->to_ignore && ce) {
		handled = true;
	} else if (now_ns >= cc->qa_end_ns) {
		cause = cc->trigger_qa || loss ||
			(cc->p.qa_threshold_ns && delay > cc->p.qa_threshold_ns);
		if (cc->qa_end_ns && cause &&
		    cc->achieved < (cc->p.max_cwnd >> cc->p.qa_gate)) {
			mrc_nscc_set_cwnd(cc, cc->achieved);
			cc->to_ignore = inflight;
			cc->ignored = 0;
			cc->trigger_qa = false;
			cc->qa_cuts++;
			handled = true;
		}
		cc->achieved = 0;
		cc->qa_end_ns = now_ns + cc->base_rtt_ns + cc->p.target_ns;
	}
	if (handled) {
		cc->inc = 0;
		cc->received = 0;
	}
	return handled;
}

/*
 * "Near zero" delay: under an eighth of the target, the ratio UEC's
 * 1 us bears to its 9 us target; software jitter is far above 1 us.
 */
static bool mrc_nscc_near_zero(const struct mrc_nscc *cc, u32 delay)
{
	return delay < cc->p.target_ns / 8;
}

static void mrc_nscc_proportional(struct mrc_nscc *cc, u32 bytes, u32 delay)
{
	u64 per_byte;

	if (mrc_nscc_near_zero(cc, delay)) {
		cc->fi_count += bytes;
		if (cc->fi_count > cc->cwnd || cc->fast) {
			mrc_nscc_set_cwnd(cc, (u64)cc->cwnd +
					  (((u64)bytes * cc->p.fi_scale_q16) >> 16));
			cc->fast = true;
			return;
		}
	} else {
		cc->fi_count = 0;
	}
	cc->fast = false;
	per_byte = div_u64((u64)cc->pi_gain * (cc->p.target_ns - delay),
			   cc->p.target_ns);
	cc->inc += per_byte * bytes;
}

static void mrc_nscc_decrease(struct mrc_nscc *cc, u64 now_ns)
{
	u32 avg = cc->avg_delay_ns;
	u32 cut, factor;

	cc->fast = false;
	cc->fi_count = 0;
	if (avg <= cc->p.target_ns || now_ns - cc->last_dec_ns <= cc->base_rtt_ns)
		return;
	cut = (u32)div_u64((u64)cc->p.gamma_q16 * (avg - cc->p.target_ns), avg);
	factor = max(MRC_NSCC_ONE_Q16 - cut, cc->p.max_md_jump_q16);
	mrc_nscc_set_cwnd(cc, ((u64)cc->cwnd * factor) >> 16);
	cc->last_dec_ns = now_ns;
	cc->md_cuts++;
}

static void mrc_nscc_adjust(struct mrc_nscc *cc, u64 now_ns)
{
	u64 cwnd = (u64)cc->cwnd + div64_u64(cc->inc, cc->cwnd);

	if (now_ns - cc->last_adjust_ns >= cc->p.adjust_period_ns) {
		cc->last_adjust_ns = now_ns;
		cwnd += cc->p.eta;
	}
	mrc_nscc_set_cwnd(cc, cwnd);
	cc->inc = 0;
	cc->received = 0;
}

/**
 * mrc_nscc_on_ack() - apply one acknowledgment
 * @cc: state
 * @ack: what it said
 *
 * Without an RTT sample (a retransmission's, or none) it only counts.
 */
void mrc_nscc_on_ack(struct mrc_nscc *cc, const struct mrc_nscc_ack *ack)
{
	u32 n = ack->bytes;
	u32 delay;

	mrc_nscc_add(&cc->ignored, n);
	mrc_nscc_add(&cc->received, n);
	mrc_nscc_add(&cc->achieved, n);
	cc->acked_bytes += n;
	if (ack->ce)
		cc->marked_bytes += n;
	if (!ack->rtt_ns)
		return;
	cc->base_rtt_ns = min(cc->base_rtt_ns, ack->rtt_ns);
	delay = ack->rtt_ns - cc->base_rtt_ns;
	mrc_nscc_update_delay(cc, delay);
	if (mrc_nscc_quick_adapt(cc, false, ack->ce, delay, ack->inflight,
				 ack->now_ns))
		return;
	if (!ack->ce) {
		if (delay >= cc->p.target_ns) {
			cc->fast = false;
			cc->fi_count = 0;
			cc->inc += (u64)cc->p.fi * n;
		} else {
			mrc_nscc_proportional(cc, n, delay);
		}
	} else if (delay >= cc->p.target_ns) {
		mrc_nscc_decrease(cc, ack->now_ns);
	}
	if (ack->now_ns - cc->last_adjust_ns >= cc->p.adjust_period_ns ||
	    cc->received > cc->p.adjust_bytes)
		mrc_nscc_adjust(cc, ack->now_ns);
}

/**
 * mrc_nscc_on_trim() - a switch trimmed a packet of @bytes
 * @cc: state
 * @bytes: the packet's size
 * @inflight: bytes outstanding, the trimmed packet no longer among them
 * @now_ns: the time now
 *
 * A trim is a queue one base RTT deep: it asks QuickAdapt to act, and
 * unless QuickAdapt takes it, the window loses the packet's size.
 */
void mrc_nscc_on_trim(struct mrc_nscc *cc, u32 bytes, u32 inflight,
		      u64 now_ns)
{
	mrc_nscc_update_delay(cc, cc->p.base_rtt_ns);
	mrc_nscc_add(&cc->ignored, bytes);
	cc->trigger_qa = true;
	if (!mrc_nscc_quick_adapt(cc, true, true, 0, inflight, now_ns))
		mrc_nscc_set_cwnd(cc, cc->cwnd > bytes ? cc->cwnd - bytes : 0);
}

/**
 * mrc_nscc_on_loss() - a packet of @bytes was lost (inferred or timed out)
 * @cc: state
 * @bytes: its size
 */
void mrc_nscc_on_loss(struct mrc_nscc *cc, u32 bytes)
{
	mrc_nscc_add(&cc->ignored, bytes);
	mrc_nscc_set_cwnd(cc, cc->cwnd > bytes ? cc->cwnd - bytes : 0);
}
