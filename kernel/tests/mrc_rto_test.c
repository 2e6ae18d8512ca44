// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for the MRC retransmission timeout: attribute encoding,
 * clamps, the RFC 6298 estimator, backoff, and the budget the timeout
 * and retry attributes set.
 */
#include <kunit/test.h>
#include <linux/limits.h>

#include "../core/mrc_rto.h"

#define MS	1000000ULL
#define T14_NS	(1024ULL << 14)		/* 16.78 ms */

static void timeout_encoding(struct kunit *test)
{
	/* 1.024 us * 2^t, not IB's 4.096 us * 2^t. */
	KUNIT_EXPECT_EQ(test, mrc_rto_from_ib_timeout(14), T14_NS);
	KUNIT_EXPECT_EQ(test, mrc_rto_from_ib_timeout(8), 262144ULL);
	KUNIT_EXPECT_EQ(test, mrc_rto_from_ib_timeout(20), 1073741824ULL);
	KUNIT_EXPECT_EQ(test, mrc_rto_from_ib_timeout(24), 17179869184ULL);
	/* 0 selects the default. */
	KUNIT_EXPECT_EQ(test, mrc_rto_from_ib_timeout(0), T14_NS);
	/* Clamped at both ends. */
	KUNIT_EXPECT_EQ(test, mrc_rto_from_ib_timeout(25), MRC_RTO_MAX_NS);
	KUNIT_EXPECT_EQ(test, mrc_rto_from_ib_timeout(31), MRC_RTO_MAX_NS);
	KUNIT_EXPECT_EQ(test, mrc_rto_from_ib_timeout(255), MRC_RTO_MAX_NS);
	KUNIT_EXPECT_EQ(test, mrc_rto_from_ib_timeout(1), MRC_RTO_MIN_NS);
	KUNIT_EXPECT_EQ(test, mrc_rto_from_ib_timeout(7), MRC_RTO_MIN_NS);
	KUNIT_EXPECT_EQ(test, MRC_RTO_MAX_NS, 17179869184ULL);
}

static void init_before_a_sample(struct kunit *test)
{
	struct mrc_rto rto;

	KUNIT_EXPECT_EQ(test, mrc_rto_init(&rto, 14, 8), -EINVAL);
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 14, 7), 0);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), T14_NS);
	KUNIT_EXPECT_EQ(test, mrc_rto_timeout_ns(&rto), T14_NS);
	KUNIT_EXPECT_EQ(test, mrc_rto_srtt_ns(&rto), 0ULL);
	KUNIT_EXPECT_EQ(test, mrc_rto_rttvar_ns(&rto), 0ULL);
	KUNIT_EXPECT_EQ(test, mrc_rto_retries(&rto), 0U);
	/* Re-init forgets samples and retries. */
	mrc_rto_sample(&rto, 3 * MS);
	mrc_rto_on_timeout(&rto, 4 * MS);
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), T14_NS);
	KUNIT_EXPECT_EQ(test, mrc_rto_retries(&rto), 0U);
	KUNIT_EXPECT_EQ(test, mrc_rto_srtt_ns(&rto), 0ULL);
	/* A long attribute: the first wait is still the default's. */
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 19, 7), 0);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), MRC_RTO_INIT_NS);
	/* A short one: no lower than the floor. */
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 8, 7), 0);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), MRC_RTO_FLOOR_NS);
}

/*
 * rdma_cm's timeout (t = 19, 537 ms) with a 273 us round trip: the timer
 * follows the round trip, not the attribute (it waited 537 ms before).
 */
static void rdma_cm_attribute_does_not_hold_the_timer(struct kunit *test)
{
	struct mrc_rto rto;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 19, 7), 0);
	for (i = 0; i < 20; i++)
		mrc_rto_sample(&rto, 273000);
	KUNIT_EXPECT_EQ(test, mrc_rto_timeout_ns(&rto), MRC_RTO_FLOOR_NS);
	/* ... and keeps trying for 8 attributes, backing off up to one. */
	KUNIT_EXPECT_EQ(test, mrc_rto_budget_ns(&rto), 8 * (1024ULL << 19));
	for (i = 0; i < 8; i++) {
		u64 ns = mrc_rto_timeout_ns(&rto);

		KUNIT_ASSERT_FALSE(test, mrc_rto_on_timeout(&rto, ns));
	}
	/* 4 ms doubled 7 times is 512 ms; the 8th doubling stops at 537. */
	KUNIT_EXPECT_EQ(test, mrc_rto_timeout_ns(&rto), 1024ULL << 19);
}

static void estimator_rfc6298_steps(struct kunit *test)
{
	struct mrc_rto rto;

	/* An attribute under the estimates: they show unchanged. */
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 8, 7), 0);
	/* First sample: SRTT = R, RTTVAR = R / 2, RTO = R + 4 RTTVAR. */
	mrc_rto_sample(&rto, 4 * MS);
	KUNIT_EXPECT_EQ(test, mrc_rto_srtt_ns(&rto), 4 * MS);
	KUNIT_EXPECT_EQ(test, mrc_rto_rttvar_ns(&rto), 2 * MS);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), 12 * MS);
	/* RTTVAR = 3/4 * 2 + 1/4 * |4 - 2|, SRTT = 7/8 * 4 + 1/8 * 2. */
	mrc_rto_sample(&rto, 2 * MS);
	KUNIT_EXPECT_EQ(test, mrc_rto_rttvar_ns(&rto), 2 * MS);
	KUNIT_EXPECT_EQ(test, mrc_rto_srtt_ns(&rto), 3750000ULL);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), 11750000ULL);
	/* A zero RTT is a valid sample. */
	mrc_rto_sample(&rto, 0);
	KUNIT_EXPECT_EQ(test, mrc_rto_rttvar_ns(&rto), 2437500ULL);
	KUNIT_EXPECT_EQ(test, mrc_rto_srtt_ns(&rto), 3281250ULL);
}

/* One sample per round trip, as a ping-pong takes them. */
static void sample_round(struct mrc_rto *rto, u64 rtt_ns)
{
	mrc_rto_sample(rto, rtt_ns);
	mrc_rto_end_round(rto);
}

static void estimator_converges(struct kunit *test)
{
	struct mrc_rto rto;
	unsigned int i;

	/* An attribute under the estimates: they show unchanged. */
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 8, 7), 0);
	/* From a 12 ms outlier down to a steady 5 ms. */
	sample_round(&rto, 12 * MS);
	for (i = 0; i < 300; i++)
		sample_round(&rto, 5 * MS);
	KUNIT_EXPECT_EQ(test, mrc_rto_srtt_ns(&rto), 5 * MS);
	KUNIT_EXPECT_LT(test, mrc_rto_rttvar_ns(&rto), 4ULL);
	/* 4 RTTVAR is below the clock granularity: RTO = SRTT + G. */
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), 5 * MS + MRC_TS_UNIT_NS);

	/* Jitter between 4 and 6 ms: SRTT near 5, RTTVAR near 1. */
	for (i = 0; i < 300; i++)
		sample_round(&rto, (i & 1 ? 6 : 4) * MS);
	KUNIT_EXPECT_GE(test, mrc_rto_srtt_ns(&rto), 4900000ULL);
	KUNIT_EXPECT_LE(test, mrc_rto_srtt_ns(&rto), 5100000ULL);
	KUNIT_EXPECT_GE(test, mrc_rto_rttvar_ns(&rto), 900000ULL);
	KUNIT_EXPECT_LE(test, mrc_rto_rttvar_ns(&rto), 1200000ULL);
	KUNIT_EXPECT_GE(test, mrc_rto_base_ns(&rto), 8500000ULL);
	KUNIT_EXPECT_LE(test, mrc_rto_base_ns(&rto), 10 * MS);
}

/*
 * Eight samples per round trip, one of them delayed by a queue (or a
 * CPU): RFC 6298's RTTVAR forgets the delay within the round trip, and
 * the timer fired on the next one. The RTO keeps the round trip's
 * largest variation until the round trip ends, then lets it fall.
 */
static void variation_held_for_the_round_trip(struct kunit *test)
{
	struct mrc_rto rto;
	unsigned int i;
	u64 held, prev;

	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 14, 7), 0);
	for (i = 0; i < 100; i++)
		sample_round(&rto, 10 * MS);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), 10 * MS + MRC_TS_UNIT_NS);
	mrc_rto_sample(&rto, 40 * MS);
	held = mrc_rto_base_ns(&rto);
	KUNIT_EXPECT_GT(test, held, 40 * MS);
	for (i = 0; i < 7; i++)
		mrc_rto_sample(&rto, 10 * MS);
	/* The rest of the round trip lowers SRTT only. */
	KUNIT_EXPECT_GT(test, mrc_rto_base_ns(&rto), 40 * MS);
	KUNIT_EXPECT_LE(test, mrc_rto_base_ns(&rto), held);
	/* RFC 6298 alone would be down to 10.1 + 4 * 3.7 ms by now. */
	KUNIT_EXPECT_GT(test, mrc_rto_rttvar_ns(&rto), 7 * MS);
	/* It ends that round trip unchanged ... */
	prev = mrc_rto_rttvar_ns(&rto);
	mrc_rto_end_round(&rto);
	KUNIT_EXPECT_EQ(test, mrc_rto_rttvar_ns(&rto), prev);
	/* ... then falls by a quarter of its excess each round trip. */
	for (i = 0; i < 4; i++) {
		mrc_rto_sample(&rto, 10 * MS);
		mrc_rto_end_round(&rto);
		KUNIT_EXPECT_LT(test, mrc_rto_rttvar_ns(&rto), prev);
		KUNIT_EXPECT_GT(test, mrc_rto_rttvar_ns(&rto), prev / 2);
		prev = mrc_rto_rttvar_ns(&rto);
	}
	for (i = 0; i < 100; i++)
		sample_round(&rto, 10 * MS);
	KUNIT_EXPECT_LT(test, mrc_rto_base_ns(&rto), 11 * MS);
}

static void estimate_is_clamped(struct kunit *test)
{
	struct mrc_rto rto;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 14, 7), 0);
	/* A long round trip raises the RTO past the attribute. */
	mrc_rto_sample(&rto, 100 * MS);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), 300 * MS);
	/* Absurd samples are capped without overflowing. */
	mrc_rto_sample(&rto, U64_MAX);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), MRC_RTO_MAX_NS);
	KUNIT_EXPECT_LE(test, mrc_rto_srtt_ns(&rto), MRC_RTO_MAX_NS);

	/* Short round trips: down to the floor, below the attribute. */
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 14, 7), 0);
	for (i = 0; i < 100; i++)
		mrc_rto_sample(&rto, 10000);
	KUNIT_EXPECT_EQ(test, mrc_rto_srtt_ns(&rto), 10000ULL);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), MRC_RTO_FLOOR_NS);

	/*
	 * A round trip past the attribute: the timer is not cut to it, and
	 * one expiry does not spend the budget (8 x 4 ms): retry_cnt 7 still
	 * gives 7 retries.
	 */
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 8, 7), 0);
	mrc_rto_sample(&rto, 50 * MS);
	KUNIT_EXPECT_EQ(test, mrc_rto_timeout_ns(&rto), 150 * MS);
	for (i = 0; i < 7; i++)
		KUNIT_EXPECT_FALSE(test, mrc_rto_on_timeout(&rto, 150 * MS));
	KUNIT_EXPECT_EQ(test, mrc_rto_timeout_ns(&rto), 150 * MS);
	KUNIT_EXPECT_TRUE(test, mrc_rto_on_timeout(&rto, 150 * MS));
}

static void set_timeout_keeps_estimate(struct kunit *test)
{
	struct mrc_rto rto;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 14, 7), 0);
	mrc_rto_set_timeout(&rto, 12);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), 1024ULL << 12);
	mrc_rto_set_timeout(&rto, 14);
	for (i = 0; i < 100; i++)
		sample_round(&rto, 5 * MS);
	mrc_rto_set_timeout(&rto, 12);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), 5 * MS + MRC_TS_UNIT_NS);
	mrc_rto_set_timeout(&rto, 20);
	KUNIT_EXPECT_EQ(test, mrc_rto_base_ns(&rto), 5 * MS + MRC_TS_UNIT_NS);
	KUNIT_EXPECT_EQ(test, mrc_rto_srtt_ns(&rto), 5 * MS);
	/* The attribute changes the budget: 8 of 1.07 s. */
	KUNIT_EXPECT_EQ(test, mrc_rto_budget_ns(&rto), 8 * (1024ULL << 20));
}

/* Expire the timer with the interval it was armed with; return it. */
static u64 expire(struct mrc_rto *rto, bool *spent)
{
	u64 ns = mrc_rto_timeout_ns(rto);

	*spent = mrc_rto_on_timeout(rto, ns);
	return ns;
}

static void backoff_up_to_the_attribute(struct kunit *test)
{
	static const u64 want[] = { 4 * MS, 8 * MS, 16 * MS, T14_NS, T14_NS,
				    T14_NS };
	struct mrc_rto rto;
	unsigned int i;
	bool spent;
	u64 sum = 0;

	/*
	 * ibv retry_cnt 3: 4 attributes of 16.78 ms in all (67.1 ms). The
	 * round trip is short: 4 ms, doubled up to the attribute.
	 */
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 14, 3), 0);
	KUNIT_EXPECT_EQ(test, mrc_rto_budget_ns(&rto), 4 * T14_NS);
	for (i = 0; i < 100; i++)
		mrc_rto_sample(&rto, MS);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_EXPECT_EQ(test, expire(&rto, &spent), want[i]);
		sum += want[i];
		KUNIT_EXPECT_EQ(test, spent, sum >= 4 * T14_NS);
	}
	/* 4 + 8 + 16 + 3 * 16.78 ms: the sixth expiry spent it. */
	KUNIT_EXPECT_TRUE(test, spent);
	KUNIT_EXPECT_EQ(test, mrc_rto_retries(&rto), 5U);

	/* Progress starts over. */
	mrc_rto_on_progress(&rto);
	KUNIT_EXPECT_EQ(test, mrc_rto_retries(&rto), 0U);
	KUNIT_EXPECT_EQ(test, mrc_rto_timeout_ns(&rto), 4 * MS);
	KUNIT_EXPECT_FALSE(test, mrc_rto_on_timeout(&rto, 4 * MS));

	/* retry_cnt 0: one attribute; before a sample, one expiry. */
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 14, 0), 0);
	KUNIT_EXPECT_TRUE(test, mrc_rto_on_timeout(&rto, T14_NS));

	/* A timer that fired late counts the time it really waited. */
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 14, 1), 0);
	mrc_rto_sample(&rto, MS);
	KUNIT_EXPECT_FALSE(test, mrc_rto_on_timeout(&rto, 20 * MS));
	KUNIT_EXPECT_TRUE(test, mrc_rto_on_timeout(&rto, 20 * MS));

	/* The backed-off timer stops at MRC_RTO_MAX_NS. */
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 24, 7), 0);
	for (i = 0; i < 20; i++)
		KUNIT_ASSERT_FALSE(test, expire(&rto, &spent) > MRC_RTO_MAX_NS);
	KUNIT_EXPECT_EQ(test, mrc_rto_timeout_ns(&rto), MRC_RTO_MAX_NS);
}

/*
 * A tail loss probe sent when the timer expired: its wait counts towards
 * the budget, so a peer that is gone still fails the QP in time, but the
 * interval neither backs off nor counts a retry.
 */
static void probe_counts_time_not_retries(struct kunit *test)
{
	struct mrc_rto rto;

	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 14, 1), 0);
	mrc_rto_sample(&rto, MS);
	mrc_rto_on_probe(&rto, 4 * MS);
	KUNIT_EXPECT_EQ(test, mrc_rto_retries(&rto), 0U);
	KUNIT_EXPECT_EQ(test, mrc_rto_timeout_ns(&rto), 4 * MS);
	/* 2 x 16.78 ms in all: 4 ms probing, 8 + 16 + 8 ms of timeouts. */
	KUNIT_EXPECT_FALSE(test, mrc_rto_on_timeout(&rto, 8 * MS));
	KUNIT_EXPECT_FALSE(test, mrc_rto_on_timeout(&rto, 16 * MS));
	KUNIT_EXPECT_TRUE(test, mrc_rto_on_timeout(&rto, 8 * MS));
	/* Without the probe's 4 ms the same timeouts fall short. */
	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 14, 1), 0);
	mrc_rto_sample(&rto, MS);
	KUNIT_EXPECT_FALSE(test, mrc_rto_on_timeout(&rto, 8 * MS));
	KUNIT_EXPECT_FALSE(test, mrc_rto_on_timeout(&rto, 16 * MS));
	KUNIT_EXPECT_FALSE(test, mrc_rto_on_timeout(&rto, 8 * MS));
}

static void ocp_linear_then_exponential(struct kunit *test)
{
	struct mrc_rto rto;
	unsigned int i;
	bool spent;
	u64 sum = 0;

	KUNIT_ASSERT_EQ(test, mrc_rto_init(&rto, 14, 7), 0);
	KUNIT_EXPECT_EQ(test, mrc_rto_set_retry(&rto, 8, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_rto_set_retry(&rto, 0, 26), -EINVAL);
	/* linear 2, exp 3: 1 + 2 attributes, then 2 + 4 + 8 of them. */
	KUNIT_ASSERT_EQ(test, mrc_rto_set_retry(&rto, 2, 3), 0);
	KUNIT_EXPECT_EQ(test, mrc_rto_budget_ns(&rto), 17 * T14_NS);
	do {
		sum += expire(&rto, &spent);
	} while (!spent && sum < 100 * T14_NS);
	KUNIT_EXPECT_TRUE(test, spent);
	KUNIT_EXPECT_GE(test, sum, 17 * T14_NS);
	KUNIT_EXPECT_LT(test, sum, 18 * T14_NS);

	/* exp_cnt 25 retries forever; the timer stays at the attribute. */
	KUNIT_ASSERT_EQ(test, mrc_rto_set_retry(&rto, 7, MRC_RTO_EXP_INFINITE),
			0);
	KUNIT_EXPECT_EQ(test, mrc_rto_budget_ns(&rto), U64_MAX);
	mrc_rto_on_progress(&rto);
	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_FALSE(test, mrc_rto_on_timeout(&rto,
							    MRC_RTO_MAX_NS));
	KUNIT_EXPECT_EQ(test, mrc_rto_retries(&rto), 1000U);
	KUNIT_EXPECT_EQ(test, mrc_rto_timeout_ns(&rto), T14_NS);
}

static void timestamp_units(struct kunit *test)
{
	u32 echoed = 0xfffffffe, now = 3;

	KUNIT_EXPECT_EQ(test, mrc_ts_to_ns(0), 0ULL);
	KUNIT_EXPECT_EQ(test, mrc_ts_to_ns(1), 1024ULL);
	/* The difference is taken modulo 2^32, across the wrap. */
	KUNIT_EXPECT_EQ(test, mrc_ts_to_ns(now - echoed), 5120ULL);
	KUNIT_EXPECT_EQ(test, mrc_ts_to_ns(U32_MAX), 1024ULL * U32_MAX);
}

static struct kunit_case mrc_rto_cases[] = {
	KUNIT_CASE(timeout_encoding),
	KUNIT_CASE(init_before_a_sample),
	KUNIT_CASE(rdma_cm_attribute_does_not_hold_the_timer),
	KUNIT_CASE(estimator_rfc6298_steps),
	KUNIT_CASE(estimator_converges),
	KUNIT_CASE(variation_held_for_the_round_trip),
	KUNIT_CASE(estimate_is_clamped),
	KUNIT_CASE(set_timeout_keeps_estimate),
	KUNIT_CASE(backoff_up_to_the_attribute),
	KUNIT_CASE(probe_counts_time_not_retries),
	KUNIT_CASE(ocp_linear_then_exponential),
	KUNIT_CASE(timestamp_units),
	{}
};

static struct kunit_suite mrc_rto_suite = {
	.name = "mrc_rto",
	.test_cases = mrc_rto_cases,
};

kunit_test_suite(mrc_rto_suite);

MODULE_LICENSE("Dual BSD/GPL");
