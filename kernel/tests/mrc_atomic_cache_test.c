// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for the responder's atomic result cache: lookups, and that
 * storing replaces the lowest PSN rather than the oldest execution.
 */
#include <kunit/test.h>

#include "../core/mrc_atomic_cache.h"

static void find_returns_the_stored_value(struct kunit *test)
{
	struct mrc_atomic_cache c;
	const struct mrc_atomic_result *r;

	mrc_atomic_cache_reset(&c);
	KUNIT_EXPECT_NULL(test, mrc_atomic_cache_find(&c, 0));
	mrc_atomic_cache_store(&c, 7, 0x1122334455667788ULL);
	r = mrc_atomic_cache_find(&c, 7);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->orig, 0x1122334455667788ULL);
	KUNIT_EXPECT_NULL(test, mrc_atomic_cache_find(&c, 8));
	mrc_atomic_cache_reset(&c);
	KUNIT_EXPECT_NULL(test, mrc_atomic_cache_find(&c, 7));
}

/* In-order execution keeps the last MRC_ATOMIC_CACHE_SIZE PSNs. */
static void keeps_the_highest_psns(struct kunit *test)
{
	struct mrc_atomic_cache c;
	u32 psn;

	mrc_atomic_cache_reset(&c);
	for (psn = 100; psn < 100 + 3 * MRC_ATOMIC_CACHE_SIZE; psn++)
		mrc_atomic_cache_store(&c, psn, psn * 2);
	for (psn = 100; psn < 100 + 2 * MRC_ATOMIC_CACHE_SIZE; psn++)
		KUNIT_EXPECT_NULL_MSG(test, mrc_atomic_cache_find(&c, psn),
				      "psn %u", psn);
	for (; psn < 100 + 3 * MRC_ATOMIC_CACHE_SIZE; psn++) {
		const struct mrc_atomic_result *r = mrc_atomic_cache_find(&c, psn);

		KUNIT_ASSERT_NOT_NULL_MSG(test, r, "psn %u", psn);
		KUNIT_EXPECT_EQ(test, r->orig, (u64)psn * 2);
	}
}

/*
 * The case found in the VM: PSN 35's request was lost, 36..50 executed,
 * then 35's retransmission, then 51..62 once 35 completed. 47's response
 * is lost and the requester, with 47..62 outstanding, asks again: 47 must
 * still be there although 16 executions followed it.
 */
static void late_low_psn_does_not_evict_outstanding(struct kunit *test)
{
	struct mrc_atomic_cache c;
	u32 psn;

	mrc_atomic_cache_reset(&c);
	for (psn = 20; psn < 35; psn++)
		mrc_atomic_cache_store(&c, psn, psn);
	for (psn = 36; psn <= 50; psn++)
		mrc_atomic_cache_store(&c, psn, psn);
	mrc_atomic_cache_store(&c, 35, 35);
	for (psn = 51; psn <= 62; psn++)
		mrc_atomic_cache_store(&c, psn, psn);
	for (psn = 47; psn <= 62; psn++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, mrc_atomic_cache_find(&c, psn),
					  "psn %u", psn);
	KUNIT_EXPECT_NULL(test, mrc_atomic_cache_find(&c, 35));
}

/* Lowest in serial order: PSNs that cross the 2^32 wrap. */
static void eviction_order_crosses_the_wrap(struct kunit *test)
{
	struct mrc_atomic_cache c;
	u32 i;

	mrc_atomic_cache_reset(&c);
	for (i = 0; i < MRC_ATOMIC_CACHE_SIZE; i++)
		mrc_atomic_cache_store(&c, 0xfffffff8U + i, i);
	mrc_atomic_cache_store(&c, 0xfffffff8U + MRC_ATOMIC_CACHE_SIZE, 99);
	KUNIT_EXPECT_NULL(test, mrc_atomic_cache_find(&c, 0xfffffff8U));
	KUNIT_EXPECT_NOT_NULL(test, mrc_atomic_cache_find(&c, 0xfffffff9U));
	KUNIT_EXPECT_NOT_NULL(test, mrc_atomic_cache_find(&c, 7));
	KUNIT_EXPECT_NOT_NULL(test, mrc_atomic_cache_find(&c, 8));
}

static struct kunit_case mrc_atomic_cache_cases[] = {
	KUNIT_CASE(find_returns_the_stored_value),
	KUNIT_CASE(keeps_the_highest_psns),
	KUNIT_CASE(late_low_psn_does_not_evict_outstanding),
	KUNIT_CASE(eviction_order_crosses_the_wrap),
	{}
};

static struct kunit_suite mrc_atomic_cache_suite = {
	.name = "mrc_atomic_cache",
	.test_cases = mrc_atomic_cache_cases,
};

kunit_test_suite(mrc_atomic_cache_suite);

MODULE_LICENSE("Dual BSD/GPL");
