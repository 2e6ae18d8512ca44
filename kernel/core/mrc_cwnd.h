/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-QP congestion window: AIMD on loss and ECN (DCTCP's cut at the
 * floor), and a gentler cut when
 * the queueing delay passes a target, in PSNs. Pure arithmetic behind a
 * small interface, so NSCC can replace it later.
 */
#ifndef MRC_CWND_H
#define MRC_CWND_H

#include <linux/types.h>

#define MRC_CWND_MIN		8
#define MRC_CWND_INIT		32
#define MRC_CWND_TRIM_MIN	1	/* trims cut to this (mrc_cwnd_on_trim()) */
/*
 * The marked fraction (alpha, mrc_cwnd_on_marks()) in 1/1024ths, and its
 * moving average's gain, 1/16 per window of data as DCTCP's.
 */
#define MRC_CWND_ALPHA_ONE	1024
#define MRC_CWND_ALPHA_GAIN_SHIFT	4
/*
 * Queueing delay that cuts the window, by default: under the default
 * timeout (16.8 ms), so a standing queue is cut before the round trip
 * grows much past it, and over the 4 ms floor of the estimated RTO, the
 * scale of the CPU stalls a software transport sees: a program
 * busy-polling the only CPU delays every packet by milliseconds without
 * any queue in the network.
 */
#define MRC_CWND_QDELAY_TARGET_TS	8000	/* 1.024 us units: ~8 ms */

/*
 * Queueing delay that ends slow start without a cut (HyStart's idea):
 * doubling past it only fills the bottleneck's buffer until it drops a
 * burst.
 */
#define MRC_CWND_SS_EXIT_TS		4000	/* ~4 ms */

/**
 * struct mrc_cwnd_params - what a CC profile of the window algorithm sets
 * @init: window at the start, PSNs
 * @min: losses, delay and timeouts never shrink the window below this,
 *	PSNs; trims do (mrc_cwnd_on_trim()), and marks (mrc_cwnd_on_marks())
 * @qdelay_ts: queueing delay that cuts the window, 1.024 us units
 */
struct mrc_cwnd_params {
	u32 init;
	u32 min;
	u32 qdelay_ts;
};

/**
 * struct mrc_cwnd - congestion window state
 * @p: parameters, from mrc_cwnd_init_with()
 * @cwnd: PSNs that may be outstanding
 * @ssthresh: slow start ends here
 * @acc: acknowledged PSNs towards the next additive increase
 * @max: the window never grows past this (the send window)
 * @recover: no second decrease until the cumulative ACK passes this PSN
 * @prior_cwnd: @cwnd before the last timeout, for mrc_cwnd_undo()
 * @prior_ssthresh: @ssthresh before the last timeout
 * @round_end: the delay round ends when the cumulative ACK passes it
 * @round_min: lowest queueing delay sampled this round (U32_MAX: none)
 * @alpha: moving average of the fraction of PSNs marked CE per window of
 *	data, in 1/MRC_CWND_ALPHA_ONE
 * @alpha_end: @alpha's window of data ends when the cumulative ACK
 *	passes this PSN
 * @win_acked: PSNs acknowledged in @alpha's current window
 * @win_marked: of those, packets that arrived CE-marked
 */
struct mrc_cwnd {
	struct mrc_cwnd_params p;
	u32 cwnd;
	u32 ssthresh;
	u32 acc;
	u32 max;
	u32 recover;
	u32 prior_cwnd;
	u32 prior_ssthresh;
	u32 round_end;
	u32 round_min;
	u32 alpha;
	u32 alpha_end;
	u32 win_acked;
	u32 win_marked;
};

void mrc_cwnd_default_params(struct mrc_cwnd_params *p);
int mrc_cwnd_check_params(const struct mrc_cwnd_params *p);
void mrc_cwnd_init_with(struct mrc_cwnd *cc, const struct mrc_cwnd_params *p,
			u32 max, u32 next_psn);
void mrc_cwnd_init(struct mrc_cwnd *cc, u32 max, u32 next_psn);
void mrc_cwnd_on_ack(struct mrc_cwnd *cc, u32 acked);
bool mrc_cwnd_on_congestion(struct mrc_cwnd *cc, u32 una, u32 next_psn);
bool mrc_cwnd_on_marks(struct mrc_cwnd *cc, u32 acked, u32 marked, u32 una,
		       u32 next_psn);
bool mrc_cwnd_on_trim(struct mrc_cwnd *cc, u32 una, u32 next_psn);
bool mrc_cwnd_on_delay(struct mrc_cwnd *cc, u32 qdelay_ts, u32 una,
		       u32 next_psn);
void mrc_cwnd_on_timeout(struct mrc_cwnd *cc, u32 next_psn);
void mrc_cwnd_undo(struct mrc_cwnd *cc);

/* PSNs that may be sent now with @outstanding already in flight. */
static inline u32 mrc_cwnd_room(const struct mrc_cwnd *cc, u32 outstanding)
{
	return outstanding >= cc->cwnd ? 0 : cc->cwnd - outstanding;
}

#endif /* MRC_CWND_H */
