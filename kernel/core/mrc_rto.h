/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * MRC retransmission timeout: timer encoding, RTT estimator, backoff and
 * retry accounting. Integer math only; all times in nanoseconds.
 *
 * Two rules, kept apart (Documentation/multipath.rst): the timer that
 * resends follows the path's round trip; the QP's timeout and retry
 * attributes only bound how long it keeps trying.
 *
 * Timeout attribute. MRC reads the local ACK timeout t (0..31, as passed
 * to ibv_modify_qp) as 1.024 us * 2^t, not IB's 4.096 us * 2^t:
 *
 *   t' = MRC_RTO_DEFAULT_TIMEOUT (14: 16.78 ms) when t == 0,
 *        min(t, MRC_RTO_MAX_TIMEOUT) otherwise (OCP mrc.h caps t at 24)
 *   attr = max(clamp(1024 ns << t', MRC_RTO_MIN_NS, MRC_RTO_MAX_NS),
 *              MRC_RTO_FLOOR_NS)
 *
 * IB reads t == 0 as "wait forever"; MRC always runs a timer, so 0 picks
 * the default that perftest also uses. No attribute is read below the
 * timer's floor (below).
 *
 * Estimator (RFC 6298 with alpha = 1/8, beta = 1/4, clock granularity
 * G = 1.024 us, the unit of the wire timestamps), for an RTT sample R:
 *
 *   first sample:  SRTT = R, RTTVAR = R / 2
 *   later samples: RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R|  (old SRTT)
 *                  SRTT   = 7/8 SRTT + 1/8 R
 *   RTO = clamp(SRTT + max(G, 4 HELD), MRC_RTO_FLOOR_NS, MRC_RTO_MAX_NS)
 *
 * where HELD is RTTVAR held over the round trip (below), and before the
 * first sample RTO = min(attr, MRC_RTO_INIT_NS). The RTO does not depend
 * on the attribute: rdma_cm sets about half a second (t = 19), NCCL four
 * (t = 22), and a timer that waited that long would turn every tail loss
 * into a stall of the application.
 *
 * MRC_RTO_FLOOR_NS (4 ms) bounds the RTO from below because the CPUs
 * that run a software transport stall for milliseconds under load, and
 * a timeout shorter than a stall fires spuriously.
 *
 * The timer that waits out the RTO runs on the timer wheel
 * (mrc_req_arm_rto()): it fires within a tick of the value computed
 * here, and never within the tick it was armed in, so a timeout below
 * two ticks (8 ms at HZ=250) takes one to two ticks. While the peer may
 * hold our ACKs back for a tick (ping-pong traffic, mrc_dack.h) it waits
 * one tick more.
 *
 * RTTVAR as RFC 6298 defines it forgets a deviation within a few
 * samples, and MRC takes a sample from nearly every ACK: a queue (or a
 * CPU) that delays one packet in each round trip raised the variation
 * for a fraction of that round trip, and the timer then fired on the
 * next such delay although nothing was lost. So the RTO uses HELD, the
 * largest RTTVAR of the round trip (as Linux TCP does): it rises at once
 * with RTTVAR, and when a round trip ends (mrc_rto_end_round():
 * everything sent at its start was acknowledged) falls by a quarter of
 * its excess over the largest RTTVAR of that round trip.
 *
 * SRTT and RTTVAR are kept scaled by 8 and 4 so the updates need only
 * shifts. Callers take samples only where the echo names the copy
 * answered: an echoed send time does, each copy carrying its own; a READ
 * response echoes none, and is timed only when its request went once
 * (Karn's rule).
 *
 * Backoff. The armed timer is
 *
 *   timer = min(RTO << backoff, max(RTO, attr), MRC_RTO_MAX_NS)
 *
 * Each expiry doubles the wait (backoff++) until it reaches the
 * attribute: a path that stays silent is tried again no less often than
 * a NIC with that attribute would. An RTO above the attribute (a round
 * trip longer than it) is never cut.
 *
 * Budget. The attributes bound the time without progress, as the
 * expiries of a NIC's timer would take:
 *
 *   budget = attr * (linear_cnt + 1) + attr * (2^(exp_cnt + 1) - 2)
 *
 * ibv_modify_qp's retry_cnt (0..7) sets linear_cnt = retry_cnt and
 * exp_cnt = 0, so budget = attr * (retry_cnt + 1). The OCP attribute sets
 * linear_cnt (0..7) and exp_cnt (0..25, 25 = retry forever) directly:
 * linear_cnt waits of attr, then exp_cnt doubling ones. The caller
 * reports how long each expired interval really lasted (a timer-wheel
 * timer fires late by up to a tick or two). Exhaustion
 * (IBV_WC_RETRY_EXC_ERR) takes both the budget spent since the last
 * progress and linear_cnt + exp_cnt retries: a round trip longer than
 * the attribute gets as many tries as a NIC timer at that round trip
 * would, not a single one. An acknowledgment that makes progress resets
 * the time, the retry count and the backoff.
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
#define MRC_RTO_FLOOR_NS	4000000ULL	/* lowest timer, 4 ms */
#define MRC_RTO_INIT_NS		(MRC_TS_UNIT_NS << MRC_RTO_DEFAULT_TIMEOUT)
#define MRC_RTO_MAX_RETRY_CNT	7	/* ibv retry_cnt, OCP linear_cnt */
#define MRC_RTO_EXP_INFINITE	25	/* OCP exp_cnt: retry forever */

/**
 * struct mrc_rto - timer state of one requester
 * @srtt8: smoothed RTT times 8, ns
 * @mdev4: RTT variation (RFC 6298's RTTVAR) times 4, ns
 * @mdev4_max: the largest @mdev4 of the current round trip
 * @rttvar4: the variation the RTO uses, times 4, ns: at least
 *	@mdev4_max, decaying towards it once per round trip
 * @rto_ns: current RTO before backoff
 * @attr_ns: the timeout attribute, at least %MRC_RTO_FLOOR_NS: the most
 *	the backoff waits, and the unit of the budget
 * @waited_ns: time the timer waited since the last progress
 * @retries: expiries since the last progress (saturating)
 * @linear_cnt: attribute intervals in the budget, after the first
 * @exp_cnt: doubling attribute intervals in the budget after those
 * @backoff: doublings applied to @rto_ns
 * @has_sample: an RTT sample has been taken
 */
struct mrc_rto {
	u64 srtt8;
	u64 mdev4;
	u64 mdev4_max;
	u64 rttvar4;
	u64 rto_ns;
	u64 attr_ns;
	u64 waited_ns;
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
 * to [%MRC_RTO_MIN_NS, %MRC_RTO_MAX_NS]. (The timer reads it no lower
 * than %MRC_RTO_FLOOR_NS.)
 */
u64 mrc_rto_from_ib_timeout(u8 timeout);

/**
 * mrc_rto_init() - set up a timer from the ibv_modify_qp attributes
 * @rto: timer state
 * @timeout: ACK timeout attribute (see mrc_rto_from_ib_timeout())
 * @retry_cnt: attribute intervals after the first that the QP keeps
 *	trying for before it reports failure, 0..7
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
 * Keeps the RTT estimate; changes the backoff's ceiling and the budget.
 */
void mrc_rto_set_timeout(struct mrc_rto *rto, u8 timeout);

/**
 * mrc_rto_set_retry() - set the OCP linear and exponential retry limits
 * @rto: timer state
 * @linear_cnt: attribute intervals after the first, 0..7
 * @exp_cnt: doubling attribute intervals after those, 0..25 (25: without
 *	limit)
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
 * mrc_rto_end_round() - a round trip ended: what was sent at its start
 *	has been acknowledged
 * @rto: timer state
 *
 * The variation the RTO uses falls by a quarter of its excess over the
 * largest estimate of the round trip that ended.
 */
void mrc_rto_end_round(struct mrc_rto *rto);

/**
 * mrc_rto_timeout_ns() - interval to arm the retransmission timer with
 * @rto: timer state
 *
 * Return: the RTO with backoff applied, at most %MRC_RTO_MAX_NS.
 */
u64 mrc_rto_timeout_ns(const struct mrc_rto *rto);

/**
 * mrc_rto_budget_ns() - time without progress before failure
 * @rto: timer state
 *
 * Return: the budget in ns (see above), U64_MAX when retrying forever.
 */
u64 mrc_rto_budget_ns(const struct mrc_rto *rto);

/**
 * mrc_rto_on_timeout() - account for an expiry of the timer
 * @rto: timer state
 * @waited_ns: how long the interval that expired lasted
 *
 * Counts a retry and the time, and applies the backoff for the next
 * interval.
 *
 * Return: true when the budget and the retries are spent: the caller
 * stops retrying and completes with a retry-exceeded error; false to
 * retransmit and re-arm with mrc_rto_timeout_ns().
 */
bool mrc_rto_on_timeout(struct mrc_rto *rto, u64 waited_ns);

/**
 * mrc_rto_on_probe() - the timer expired and a tail loss probe went instead
 * @rto: timer state
 * @waited_ns: how long the interval that expired lasted
 *
 * The time counts towards the budget, as a timeout's does; the retries and
 * the backoff stay: the probe is no retransmission of the window.
 */
void mrc_rto_on_probe(struct mrc_rto *rto, u64 waited_ns);

/**
 * mrc_rto_on_progress() - an acknowledgment advanced the send window
 * @rto: timer state
 *
 * Resets the time waited, the retry count and the backoff.
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
