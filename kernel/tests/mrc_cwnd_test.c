// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for the AIMD congestion window.
 */
#include <kunit/test.h>
#include <linux/errno.h>

#include "../core/mrc_cwnd.h"

static void starts_at_init_and_respects_max(struct kunit *test)
{
	struct mrc_cwnd cc;

	mrc_cwnd_init(&cc, 1024, 100);
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CWND_INIT);
	mrc_cwnd_init(&cc, 16, 100);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 16U);
	mrc_cwnd_init(&cc, 1, 100);
	KUNIT_EXPECT_EQ(test, cc.max, (u32)MRC_CWND_MIN);
}

static void slow_start_then_additive(struct kunit *test)
{
	struct mrc_cwnd cc;

	mrc_cwnd_init(&cc, 1024, 0);
	mrc_cwnd_on_ack(&cc, 32);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 64U);
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_congestion(&cc, 10, 200));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 32U);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 32U);
	/* Congestion avoidance: one PSN per window acknowledged. */
	mrc_cwnd_on_ack(&cc, 31);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 32U);
	mrc_cwnd_on_ack(&cc, 1);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 33U);
}

static void grows_no_further_than_max(struct kunit *test)
{
	struct mrc_cwnd cc;
	int i;

	mrc_cwnd_init(&cc, 64, 0);
	for (i = 0; i < 100; i++)
		mrc_cwnd_on_ack(&cc, 64);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 64U);
}

static void one_decrease_per_window(struct kunit *test)
{
	struct mrc_cwnd cc;

	mrc_cwnd_init(&cc, 1024, 1000);
	mrc_cwnd_on_ack(&cc, 96);		/* 128 */
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_congestion(&cc, 1000, 1100));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 64U);
	/* Losses of PSNs sent before the reaction do not count again. */
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_congestion(&cc, 1050, 1120));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 64U);
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_congestion(&cc, 1100, 1200));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 32U);
}

static void never_below_min(struct kunit *test)
{
	struct mrc_cwnd cc;
	u32 psn = 0;
	int i;

	mrc_cwnd_init(&cc, 1024, 0);
	for (i = 0; i < 20; i++, psn += 10)
		mrc_cwnd_on_congestion(&cc, psn, psn + 10);
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CWND_MIN);
}

static void marks_cut_through_the_floor(struct kunit *test)
{
	struct mrc_cwnd cc;

	mrc_cwnd_init(&cc, 1024, 0);
	/* Above the floor a mark halves, once per window of data. */
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_marks(&cc, 0, 1, 0, 32));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 16U);
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_marks(&cc, 4, 1, 4, 36));
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_marks(&cc, 28, 30, 32, 48));
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CWND_MIN);
	/* At the floor, every packet marked (alpha 1): halves again. */
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_marks(&cc, 16, 16, 48, 56));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 4U);
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_marks(&cc, 8, 8, 56, 60));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 2U);
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_marks(&cc, 4, 4, 60, 62));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 1U);
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_marks(&cc, 2, 2, 62, 63));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 1U);
	/* A loss does not go below where the window is; growth resumes. */
	mrc_cwnd_on_congestion(&cc, 63, 64);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 1U);
	mrc_cwnd_on_ack(&cc, 1);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 2U);
}

static void alpha_follows_the_marked_fraction(struct kunit *test)
{
	struct mrc_cwnd cc;
	u32 psn;

	mrc_cwnd_init(&cc, 1024, 0);
	KUNIT_EXPECT_EQ(test, cc.alpha, (u32)MRC_CWND_ALPHA_ONE);
	/* One packet in ten marked, window after window: alpha nears 0.1. */
	for (psn = 0; psn < 100 * 100; psn += 100)
		mrc_cwnd_on_marks(&cc, 100, 10, psn, psn + 100);
	KUNIT_EXPECT_GE(test, cc.alpha, 90U);
	KUNIT_EXPECT_LE(test, cc.alpha, 120U);
	/* At the floor so small a fraction does not cut a window of 8... */
	cc.cwnd = MRC_CWND_MIN;
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_marks(&cc, 100, 10, psn, psn + 100));
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CWND_MIN);
	/* ...half the packets marked cut a quarter (in the same window). */
	cc.alpha = MRC_CWND_ALPHA_ONE / 2;
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_marks(&cc, 50, 25, psn + 50, psn + 100));
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CWND_MIN - 2);
	/* Echoes of duplicates never take the fraction past one. */
	for (psn += 100; psn < 200 * 100; psn += 100)
		mrc_cwnd_on_marks(&cc, 10, 50, psn, psn + 100);
	KUNIT_EXPECT_LE(test, cc.alpha, (u32)MRC_CWND_ALPHA_ONE);
	KUNIT_EXPECT_GE(test, cc.alpha, (u32)MRC_CWND_ALPHA_ONE - 16);
	/* Unmarked windows: it decays. */
	for (; psn < 300 * 100; psn += 100)
		mrc_cwnd_on_marks(&cc, 100, 0, psn, psn + 100);
	KUNIT_EXPECT_LT(test, cc.alpha, 16U);
}

static void timeout_collapses(struct kunit *test)
{
	struct mrc_cwnd cc;

	mrc_cwnd_init(&cc, 1024, 0);
	mrc_cwnd_on_ack(&cc, 200);
	mrc_cwnd_on_timeout(&cc, 500);
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CWND_MIN);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 116U);
	KUNIT_EXPECT_EQ(test, mrc_cwnd_room(&cc, 3), (u32)MRC_CWND_MIN - 3);
	KUNIT_EXPECT_EQ(test, mrc_cwnd_room(&cc, 100), 0U);
}

static void works_across_psn_wrap(struct kunit *test)
{
	struct mrc_cwnd cc;

	mrc_cwnd_init(&cc, 1024, 0xfffffff0);
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_congestion(&cc, 0xffffffe0,
							0xfffffff8));
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_congestion(&cc, 0x10, 0x40));
}

static void spurious_timeout_is_undone(struct kunit *test)
{
	struct mrc_cwnd cc;

	mrc_cwnd_init(&cc, 1024, 0);
	mrc_cwnd_on_ack(&cc, 96);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 128U);
	mrc_cwnd_on_timeout(&cc, 500);
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CWND_MIN);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 64U);
	mrc_cwnd_undo(&cc);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 128U);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 1024U);
}

#define QD_HIGH	(MRC_CWND_QDELAY_TARGET_TS + 1)

/*
 * A round whose every sample is over the target cuts a quarter and ends
 * slow start; one low sample in a round (a stall, not a queue) spares it.
 */
static void delay_cuts_only_a_standing_queue(struct kunit *test)
{
	struct mrc_cwnd cc;

	mrc_cwnd_init(&cc, 1024, 0);
	mrc_cwnd_on_ack(&cc, 68);
	KUNIT_ASSERT_EQ(test, cc.cwnd, 100U);
	/* Round [0, 0) ends at once: it had one high sample. */
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_delay(&cc, QD_HIGH, 0, 100));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 75U);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 75U);
	/* Round up to 100: high samples, one low one. */
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_delay(&cc, QD_HIGH, 10, 120));
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_delay(&cc, 5, 50, 150));
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_delay(&cc, QD_HIGH, 100, 200));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 75U);
	/* Round up to 200: all high. */
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_delay(&cc, QD_HIGH, 150, 250));
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_delay(&cc, QD_HIGH, 200, 300));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 57U);
	/* No cut inside a window already cut for a loss. */
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_congestion(&cc, 300, 1000));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 28U);
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_delay(&cc, QD_HIGH, 300, 1000));
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_delay(&cc, QD_HIGH, 400, 1000));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 28U);
	/* That round, past the loss's window, still ends in a cut. */
	cc.cwnd = MRC_CWND_MIN + 1;
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_delay(&cc, QD_HIGH, 1000, 1100));
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CWND_MIN);
}

/* A round queued past the slow-start exit stops the doubling, cuts nothing. */
static void first_queue_ends_slow_start(struct kunit *test)
{
	struct mrc_cwnd cc;

	mrc_cwnd_init(&cc, 1024, 0);
	/* A round with a low sample keeps slow start. */
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_delay(&cc, MRC_CWND_SS_EXIT_TS, 0, 32));
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 1024U);
	mrc_cwnd_on_ack(&cc, 32);
	KUNIT_ASSERT_EQ(test, cc.cwnd, 64U);
	/* Then one whose lowest sample is over the exit, under the target. */
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_delay(&cc, MRC_CWND_SS_EXIT_TS + 1,
						   32, 96));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 64U);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 64U);
	/* Growth is additive from here: one PSN per window acknowledged. */
	mrc_cwnd_on_ack(&cc, 64);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 65U);
}

/* A CC profile's parameters: start, floor and delay target. */
static void profile_params_apply(struct kunit *test)
{
	struct mrc_cwnd_params p = { .init = 12, .min = 10, .qdelay_ts = 100 };
	struct mrc_cwnd cc;

	KUNIT_EXPECT_EQ(test, mrc_cwnd_check_params(&p), 0);
	mrc_cwnd_init_with(&cc, &p, 1024, 0);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 12U);
	/* Halving stops at the profile's floor, not MRC_CWND_MIN. */
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_congestion(&cc, 0, 10));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 10U);
	mrc_cwnd_on_timeout(&cc, 20);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 10U);
	/* A round whose lowest delay is over 100 cuts a quarter; 90 not. */
	mrc_cwnd_init_with(&cc, &p, 1024, 0);
	mrc_cwnd_on_ack(&cc, 28);		/* 40 */
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_delay(&cc, 101, 0, 40));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 30U);
	mrc_cwnd_init_with(&cc, &p, 1024, 0);
	mrc_cwnd_on_ack(&cc, 28);
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_delay(&cc, 90, 0, 40));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 40U);

	p.min = 13;
	KUNIT_EXPECT_EQ(test, mrc_cwnd_check_params(&p), -EINVAL);
	p.min = 0;
	KUNIT_EXPECT_EQ(test, mrc_cwnd_check_params(&p), -EINVAL);
	p.min = 1;
	p.qdelay_ts = 0;
	KUNIT_EXPECT_EQ(test, mrc_cwnd_check_params(&p), -EINVAL);
}

/*
 * A trim halves the window once per window of data, as a mark does, and
 * each further trim in that window cuts one PSN, through the profile's
 * floor down to MRC_CWND_TRIM_MIN. Below the floor, no other cut raises
 * it.
 */
static void trims_cut_until_the_queue_holds(struct kunit *test)
{
	struct mrc_cwnd cc;

	mrc_cwnd_init(&cc, 1024, 0);
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_trim(&cc, 0, 32));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 16U);
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_trim(&cc, 5, 32));
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_trim(&cc, 6, 32));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 14U);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 14U);
	/* A mark in the same window is the same congestion: no cut. */
	KUNIT_EXPECT_FALSE(test, mrc_cwnd_on_congestion(&cc, 7, 32));
	while (mrc_cwnd_on_trim(&cc, 8, 32))
		;
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CWND_TRIM_MIN);
	KUNIT_EXPECT_LT(test, cc.cwnd, (u32)MRC_CWND_MIN);
	/* Additive increase: 1, 2, 3 PSNs acknowledged grow it to 4. */
	mrc_cwnd_on_ack(&cc, 6);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 4U);
	/* The window of data acknowledged: a loss does not raise it ... */
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_congestion(&cc, 32, 64));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 4U);
	KUNIT_EXPECT_EQ(test, cc.ssthresh, 4U);
	/* ... nor a standing queue, nor a timeout. */
	mrc_cwnd_on_delay(&cc, MRC_CWND_QDELAY_TARGET_TS + 1, 64, 96);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 4U);
	mrc_cwnd_on_timeout(&cc, 128);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 4U);
	/* A trim in the cut window takes one more. */
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_trim(&cc, 100, 128));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 3U);
	/* Above the floor, the first trim of a window halves to the floor. */
	mrc_cwnd_init(&cc, 1024, 0);
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_trim(&cc, 0, 32));
	KUNIT_EXPECT_EQ(test, cc.cwnd, 16U);
	mrc_cwnd_on_ack(&cc, 2);
	KUNIT_EXPECT_TRUE(test, mrc_cwnd_on_trim(&cc, 32, 64));
	KUNIT_EXPECT_EQ(test, cc.cwnd, (u32)MRC_CWND_MIN);
}

static struct kunit_case mrc_cwnd_cases[] = {
	KUNIT_CASE(starts_at_init_and_respects_max),
	KUNIT_CASE(profile_params_apply),
	KUNIT_CASE(slow_start_then_additive),
	KUNIT_CASE(grows_no_further_than_max),
	KUNIT_CASE(one_decrease_per_window),
	KUNIT_CASE(trims_cut_until_the_queue_holds),
	KUNIT_CASE(never_below_min),
	KUNIT_CASE(marks_cut_through_the_floor),
	KUNIT_CASE(alpha_follows_the_marked_fraction),
	KUNIT_CASE(timeout_collapses),
	KUNIT_CASE(works_across_psn_wrap),
	KUNIT_CASE(spurious_timeout_is_undone),
	KUNIT_CASE(delay_cuts_only_a_standing_queue),
	KUNIT_CASE(first_queue_ends_slow_start),
	{}
};

static struct kunit_suite mrc_cwnd_suite = {
	.name = "mrc_cwnd",
	.test_cases = mrc_cwnd_cases,
};

kunit_test_suite(mrc_cwnd_suite);

MODULE_LICENSE("Dual BSD/GPL");
