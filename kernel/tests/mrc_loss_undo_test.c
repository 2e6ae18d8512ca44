// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for spurious loss detection: which echoes undo a recorded
 * loss, and how long one is remembered.
 */
#include <kunit/test.h>

#include "../core/mrc_loss_undo.h"

/* Only the echo of the very transmission inferred lost matches, once. */
static void match_needs_psn_ev_and_sequence(struct kunit *test)
{
	struct mrc_loss_undo u;
	struct mrc_loss_rec r;

	mrc_loss_undo_init(&u);
	mrc_loss_undo_record(&u, 100, 3, 17, true, 555);
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_match(&u, 101, 3, 17, &r));
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_match(&u, 100, 4, 17, &r));
	/* The retransmission's echo: another sequence. */
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_match(&u, 100, 3, 18, &r));
	KUNIT_EXPECT_TRUE(test, mrc_loss_undo_match(&u, 100, 3, 17, &r));
	KUNIT_EXPECT_EQ(test, r.psn, 100U);
	KUNIT_EXPECT_EQ(test, r.ev, 3);
	KUNIT_EXPECT_TRUE(test, r.blamed);
	KUNIT_EXPECT_EQ(test, r.bad_ts, 555U);
	KUNIT_EXPECT_EQ(test, u.undone, 1ULL);
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_match(&u, 100, 3, 17, &r));
}

/* The ring keeps the newest MRC_LOSS_UNDO_RING losses. */
static void ring_forgets_the_oldest(struct kunit *test)
{
	struct mrc_loss_undo u;
	struct mrc_loss_rec r;
	u32 i;

	mrc_loss_undo_init(&u);
	for (i = 0; i <= MRC_LOSS_UNDO_RING; i++)
		mrc_loss_undo_record(&u, 1000 + i, 0, i, false, 0);
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_match(&u, 1000, 0, 0, &r));
	KUNIT_EXPECT_TRUE(test, mrc_loss_undo_match(&u, 1001, 0, 1, &r));
	KUNIT_EXPECT_FALSE(test, r.blamed);
	KUNIT_EXPECT_TRUE(test, mrc_loss_undo_match(&u, 1000 + MRC_LOSS_UNDO_RING,
						    0, MRC_LOSS_UNDO_RING, &r));
}

/* live counts the valid records, so an empty ring is never scanned. */
static void live_counts_the_valid_records(struct kunit *test)
{
	struct mrc_loss_undo u;
	struct mrc_loss_rec r;
	u32 i;

	mrc_loss_undo_init(&u);
	KUNIT_EXPECT_EQ(test, u.live, 0);
	mrc_loss_undo_record(&u, 1, 0, 1, true, 0);
	mrc_loss_undo_record(&u, 2, 0, 2, true, 0);
	KUNIT_EXPECT_EQ(test, u.live, 2);
	KUNIT_EXPECT_TRUE(test, mrc_loss_undo_match(&u, 1, 0, 1, &r));
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_match(&u, 1, 0, 1, &r));
	KUNIT_EXPECT_EQ(test, u.live, 1);
	/* Wraps onto the matched slot (one more live) and onto psn 2's. */
	for (i = 0; i < MRC_LOSS_UNDO_RING; i++)
		mrc_loss_undo_record(&u, 100 + i, 0, i, false, 0);
	KUNIT_EXPECT_EQ(test, u.live, MRC_LOSS_UNDO_RING);
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_match(&u, 2, 0, 2, &r));
	for (i = 0; i < MRC_LOSS_UNDO_RING; i++)
		KUNIT_EXPECT_TRUE(test, mrc_loss_undo_match(&u, 100 + i, 0, i, &r));
	KUNIT_EXPECT_EQ(test, u.live, 0);
}

/* Only the timeouts after the echoed send were spurious; all are forgotten. */
static void rto_verdict_takes_back_later_timeouts(struct kunit *test)
{
	struct mrc_rto_blame b[MRC_LOSS_UNDO_RTO];
	struct mrc_loss_undo u;

	mrc_loss_undo_init(&u);
	mrc_loss_undo_rto_record(&u, 2, 1000, 1000);
	mrc_loss_undo_rto_record(&u, 5, 3000, 3000);
	KUNIT_ASSERT_EQ(test, mrc_loss_undo_rto_verdict(&u, 2000, b), 1U);
	KUNIT_EXPECT_EQ(test, b[0].ev, 5);
	KUNIT_EXPECT_EQ(test, b[0].bad_ts, 3000U);
	KUNIT_EXPECT_EQ(test, u.undone, 1ULL);
	/* Forgotten: a second answer takes nothing back. */
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_rto_verdict(&u, 0, b), 0U);
	/* An echo from before both takes back both, across the wrap. */
	mrc_loss_undo_rto_record(&u, 1, 10, 10);
	mrc_loss_undo_rto_record(&u, 0, 20, 20);
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_rto_verdict(&u, 0xfffffff0, b), 2U);
	/* An echo from after every timeout: they were needed. */
	mrc_loss_undo_rto_record(&u, 1, 10, 10);
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_rto_verdict(&u, 10, b), 0U);
	KUNIT_EXPECT_EQ(test, u.undone, 3ULL);
}

/*
 * An answer to a retransmission echoes no time: the timeouts were needed,
 * even those after a first transmission still in flight on another path.
 */
static void rto_verdict_retransmission_answered(struct kunit *test)
{
	struct mrc_rto_blame b[MRC_LOSS_UNDO_RTO];
	struct mrc_loss_undo u;

	mrc_loss_undo_init(&u);
	mrc_loss_undo_rto_record(&u, 4, 1000, 1000);
	mrc_loss_undo_rto_record(&u, 4, 3000, 3000);
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_rto_verdict(&u, 0, b), 0U);
	KUNIT_EXPECT_EQ(test, u.undone, 0ULL);
	/* Forgotten: a later answer echoing an old time takes nothing back. */
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_rto_verdict(&u, 500, b), 0U);
}

/* A long run of timeouts keeps its first blames and drops the rest. */
static void rto_blames_keep_the_first(struct kunit *test)
{
	struct mrc_rto_blame b[MRC_LOSS_UNDO_RTO];
	struct mrc_loss_undo u;
	unsigned int i;

	mrc_loss_undo_init(&u);
	for (i = 0; i < 2 * MRC_LOSS_UNDO_RTO; i++)
		mrc_loss_undo_rto_record(&u, i, 100 + i, 100 + i);
	KUNIT_ASSERT_EQ(test, mrc_loss_undo_rto_verdict(&u, 50, b),
			(unsigned int)MRC_LOSS_UNDO_RTO);
	for (i = 0; i < MRC_LOSS_UNDO_RTO; i++)
		KUNIT_EXPECT_EQ(test, b[i].ev, i);
}

/*
 * Spurious losses widen the reordering window, once per round trip and
 * up to the cap; MRC_REO_PERSIST losses not found spurious narrow it.
 */
static void reordering_window_adapts(struct kunit *test)
{
	struct mrc_loss_undo u;
	u32 i;

	mrc_loss_undo_init(&u);
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_reo_mult(&u), 1U);
	mrc_loss_undo_widen(&u, 1000, 100);
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_reo_mult(&u), 2U);
	/* The same reordering event: within a round trip, once. */
	mrc_loss_undo_widen(&u, 1099, 100);
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_reo_mult(&u), 2U);
	for (i = 0; i < 2 * MRC_REO_MULT_MAX; i++)
		mrc_loss_undo_widen(&u, 1100 + 100 * i, 100);
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_reo_mult(&u), MRC_REO_MULT_MAX);
	for (i = 0; i < MRC_REO_PERSIST - 1; i++)
		mrc_loss_undo_record(&u, i, 0, i, false, 0);
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_reo_mult(&u), MRC_REO_MULT_MAX);
	mrc_loss_undo_record(&u, i, 0, i, false, 0);
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_reo_mult(&u), MRC_REO_MULT_MAX - 1);
	for (i = 0; i < MRC_REO_PERSIST * MRC_REO_MULT_MAX; i++)
		mrc_loss_undo_record(&u, i, 0, i, false, 0);
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_reo_mult(&u), 1U);
	/* A widening restarts the count of quiet losses. */
	for (i = 0; i < MRC_REO_PERSIST - 1; i++)
		mrc_loss_undo_record(&u, i, 0, i, false, 0);
	mrc_loss_undo_widen(&u, 0x80000000, 100);
	mrc_loss_undo_record(&u, i, 0, i, false, 0);
	KUNIT_EXPECT_EQ(test, mrc_loss_undo_reo_mult(&u), 2U);
}

/*
 * An answer echoing a tail loss probe's copy finds the transmission it
 * stood in for lost, once; one echoing that transmission, another PSN's
 * answer or another copy decides nothing or clears the wait.
 */
static void probe_answer_convicts_the_original(struct kunit *test)
{
	struct mrc_loss_undo u;
	u32 seq = 0;
	u16 ev = 0;

	mrc_loss_undo_init(&u);
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_probe_echo(&u, 7, 2, 40, false, &ev, &seq));
	mrc_loss_undo_probe_sent(&u, 7, 5, 90, 2, 40, true);
	/* Another PSN's answer, another copy on the probe's EV: no verdict. */
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_probe_echo(&u, 8, 2, 40, false, &ev, &seq));
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_probe_echo(&u, 7, 2, 41, false, &ev, &seq));
	KUNIT_EXPECT_TRUE(test, mrc_loss_undo_probe_echo(&u, 7, 2, 40, false, &ev, &seq));
	KUNIT_EXPECT_EQ(test, ev, 5);
	KUNIT_EXPECT_EQ(test, seq, 90U);
	/* Decided once: a duplicate answer blames nothing more. */
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_probe_echo(&u, 7, 2, 40, false, &ev, &seq));

	/* The original answered first: it arrived; the probe convicts none. */
	mrc_loss_undo_probe_sent(&u, 9, 5, 91, 3, 12, true);
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_probe_echo(&u, 9, 5, 91, false, &ev, &seq));
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_probe_echo(&u, 9, 3, 12, false, &ev, &seq));

	/* The probe's answer echoes the original's time: that one arrived. */
	mrc_loss_undo_probe_sent(&u, 13, 5, 92, 3, 13, true);
	KUNIT_EXPECT_FALSE(test,
			   mrc_loss_undo_probe_echo(&u, 13, 3, 13, true, &ev, &seq));
	KUNIT_EXPECT_FALSE(test,
			   mrc_loss_undo_probe_echo(&u, 13, 3, 13, false, &ev, &seq));

	/* A probe on the original's own EV proves that EV delivers. */
	mrc_loss_undo_probe_sent(&u, 10, 4, 50, 4, 51, true);
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_probe_echo(&u, 10, 4, 51, false, &ev, &seq));

	/* Behind earlier unacknowledged PSNs a probe is not judged. */
	mrc_loss_undo_probe_sent(&u, 14, 5, 93, 3, 14, false);
	KUNIT_EXPECT_FALSE(test,
			   mrc_loss_undo_probe_echo(&u, 14, 3, 14, false, &ev, &seq));

	/* A newer probe replaces the one awaited; a reset forgets it. */
	mrc_loss_undo_probe_sent(&u, 11, 1, 5, 2, 6, true);
	mrc_loss_undo_probe_sent(&u, 12, 1, 7, 3, 8, true);
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_probe_echo(&u, 11, 2, 6, false, &ev, &seq));
	mrc_loss_undo_init(&u);
	KUNIT_EXPECT_FALSE(test, mrc_loss_undo_probe_echo(&u, 12, 3, 8, false, &ev, &seq));
}

static struct kunit_case mrc_loss_undo_cases[] = {
	KUNIT_CASE(match_needs_psn_ev_and_sequence),
	KUNIT_CASE(ring_forgets_the_oldest),
	KUNIT_CASE(live_counts_the_valid_records),
	KUNIT_CASE(rto_verdict_takes_back_later_timeouts),
	KUNIT_CASE(rto_verdict_retransmission_answered),
	KUNIT_CASE(rto_blames_keep_the_first),
	KUNIT_CASE(reordering_window_adapts),
	KUNIT_CASE(probe_answer_convicts_the_original),
	{}
};

static struct kunit_suite mrc_loss_undo_suite = {
	.name = "mrc_loss_undo",
	.test_cases = mrc_loss_undo_cases,
};

kunit_test_suite(mrc_loss_undo_suite);
MODULE_LICENSE("Dual BSD/GPL");
