// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for the EV table: path choice, health and probing.
 */
#include <kunit/test.h>

#include "../core/mrc_ev.h"

static void setup(struct kunit *test, struct mrc_ev_table *t, u16 count,
		  u16 min_active)
{
	KUNIT_ASSERT_EQ(test, mrc_ev_init_auto(t, count, min_active, 7), 0);
}

static void init_checks_count_and_ports(struct kunit *test)
{
	struct mrc_ev_table t;
	u16 i, j;

	KUNIT_EXPECT_EQ(test, mrc_ev_init_auto(&t, 0, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_ev_init_auto(&t, MRC_EV_COUNT_MAX + 1, 0, 0),
			-EINVAL);
	setup(test, &t, 256, 300);
	KUNIT_EXPECT_EQ(test, t.ngood, 256);
	KUNIT_EXPECT_EQ(test, t.min_active, 256);
	for (i = 0; i < t.count; i++) {
		KUNIT_EXPECT_EQ(test, t.ev[i].state, MRC_EV_GOOD);
		KUNIT_EXPECT_GE(test, mrc_ev_sport(&t, i), 0xc000);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, mrc_ev_sport(&t, i),
					mrc_ev_sport(&t, j));
	}
	mrc_ev_destroy(&t);
}

/*
 * The AUTO profile's EVs are the ports QPs always had: before EV profiles
 * the table was seeded, EV i taking port 0xc000 | ((seed + i) & 0x3fff).
 */
static void auto_wire_keeps_the_seeded_ports(struct kunit *test)
{
	static const u16 seeds[] = { 0, 7, 0x3ffe, 0x4000, 0xffff };
	static const u16 counts[] = { 1, 64, MRC_EV_COUNT_MAX };
	struct mrc_ev_wire *wire;
	struct mrc_ev_table t;
	unsigned int s, c, bad = 0;
	u16 i;

	wire = kunit_kcalloc(test, MRC_EV_COUNT_MAX, sizeof(*wire),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	for (s = 0; s < ARRAY_SIZE(seeds); s++) {
		for (c = 0; c < ARRAY_SIZE(counts); c++) {
			u16 seed = seeds[s], n = counts[c];

			mrc_ev_auto_wire(wire, n, seed);
			KUNIT_ASSERT_EQ(test,
					mrc_ev_init_auto(&t, n, 8, seed), 0);
			for (i = 0; i < n; i++) {
				u16 old = 0xc000 | ((seed + i) & 0x3fff);

				bad += wire[i].sport != old ||
				       wire[i].flow_label ||
				       mrc_ev_sport(&t, i) != old ||
				       mrc_ev_flow_label(&t, i);
			}
			mrc_ev_destroy(&t);
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	/* Spot values: the block wraps inside 0xc000..0xffff. */
	mrc_ev_auto_wire(wire, 4, 0x3ffe);
	KUNIT_EXPECT_EQ(test, wire[0].sport, 0xfffe);
	KUNIT_EXPECT_EQ(test, wire[1].sport, 0xffff);
	KUNIT_EXPECT_EQ(test, wire[2].sport, 0xc000);
	KUNIT_EXPECT_EQ(test, wire[3].sport, 0xc001);
}

/* A profile's values are copied in, and survive a reset. */
static void init_takes_wire_values(struct kunit *test)
{
	const struct mrc_ev_wire wire[] = {
		{ .flow_label = 0xabcde, .sport = 0x1234, .value = 0xd0000001 },
		{ .flow_label = 0, .sport = 1, .value = 7 },
		{ .flow_label = 0xfffff, .sport = 0xffff },
	};
	struct mrc_ev_table t;
	u16 i;

	KUNIT_EXPECT_EQ(test, mrc_ev_init(&t, 0, 0, wire), -EINVAL);
	KUNIT_ASSERT_EQ(test, mrc_ev_init(&t, 3, 1, wire), 0);
	KUNIT_EXPECT_EQ(test, t.ngood, 3);
	mrc_ev_on_loss(&t, 2, 10, MRC_EV_WHY_LOSS_GAP);
	mrc_ev_reset(&t);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, mrc_ev_sport(&t, i), wire[i].sport);
		KUNIT_EXPECT_EQ(test, mrc_ev_flow_label(&t, i),
				wire[i].flow_label);
		KUNIT_EXPECT_EQ(test, t.ev[i].value, wire[i].value);
	}
	mrc_ev_destroy(&t);
}

static void round_robin_spreads_evenly(struct kunit *test)
{
	u16 hits[16] = {};
	struct mrc_ev_table t;
	int i;

	setup(test, &t, 16, 4);
	for (i = 0; i < 16 * 10; i++)
		hits[mrc_ev_choose(&t)]++;
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, hits[i], 10);
	mrc_ev_destroy(&t);
}

static void delivered_ev_is_reused_first(struct kunit *test)
{
	struct mrc_ev_table t;

	setup(test, &t, 16, 4);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose(&t), 0);
	mrc_ev_on_delivered(&t, 9, false, 0);
	mrc_ev_on_delivered(&t, 9, false, 0);	/* queued once only */
	mrc_ev_on_delivered(&t, 3, false, 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose(&t), 9);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose(&t), 3);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose(&t), 1);
	mrc_ev_destroy(&t);
}

/* Runs of packets leave the recycled EVs to single packets. */
static void runs_take_the_round_robin(struct kunit *test)
{
	struct mrc_ev_table t;

	setup(test, &t, 16, 4);
	mrc_ev_on_delivered(&t, 9, false, 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_spread(&t), 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_spread(&t), 1);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose(&t), 9);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose(&t), 2);
	mrc_ev_destroy(&t);
}

static void ecn_mark_penalises(struct kunit *test)
{
	struct mrc_ev_table t;
	int i, hits = 0;

	setup(test, &t, 4, 1);
	mrc_ev_on_delivered(&t, 2, true, 0);
	KUNIT_EXPECT_EQ(test, t.rc_len, 0);
	/* EV 2 sits out MRC_EV_CE_PENALTY turns of the round robin. */
	for (i = 0; i < 3 * MRC_EV_CE_PENALTY; i++)
		hits += mrc_ev_choose(&t) == 2;
	KUNIT_EXPECT_EQ(test, hits, 0);
	for (i = 0; i < 8; i++)
		hits += mrc_ev_choose(&t) == 2;
	KUNIT_EXPECT_EQ(test, hits, 2);
	mrc_ev_destroy(&t);
}

static void loss_makes_ev_assumed_bad(struct kunit *test)
{
	struct mrc_ev_table t;
	int i;

	setup(test, &t, 8, 2);
	mrc_ev_on_delivered(&t, 5, false, 0);
	KUNIT_EXPECT_TRUE(test, mrc_ev_on_loss(&t, 5, 100, MRC_EV_WHY_LOSS_GAP));
	KUNIT_EXPECT_FALSE(test, mrc_ev_on_loss(&t, 5, 101, MRC_EV_WHY_LOSS_TIMEOUT));
	KUNIT_EXPECT_EQ(test, t.ev[5].state, MRC_EV_ASSUMED_BAD);
	KUNIT_EXPECT_EQ(test, t.ngood, 7);
	/* Each loss is counted by how it was found; one state change. */
	KUNIT_EXPECT_EQ(test, t.st[5].c[MRC_EVS_LOSS_GAP], 1ULL);
	KUNIT_EXPECT_EQ(test, t.st[5].c[MRC_EVS_LOSS_TIMEOUT], 1ULL);
	KUNIT_EXPECT_EQ(test, t.st[5].c[MRC_EVS_LOSS_SACK], 0ULL);
	KUNIT_EXPECT_EQ(test, t.st[5].c[MRC_EVS_STATE_CHANGES], 1ULL);
	/* Neither the recycle FIFO nor the round robin hands it out. */
	for (i = 0; i < 100; i++)
		KUNIT_EXPECT_NE(test, mrc_ev_choose(&t), 5);
	mrc_ev_destroy(&t);
}

/* A spurious loss gives the EV back, unless a later loss took it since. */
static void undo_loss_gives_the_ev_back(struct kunit *test)
{
	struct mrc_ev_table t;

	setup(test, &t, 8, 2);
	KUNIT_ASSERT_TRUE(test, mrc_ev_on_loss(&t, 5, 100, MRC_EV_WHY_LOSS_GAP));
	KUNIT_EXPECT_FALSE(test, mrc_ev_undo_loss(&t, 5, 99));
	KUNIT_EXPECT_FALSE(test, mrc_ev_undo_loss(&t, 8, 100));
	KUNIT_EXPECT_TRUE(test, mrc_ev_undo_loss(&t, 5, 100));
	KUNIT_EXPECT_EQ(test, t.ev[5].state, MRC_EV_GOOD);
	KUNIT_EXPECT_EQ(test, t.ngood, 8);
	KUNIT_EXPECT_EQ(test, t.undone, 1ULL);
	KUNIT_EXPECT_EQ(test, t.st[5].c[MRC_EVS_STATE_CHANGES], 2ULL);
	/* Once only: it is GOOD now. */
	KUNIT_EXPECT_FALSE(test, mrc_ev_undo_loss(&t, 5, 100));

	/* Bad again at 200: the loss of 100 no longer explains it. */
	KUNIT_ASSERT_TRUE(test, mrc_ev_on_loss(&t, 5, 200, MRC_EV_WHY_LOSS_SACK));
	KUNIT_EXPECT_FALSE(test, mrc_ev_undo_loss(&t, 5, 100));
	KUNIT_EXPECT_EQ(test, t.ev[5].state, MRC_EV_ASSUMED_BAD);
	/* A denied EV stays denied. */
	KUNIT_ASSERT_EQ(test, mrc_ev_set_denied(&t, 5, true), 0);
	KUNIT_EXPECT_FALSE(test, mrc_ev_undo_loss(&t, 5, 200));
	KUNIT_EXPECT_EQ(test, t.ev[5].state, MRC_EV_DENIED);
	mrc_ev_destroy(&t);
}

static void min_active_readmits_oldest(struct kunit *test)
{
	struct mrc_ev_table t;

	setup(test, &t, 4, 2);
	mrc_ev_on_loss(&t, 0, 10, MRC_EV_WHY_LOSS_GAP);
	mrc_ev_on_loss(&t, 1, 20, MRC_EV_WHY_LOSS_GAP);
	KUNIT_EXPECT_EQ(test, t.ngood, 2);
	/* A third loss would leave one: EV 0, bad since 10, comes back. */
	mrc_ev_on_loss(&t, 2, 30, MRC_EV_WHY_LOSS_GAP);
	KUNIT_EXPECT_EQ(test, t.ngood, 2);
	KUNIT_EXPECT_EQ(test, t.ev[0].state, MRC_EV_GOOD);
	KUNIT_EXPECT_EQ(test, t.ev[1].state, MRC_EV_ASSUMED_BAD);
	KUNIT_EXPECT_EQ(test, t.readmitted, 1ULL);
	mrc_ev_destroy(&t);
}

/* An EV that answered a probe beats one that has only been bad longer. */
static void min_active_readmits_answering_ev_first(struct kunit *test)
{
	struct mrc_ev_table t;
	u32 id;
	u16 idx;

	setup(test, &t, 4, 2);
	mrc_ev_on_loss(&t, 0, 10, MRC_EV_WHY_LOSS_GAP);
	mrc_ev_on_loss(&t, 1, 20, MRC_EV_WHY_LOSS_GAP);
	KUNIT_ASSERT_TRUE(test, mrc_ev_next_probe(&t, 5000, 100, &idx, &id));
	KUNIT_ASSERT_EQ(test, idx, 0);
	KUNIT_ASSERT_TRUE(test, mrc_ev_next_probe(&t, 5000, 100, &idx, &id));
	KUNIT_ASSERT_EQ(test, idx, 1);
	KUNIT_EXPECT_FALSE(test, mrc_ev_on_probe_reply(&t, 1, id));
	mrc_ev_on_loss(&t, 2, 30, MRC_EV_WHY_LOSS_GAP);
	KUNIT_EXPECT_EQ(test, t.ev[1].state, MRC_EV_GOOD);
	KUNIT_EXPECT_EQ(test, t.ev[0].state, MRC_EV_ASSUMED_BAD);
	mrc_ev_destroy(&t);
}

/*
 * Retransmissions take an EV that just delivered: recycled ones, then the
 * one credited last (again and again), never one that proved nothing.
 */
static void retransmission_takes_a_proven_ev(struct kunit *test)
{
	struct mrc_ev_table t;

	setup(test, &t, 16, 4);
	/* Nothing delivered yet: the round robin decides. */
	KUNIT_EXPECT_FALSE(test, mrc_ev_has_proven(&t));
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_retx(&t), 0);
	mrc_ev_on_delivered(&t, 11, false, 0);
	KUNIT_EXPECT_TRUE(test, mrc_ev_has_proven(&t));
	mrc_ev_on_delivered(&t, 5, false, 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_retx(&t), 11);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_retx(&t), 5);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_retx(&t), 5);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_retx(&t), 5);
	/* New data still spreads. */
	KUNIT_EXPECT_EQ(test, mrc_ev_choose(&t), 1);
	/* The last one credited went bad: back to the round robin. */
	mrc_ev_on_loss(&t, 5, 100, MRC_EV_WHY_LOSS_GAP);
	KUNIT_EXPECT_FALSE(test, mrc_ev_has_proven(&t));
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_retx(&t), 2);
	/* A CE-marked acknowledgment proves no clean delivery. */
	mrc_ev_on_delivered(&t, 9, true, 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_retx(&t), 3);
	mrc_ev_destroy(&t);
}

/* Queueing delay is measured against each EV's own base RTT. */
static void queue_delay_per_ev_base(struct kunit *test)
{
	struct mrc_ev_table t;

	setup(test, &t, 4, 1);
	KUNIT_EXPECT_EQ(test, mrc_ev_queue_delay(&t, 0, 500, 1000), 0U);
	KUNIT_EXPECT_EQ(test, mrc_ev_queue_delay(&t, 1, 9000, 1000), 0U);
	KUNIT_EXPECT_EQ(test, mrc_ev_queue_delay(&t, 0, 4500, 2000), 4000U);
	/* EV 1's path is long, not queued. */
	KUNIT_EXPECT_EQ(test, mrc_ev_queue_delay(&t, 1, 9500, 2000), 500U);
	/* A lower sample is the new base. */
	KUNIT_EXPECT_EQ(test, mrc_ev_queue_delay(&t, 0, 400, 3000), 0U);
	KUNIT_EXPECT_EQ(test, mrc_ev_queue_delay(&t, 0, 900, 4000), 500U);
	/* A base older than MRC_EV_MIN_RTT_TS is taken again. */
	KUNIT_EXPECT_EQ(test, mrc_ev_queue_delay(&t, 0, 6000,
						 3001 + MRC_EV_MIN_RTT_TS), 0U);
	KUNIT_EXPECT_EQ(test, mrc_ev_queue_delay(&t, 0, 6100,
						 3002 + MRC_EV_MIN_RTT_TS), 100U);
	/* An EV index from the network beyond the table. */
	KUNIT_EXPECT_EQ(test, mrc_ev_queue_delay(&t, 4, 100, 1), 0U);
	mrc_ev_destroy(&t);
}

/* A QP back in RESET starts afresh, but DENIED marks and ports stay. */
static void reset_forgets_paths_keeps_denied(struct kunit *test)
{
	struct mrc_ev_table t;
	u16 sport3;

	setup(test, &t, 8, 2);
	sport3 = mrc_ev_sport(&t, 3);
	KUNIT_ASSERT_EQ(test, mrc_ev_set_denied(&t, 5, true), 0);
	mrc_ev_on_loss(&t, 1, 10, MRC_EV_WHY_LOSS_GAP);
	mrc_ev_on_send(&t, 2);
	mrc_ev_on_delivered(&t, 2, false, 100);
	mrc_ev_queue_delay(&t, 2, 100, 10);
	mrc_ev_choose(&t);
	mrc_ev_reset(&t);
	KUNIT_EXPECT_EQ(test, t.ngood, 7);
	KUNIT_EXPECT_EQ(test, t.ev[1].state, MRC_EV_GOOD);
	KUNIT_EXPECT_EQ(test, t.ev[5].state, MRC_EV_DENIED);
	KUNIT_EXPECT_EQ(test, t.ev[2].tx_seq, 0U);
	KUNIT_EXPECT_EQ(test, t.ev[2].min_rtt, 0U);
	KUNIT_EXPECT_EQ(test, t.st[2].c[MRC_EVS_DELIVERED], 1ULL);
	KUNIT_EXPECT_EQ(test, t.st[1].c[MRC_EVS_LOSS_GAP], 1ULL);
	KUNIT_EXPECT_EQ(test, mrc_ev_sport(&t, 3), sport3);
	KUNIT_EXPECT_FALSE(test, mrc_ev_has_proven(&t));
	KUNIT_EXPECT_EQ(test, t.rc_len, 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose(&t), 0);
	mrc_ev_destroy(&t);
}

static void all_bad_still_chooses(struct kunit *test)
{
	struct mrc_ev_table t;

	setup(test, &t, 2, 0);
	mrc_ev_on_loss(&t, 0, 1, MRC_EV_WHY_LOSS_GAP);
	mrc_ev_on_loss(&t, 1, 1, MRC_EV_WHY_LOSS_GAP);
	KUNIT_EXPECT_EQ(test, t.ngood, 0);
	KUNIT_EXPECT_LT(test, mrc_ev_choose(&t), 2);
	mrc_ev_destroy(&t);
}

/* A trim's resend takes the next GOOD EV, its own only when alone. */
static void trim_resend_takes_another_ev(struct kunit *test)
{
	struct mrc_ev_table t;

	setup(test, &t, 4, 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_other(&t, 1), 2);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_other(&t, 3), 0);
	mrc_ev_on_loss(&t, 2, 1, MRC_EV_WHY_LOSS_GAP);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_other(&t, 1), 3);
	mrc_ev_on_loss(&t, 0, 1, MRC_EV_WHY_LOSS_GAP);
	mrc_ev_on_loss(&t, 3, 1, MRC_EV_WHY_LOSS_GAP);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose_other(&t, 1), 1);
	KUNIT_EXPECT_LT(test, mrc_ev_choose_other(&t, 9), 4);
	mrc_ev_destroy(&t);
}

static void probes_bring_ev_back(struct kunit *test)
{
	struct mrc_ev_table t;
	u32 id, id2;
	u16 idx;
	int i;

	setup(test, &t, 8, 1);
	mrc_ev_on_loss(&t, 6, 1000, MRC_EV_WHY_LOSS_GAP);
	KUNIT_EXPECT_FALSE(test, mrc_ev_next_probe(&t, 1050, 100, &idx, &id));
	for (i = 0; i < MRC_EV_PROBES_TO_GOOD; i++) {
		KUNIT_ASSERT_TRUE(test, mrc_ev_next_probe(&t, 1100 + 100 * i,
							  100, &idx, &id));
		KUNIT_EXPECT_EQ(test, idx, 6);
		KUNIT_EXPECT_FALSE(test, mrc_ev_next_probe(&t, 1100 + 100 * i,
							   100, &idx, &id2));
		/* Wrong id, wrong EV, out-of-range EV: ignored. */
		KUNIT_EXPECT_FALSE(test, mrc_ev_on_probe_reply(&t, 6, id + 1));
		KUNIT_EXPECT_FALSE(test, mrc_ev_on_probe_reply(&t, 5, id));
		KUNIT_EXPECT_FALSE(test, mrc_ev_on_probe_reply(&t, 999, id));
		KUNIT_EXPECT_EQ(test, mrc_ev_on_probe_reply(&t, 6, id),
				i == MRC_EV_PROBES_TO_GOOD - 1);
		/* A repeated reply does not count twice. */
		KUNIT_EXPECT_FALSE(test, mrc_ev_on_probe_reply(&t, 6, id));
	}
	KUNIT_EXPECT_EQ(test, t.ev[6].state, MRC_EV_GOOD);
	KUNIT_EXPECT_EQ(test, t.ngood, 8);
	KUNIT_EXPECT_EQ(test, t.recovered, 1ULL);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose(&t), 6);	/* recycled */
	mrc_ev_destroy(&t);
}

static void unanswered_probe_restarts_count(struct kunit *test)
{
	struct mrc_ev_table t;
	u32 id;
	u16 idx;

	setup(test, &t, 4, 1);
	mrc_ev_on_loss(&t, 1, 0, MRC_EV_WHY_LOSS_GAP);
	KUNIT_ASSERT_TRUE(test, mrc_ev_next_probe(&t, 10, 10, &idx, &id));
	mrc_ev_on_probe_reply(&t, 1, id);
	KUNIT_ASSERT_TRUE(test, mrc_ev_next_probe(&t, 20, 10, &idx, &id));
	mrc_ev_on_probe_reply(&t, 1, id);
	KUNIT_EXPECT_EQ(test, t.ev[1].probe_ok, 2);
	/* This probe is lost: the run of successes starts again. */
	KUNIT_ASSERT_TRUE(test, mrc_ev_next_probe(&t, 30, 10, &idx, &id));
	KUNIT_ASSERT_TRUE(test, mrc_ev_next_probe(&t, 40, 10, &idx, &id));
	KUNIT_EXPECT_EQ(test, t.ev[1].probe_ok, 0);
	KUNIT_EXPECT_FALSE(test, mrc_ev_on_probe_reply(&t, 1, id));
	KUNIT_EXPECT_EQ(test, t.ev[1].state, MRC_EV_ASSUMED_BAD);
	mrc_ev_destroy(&t);
}

static void denied_ev_is_never_chosen(struct kunit *test)
{
	struct mrc_ev_table t;
	int i;

	setup(test, &t, 4, 1);
	KUNIT_EXPECT_EQ(test, mrc_ev_set_denied(&t, 4, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_ev_set_denied(&t, 2, true), 0);
	KUNIT_EXPECT_EQ(test, t.ngood, 3);
	mrc_ev_on_delivered(&t, 2, false, 0);
	for (i = 0; i < 40; i++)
		KUNIT_EXPECT_NE(test, mrc_ev_choose(&t), 2);
	KUNIT_EXPECT_FALSE(test, mrc_ev_on_loss(&t, 2, 5, MRC_EV_WHY_LOSS_GAP));
	KUNIT_EXPECT_EQ(test, mrc_ev_set_denied(&t, 2, false), 0);
	KUNIT_EXPECT_EQ(test, t.ngood, 4);
	mrc_ev_destroy(&t);
}

/* Denying every EV would leave the QP nothing to send on but a denied one. */
static void last_allowed_ev_cannot_be_denied(struct kunit *test)
{
	struct mrc_ev_table t;
	int i;

	setup(test, &t, 3, 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_set_denied(&t, 0, true), 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_set_denied(&t, 2, true), 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_set_denied(&t, 1, true), -EBUSY);
	KUNIT_EXPECT_EQ(test, t.ev[1].state, MRC_EV_GOOD);
	KUNIT_EXPECT_EQ(test, t.ndenied, 2);
	/* Denying an EV already denied is no change, so it is allowed. */
	KUNIT_EXPECT_EQ(test, mrc_ev_set_denied(&t, 2, true), 0);
	/* Even ASSUMED_BAD, the allowed EV is the one chosen. */
	KUNIT_EXPECT_TRUE(test, mrc_ev_on_loss(&t, 1, 5, MRC_EV_WHY_LOSS_GAP));
	for (i = 0; i < 8; i++) {
		KUNIT_EXPECT_EQ(test, mrc_ev_choose(&t), 1);
		KUNIT_EXPECT_EQ(test, mrc_ev_choose_retx(&t), 1);
	}
	mrc_ev_reset(&t);
	KUNIT_EXPECT_EQ(test, t.ndenied, 2);
	KUNIT_EXPECT_EQ(test, mrc_ev_set_denied(&t, 0, false), 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_set_denied(&t, 1, true), 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_choose(&t), 0);
	mrc_ev_destroy(&t);
}

static void sequence_and_rtt_per_ev(struct kunit *test)
{
	struct mrc_ev_table t;

	setup(test, &t, 4, 1);
	KUNIT_EXPECT_EQ(test, mrc_ev_on_send(&t, 3), 0U);
	KUNIT_EXPECT_EQ(test, mrc_ev_on_send(&t, 3), 1U);
	KUNIT_EXPECT_EQ(test, mrc_ev_on_send(&t, 0), 0U);
	KUNIT_EXPECT_EQ(test, t.ev[3].tx_seq, 2U);
	mrc_ev_on_delivered(&t, 3, false, 80);
	KUNIT_EXPECT_EQ(test, t.ev[3].srtt, 640U);
	mrc_ev_on_delivered(&t, 3, false, 160);
	KUNIT_EXPECT_EQ(test, t.ev[3].srtt, 720U);
	mrc_ev_destroy(&t);
}

/* What the change callback heard, in order. */
struct heard {
	struct mrc_ev_table t;	/* first: the callback gets &t */
	unsigned int n;
	u16 idx[8];
	u8 old[8];
	u8 why[8];
};

static void record_change(struct mrc_ev_table *t, u16 idx, u8 old,
			  enum mrc_ev_why why)
{
	struct heard *h = container_of(t, struct heard, t);

	if (h->n < ARRAY_SIZE(h->idx)) {
		h->idx[h->n] = idx;
		h->old[h->n] = old;
		h->why[h->n] = why;
	}
	h->n++;
}

static void every_state_change_is_reported(struct kunit *test)
{
	struct heard h = {};
	u32 id;
	u16 idx;
	int i;

	setup(test, &h.t, 4, 3);
	h.t.changed = record_change;
	mrc_ev_on_loss(&h.t, 1, 10, MRC_EV_WHY_LOSS_SACK);
	/* A second loss on a bad EV changes nothing. */
	mrc_ev_on_loss(&h.t, 1, 11, MRC_EV_WHY_LOSS_SACK);
	/* Below min_active: EV 2 goes bad and EV 1 (oldest) is readmitted. */
	mrc_ev_on_loss(&h.t, 2, 20, MRC_EV_WHY_LOSS_READ);
	KUNIT_ASSERT_EQ(test, h.n, 3U);
	KUNIT_EXPECT_EQ(test, h.idx[0], 1);
	KUNIT_EXPECT_EQ(test, h.old[0], MRC_EV_GOOD);
	KUNIT_EXPECT_EQ(test, h.why[0], MRC_EV_WHY_LOSS_SACK);
	KUNIT_EXPECT_EQ(test, h.idx[1], 2);
	KUNIT_EXPECT_EQ(test, h.why[1], MRC_EV_WHY_LOSS_READ);
	KUNIT_EXPECT_EQ(test, h.idx[2], 1);
	KUNIT_EXPECT_EQ(test, h.old[2], MRC_EV_ASSUMED_BAD);
	KUNIT_EXPECT_EQ(test, h.why[2], MRC_EV_WHY_READMIT);
	/* EV 2 answers its probes. */
	for (i = 0; i < MRC_EV_PROBES_TO_GOOD; i++) {
		KUNIT_ASSERT_TRUE(test, mrc_ev_next_probe(&h.t, 100000 * (i + 1),
							  1, &idx, &id));
		KUNIT_ASSERT_EQ(test, idx, 2);
		mrc_ev_on_probe_reply(&h.t, idx, id);
	}
	KUNIT_ASSERT_EQ(test, h.n, 4U);
	KUNIT_EXPECT_EQ(test, h.why[3], MRC_EV_WHY_PROBE_OK);
	KUNIT_EXPECT_EQ(test, h.old[3], MRC_EV_ASSUMED_BAD);
	mrc_ev_set_denied(&h.t, 3, true);
	mrc_ev_set_denied(&h.t, 3, true);
	mrc_ev_set_denied(&h.t, 3, false);
	KUNIT_ASSERT_EQ(test, h.n, 6U);
	KUNIT_EXPECT_EQ(test, h.why[4], MRC_EV_WHY_DENY);
	KUNIT_EXPECT_EQ(test, h.old[5], MRC_EV_DENIED);
	KUNIT_EXPECT_EQ(test, h.why[5], MRC_EV_WHY_UNDENY);
	KUNIT_EXPECT_EQ(test, h.t.st[1].c[MRC_EVS_STATE_CHANGES], 2ULL);
	KUNIT_EXPECT_EQ(test, h.t.st[1].c[MRC_EVS_LOSS_SACK], 2ULL);
	KUNIT_EXPECT_EQ(test, h.t.st[3].c[MRC_EVS_STATE_CHANGES], 2ULL);
	mrc_ev_destroy(&h.t);
}

/*
 * A new QP adds its EVs to what the device's QPs hold; a QP that is
 * rebound gives its own back first, so a QP at the limit may move to a
 * profile of as many EVs, and no value wraps the sums.
 */
static void limit_room_counts_what_a_rebind_gives_back(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, mrc_ev_limit_room(0, 0, 64, 64));
	KUNIT_EXPECT_FALSE(test, mrc_ev_limit_room(1, 0, 64, 64));
	KUNIT_EXPECT_FALSE(test, mrc_ev_limit_room(0, 0, 65, 64));
	/* At the limit with 64 of its own: 64 again fits, 65 does not. */
	KUNIT_EXPECT_TRUE(test, mrc_ev_limit_room(128, 64, 64, 128));
	KUNIT_EXPECT_FALSE(test, mrc_ev_limit_room(128, 64, 65, 128));
	KUNIT_EXPECT_TRUE(test, mrc_ev_limit_room(128, 64, 1, 128));
	/* More given back than held (a miscount) counts as none held. */
	KUNIT_EXPECT_TRUE(test, mrc_ev_limit_room(3, 10, 128, 128));
	/* Near U32_MAX nothing wraps into "fits". */
	KUNIT_EXPECT_FALSE(test, mrc_ev_limit_room(U32_MAX, 0, 1, U32_MAX));
	KUNIT_EXPECT_TRUE(test, mrc_ev_limit_room(U32_MAX - 1, 0, 1, U32_MAX));
	KUNIT_EXPECT_FALSE(test, mrc_ev_limit_room(0, 0, U32_MAX, U32_MAX - 1));
}

static struct kunit_case mrc_ev_cases[] = {
	KUNIT_CASE(every_state_change_is_reported),
	KUNIT_CASE(init_checks_count_and_ports),
	KUNIT_CASE(auto_wire_keeps_the_seeded_ports),
	KUNIT_CASE(init_takes_wire_values),
	KUNIT_CASE(round_robin_spreads_evenly),
	KUNIT_CASE(delivered_ev_is_reused_first),
	KUNIT_CASE(runs_take_the_round_robin),
	KUNIT_CASE(ecn_mark_penalises),
	KUNIT_CASE(loss_makes_ev_assumed_bad),
	KUNIT_CASE(min_active_readmits_oldest),
	KUNIT_CASE(min_active_readmits_answering_ev_first),
	KUNIT_CASE(retransmission_takes_a_proven_ev),
	KUNIT_CASE(queue_delay_per_ev_base),
	KUNIT_CASE(reset_forgets_paths_keeps_denied),
	KUNIT_CASE(all_bad_still_chooses),
	KUNIT_CASE(trim_resend_takes_another_ev),
	KUNIT_CASE(probes_bring_ev_back),
	KUNIT_CASE(unanswered_probe_restarts_count),
	KUNIT_CASE(denied_ev_is_never_chosen),
	KUNIT_CASE(last_allowed_ev_cannot_be_denied),
	KUNIT_CASE(sequence_and_rtt_per_ev),
	KUNIT_CASE(undo_loss_gives_the_ev_back),
	KUNIT_CASE(limit_room_counts_what_a_rebind_gives_back),
	{}
};

static struct kunit_suite mrc_ev_suite = {
	.name = "mrc_ev",
	.test_cases = mrc_ev_cases,
};

kunit_test_suite(mrc_ev_suite);

MODULE_LICENSE("Dual BSD/GPL");
