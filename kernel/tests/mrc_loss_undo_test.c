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

static struct kunit_case mrc_loss_undo_cases[] = {
	KUNIT_CASE(match_needs_psn_ev_and_sequence),
	KUNIT_CASE(ring_forgets_the_oldest),
	KUNIT_CASE(live_counts_the_valid_records),
	{}
};

static struct kunit_suite mrc_loss_undo_suite = {
	.name = "mrc_loss_undo",
	.test_cases = mrc_loss_undo_cases,
};

kunit_test_suite(mrc_loss_undo_suite);
MODULE_LICENSE("Dual BSD/GPL");
