// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for a QP's home CPU: doorbells at home run there, a poster
 * that stays on another CPU moves the home after MRC_HOME_MOVE_AFTER
 * doorbells, and posters on several CPUs do not move it.
 */
#include <kunit/test.h>

#include "../core/mrc_home.h"

static void doorbell_at_home_runs_inline(struct kunit *test)
{
	struct mrc_home h;
	int i;

	mrc_home_init(&h, 1);
	for (i = 0; i < 3 * MRC_HOME_MOVE_AFTER; i++)
		KUNIT_EXPECT_TRUE(test, mrc_home_doorbell(&h, 1));
	KUNIT_EXPECT_EQ(test, mrc_home_cpu(&h), 1);
}

static void poster_that_stays_away_moves_the_home(struct kunit *test)
{
	struct mrc_home h;
	int i;

	mrc_home_init(&h, 0);
	for (i = 1; i < MRC_HOME_MOVE_AFTER; i++) {
		KUNIT_EXPECT_FALSE_MSG(test, mrc_home_doorbell(&h, 3),
				       "doorbell %d", i);
		KUNIT_EXPECT_EQ(test, mrc_home_cpu(&h), 0);
	}
	KUNIT_EXPECT_TRUE(test, mrc_home_doorbell(&h, 3));
	KUNIT_EXPECT_EQ(test, mrc_home_cpu(&h), 3);
	/* The old home is now away like any other CPU. */
	KUNIT_EXPECT_FALSE(test, mrc_home_doorbell(&h, 0));
	KUNIT_EXPECT_TRUE(test, mrc_home_doorbell(&h, 3));
}

static void a_doorbell_at_home_restarts_the_count(struct kunit *test)
{
	struct mrc_home h;
	int i;

	mrc_home_init(&h, 0);
	for (i = 0; i < 10 * MRC_HOME_MOVE_AFTER; i++) {
		mrc_home_doorbell(&h, 2);
		if (i % (MRC_HOME_MOVE_AFTER / 2) == 0)
			KUNIT_EXPECT_TRUE(test, mrc_home_doorbell(&h, 0));
	}
	KUNIT_EXPECT_EQ(test, mrc_home_cpu(&h), 0);
}

static void posters_on_two_other_cpus_do_not_move_it(struct kunit *test)
{
	struct mrc_home h;
	int i;

	mrc_home_init(&h, 0);
	for (i = 0; i < 10 * MRC_HOME_MOVE_AFTER; i++)
		KUNIT_EXPECT_FALSE(test, mrc_home_doorbell(&h, 1 + (i & 1)));
	KUNIT_EXPECT_EQ(test, mrc_home_cpu(&h), 0);
}

static struct kunit_case mrc_home_cases[] = {
	KUNIT_CASE(doorbell_at_home_runs_inline),
	KUNIT_CASE(poster_that_stays_away_moves_the_home),
	KUNIT_CASE(a_doorbell_at_home_restarts_the_count),
	KUNIT_CASE(posters_on_two_other_cpus_do_not_move_it),
	{}
};

static struct kunit_suite mrc_home_suite = {
	.name = "mrc_home",
	.test_cases = mrc_home_cases,
};

kunit_test_suite(mrc_home_suite);

MODULE_LICENSE("Dual BSD/GPL");
