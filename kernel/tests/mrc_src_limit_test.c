// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for the per-source token buckets that limit a device's
 * answers to endpoint probes: one source's flood leaves the others'
 * buckets alone, and the table never grows.
 */
#include <kunit/test.h>

#include "../core/mrc_src_limit.h"

#define MS	1000000ULL
#define BURST	64

static struct in6_addr addr(u32 n)
{
	struct in6_addr a = {};

	a.s6_addr32[0] = cpu_to_be32(0xfd000000);
	a.s6_addr32[3] = cpu_to_be32(n);
	return a;
}

/* Takes for @n (hash @h) until refused at @now; returns how many. */
static unsigned int drain(struct mrc_src_limit *sl, u32 n, u32 h, u64 now)
{
	struct in6_addr a = addr(n);
	unsigned int got = 0;

	while (mrc_src_limit_take(sl, &a, h, now) && got <= 10 * BURST)
		got++;
	return got;
}

static struct mrc_src_limit *new_table(struct kunit *test)
{
	struct mrc_src_limit *sl = kunit_kzalloc(test, sizeof(*sl), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sl);
	mrc_src_limit_init(sl, MS, BURST);
	return sl;
}

static void each_source_has_its_burst(struct kunit *test)
{
	struct mrc_src_limit *sl = new_table(test);

	KUNIT_EXPECT_EQ(test, drain(sl, 1, 0, 5 * MS), BURST);
	KUNIT_EXPECT_EQ(test, drain(sl, 2, 1, 5 * MS), BURST);
	/* Same set, another way: still its own bucket. */
	KUNIT_EXPECT_EQ(test, drain(sl, 3, 0, 5 * MS), BURST);
}

/* A source flooding at 10 times its rate gets its rate, the other all. */
static void flood_does_not_starve_another_source(struct kunit *test)
{
	struct mrc_src_limit *sl = new_table(test);
	struct in6_addr flood = addr(1), other = addr(2);
	unsigned int got = 0, other_got = 0, i;
	u64 t;

	/* Every 0.1 ms for 1 s from 10 ms; the other source every 10 ms. */
	for (i = 0; i < 10000; i++) {
		t = 10 * MS + i * (MS / 10);
		got += mrc_src_limit_take(sl, &flood, 7, t);
		if (!(i % 100))
			other_got += mrc_src_limit_take(sl, &other, 7, t);
	}
	KUNIT_EXPECT_EQ(test, got, BURST + 999U);
	KUNIT_EXPECT_EQ(test, other_got, 100U);
}

/*
 * A new source takes the least recently active entry of its set. All
 * within one refill interval, so that an empty bucket stays empty.
 */
static void replaces_the_least_recently_active(struct kunit *test)
{
	struct mrc_src_limit *sl = new_table(test);
	u64 t0 = 10 * MS;
	unsigned int i;

	for (i = 0; i < MRC_SRC_LIMIT_WAYS; i++)
		KUNIT_EXPECT_EQ(test, drain(sl, 10 + i, 3, t0 + i), BURST);
	/* Source 10 was active first: the new one takes its place. */
	KUNIT_EXPECT_EQ(test, drain(sl, 20, 3, t0 + 10), BURST);
	/* The others kept their empty buckets... */
	for (i = 1; i < MRC_SRC_LIMIT_WAYS; i++)
		KUNIT_EXPECT_EQ(test, drain(sl, 10 + i, 3, t0 + 10), 0U);
	/* ... and 10, forgotten, comes back with a full one in 11's place. */
	KUNIT_EXPECT_EQ(test, drain(sl, 10, 3, t0 + 20), BURST);
	KUNIT_EXPECT_EQ(test, drain(sl, 12, 3, t0 + 20), 0U);
	KUNIT_EXPECT_EQ(test, drain(sl, 11, 3, t0 + 20), BURST);
}

/* Sets are apart: filling one set leaves another's sources alone. */
static void sets_do_not_share(struct kunit *test)
{
	struct mrc_src_limit *sl = new_table(test);
	unsigned int i;

	KUNIT_EXPECT_EQ(test, drain(sl, 1, 5, MS), BURST);
	for (i = 0; i < 4 * MRC_SRC_LIMIT_WAYS; i++)
		drain(sl, 100 + i, 6, 2 * MS);
	KUNIT_EXPECT_EQ(test, drain(sl, 1, 5, 2 * MS), 1U);
	/* The hash picks the set modulo the set count. */
	KUNIT_EXPECT_EQ(test, drain(sl, 1, 5 + MRC_SRC_LIMIT_SETS, 3 * MS), 1U);
}

static struct kunit_case mrc_src_limit_cases[] = {
	KUNIT_CASE(each_source_has_its_burst),
	KUNIT_CASE(flood_does_not_starve_another_source),
	KUNIT_CASE(replaces_the_least_recently_active),
	KUNIT_CASE(sets_do_not_share),
	{}
};

static struct kunit_suite mrc_src_limit_suite = {
	.name = "mrc_src_limit",
	.test_cases = mrc_src_limit_cases,
};

kunit_test_suite(mrc_src_limit_suite);

MODULE_LICENSE("Dual BSD/GPL");
