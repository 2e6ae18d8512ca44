// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for receiver-not-ready handling: the IB timer table, retry
 * accounting against rnr_retry, and the responder's gate.
 */
#include <kunit/test.h>

#include "../core/mrc_rnr.h"

#define US	1000ULL

static void timer_table_spot_values(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(0), 655360 * US);
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(1), 10 * US);
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(2), 20 * US);
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(3), 30 * US);
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(5), 60 * US);
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(12), 640 * US);
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(14), 1280 * US);
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(18), 5120 * US);
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(23), 30720 * US);
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(30), 327680 * US);
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(31), 491520 * US);
}

/* Every code from 2 on: 0.01 ms * 2^k, times 1.5 for odd codes. */
static void timer_table_follows_the_rule(struct kunit *test)
{
	unsigned int c;

	for (c = 2; c <= MRC_RNR_TIMER_MAX; c++) {
		u64 even = (10 * US) << (c / 2);

		KUNIT_EXPECT_EQ_MSG(test, mrc_rnr_timer_ns(c),
				    c & 1 ? even + even / 2 : even, "code %u", c);
	}
	/* 1 through 31 increase; 0 is the longest of all. */
	for (c = 2; c <= MRC_RNR_TIMER_MAX; c++)
		KUNIT_EXPECT_GT(test, mrc_rnr_timer_ns(c), mrc_rnr_timer_ns(c - 1));
	KUNIT_EXPECT_GT(test, mrc_rnr_timer_ns(0),
			mrc_rnr_timer_ns(MRC_RNR_TIMER_MAX));
}

static void timer_code_out_of_range(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(32), mrc_rnr_timer_ns(0));
	KUNIT_EXPECT_EQ(test, mrc_rnr_timer_ns(255), mrc_rnr_timer_ns(0));
}

static void retry_zero_fails_at_once(struct kunit *test)
{
	struct mrc_rnr rnr;

	mrc_rnr_reset(&rnr);
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 100, 0, 0), MRC_RNR_EXCEEDED);
	KUNIT_EXPECT_FALSE(test, rnr.waiting);
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 100, 0, 0), MRC_RNR_EXCEEDED);
}

static void retry_limit_counts_per_psn(struct kunit *test)
{
	struct mrc_rnr rnr;
	unsigned int i;

	mrc_rnr_reset(&rnr);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 7, 0, 3), MRC_RNR_WAIT);
		/* NACKs during the wait change nothing. */
		KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 7, 0, 3), MRC_RNR_IGNORE);
		KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 8, 0, 3), MRC_RNR_IGNORE);
		KUNIT_EXPECT_TRUE(test, mrc_rnr_resume(&rnr, i));
		KUNIT_EXPECT_FALSE(test, mrc_rnr_resume(&rnr, i));
	}
	KUNIT_EXPECT_EQ(test, rnr.retries, 3);
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 7, 0, 3), MRC_RNR_EXCEEDED);

	/* Another PSN is another message: its count starts afresh. */
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 9, 0, 3), MRC_RNR_WAIT);
	KUNIT_EXPECT_EQ(test, rnr.retries, 1);
	KUNIT_EXPECT_EQ(test, rnr.psn, 9U);
}

static void retry_seven_is_infinite(struct kunit *test)
{
	struct mrc_rnr rnr;
	unsigned int i;

	mrc_rnr_reset(&rnr);
	for (i = 0; i < 1000; i++) {
		KUNIT_ASSERT_EQ(test, mrc_rnr_on_nack(&rnr, 0xffffffff, 0,
						      MRC_RNR_RETRY_INFINITE),
				MRC_RNR_WAIT);
		mrc_rnr_resume(&rnr, i);
	}
	KUNIT_EXPECT_EQ(test, rnr.retries, U8_MAX);
	/* Values above 7 (never accepted by modify_qp) behave as 7. */
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 0xffffffff, 0, 200),
			MRC_RNR_WAIT);
}

/* A NACK of a copy sent before the last resume is not another retry. */
static void late_nack_is_not_a_retry(struct kunit *test)
{
	struct mrc_rnr rnr;

	mrc_rnr_reset(&rnr);
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 50, 1000, 2), MRC_RNR_WAIT);
	KUNIT_EXPECT_TRUE(test, mrc_rnr_resume(&rnr, 1100));
	/* The original's twin, echoing 1001: ignored. */
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 50, 1001, 2),
			MRC_RNR_IGNORE);
	KUNIT_EXPECT_EQ(test, rnr.retries, 1);
	/* The copy the resume sent: a retry. */
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 50, 1100, 2), MRC_RNR_WAIT);
	KUNIT_EXPECT_TRUE(test, mrc_rnr_resume(&rnr, 0xfffffff0));
	/* Serial comparison across the timestamp wrap. */
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 50, 0xffffffe0, 2),
			MRC_RNR_IGNORE);
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 50, 5, 2),
			MRC_RNR_EXCEEDED);
	/* No echo: counted, as nothing tells it is late. */
	mrc_rnr_reset(&rnr);
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 50, 0, 1), MRC_RNR_WAIT);
	KUNIT_EXPECT_TRUE(test, mrc_rnr_resume(&rnr, 1100));
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 50, 0, 1),
			MRC_RNR_EXCEEDED);
	/* Another PSN's NACK is never late, whatever it echoes. */
	KUNIT_EXPECT_EQ(test, mrc_rnr_on_nack(&rnr, 51, 3, 1), MRC_RNR_WAIT);
}

static void gate_drops_only_after_its_psn(struct kunit *test)
{
	struct mrc_rnr_gate gate;

	mrc_rnr_gate_reset(&gate);
	KUNIT_EXPECT_FALSE(test, mrc_rnr_gate_drops(&gate, 5));

	mrc_rnr_gate_close(&gate, 0xfffffffe);
	KUNIT_EXPECT_FALSE(test, mrc_rnr_gate_drops(&gate, 0xfffffffd));
	KUNIT_EXPECT_FALSE(test, mrc_rnr_gate_drops(&gate, 0xfffffffe));
	/* After, across the PSN wrap. */
	KUNIT_EXPECT_TRUE(test, mrc_rnr_gate_drops(&gate, 0xffffffff));
	KUNIT_EXPECT_TRUE(test, mrc_rnr_gate_drops(&gate, 3));

	/* Another PSN executing leaves it closed; its own opens it. */
	mrc_rnr_gate_executed(&gate, 0xfffffffd);
	KUNIT_EXPECT_TRUE(test, mrc_rnr_gate_drops(&gate, 3));
	mrc_rnr_gate_executed(&gate, 0xfffffffe);
	KUNIT_EXPECT_FALSE(test, mrc_rnr_gate_drops(&gate, 3));
}

static void gate_keeps_the_earliest_psn(struct kunit *test)
{
	struct mrc_rnr_gate gate;

	mrc_rnr_gate_reset(&gate);
	mrc_rnr_gate_close(&gate, 100);
	mrc_rnr_gate_close(&gate, 110);
	KUNIT_EXPECT_EQ(test, gate.psn, 100U);
	/* A hole before it NACKed too: the gate moves back to it. */
	mrc_rnr_gate_close(&gate, 90);
	KUNIT_EXPECT_EQ(test, gate.psn, 90U);
	KUNIT_EXPECT_TRUE(test, mrc_rnr_gate_drops(&gate, 100));
	mrc_rnr_gate_executed(&gate, 100);
	KUNIT_EXPECT_TRUE(test, gate.closed);
	mrc_rnr_gate_executed(&gate, 90);
	KUNIT_EXPECT_FALSE(test, gate.closed);
}

static struct kunit_case mrc_rnr_cases[] = {
	KUNIT_CASE(timer_table_spot_values),
	KUNIT_CASE(timer_table_follows_the_rule),
	KUNIT_CASE(timer_code_out_of_range),
	KUNIT_CASE(retry_zero_fails_at_once),
	KUNIT_CASE(retry_limit_counts_per_psn),
	KUNIT_CASE(retry_seven_is_infinite),
	KUNIT_CASE(late_nack_is_not_a_retry),
	KUNIT_CASE(gate_drops_only_after_its_psn),
	KUNIT_CASE(gate_keeps_the_earliest_psn),
	{}
};

static struct kunit_suite mrc_rnr_suite = {
	.name = "mrc_rnr",
	.test_cases = mrc_rnr_cases,
};

kunit_test_suite(mrc_rnr_suite);

MODULE_LICENSE("Dual BSD/GPL");
