// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for NSCC: each quadrant, the adjustment, fast increase,
 * multiplicative decrease and its bounds, QuickAdapt and its gate, the
 * ignore phase, trims and losses.
 */
#include <kunit/test.h>
#include <linux/errno.h>

#include "../core/mrc_nscc.h"

#define MTU		1024U
#define BASE		100000U		/* base RTT, ns */
#define TARGET		100000U
#define T0		1000000000ULL

/*
 * A profile whose adjustment never adds eta by time (a period of 4 s),
 * so each case sees only the effect it is about.
 */
static void params(struct mrc_nscc_params *p)
{
	mrc_nscc_default_params(p);
	p->base_rtt_ns = BASE;
	p->target_ns = TARGET;
	p->max_cwnd = 1 << 20;
	p->adjust_bytes = 8 * MTU;
	p->adjust_period_ns = 4000000000U;
	p->qa_threshold_ns = 4 * TARGET;
}

/* Start at @cwnd bytes (by a loss from the maximum). */
static void start(struct mrc_nscc *cc, const struct mrc_nscc_params *p,
		  u32 cwnd)
{
	mrc_nscc_init(cc, p, MTU, T0);
	mrc_nscc_on_loss(cc, cc->cwnd - cwnd);
}

static void ack(struct mrc_nscc *cc, u32 bytes, bool ce, u32 rtt, u64 now)
{
	struct mrc_nscc_ack a = {
		.bytes = bytes, .ce = ce, .rtt_ns = rtt, .inflight = cc->cwnd,
		.now_ns = now,
	};

	mrc_nscc_on_ack(cc, &a);
}

static void defaults_are_valid_and_start_at_max(struct kunit *test)
{
	struct mrc_nscc_params p;
	struct mrc_nscc cc;
	const char *why = NULL;

	mrc_nscc_default_params(&p);
	KUNIT_EXPECT_EQ(test, mrc_nscc_check_params(&p, &why), 0);
	KUNIT_EXPECT_EQ(test, p.target_ns, p.base_rtt_ns);
	KUNIT_EXPECT_EQ(test, p.max_md_jump_q16, 32768U);
	/* fi = 5 MTU a, a = (2/3 256 KiB) / 150 kB = 1.165 */
	KUNIT_EXPECT_EQ(test, p.fi, 23860U);
	mrc_nscc_init(&cc, &p, MTU, T0);
	KUNIT_EXPECT_EQ(test, cc.cwnd, p.max_cwnd);
	KUNIT_EXPECT_EQ(test, cc.base_rtt_ns, p.base_rtt_ns);
}

static void bad_params_are_refused(struct kunit *test)
{
	struct mrc_nscc_params p;
	const char *why = NULL;

	params(&p);
	p.gamma_q16 = 65537;
	KUNIT_EXPECT_EQ(test, mrc_nscc_check_params(&p, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, why);
	params(&p);
	p.qa_gate = 32;
	KUNIT_EXPECT_EQ(test, mrc_nscc_check_params(&p, &why), -EINVAL);
	params(&p);
	p.target_ns = 0;
	KUNIT_EXPECT_EQ(test, mrc_nscc_check_params(&p, &why), -EINVAL);
	params(&p);
	p.max_md_jump_q16 = 0;
	KUNIT_EXPECT_EQ(test, mrc_nscc_check_params(&p, &why), -EINVAL);
}

/* Over the target without a mark: fi bytes per window acknowledged. */
static void fair_increase_over_target(struct kunit *test)
{
	struct mrc_nscc_params p;
	struct mrc_nscc cc;

	params(&p);
	start(&cc, &p, 100 * MTU);
	ack(&cc, 100 * MTU, false, BASE + TARGET, T0 + 1000);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 100 * MTU + p.fi);
	KUNIT_EXPECT_EQ(test, cc.last_delay_ns, TARGET);
}

/* Under the target: the increase shrinks as the delay nears it. */
static void proportional_increase_under_target(struct kunit *test)
{
	struct mrc_nscc_params p;
	struct mrc_nscc cc;

	params(&p);
	start(&cc, &p, 100 * MTU);
	ack(&cc, 100 * MTU, false, BASE + TARGET / 2, T0 + 1000);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 100 * MTU + cc.pi_gain / 2);
	start(&cc, &p, 100 * MTU);
	ack(&cc, 100 * MTU, false, BASE + TARGET / 4 * 3, T0 + 1000);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 100 * MTU + cc.pi_gain / 4);
	KUNIT_EXPECT_GT(test, cc.pi_gain, 0U);
}

/* A window at near-zero delay, then each ACK adds fi_scale of itself. */
static void fast_increase_after_a_clean_window(struct kunit *test)
{
	struct mrc_nscc_params p;
	struct mrc_nscc cc;
	u32 before;

	params(&p);
	start(&cc, &p, 100 * MTU);
	ack(&cc, 100 * MTU, false, BASE, T0 + 1000);
	KUNIT_EXPECT_FALSE(test, cc.fast);
	before = cc.cwnd;
	ack(&cc, 30 * MTU, false, BASE, T0 + 2000);
	KUNIT_EXPECT_TRUE(test, cc.fast);
	KUNIT_EXPECT_EQ(test, cc.cwnd,
			before + (u32)(((u64)30 * MTU * p.fi_scale_q16) >> 16));
	/* A delay ends it. */
	ack(&cc, MTU, false, BASE + TARGET / 2, T0 + 3000);
	KUNIT_EXPECT_FALSE(test, cc.fast);
	KUNIT_EXPECT_EQ(test, cc.fi_count, 0U);
}

/* Marked below the target: the window is left alone (the EV pays). */
static void mark_under_target_changes_nothing(struct kunit *test)
{
	struct mrc_nscc_params p;
	struct mrc_nscc cc;

	params(&p);
	start(&cc, &p, 100 * MTU);
	ack(&cc, 100 * MTU, true, BASE + TARGET / 2, T0 + 1000);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 100 * MTU);
	KUNIT_EXPECT_EQ(test, cc.marked_bytes, 100ULL * MTU);
}

/*
 * Marked over the target: cut by gamma (avg - target) / avg, at most by
 * max_md_jump, at most once per base RTT.
 */
static void decrease_once_per_base_rtt_and_bounded(struct kunit *test)
{
	struct mrc_nscc_params p;
	struct mrc_nscc cc;
	u64 now = T0 + 2 * BASE;
	u32 avg, expect;
	int i;

	params(&p);
	start(&cc, &p, 400 * MTU);
	/* Within a base RTT of the start: no cut, the average builds. */
	for (i = 0; i < 30; i++)
		ack(&cc, MTU, true, BASE + 2 * TARGET, T0 + 10);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 400 * MTU);
	avg = cc.avg_delay_ns;
	KUNIT_EXPECT_GT(test, avg, TARGET);
	ack(&cc, MTU, true, BASE + 2 * TARGET, now);
	avg = cc.avg_delay_ns;
	expect = (u32)(((u64)400 * MTU *
			(65536 - (u32)((u64)p.gamma_q16 * (avg - TARGET) / avg))) >> 16);
	KUNIT_EXPECT_EQ(test, cc.cwnd, expect);
	KUNIT_EXPECT_EQ(test, cc.md_cuts, 1U);
	/* Not again within a base RTT. */
	ack(&cc, MTU, true, BASE + 2 * TARGET, now + BASE / 2);
	KUNIT_EXPECT_EQ(test, cc.cwnd, expect);
	/* A huge delay cuts by max_md_jump, no more. */
	p.gamma_q16 = 65536;
	start(&cc, &p, 400 * MTU);
	for (i = 0; i < 60; i++)
		ack(&cc, MTU, true, BASE + 3 * TARGET, T0 + 10);
	ack(&cc, MTU, true, BASE + 3 * TARGET, now);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 200 * MTU);
}

/* No window grows past max_cwnd, none shrinks below one MTU. */
static void bounds(struct kunit *test)
{
	struct mrc_nscc_params p;
	struct mrc_nscc cc;
	int i;

	params(&p);
	p.max_cwnd = 64 * MTU;
	start(&cc, &p, 60 * MTU);
	for (i = 0; i < 50; i++)
		ack(&cc, 64 * MTU, false, BASE + TARGET, T0 + 1000 + i);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 64 * MTU);
	for (i = 0; i < 100; i++)
		mrc_nscc_on_loss(&cc, 8 * MTU);
	KUNIT_EXPECT_EQ(test, cc.cwnd, MTU);
	mrc_nscc_on_trim(&cc, 8 * MTU, 0, T0 + 2000);
	KUNIT_EXPECT_EQ(test, cc.cwnd, MTU);
}

/* Without QuickAdapt a trim costs its packet; a loss always does. */
static void trim_and_loss_without_quick_adapt(struct kunit *test)
{
	struct mrc_nscc_params p;
	struct mrc_nscc cc;

	params(&p);
	p.disable_qa = true;
	start(&cc, &p, 100 * MTU);
	mrc_nscc_on_trim(&cc, MTU, 50 * MTU, T0 + 1000);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 99 * MTU);
	KUNIT_EXPECT_EQ(test, cc.last_delay_ns, BASE);
	mrc_nscc_on_loss(&cc, 2 * MTU);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 97 * MTU);
}

/*
 * QuickAdapt: the first period only arms it. At a period's end after a
 * trim, a window that delivered under max >> gate becomes what it
 * delivered, and the marks on what was in flight are then ignored.
 */
static void quick_adapt_on_trim(struct kunit *test)
{
	struct mrc_nscc_params p;
	struct mrc_nscc cc;
	u64 now = T0 + 1000;
	u32 cwnd;

	params(&p);
	start(&cc, &p, 500 * MTU);
	ack(&cc, MTU, false, BASE, now);	/* arms the first period */
	KUNIT_EXPECT_EQ(test, cc.qa_end_ns, now + BASE + TARGET);
	ack(&cc, 20 * MTU, false, 0, now + 10);
	/* Mid-period trim: costs its packet, QuickAdapt waits. */
	mrc_nscc_on_trim(&cc, MTU, 300 * MTU, now + 20);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 499 * MTU);
	KUNIT_EXPECT_TRUE(test, cc.trigger_qa);
	/* Period over: 20 MTU delivered < (1 MiB >> 3): cut to it. */
	ack(&cc, MTU, false, BASE, now + BASE + TARGET + 1);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 21 * MTU);
	KUNIT_EXPECT_EQ(test, cc.qa_cuts, 1U);
	KUNIT_EXPECT_FALSE(test, cc.trigger_qa);
	/* Marks on the bytes in flight at the cut are ignored. */
	cwnd = cc.cwnd;
	ack(&cc, 10 * MTU, true, BASE + 3 * TARGET, now + 10 * BASE);
	KUNIT_EXPECT_EQ(test, cc.cwnd, cwnd);
	KUNIT_EXPECT_EQ(test, cc.md_cuts, 0U);
}

/* The gate: a period that delivered enough is not cut. */
static void quick_adapt_gate(struct kunit *test)
{
	struct mrc_nscc_params p;
	struct mrc_nscc cc;
	u64 now = T0 + 1000;

	params(&p);
	start(&cc, &p, 500 * MTU);
	ack(&cc, MTU, false, BASE, now);
	ack(&cc, 200 * MTU, false, BASE, now + 10);	/* >= 1 MiB >> 3 */
	ack(&cc, MTU, false, BASE + 5 * TARGET, now + BASE + TARGET + 1);
	KUNIT_EXPECT_EQ(test, cc.qa_cuts, 0U);
	/* The next period delivers little and its delay is over threshold. */
	ack(&cc, 3 * MTU, false, BASE + 5 * TARGET,
	    now + 2 * (BASE + TARGET) + 2);
	KUNIT_EXPECT_EQ(test, cc.qa_cuts, 1U);
	KUNIT_EXPECT_EQ(test, cc.cwnd, 3 * MTU);
	/* qa_threshold 0: delay alone never fires it. */
	p.qa_threshold_ns = 0;
	start(&cc, &p, 500 * MTU);
	ack(&cc, MTU, false, BASE, now);
	ack(&cc, MTU, false, BASE + 50 * TARGET, now + BASE + TARGET + 1);
	KUNIT_EXPECT_EQ(test, cc.qa_cuts, 0U);
}

/* The lowest RTT seen is the base; a retransmission's ACK only counts. */
static void base_rtt_and_samples(struct kunit *test)
{
	struct mrc_nscc_params p;
	struct mrc_nscc cc;

	params(&p);
	start(&cc, &p, 100 * MTU);
	ack(&cc, MTU, false, BASE / 2, T0 + 1000);
	KUNIT_EXPECT_EQ(test, cc.base_rtt_ns, BASE / 2);
	ack(&cc, MTU, false, BASE, T0 + 2000);
	KUNIT_EXPECT_EQ(test, cc.last_delay_ns, BASE / 2);
	ack(&cc, 4 * MTU, true, 0, T0 + 3000);
	KUNIT_EXPECT_EQ(test, cc.last_delay_ns, BASE / 2);
	KUNIT_EXPECT_EQ(test, cc.acked_bytes, 6ULL * MTU);
	KUNIT_EXPECT_EQ(test, cc.marked_bytes, 4ULL * MTU);
}

static struct kunit_case mrc_nscc_cases[] = {
	KUNIT_CASE(defaults_are_valid_and_start_at_max),
	KUNIT_CASE(bad_params_are_refused),
	KUNIT_CASE(fair_increase_over_target),
	KUNIT_CASE(proportional_increase_under_target),
	KUNIT_CASE(fast_increase_after_a_clean_window),
	KUNIT_CASE(mark_under_target_changes_nothing),
	KUNIT_CASE(decrease_once_per_base_rtt_and_bounded),
	KUNIT_CASE(bounds),
	KUNIT_CASE(trim_and_loss_without_quick_adapt),
	KUNIT_CASE(quick_adapt_on_trim),
	KUNIT_CASE(quick_adapt_gate),
	KUNIT_CASE(base_rtt_and_samples),
	{}
};

static struct kunit_suite mrc_nscc_suite = {
	.name = "mrc_nscc",
	.test_cases = mrc_nscc_cases,
};

kunit_test_suite(mrc_nscc_suite);

MODULE_LICENSE("Dual BSD/GPL");
