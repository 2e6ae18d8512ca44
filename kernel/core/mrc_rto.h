/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * MRC retransmission timeout: timer encoding, RTT estimator, backoff and
 * retry accounting. Integer math only; all times in nanoseconds.
 *
 * Timeout attribute. MRC reads the local ACK timeout t (0..31, as passed
 * to ibv_modify_qp) as 1.024 us * 2^t, not IB's 4.096 us * 2^t:
 *
 *   t' = MRC_RTO_DEFAULT_TIMEOUT (14: 16.78 ms) when t == 0,
 *        min(t, MRC_RTO_MAX_TIMEOUT) otherwise (OCP mrc.h caps t at 24)
 *   attr = clamp(1024 ns << t', MRC_RTO_MIN_NS, MRC_RTO_MAX_NS)
 *
 * IB reads t == 0 as "wait forever"; MRC always runs a timer, so 0 picks
 * the default that perftest also uses. As in IB, the attribute is the
 * least time to wait for an acknowledgment, not the most: a path whose
 * round trip grows past it (a queue, a slow spine) must not make every
 * packet in flight time out.
 *
 * Estimator (RFC 6298 with alpha = 1/8, beta = 1/4, clock granularity
 * G = 1.024 us, the unit of the wire timestamps), for an RTT sample R:
 *
 *   first sample:  SRTT = R, RTTVAR = R / 2
 *   later samples: RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R|  (old SRTT)
 *                  SRTT   = 7/8 SRTT + 1/8 R
 *   RTO = max(attr, clamp(SRTT + max(G, 4 RTTVAR), MRC_RTO_FLOOR_NS,
 *                         MRC_RTO_MAX_NS))
 *
 * MRC_RTO_FLOOR_NS (4 ms) bounds the estimate from below because the
 * CPUs that run a software transport stall for milliseconds under load,
 * and a timeout shorter than a stall fires spuriously.
 *
 * The timer that waits out the RTO runs on the timer wheel
 * (mrc_req_arm_rto()): it fires within a tick of the value computed
 * here, and never within the tick it was armed in, so a timeout below
 * two ticks (8 ms at HZ=250) takes one to two ticks. While the peer may
 * hold our ACKs back for a tick (ping-pong traffic, mrc_dack.h) it waits
 * one tick more.
 *
 * SRTT and RTTVAR are kept scaled by 8 and 4 so the updates need only
 * shifts. Before the first sample RTO = attr: the attribute is both the
 * initial value and the floor of the estimate. Callers take samples only
 * from packets sent once (Karn's rule).
 *
 * Backoff and retries. The armed timer is
 *
 *   timer = min(RTO << backoff, MRC_RTO_MAX_NS)
 *
 * Each expiry counts a retry. The first linear_cnt retries keep the
 * interval, later ones double it (backoff++); the expiry after
 * linear_cnt + exp_cnt retries reports exhaustion (IBV_WC_RETRY_EXC_ERR).
 * ibv_modify_qp's retry_cnt (0..7) means linear_cnt = 0 and
 * exp_cnt = retry_cnt: retry_cnt retries, each interval twice the last.
 * The OCP attribute sets linear_cnt (0..7) and exp_cnt (0..25, 25 =
 * retry forever) directly. An acknowledgment that makes progress resets
 * retries and backoff.
 *
 * No locking inside: the caller serialises all calls on a struct mrc_rto.
 */
#ifndef MRC_RTO_H
#define MRC_RTO_H

#include <linux/types.h>

#define MRC_TS_UNIT_NS		1024ULL	/* wire timestamp unit, 1.024 us */

#define MRC_RTO_DEFAULT_TIMEOUT	14	/* t == 0: 1.024 us * 2^14 = 16.78 ms */
#define MRC_RTO_MAX_TIMEOUT	24	/* OCP cap: 1.024 us * 2^24 = 17.18 s */
#define MRC_RTO_MIN_NS		(MRC_TS_UNIT_NS << 7)	/* 131 us */
#define MRC_RTO_MAX_NS		(MRC_TS_UNIT_NS << MRC_RTO_MAX_TIMEOUT)
#define MRC_RTO_FLOOR_NS	4000000ULL	/* lowest estimate, 4 ms */
#define MRC_RTO_MAX_RETRY_CNT	7	/* ibv retry_cnt, OCP linear_cnt */
#define MRC_RTO_EXP_INFINITE	25	/* OCP exp_cnt: retry forever */

/**
 * struct mrc_rto - timer state of one requester
 * @srtt8: smoothed RTT times 8, ns
 * @rttvar4: RTT variation times 4, ns
 * @rto_ns: current RTO before backoff
 * @attr_ns: floor and initial value, from the timeout attribute
 * @retries: expiries since the last progress (saturating)
 * @linear_cnt: retries at a fixed interval
 * @exp_cnt: retries with doubling intervals after those
 * @backoff: doublings applied to @rto_ns
 * @has_sample: an RTT sample has been taken
 */
struct mrc_rto {
	u64 srtt8;
	u64 rttvar4;
	u64 rto_ns;
	u64 attr_ns;
	u32 retries;
	u8 linear_cnt;
	u8 exp_cnt;
	u8 backoff;
	bool has_sample;
};

/**
 * mrc_rto_from_ib_timeout() - ACK timeout attribute to nanoseconds
 * @timeout: attribute t; 0 selects %MRC_RTO_DEFAULT_TIMEOUT
 *
 * Return: 1.024 us * 2^t in ns, t capped at %MRC_RTO_MAX_TIMEOUT, clamped
 * to [%MRC_RTO_MIN_NS, %MRC_RTO_MAX_NS].
 */
u64 mrc_rto_from_ib_timeout(u8 timeout);

/**
 * mrc_rto_init() - set up a timer from the ibv_modify_qp attributes
 * @rto: timer state
 * @timeout: ACK timeout attribute (see mrc_rto_from_ib_timeout())
 * @retry_cnt: retries before reporting failure, 0..7
 *
 * Forgets any RTT samples, retries and backoff.
 *
 * Return: 0, or -EINVAL when @retry_cnt is over 7.
 */
int mrc_rto_init(struct mrc_rto *rto, u8 timeout, u8 retry_cnt);

/**
 * mrc_rto_set_timeout() - change the timeout attribute
 * @rto: timer state
 * @timeout: ACK timeout attribute (see mrc_rto_from_ib_timeout())
 *
 * Keeps the RTT estimate and applies the new floor to the RTO.
 */
void mrc_rto_set_timeout(struct mrc_rto *rto, u8 timeout);

/**
 * mrc_rto_set_retry() - set the OCP linear and exponential retry limits
 * @rto: timer state
 * @linear_cnt: retries at a fixed interval, 0..7
 * @exp_cnt: retries with doubling intervals, 0..25 (25: without limit)
 *
 * Return: 0, or -EINVAL for a value out of range.
 */
int mrc_rto_set_retry(struct mrc_rto *rto, u8 linear_cnt, u8 exp_cnt);

/**
 * mrc_rto_sample() - feed an RTT measurement to the estimator
 * @rto: timer state
 * @rtt_ns: the RTT of a packet sent once; capped at %MRC_RTO_MAX_NS
 */
void mrc_rto_sample(struct mrc_rto *rto, u64 rtt_ns);

/**
 * mrc_rto_timeout_ns() - interval to arm the retransmission timer with
 * @rto: timer state
 *
 * Return: the RTO with backoff applied, at most %MRC_RTO_MAX_NS.
 */
u64 mrc_rto_timeout_ns(const struct mrc_rto *rto);

/**
 * mrc_rto_on_timeout() - account for an expiry of the timer
 * @rto: timer state
 *
 * Counts a retry and applies the backoff for the next interval.
 *
 * Return: true when retries are exhausted: the caller stops retrying
 * and completes with a retry-exceeded error; false to retransmit and
 * re-arm with mrc_rto_timeout_ns().
 */
bool mrc_rto_on_timeout(struct mrc_rto *rto);

/**
 * mrc_rto_on_progress() - an acknowledgment advanced the send window
 * @rto: timer state
 *
 * Resets the retry count and the backoff.
 */
void mrc_rto_on_progress(struct mrc_rto *rto);

/**
 * mrc_ts_to_ns() - wire timestamp difference to nanoseconds
 * @units: difference of two 1.024 us timestamps, taken modulo 2^32
 *         (``now - echoed``) so it is right across the wrap
 *
 * Return: @units in ns.
 */
static inline u64 mrc_ts_to_ns(u32 units)
{
	return units * MRC_TS_UNIT_NS;
}

/**
 * mrc_rto_srtt_ns() - smoothed RTT
 * @rto: timer state
 *
 * Return: SRTT in ns, 0 before the first sample.
 */
static inline u64 mrc_rto_srtt_ns(const struct mrc_rto *rto)
{
	return rto->srtt8 >> 3;
}

/**
 * mrc_rto_rttvar_ns() - RTT variation
 * @rto: timer state
 *
 * Return: RTTVAR in ns, 0 before the first sample.
 */
static inline u64 mrc_rto_rttvar_ns(const struct mrc_rto *rto)
{
	return rto->rttvar4 >> 2;
}

/**
 * mrc_rto_base_ns() - current RTO before backoff
 * @rto: timer state
 *
 * Return: the RTO in ns.
 */
static inline u64 mrc_rto_base_ns(const struct mrc_rto *rto)
{
	return rto->rto_ns;
}

/**
 * mrc_rto_retries() - expiries since the last progress
 * @rto: timer state
 *
 * Return: the retry count.
 */
static inline u32 mrc_rto_retries(const struct mrc_rto *rto)
{
	return rto->retries;
}

#endif /* MRC_RTO_H */
