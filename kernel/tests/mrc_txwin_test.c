// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for the MRC send window: PSN assignment, cumulative and
 * selective acknowledgments, loss inference, retransmission order, the
 * PSN wrap, and a randomised check of the scoreboard's invariants.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "../core/mrc_txwin.h"

struct win_args {
	u32 start;
	u32 size;
};

static int win_res_init(struct kunit_resource *res, void *context)
{
	const struct win_args *a = context;
	struct mrc_txwin *win = kzalloc(sizeof(*win), GFP_KERNEL);

	if (!win)
		return -ENOMEM;
	if (mrc_txwin_init(win, a->start, a->size)) {
		kfree(win);
		return -EINVAL;
	}
	res->data = win;
	return 0;
}

static void win_res_free(struct kunit_resource *res)
{
	mrc_txwin_destroy(res->data);
	kfree(res->data);
}

/* A window that lives until the end of the test. */
static struct mrc_txwin *new_win(struct kunit *test, u32 start, u32 size)
{
	struct win_args a = { .start = start, .size = size };
	struct mrc_txwin *win;

	win = kunit_alloc_resource(test, win_res_init, win_res_free,
				   GFP_KERNEL, &a);
	KUNIT_ASSERT_NOT_NULL(test, win);
	return win;
}

/* Push @n packets on EV 7, sent at time 1000 + PSN offset. */
static void push_n(struct kunit *test, struct mrc_txwin *win, u32 n)
{
	u32 i, psn;

	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ(test, mrc_txwin_push(win, 7, 1000 + i, &psn), 0);
		KUNIT_ASSERT_EQ(test, psn + 1, mrc_txwin_next_psn(win));
	}
}

/* SACK the PSNs @first .. @last, as one SACK based at @first. */
static u32 sack_range(struct mrc_txwin *win, u32 first, u32 last)
{
	u64 bm[4] = {};
	u32 i;

	for (i = 0; i <= last - first; i++)
		bm[i / 64] |= BIT_ULL(i % 64);
	return mrc_txwin_on_sack(win, first, 4, bm);
}

static u8 flags_of(struct mrc_txwin *win, u32 psn)
{
	const struct mrc_tx_entry *e = mrc_txwin_entry(win, psn);

	return e ? e->flags : 0xff;
}

static void init_checks_size(struct kunit *test)
{
	struct mrc_txwin win = {};
	static const u32 good[] = { 1, 384, 1024, 8192 };
	unsigned int i;

	KUNIT_EXPECT_EQ(test, mrc_txwin_init(&win, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_txwin_init(&win, 0, 8193), -EINVAL);
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		KUNIT_EXPECT_EQ(test, mrc_txwin_init(&win, 9, good[i]), 0);
		KUNIT_EXPECT_EQ(test, mrc_txwin_oldest_unacked(&win), 9U);
		KUNIT_EXPECT_EQ(test, mrc_txwin_next_psn(&win), 9U);
		KUNIT_EXPECT_EQ(test, mrc_txwin_outstanding(&win), 0U);
		KUNIT_EXPECT_EQ(test, mrc_txwin_in_flight(&win), 0U);
		mrc_txwin_destroy(&win);
		KUNIT_EXPECT_NULL(test, win.ent);
		mrc_txwin_destroy(&win);
	}
}

/* An MPR below the ring limits what may be outstanding. */
static void set_size_limits_push(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 10, 1024);
	u32 psn, i;

	KUNIT_EXPECT_EQ(test, mrc_txwin_set_size(win, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_txwin_set_size(win, 1025), -EINVAL);
	KUNIT_ASSERT_EQ(test, mrc_txwin_set_size(win, 128), 0);
	for (i = 0; i < 128; i++)
		KUNIT_ASSERT_EQ(test, mrc_txwin_push(win, 0, 1, &psn), 0);
	KUNIT_EXPECT_EQ(test, mrc_txwin_push(win, 0, 1, &psn), -ENOSPC);
	KUNIT_EXPECT_EQ(test, mrc_txwin_outstanding(win), 128U);
	/* Not while PSNs are outstanding. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_set_size(win, 1024), -EBUSY);
	mrc_txwin_on_ack(win, 10 + 128);
	KUNIT_ASSERT_EQ(test, mrc_txwin_set_size(win, 1024), 0);
	for (i = 0; i < 1024; i++)
		KUNIT_ASSERT_EQ(test, mrc_txwin_push(win, 0, 1, &psn), 0);
	KUNIT_EXPECT_EQ(test, mrc_txwin_push(win, 0, 1, &psn), -ENOSPC);
}

static void push_assigns_psns(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0xfffffffe, 4);
	struct mrc_txwin *odd = new_win(test, 0, 384);
	const struct mrc_tx_entry *e;
	u32 psn;

	KUNIT_EXPECT_EQ(test, mrc_txwin_push(win, 3, 77, &psn), 0);
	KUNIT_EXPECT_EQ(test, psn, 0xfffffffeU);
	KUNIT_EXPECT_EQ(test, mrc_txwin_push(win, 4, 78, &psn), 0);
	KUNIT_EXPECT_EQ(test, psn, 0xffffffffU);
	KUNIT_EXPECT_EQ(test, mrc_txwin_push(win, 5, 79, &psn), 0);
	KUNIT_EXPECT_EQ(test, psn, 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_push(win, 6, 80, &psn), 0);
	KUNIT_EXPECT_EQ(test, psn, 1U);
	/* Full. */
	psn = 1234;
	KUNIT_EXPECT_EQ(test, mrc_txwin_push(win, 6, 81, &psn), -ENOSPC);
	KUNIT_EXPECT_EQ(test, psn, 1234U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_next_psn(win), 2U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_outstanding(win), 4U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_in_flight(win), 4U);

	e = mrc_txwin_entry(win, 0);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, e->ev, 5);
	KUNIT_EXPECT_EQ(test, e->ts, 79U);
	KUNIT_EXPECT_EQ(test, e->tx_count, 1);
	KUNIT_EXPECT_EQ(test, e->flags, 0);
	KUNIT_EXPECT_NULL(test, mrc_txwin_entry(win, 2));
	KUNIT_EXPECT_NULL(test, mrc_txwin_entry(win, 0xfffffffd));

	/* An ACK makes room; reused slots start clean. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 0), 2U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_push(win, 9, 90, &psn), 0);
	KUNIT_EXPECT_EQ(test, psn, 2U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_entry(win, 2)->ev, 9);
	KUNIT_EXPECT_EQ(test, mrc_txwin_push(win, 9, 91, &psn), 0);
	KUNIT_EXPECT_EQ(test, mrc_txwin_push(win, 9, 92, &psn), -ENOSPC);

	/* A window that is not a power of two holds exactly its size. */
	push_n(test, odd, 384);
	KUNIT_EXPECT_EQ(test, mrc_txwin_push(odd, 0, 0, &psn), -ENOSPC);
}

static void stale_acks_ignored(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 100, 64);

	push_n(test, win, 10);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 105), 5U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_oldest_unacked(win), 105U);
	/* Backwards, repeated, beyond nxt, far away: all ignored. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 103), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 105), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 111), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 0x80000000), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 0xffffffff), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_oldest_unacked(win), 105U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_outstanding(win), 5U);
	/* Exactly nxt acknowledges everything. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 110), 5U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_outstanding(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 110), 0U);
}

static void acks_across_wrap(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0xfffffff8, 32);

	push_n(test, win, 16);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 0xfffffffc), 4U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 0xfffffff9), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 3), 7U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 9), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 8), 5U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_oldest_unacked(win), 8U);
}

static void sack_marks_window_only(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0xfffffffa, 64);
	u64 bm[2];

	push_n(test, win, 12);		/* 0xfffffffa .. 5 */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 0xfffffffc), 2U);
	/* Base 0xfffffff0: bits 0..11 are before una, 22.. beyond nxt. */
	bm[0] = GENMASK_ULL(63, 0);
	bm[1] = GENMASK_ULL(63, 0);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_sack(win, 0xfffffff0, 2, bm), 10U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_sacked(win), 10U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_in_flight(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_outstanding(win), 10U);
	/* Again: nothing new. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_sack(win, 0xfffffff0, 2, bm), 0U);

	mrc_txwin_reset(win, 0xfffffffe);
	push_n(test, win, 6);		/* 0xfffffffe .. 3 */
	bm[0] = BIT_ULL(0) | BIT_ULL(3) | BIT_ULL(5) | BIT_ULL(6) | BIT_ULL(63);
	bm[1] = BIT_ULL(0);
	/* Base 0xfffffffe: PSNs 0xfffffffe, 1, 3 are in; 4, 61, 62 out. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_sack(win, 0xfffffffe, 2, bm), 3U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 0xfffffffe), MRC_TXE_SACKED);
	KUNIT_EXPECT_EQ(test, flags_of(win, 0xffffffff), 0);
	KUNIT_EXPECT_EQ(test, flags_of(win, 0), 0);
	KUNIT_EXPECT_EQ(test, flags_of(win, 1), MRC_TXE_SACKED);
	KUNIT_EXPECT_EQ(test, flags_of(win, 2), 0);
	KUNIT_EXPECT_EQ(test, flags_of(win, 3), MRC_TXE_SACKED);
	KUNIT_EXPECT_EQ(test, mrc_txwin_in_flight(win), 3U);
	/* Zero words change nothing. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_sack(win, 0, 0, bm), 0U);
}

static void detect_losses_dupthresh(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0, 64);
	u32 psn;

	push_n(test, win, 20);
	sack_range(win, 5, 6);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 3, NULL, NULL, NULL), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 0U);
	sack_range(win, 7, 7);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 3, NULL, NULL, NULL), 5U);
	for (psn = 0; psn < 5; psn++)
		KUNIT_EXPECT_EQ(test, flags_of(win, psn), MRC_TXE_LOST);
	KUNIT_EXPECT_EQ(test, mrc_txwin_in_flight(win), 20U - 3 - 5);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 3, NULL, NULL, NULL), 0U);

	/* 8 and 9 need three SACKed PSNs after them, not one or two. */
	sack_range(win, 10, 10);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 3, NULL, NULL, NULL), 0U);
	sack_range(win, 11, 11);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 3, NULL, NULL, NULL), 0U);
	sack_range(win, 12, 12);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 3, NULL, NULL, NULL), 2U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 8), MRC_TXE_LOST);
	KUNIT_EXPECT_EQ(test, flags_of(win, 9), MRC_TXE_LOST);
	for (psn = 13; psn < 20; psn++)
		KUNIT_EXPECT_EQ(test, flags_of(win, psn), 0);

	/* Retransmissions are not inferred lost again by older SACKs. */
	for (psn = 0; psn < 5; psn++)
		KUNIT_EXPECT_EQ(test, mrc_txwin_on_retransmit(win, psn, 1, 2), 0);
	sack_range(win, 13, 16);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 3, NULL, NULL, NULL), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 2U);

	/* dupthresh 0 works as 1: 17 is followed by SACKed 18. */
	sack_range(win, 18, 18);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 0, NULL, NULL, NULL), 1U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 17), MRC_TXE_LOST);
	KUNIT_EXPECT_EQ(test, flags_of(win, 19), 0);
}

static void ack_releases_scoreboard(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0xfffffffd, 16);

	push_n(test, win, 10);		/* 0xfffffffd .. 6 */
	sack_range(win, 0xfffffffe, 0);
	mrc_txwin_mark_lost(win, 1);
	KUNIT_EXPECT_EQ(test, mrc_txwin_sacked(win), 3U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 2), 5U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_sacked(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_in_flight(win), 5U);
	/* The acked SACKs no longer count towards loss inference. */
	sack_range(win, 4, 4);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 2, NULL, NULL, NULL), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 1, NULL, NULL, NULL), 2U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 2), MRC_TXE_LOST);
	KUNIT_EXPECT_EQ(test, flags_of(win, 3), MRC_TXE_LOST);
	KUNIT_EXPECT_EQ(test, flags_of(win, 5), 0);
}

static void mark_lost_rules(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 10, 16);
	const struct mrc_tx_entry *e;
	u32 psn, i;

	push_n(test, win, 4);		/* 10 .. 13 */
	sack_range(win, 11, 11);
	KUNIT_EXPECT_FALSE(test, mrc_txwin_mark_lost(win, 9));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_mark_lost(win, 14));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_mark_lost(win, 11));
	KUNIT_EXPECT_TRUE(test, mrc_txwin_mark_lost(win, 12));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_mark_lost(win, 12));
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_in_flight(win), 2U);
	/* A SACK cancels the pending retransmission. */
	sack_range(win, 12, 12);
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 0U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 12), MRC_TXE_SACKED);
	psn = 10;
	KUNIT_EXPECT_FALSE(test, mrc_txwin_next_retransmit(win, &psn));

	KUNIT_EXPECT_EQ(test, mrc_txwin_on_retransmit(win, 9, 0, 0), -ERANGE);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_retransmit(win, 14, 0, 0), -ERANGE);
	for (i = 0; i < 300; i++)
		KUNIT_ASSERT_EQ(test, mrc_txwin_on_retransmit(win, 13, 2, i), 0);
	e = mrc_txwin_entry(win, 13);
	KUNIT_EXPECT_EQ(test, e->tx_count, 255);
	KUNIT_EXPECT_EQ(test, e->ts, 299U);
}

/*
 * A trimmed PSN is lost and says so until it is sent again or SACKed;
 * a NACK for a copy older than the latest is stale.
 */
static void trimmed_until_resent(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 10, 16);
	u32 psn;

	push_n(test, win, 4);		/* 10 .. 13, EV 7 */
	for (psn = 10; psn < 14; psn++)
		mrc_txwin_set_ev(win, psn, 7, psn);
	KUNIT_EXPECT_FALSE(test, mrc_txwin_mark_trimmed(win, 14, 7, 14));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_mark_trimmed(win, 11, 7, 12));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_mark_trimmed(win, 11, 6, 11));
	KUNIT_EXPECT_TRUE(test, mrc_txwin_mark_trimmed(win, 11, 7, 11));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_mark_trimmed(win, 11, 7, 11));
	KUNIT_EXPECT_EQ(test, flags_of(win, 11), MRC_TXE_LOST | MRC_TXE_TRIMMED);
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_retransmit(win, 11, 3, 50), 0);
	mrc_txwin_set_ev(win, 11, 3, 40);
	KUNIT_EXPECT_EQ(test, flags_of(win, 11), 0);
	/* The first copy's NACK, late: the copy on EV 3 is on its way. */
	KUNIT_EXPECT_FALSE(test, mrc_txwin_mark_trimmed(win, 11, 7, 11));
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 0U);
	KUNIT_EXPECT_TRUE(test, mrc_txwin_mark_trimmed(win, 11, 3, 40));
	KUNIT_EXPECT_TRUE(test, mrc_txwin_mark_trimmed(win, 12, 7, 12));
	sack_range(win, 12, 12);
	KUNIT_EXPECT_EQ(test, flags_of(win, 12), MRC_TXE_SACKED);
}

static void mark_all_lost_on_timeout(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0, 8);
	u32 psn = 0, order[8], n = 0;

	push_n(test, win, 8);
	sack_range(win, 3, 3);
	mrc_txwin_mark_lost(win, 5);
	KUNIT_EXPECT_EQ(test, mrc_txwin_mark_all_lost(win), 6U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 7U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_in_flight(win), 0U);
	while (mrc_txwin_next_retransmit(win, &psn))
		order[n++] = psn++;
	KUNIT_ASSERT_EQ(test, n, 7U);
	KUNIT_EXPECT_EQ(test, order[0], 0U);
	KUNIT_EXPECT_EQ(test, order[3], 4U);
	KUNIT_EXPECT_EQ(test, order[6], 7U);
}

/* Each EV's wait: EV 7 waits 20 units, any other EV 50. */
static u32 wait_by_ev(void *ctx, u16 ev)
{
	return ev == 7 ? 20 : 50;
}

/*
 * The time rule: a hole sent before a SACKed packet is lost once it has
 * been missing longer than its EV's wait; until then the scan stops at
 * it and says when it falls due.
 */
static void detect_losses_time_rule(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0, 64);
	struct mrc_loss_clock clk = { .now = 1015, .wait = wait_by_ev };
	u32 psn;

	push_n(test, win, 10);		/* sent at 1000 .. 1009 on EV 7 */
	sack_range(win, 5, 5);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 1, &clk, NULL, NULL), 0U);
	KUNIT_EXPECT_TRUE(test, clk.pending);
	KUNIT_EXPECT_EQ(test, clk.due, 1020U);
	/* Due: holes 0..4 were sent at or before 1020 - 20; 1 and up not. */
	clk.pending = false;
	clk.now = 1020;
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 1, &clk, NULL, NULL), 1U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 0), MRC_TXE_LOST);
	KUNIT_EXPECT_EQ(test, flags_of(win, 1), 0);
	KUNIT_EXPECT_EQ(test, clk.due, 1021U);
	clk.now = 1030;
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 1, &clk, NULL, NULL), 4U);
	/* 6..9 were sent after the newest SACKed packet: no evidence yet. */
	clk.pending = false;
	clk.now = 5000;
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 1, &clk, NULL, NULL), 0U);
	KUNIT_EXPECT_FALSE(test, clk.pending);
	KUNIT_EXPECT_EQ(test, flags_of(win, 6), 0);
	/* A slower EV waits longer: 10 sent at 4990 on EV 3, 11 SACKed. */
	KUNIT_ASSERT_EQ(test, mrc_txwin_push(win, 3, 4990, &psn), 0);
	KUNIT_ASSERT_EQ(test, mrc_txwin_push(win, 7, 4991, &psn), 0);
	sack_range(win, 11, 11);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 1, &clk, NULL, NULL), 4U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 9), MRC_TXE_LOST);
	KUNIT_EXPECT_EQ(test, flags_of(win, 10), 0);
	KUNIT_EXPECT_TRUE(test, clk.pending);
	KUNIT_EXPECT_EQ(test, clk.due, 5040U);
	clk.now = 5040;
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 1, &clk, NULL, NULL), 1U);
}

/* The time rule across the wrap of the 32-bit clock. */
static void detect_losses_time_rule_wraps(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0, 64);
	struct mrc_loss_clock clk = { .now = 5, .wait = wait_by_ev };
	u32 psn;

	KUNIT_ASSERT_EQ(test, mrc_txwin_push(win, 7, 0xfffffff0, &psn), 0);
	KUNIT_ASSERT_EQ(test, mrc_txwin_push(win, 7, 0xfffffff8, &psn), 0);
	sack_range(win, 1, 1);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 1, &clk, NULL, NULL), 1U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 0), MRC_TXE_LOST);
	KUNIT_ASSERT_EQ(test, mrc_txwin_push(win, 7, 2, &psn), 0);
	KUNIT_ASSERT_EQ(test, mrc_txwin_push(win, 7, 3, &psn), 0);
	sack_range(win, 3, 3);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 1, &clk, NULL, NULL), 0U);
	KUNIT_EXPECT_EQ(test, clk.due, 22U);
}

/* A spurious timeout is taken back: nothing is left to retransmit. */
static void clear_lost_after_spurious_timeout(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0, 8);
	u32 psn = 0;

	push_n(test, win, 8);
	sack_range(win, 3, 3);
	KUNIT_EXPECT_EQ(test, mrc_txwin_mark_all_lost(win), 7U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_clear_lost(win), 7U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_in_flight(win), 7U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 3), MRC_TXE_SACKED);
	KUNIT_EXPECT_FALSE(test, mrc_txwin_next_retransmit(win, &psn));
	KUNIT_EXPECT_EQ(test, mrc_txwin_clear_lost(win), 0U);
}

/*
 * A spurious timeout takes back only its own marks: a PSN known lost by
 * a trim before it, or by a NACK or a trim after it, is still resent.
 */
static void spurious_timeout_keeps_other_losses(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0, 16);
	u32 psn;

	push_n(test, win, 8);
	for (psn = 0; psn < 8; psn++)
		mrc_txwin_set_ev(win, psn, 7, psn);
	KUNIT_EXPECT_TRUE(test, mrc_txwin_mark_trimmed(win, 2, 7, 2));
	KUNIT_EXPECT_EQ(test, mrc_txwin_mark_all_lost(win), 7U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 0), MRC_TXE_LOST | MRC_TXE_RTO);
	/* After the timeout: a sequence NACK for 5, a trim of 6. */
	KUNIT_EXPECT_FALSE(test, mrc_txwin_mark_lost(win, 5));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_mark_trimmed(win, 6, 7, 6));
	KUNIT_EXPECT_EQ(test, mrc_txwin_clear_lost(win), 5U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 3U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 2), MRC_TXE_LOST | MRC_TXE_TRIMMED);
	KUNIT_EXPECT_EQ(test, flags_of(win, 5), MRC_TXE_LOST);
	KUNIT_EXPECT_EQ(test, flags_of(win, 6), MRC_TXE_LOST);
	KUNIT_EXPECT_EQ(test, flags_of(win, 7), 0);
	psn = mrc_txwin_oldest_unacked(win);
	KUNIT_EXPECT_TRUE(test, mrc_txwin_next_retransmit(win, &psn));
	KUNIT_EXPECT_EQ(test, psn, 2U);
}

static void retransmit_order(struct kunit *test)
{
	static const u32 lost[] = { 0xfffffffa, 0xffffffff, 0, 5 };
	struct mrc_txwin *win = new_win(test, 0xfffffff0, 32);
	const struct mrc_tx_entry *e;
	u32 psn, i;

	push_n(test, win, 24);		/* 0xfffffff0 .. 7 */
	psn = 0xfffffff0;
	KUNIT_EXPECT_FALSE(test, mrc_txwin_next_retransmit(win, &psn));
	/* Marked out of order, found in PSN order across the wrap. */
	mrc_txwin_mark_lost(win, 5);
	mrc_txwin_mark_lost(win, 0xffffffff);
	mrc_txwin_mark_lost(win, 0);
	mrc_txwin_mark_lost(win, 0xfffffffa);

	/* Walking with a cursor leaves the marks alone. */
	psn = 0xfffffff0;
	for (i = 0; i < ARRAY_SIZE(lost); i++, psn++) {
		KUNIT_ASSERT_TRUE(test, mrc_txwin_next_retransmit(win, &psn));
		KUNIT_EXPECT_EQ(test, psn, lost[i]);
	}
	KUNIT_EXPECT_FALSE(test, mrc_txwin_next_retransmit(win, &psn));
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 4U);
	/* A cursor before una starts at una, one at or past nxt finds none. */
	psn = 8;
	KUNIT_EXPECT_FALSE(test, mrc_txwin_next_retransmit(win, &psn));
	psn = 100;
	KUNIT_EXPECT_FALSE(test, mrc_txwin_next_retransmit(win, &psn));
	psn = 0xffffff00;
	KUNIT_EXPECT_TRUE(test, mrc_txwin_next_retransmit(win, &psn));
	KUNIT_EXPECT_EQ(test, psn, lost[0]);

	/* Consuming from una: each retransmission clears its mark. */
	for (i = 0; i < 2; i++) {
		psn = mrc_txwin_oldest_unacked(win);
		KUNIT_ASSERT_TRUE(test, mrc_txwin_next_retransmit(win, &psn));
		KUNIT_EXPECT_EQ(test, psn, lost[i]);
		KUNIT_EXPECT_EQ(test, mrc_txwin_on_retransmit(win, psn, 40 + i,
							      5000 + i), 0);
		e = mrc_txwin_entry(win, psn);
		KUNIT_EXPECT_EQ(test, e->flags, 0);
		KUNIT_EXPECT_EQ(test, e->ev, 40 + i);
		KUNIT_EXPECT_EQ(test, e->ts, 5000U + i);
		KUNIT_EXPECT_EQ(test, e->tx_count, 2);
	}
	/* A new loss below the ones left comes out first. */
	mrc_txwin_mark_lost(win, 0xfffffff3);
	psn = mrc_txwin_oldest_unacked(win);
	KUNIT_ASSERT_TRUE(test, mrc_txwin_next_retransmit(win, &psn));
	KUNIT_EXPECT_EQ(test, psn, 0xfffffff3U);
	mrc_txwin_on_retransmit(win, psn, 1, 1);
	/* An ACK past a lost PSN drops it. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 1), 17U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 1U);
	psn = 0;
	KUNIT_ASSERT_TRUE(test, mrc_txwin_next_retransmit(win, &psn));
	KUNIT_EXPECT_EQ(test, psn, 5U);
	mrc_txwin_on_retransmit(win, psn, 1, 1);
	psn = 1;
	KUNIT_EXPECT_FALSE(test, mrc_txwin_next_retransmit(win, &psn));
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 0U);
}

/* Recount the scoreboard and check the cached counts and loss rule. */
static void check_scoreboard(struct kunit *test, struct mrc_txwin *win,
			     u32 dupthresh)
{
	u32 una = mrc_txwin_oldest_unacked(win), nxt = mrc_txwin_next_psn(win);
	u32 psn, sacked = 0, lost = 0, after = 0, found = 0;
	const struct mrc_tx_entry *e;

	for (psn = nxt - 1; psn != una - 1; psn--) {
		e = mrc_txwin_entry(win, psn);
		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_ASSERT_NE(test, e->flags, MRC_TXE_SACKED | MRC_TXE_LOST);
		sacked += !!(e->flags & MRC_TXE_SACKED);
		lost += !!(e->flags & MRC_TXE_LOST);
		/* Sent once, un-SACKed, dupthresh SACKs above: lost. */
		if (!e->flags && e->tx_count == 1)
			KUNIT_ASSERT_LT_MSG(test, after, dupthresh, "psn %u", psn);
		after += !!(e->flags & MRC_TXE_SACKED);
	}
	KUNIT_ASSERT_EQ(test, mrc_txwin_sacked(win), sacked);
	KUNIT_ASSERT_EQ(test, mrc_txwin_lost(win), lost);
	for (psn = una; mrc_txwin_next_retransmit(win, &psn); psn++)
		found++;
	KUNIT_ASSERT_EQ(test, found, lost);
}

static void random_scoreboard(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0xfffff000, 64);
	u32 step, op, una, out, psn, i, inferred = 0, full = 0;
	struct rnd_state rnd;
	u64 bm[4];

	prandom_seed_state(&rnd, 7);
	for (step = 0; step < 20000; step++) {
		op = prandom_u32_state(&rnd);
		una = mrc_txwin_oldest_unacked(win);
		out = mrc_txwin_outstanding(win);
		switch (op % 8) {
		case 0: case 1: case 2:
			for (i = op % 13; i; i--)
				full += mrc_txwin_push(win, i, step, &psn) ==
					-ENOSPC;
			break;
		case 3:
			mrc_txwin_on_ack(win, una + (op >> 8) % (out + 8) - 4);
			break;
		case 4: case 5:
			for (i = 0; i < 4; i++)
				bm[i] = (u64)prandom_u32_state(&rnd) << 32 |
					prandom_u32_state(&rnd);
			bm[op % 3] = 0;
			mrc_txwin_on_sack(win, una + (op >> 8) % (out + 64) - 32,
					  4, bm);
			break;
		case 6:
			mrc_txwin_mark_lost(win, una + (op >> 8) % (out + 1));
			break;
		case 7:
			psn = una;
			for (i = op % 4; i && mrc_txwin_next_retransmit(win, &psn);
			     i--)
				mrc_txwin_on_retransmit(win, psn, 0, step);
			break;
		}
		inferred += mrc_txwin_detect_losses(win, 3, NULL, NULL, NULL);
		check_scoreboard(test, win, 3);
	}
	/* The run exercised loss inference and a full window. */
	KUNIT_EXPECT_GT(test, inferred, 100U);
	KUNIT_EXPECT_GT(test, full, 0U);
	/* The sequence did cross the PSN wrap. */
	KUNIT_EXPECT_LT(test, mrc_txwin_oldest_unacked(win), 0x80000000U);
}

struct blame_log {
	const struct mrc_txwin *win;
	u32 n;
	u32 psn[8];
	u16 ev[8];
};

static void blame(void *ctx, u32 psn)
{
	struct blame_log *log = ctx;

	if (log->n < ARRAY_SIZE(log->ev)) {
		log->psn[log->n] = psn;
		log->ev[log->n] = mrc_txwin_entry(log->win, psn)->ev;
	}
	log->n++;
}

/* Inferred losses name their EV; an EV's failure loses its PSNs only. */
static void losses_per_ev(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0, 64);
	struct blame_log log = { .win = win };
	u32 psn;

	push_n(test, win, 10);
	for (psn = 0; psn < 10; psn++)
		mrc_txwin_set_ev(win, psn, psn % 3, psn / 3);
	KUNIT_EXPECT_EQ(test, mrc_txwin_entry(win, 5)->ev, 2);
	KUNIT_EXPECT_EQ(test, mrc_txwin_entry(win, 5)->ev_seq, 1U);
	mrc_txwin_set_ev(win, 10, 1, 1);	/* not outstanding: ignored */

	sack_range(win, 2, 4);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 3, NULL, blame, &log), 2U);
	KUNIT_EXPECT_EQ(test, log.n, 2U);
	KUNIT_EXPECT_EQ(test, log.psn[0], 0U);
	KUNIT_EXPECT_EQ(test, log.ev[0], 0);
	KUNIT_EXPECT_EQ(test, log.psn[1], 1U);
	KUNIT_EXPECT_EQ(test, log.ev[1], 1);

	/* EV 2 holds PSNs 2, 5, 8; 2 is SACKED and stays so. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_mark_ev_lost(win, 2), 2U);
	KUNIT_EXPECT_EQ(test, flags_of(win, 2), MRC_TXE_SACKED);
	KUNIT_EXPECT_EQ(test, flags_of(win, 5), MRC_TXE_LOST);
	KUNIT_EXPECT_EQ(test, flags_of(win, 8), MRC_TXE_LOST);
	KUNIT_EXPECT_EQ(test, flags_of(win, 6), 0);
	KUNIT_EXPECT_EQ(test, mrc_txwin_mark_ev_lost(win, 2), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_lost(win), 4U);
}

/*
 * A transmission of several PSNs (a READ request) is judged by its first:
 * PSNs 0-3 one request, 4-7 another, 8-11 a third. Request 0-3's first
 * response arrived but not its others: the hole check's case, not ours.
 * Request 4-7 brought nothing back: lost whole, one call to @lost.
 */
static void detect_losses_whole_transmissions(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0, 64);
	struct blame_log log = { .win = win };
	u32 psn;

	push_n(test, win, 12);
	for (psn = 0; psn < 12; psn++) {
		if (psn % 4)
			mrc_txwin_set_cont(win, psn, psn / 4, 0);
		else
			mrc_txwin_set_ev(win, psn, psn / 4, 0);
	}
	KUNIT_EXPECT_EQ(test, flags_of(win, 1), MRC_TXE_CONT);
	sack_range(win, 0, 0);
	sack_range(win, 8, 11);
	KUNIT_EXPECT_EQ(test, mrc_txwin_detect_losses(win, 3, NULL, blame, &log), 4U);
	KUNIT_EXPECT_EQ(test, log.n, 1U);
	KUNIT_EXPECT_EQ(test, log.psn[0], 4U);
	for (psn = 1; psn < 4; psn++)
		KUNIT_EXPECT_EQ(test, flags_of(win, psn), MRC_TXE_CONT);
	for (psn = 5; psn < 8; psn++)
		KUNIT_EXPECT_EQ(test, flags_of(win, psn),
				MRC_TXE_CONT | MRC_TXE_LOST);
	/* Asked for again alone, a PSN is a transmission of its own. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_retransmit(win, 5, 3, 2000), 0);
	KUNIT_EXPECT_EQ(test, flags_of(win, 5), 0);
}

/*
 * The READ hole rule. Two requests on EV 1: PSNs 0-15 (its request 5,
 * at time 1000) and 16-31 (request 6, 50 later). With a reordering
 * window of 100, a response proves an earlier one of its own request
 * lost three PSNs on, and one of another request only when that went
 * more than 100 later on the same EV. A response to a PSN asked for
 * again proves nothing unless it answers the newest request: the
 * first answer may only have been late, behind a flow-fair queue.
 */
static void read_hole_needs_newest_request(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0, 64);
	u32 i, psn;

	for (i = 0; i < 32; i++) {
		KUNIT_ASSERT_EQ(test, mrc_txwin_push(win, 1, i < 16 ? 1000 : 1050,
						     &psn), 0);
		mrc_txwin_set_ev(win, psn, 1, i < 16 ? 5 : 6);
	}
	/* Same request: three later ones, not two. */
	KUNIT_EXPECT_TRUE(test, mrc_txwin_read_hole_lost(win, 3, 6, 1, 5, 100));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_read_hole_lost(win, 3, 5, 1, 5, 100));
	/* Another request inside the reordering window: not yet. */
	KUNIT_EXPECT_FALSE(test, mrc_txwin_read_hole_lost(win, 3, 20, 1, 6, 100));
	/* An echo that names another request than the window's is refused. */
	KUNIT_EXPECT_FALSE(test, mrc_txwin_read_hole_lost(win, 3, 6, 2, 5, 100));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_read_hole_lost(win, 3, 6, 1, 4, 100));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_read_hole_lost(win, 3, 64, 1, 5, 100));

	/* PSN 20 asked for again on EV 1 at 3000, as its request 9. */
	KUNIT_ASSERT_EQ(test, mrc_txwin_on_retransmit(win, 20, 1, 3000), 0);
	mrc_txwin_set_ev(win, 20, 1, 9);
	/* Its first answer arrives late: nothing about EV 1 since 1000. */
	KUNIT_EXPECT_FALSE(test, mrc_txwin_read_hole_lost(win, 3, 20, 1, 6, 100));
	/* The answer to the new request went behind PSN 3's: lost. */
	KUNIT_EXPECT_TRUE(test, mrc_txwin_read_hole_lost(win, 3, 20, 1, 9, 100));

	/* A hole asked for on another EV is not judged by EV 1. */
	KUNIT_ASSERT_EQ(test, mrc_txwin_on_retransmit(win, 4, 2, 2000), 0);
	mrc_txwin_set_ev(win, 4, 2, 1);
	KUNIT_EXPECT_FALSE(test, mrc_txwin_read_hole_lost(win, 4, 20, 1, 9, 100));
}

/*
 * A SACK tells that a PSN arrived, not which copy: the last copy's EV and
 * time describe a packet delivered only for a PSN sent once, or when an
 * answer echoed that copy.
 */
static void last_copy_arrived_needs_echo(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0, 16);

	push_n(test, win, 4);		/* 0 .. 3, EV 7 */
	mrc_txwin_set_ev(win, 1, 7, 1);
	mrc_txwin_set_ev(win, 2, 7, 2);
	sack_range(win, 1, 1);
	KUNIT_EXPECT_TRUE(test, mrc_txwin_last_copy_arrived(mrc_txwin_entry(win, 1)));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_last_copy_arrived(mrc_txwin_entry(win, 2)));

	/* PSN 2 sent again on EV 3; the SACK may report either copy. */
	KUNIT_ASSERT_EQ(test, mrc_txwin_on_retransmit(win, 2, 3, 900), 0);
	mrc_txwin_set_ev(win, 2, 3, 40);
	sack_range(win, 2, 2);
	KUNIT_EXPECT_FALSE(test, mrc_txwin_last_copy_arrived(mrc_txwin_entry(win, 2)));
	/* An echo of the first copy proves nothing about the last. */
	mrc_txwin_note_echo(win, 2, 7, 2);
	KUNIT_EXPECT_FALSE(test, mrc_txwin_last_copy_arrived(mrc_txwin_entry(win, 2)));
	mrc_txwin_note_echo(win, 2, 3, 40);
	KUNIT_EXPECT_TRUE(test, mrc_txwin_last_copy_arrived(mrc_txwin_entry(win, 2)));
	/* Not outstanding: ignored. */
	mrc_txwin_note_echo(win, 9, 7, 9);
	KUNIT_EXPECT_EQ(test, flags_of(win, 3), 0);
}

/*
 * The acceptable-ACK rule: only a cumulative PSN in (una, nxt] or a SACK
 * of an outstanding, not yet SACKED PSN tells something new; stale,
 * repeated and out-of-window ACKs (what a blind spoofer sends) do not.
 */
static void ack_acceptable_rule(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0xfffffff8, 64);
	u64 bits[2] = {};

	push_n(test, win, 16);			/* [0xfffffff8, 8) */
	KUNIT_EXPECT_TRUE(test, mrc_txwin_ack_acceptable(win, 0xfffffff9, 0, 0, NULL));
	KUNIT_EXPECT_TRUE(test, mrc_txwin_ack_acceptable(win, 3, 0, 0, NULL));
	KUNIT_EXPECT_TRUE(test, mrc_txwin_ack_acceptable(win, 8, 0, 0, NULL));
	/* una itself, before it, beyond nxt, far away: nothing new. */
	KUNIT_EXPECT_FALSE(test, mrc_txwin_ack_acceptable(win, 0xfffffff8, 0, 0, NULL));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_ack_acceptable(win, 0xfffffff0, 0, 0, NULL));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_ack_acceptable(win, 9, 0, 0, NULL));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_ack_acceptable(win, 0x7ffffff8, 0, 0, NULL));

	/* A SACK of an outstanding PSN is news once. */
	bits[0] = BIT_ULL(5);			/* PSN 0xfffffffd */
	KUNIT_EXPECT_TRUE(test, mrc_txwin_ack_acceptable(win, 0xfffffff8, 0xfffffff8, 1, bits));
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_sack(win, 0xfffffff8, 1, bits), 1U);
	KUNIT_EXPECT_FALSE(test, mrc_txwin_ack_acceptable(win, 0xfffffff8, 0xfffffff8, 1, bits));
	/* Bits for PSNs outside [una, nxt) are no news either. */
	bits[0] = BIT_ULL(0) | BIT_ULL(63);	/* 0xffffffb8 and 0xfffffff7 */
	bits[1] = BIT_ULL(16);			/* PSN 8 == nxt */
	KUNIT_EXPECT_FALSE(test, mrc_txwin_ack_acceptable(win, 0xfffffff8, 0xffffffb8, 2, bits));
	bits[1] |= BIT_ULL(15);			/* PSN 7: outstanding */
	KUNIT_EXPECT_TRUE(test, mrc_txwin_ack_acceptable(win, 0xfffffff8, 0xffffffb8, 2, bits));

	/* An empty window accepts nothing. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 8), 16U);
	KUNIT_EXPECT_FALSE(test, mrc_txwin_ack_acceptable(win, 8, 0, 0, NULL));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_ack_acceptable(win, 9, 8, 1, bits));
}

/* A sequence-error NACK names one outstanding, un-SACKED hole. */
static void nack_names_one_hole(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 1000, 64);
	u64 one = 1;

	push_n(test, win, 10);			/* [1000, 1010) */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_sack(win, 1004, 1, &one), 1U);
	KUNIT_EXPECT_TRUE(test, mrc_txwin_nack_acceptable(win, 1000));
	KUNIT_EXPECT_TRUE(test, mrc_txwin_nack_acceptable(win, 1009));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_nack_acceptable(win, 1004));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_nack_acceptable(win, 999));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_nack_acceptable(win, 1010));
	KUNIT_EXPECT_FALSE(test, mrc_txwin_nack_acceptable(win, 0x80001000));
}

/*
 * A WRITE at p, an atomic at p + 1. The atomic's response, whose
 * cumulative PSN (p) does not cover it, SACKs its PSN; the ACK of the
 * WRITE then leaves nothing outstanding: no PSN outlives its WQE for the
 * timer to retry until retries run out.
 */
static void response_sack_releases_psn(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0xfffffffe, 64);
	u64 one = 1;

	push_n(test, win, 2);			/* WRITE 0xfffffffe, atomic 0xffffffff */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 0xfffffffe), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_sack(win, 0xffffffff, 1, &one), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_ack_sacked_prefix(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_outstanding(win), 2U);
	/* The ACK covering only the WRITE. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 0xffffffff), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_ack_sacked_prefix(win), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_outstanding(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_oldest_unacked(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_mark_all_lost(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_ack_sacked_prefix(win), 0U);

	/* A prefix stops at the first PSN not SACKED. */
	push_n(test, win, 4);			/* [0, 4) */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_sack(win, 0, 1, &one), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_sack(win, 2, 1, &one), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_ack_sacked_prefix(win), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_oldest_unacked(win), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_sacked(win), 1U);
}

/*
 * A READ of 4 responses at [0xfffffffe, 2) and a WRITE at 2. The
 * responder's ACK covers all 5 PSNs before the responses arrive: held
 * from the first response missing, the READ's PSNs stay outstanding with
 * their EV, and so does everything after them; each response that comes
 * lets the window retire up to the next one missing.
 */
static void hold_keeps_read_psns(struct kunit *test)
{
	struct mrc_txwin *win = new_win(test, 0xfffffffe, 64);
	u64 one = 1;

	push_n(test, win, 5);
	mrc_txwin_hold(win, true, 0xfffffffe);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 3), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_outstanding(win), 5U);
	KUNIT_EXPECT_NOT_NULL(test, mrc_txwin_entry(win, 0xffffffff));
	/* The first and third responses arrive; the hold moves to the second. */
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_sack(win, 0xfffffffe, 1, &one), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_sack(win, 0, 1, &one), 1U);
	mrc_txwin_hold(win, true, 0xffffffff);
	KUNIT_EXPECT_EQ(test, mrc_txwin_ack_sacked_prefix(win), 1U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 3), 0U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_oldest_unacked(win), 0xffffffffU);
	/* A hold behind una (a stale one) holds nothing. */
	mrc_txwin_hold(win, true, 0xfffffff0);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 3), 4U);
	KUNIT_EXPECT_EQ(test, mrc_txwin_outstanding(win), 0U);
	/* Released, an ACK retires what the hold kept. */
	push_n(test, win, 2);
	mrc_txwin_hold(win, true, 3);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 5), 0U);
	mrc_txwin_hold(win, false, 0);
	KUNIT_EXPECT_EQ(test, mrc_txwin_on_ack(win, 5), 2U);
}

static struct kunit_case mrc_txwin_cases[] = {
	KUNIT_CASE(init_checks_size),
	KUNIT_CASE(set_size_limits_push),
	KUNIT_CASE(push_assigns_psns),
	KUNIT_CASE(stale_acks_ignored),
	KUNIT_CASE(acks_across_wrap),
	KUNIT_CASE(sack_marks_window_only),
	KUNIT_CASE(detect_losses_dupthresh),
	KUNIT_CASE(ack_releases_scoreboard),
	KUNIT_CASE(mark_lost_rules),
	KUNIT_CASE(trimmed_until_resent),
	KUNIT_CASE(mark_all_lost_on_timeout),
	KUNIT_CASE(clear_lost_after_spurious_timeout),
	KUNIT_CASE(spurious_timeout_keeps_other_losses),
	KUNIT_CASE(detect_losses_time_rule),
	KUNIT_CASE(detect_losses_time_rule_wraps),
	KUNIT_CASE(detect_losses_whole_transmissions),
	KUNIT_CASE(retransmit_order),
	KUNIT_CASE(random_scoreboard),
	KUNIT_CASE(losses_per_ev),
	KUNIT_CASE(ack_acceptable_rule),
	KUNIT_CASE(nack_names_one_hole),
	KUNIT_CASE(response_sack_releases_psn),
	KUNIT_CASE(hold_keeps_read_psns),
	KUNIT_CASE(read_hole_needs_newest_request),
	KUNIT_CASE(last_copy_arrived_needs_echo),
	{}
};

static struct kunit_suite mrc_txwin_suite = {
	.name = "mrc_txwin",
	.test_cases = mrc_txwin_cases,
};

kunit_test_suite(mrc_txwin_suite);

MODULE_LICENSE("Dual BSD/GPL");
