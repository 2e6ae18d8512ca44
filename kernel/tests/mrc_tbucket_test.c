// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for the token bucket that limits a device's answers to
 * endpoint probes (1000 a second, burst 64, in these cases).
 */
#include <kunit/test.h>

#include "../core/mrc_tbucket.h"

#define MS	1000000ULL

/* Takes until refused at @now; returns how many were allowed. */
static unsigned int drain(struct mrc_tbucket *tb, u64 now)
{
	unsigned int n = 0;

	while (mrc_tbucket_take(tb, now, MS, 64))
		n++;
	return n;
}

static void full_bucket_allows_the_burst(struct kunit *test)
{
	struct mrc_tbucket tb;

	mrc_tbucket_init(&tb, 5 * MS, 64);
	KUNIT_EXPECT_EQ(test, drain(&tb, 5 * MS), 64U);
	KUNIT_EXPECT_FALSE(test, mrc_tbucket_take(&tb, 5 * MS, MS, 64));
}

static void refills_one_per_interval(struct kunit *test)
{
	struct mrc_tbucket tb;

	mrc_tbucket_init(&tb, 0, 64);
	drain(&tb, 0);
	KUNIT_EXPECT_FALSE(test, mrc_tbucket_take(&tb, MS - 1, MS, 64));
	KUNIT_EXPECT_TRUE(test, mrc_tbucket_take(&tb, MS, MS, 64));
	KUNIT_EXPECT_FALSE(test, mrc_tbucket_take(&tb, MS, MS, 64));
	KUNIT_EXPECT_EQ(test, drain(&tb, 11 * MS), 10U);
}

/* Half intervals add up: the remainder is kept, not rounded away. */
static void partial_intervals_are_not_lost(struct kunit *test)
{
	struct mrc_tbucket tb;
	unsigned int n = 0;
	u64 t;

	mrc_tbucket_init(&tb, 0, 64);
	drain(&tb, 0);
	for (t = MS / 2; t <= 100 * MS; t += MS / 2)
		n += mrc_tbucket_take(&tb, t, MS, 64);
	KUNIT_EXPECT_EQ(test, n, 100U);
}

/* Over a long run the rate holds: burst + elapsed / interval. */
static void sustained_rate(struct kunit *test)
{
	struct mrc_tbucket tb;
	unsigned int n = 0;
	u64 t;

	mrc_tbucket_init(&tb, 0, 64);
	for (t = 0; t < 1000 * MS; t += MS / 10)
		n += mrc_tbucket_take(&tb, t, MS, 64);
	KUNIT_EXPECT_EQ(test, n, 64U + 999U);
}

/* A long idle spell fills the bucket to its depth, no further. */
static void idle_caps_at_burst(struct kunit *test)
{
	struct mrc_tbucket tb;

	mrc_tbucket_init(&tb, 0, 64);
	drain(&tb, 0);
	KUNIT_EXPECT_EQ(test, drain(&tb, 3600000 * MS), 64U);
	KUNIT_EXPECT_FALSE(test, mrc_tbucket_take(&tb, 3600000 * MS + MS - 1,
						  MS, 64));
	KUNIT_EXPECT_TRUE(test, mrc_tbucket_take(&tb, 3600000 * MS + MS,
						 MS, 64));
}

static struct kunit_case mrc_tbucket_cases[] = {
	KUNIT_CASE(full_bucket_allows_the_burst),
	KUNIT_CASE(refills_one_per_interval),
	KUNIT_CASE(partial_intervals_are_not_lost),
	KUNIT_CASE(sustained_rate),
	KUNIT_CASE(idle_caps_at_burst),
	{}
};

static struct kunit_suite mrc_tbucket_suite = {
	.name = "mrc_tbucket",
	.test_cases = mrc_tbucket_cases,
};

kunit_test_suite(mrc_tbucket_suite);

MODULE_LICENSE("Dual BSD/GPL");
