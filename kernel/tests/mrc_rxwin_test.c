// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for PSN serial arithmetic and the MRC receive window:
 * in-order, reordered, duplicate and out-of-window arrivals, the PSN wrap,
 * SACK encoding, and a randomised comparison with a plain model.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "../core/mrc_psn.h"
#include "../core/mrc_rxwin.h"
#include "../core/mrc_wire.h"

static void psn_serial_arithmetic(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, mrc_psn_before(1, 2));
	KUNIT_EXPECT_FALSE(test, mrc_psn_before(2, 2));
	KUNIT_EXPECT_FALSE(test, mrc_psn_after(2, 2));
	KUNIT_EXPECT_TRUE(test, mrc_psn_after(3, 2));
	/* Across the wrap. */
	KUNIT_EXPECT_TRUE(test, mrc_psn_before(0xffffffff, 0));
	KUNIT_EXPECT_TRUE(test, mrc_psn_after(5, 0xfffffff0));
	KUNIT_EXPECT_FALSE(test, mrc_psn_after(0xfffffff0, 5));
	KUNIT_EXPECT_EQ(test, mrc_psn_diff(5, 0xfffffff0), 21);
	KUNIT_EXPECT_EQ(test, mrc_psn_diff(0xfffffff0, 5), -21);
	KUNIT_EXPECT_EQ(test, mrc_psn_diff(0x7fffffff, 0), 0x7fffffff);
	KUNIT_EXPECT_TRUE(test, mrc_psn_before(0, 0x7fffffff));
	KUNIT_EXPECT_TRUE(test, mrc_psn_after(0, 0x80000001));
	/* Half-open ranges, also across the wrap. */
	KUNIT_EXPECT_TRUE(test, mrc_psn_in_range(0xfffffffe, 0xfffffffe, 2));
	KUNIT_EXPECT_TRUE(test, mrc_psn_in_range(1, 0xfffffffe, 2));
	KUNIT_EXPECT_FALSE(test, mrc_psn_in_range(2, 0xfffffffe, 2));
	KUNIT_EXPECT_FALSE(test, mrc_psn_in_range(0xfffffffd, 0xfffffffe, 2));
	KUNIT_EXPECT_FALSE(test, mrc_psn_in_range(7, 7, 7));
}

struct win_args {
	u32 start;
	u32 size;
};

static int win_res_init(struct kunit_resource *res, void *context)
{
	const struct win_args *a = context;
	struct mrc_rxwin *win = kzalloc(sizeof(*win), GFP_KERNEL);

	if (!win)
		return -ENOMEM;
	if (mrc_rxwin_init(win, a->start, a->size)) {
		kfree(win);
		return -EINVAL;
	}
	res->data = win;
	return 0;
}

static void win_res_free(struct kunit_resource *res)
{
	mrc_rxwin_destroy(res->data);
	kfree(res->data);
}

/* A window that lives until the end of the test. */
static struct mrc_rxwin *new_win(struct kunit *test, u32 start, u32 size)
{
	struct win_args a = { .start = start, .size = size };
	struct mrc_rxwin *win;

	win = kunit_alloc_resource(test, win_res_init, win_res_free,
				   GFP_KERNEL, &a);
	KUNIT_ASSERT_NOT_NULL(test, win);
	return win;
}

static void init_checks_size(struct kunit *test)
{
	static const u32 bad[] = { 0, 64, 100, 129, 8192 + 128, 16384 };
	static const u32 good[] = { 128, 384, 4096, 8192 };
	struct mrc_rxwin win = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, mrc_rxwin_init(&win, 0, bad[i]),
				    -EINVAL, "size %u", bad[i]);
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		KUNIT_EXPECT_EQ(test, mrc_rxwin_init(&win, 7, good[i]), 0);
		KUNIT_EXPECT_EQ(test, mrc_rxwin_size(&win), good[i]);
		KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(&win), 7U);
		KUNIT_EXPECT_EQ(test, mrc_rxwin_held(&win), 0U);
		mrc_rxwin_destroy(&win);
		KUNIT_EXPECT_NULL(test, win.map);
		mrc_rxwin_destroy(&win);
	}
}

static void in_order(struct kunit *test)
{
	struct mrc_rxwin *win = new_win(test, 1000, 128);
	u32 psn;

	for (psn = 1000; psn < 3000; psn++) {
		KUNIT_ASSERT_EQ(test, mrc_rxwin_accept(win, psn), MRC_RX_NEW);
		KUNIT_ASSERT_EQ(test, mrc_rxwin_cum_psn(win), psn + 1);
		KUNIT_ASSERT_EQ(test, mrc_rxwin_held(win), 0U);
	}
}

static void reordered(struct kunit *test)
{
	struct mrc_rxwin *win = new_win(test, 0, 128);

	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 5), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 3), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 1), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 3U);
	/* 0 fills the first hole: cum moves over 1, stops at hole 2. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 0), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), 2U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 2U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 4), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 2), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), 6U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 0U);
	/* Fully reversed arrivals of a whole window. */
	for (u32 psn = 6 + 127; psn > 6; psn--)
		KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, psn), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 127U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 6), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), 6U + 128);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 0U);
}

static void duplicates(struct kunit *test)
{
	struct mrc_rxwin *win = new_win(test, 50, 256);

	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 50), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 60), MRC_RX_NEW);
	/* Behind the cumulative point: just behind, a window behind. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 50), MRC_RX_DUPLICATE);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 49), MRC_RX_DUPLICATE);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 51 - 256),
			MRC_RX_DUPLICATE);
	/* Further behind, no sender can still be resending it. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 51 - 257),
			MRC_RX_OUT_OF_WINDOW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 0xfffff000),
			MRC_RX_OUT_OF_WINDOW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 51 + 0x80000000),
			MRC_RX_OUT_OF_WINDOW);
	/* Held out of order. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 60), MRC_RX_DUPLICATE);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), 51U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 1U);
	/* check() classifies without recording. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_check(win, 51), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_check(win, 61), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_check(win, 60), MRC_RX_DUPLICATE);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), 51U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 1U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 61), MRC_RX_NEW);
}

static void out_of_window(struct kunit *test)
{
	struct mrc_rxwin *win = new_win(test, 100, 384);

	/* The last PSN of the window is in, the next one out. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 100 + 384),
			MRC_RX_OUT_OF_WINDOW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 0x7fffffff),
			MRC_RX_OUT_OF_WINDOW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 100 + 383), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 1U);
	/* The window slides with the cumulative point. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 100), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 100 + 384), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 101 + 384),
			MRC_RX_OUT_OF_WINDOW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 2U);
}

/* Fill every slot of the window but the first, then the first. */
static void fill_window(struct kunit *test, struct mrc_rxwin *win)
{
	u32 cum = mrc_rxwin_cum_psn(win), size = mrc_rxwin_size(win), i;

	for (i = 1; i < size; i++)
		KUNIT_ASSERT_EQ(test, mrc_rxwin_accept(win, cum + i),
				MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, cum + size),
			MRC_RX_OUT_OF_WINDOW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), size - 1);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, cum), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), cum + size);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 0U);
}

static void window_full(struct kunit *test)
{
	struct mrc_rxwin *win = new_win(test, 0, 8192);
	struct mrc_rxwin *odd = new_win(test, 0, 384);
	u32 i;

	fill_window(test, win);
	fill_window(test, win);
	/* Start mid-ring so the run of set bits wraps the ring's end. */
	for (i = 0; i < 200; i++)
		mrc_rxwin_accept(odd, i);
	fill_window(test, odd);
	fill_window(test, odd);
}

/* A window narrowed to an MPR refuses beyond it, and may widen again. */
static void set_size_narrows(struct kunit *test)
{
	struct mrc_rxwin *win = new_win(test, 50, 1024);

	KUNIT_EXPECT_EQ(test, mrc_rxwin_set_size(win, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_set_size(win, 200), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_set_size(win, 1024 + 128), -EINVAL);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_size(win), 1024U);
	KUNIT_ASSERT_EQ(test, mrc_rxwin_set_size(win, 128), 0);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_size(win), 128U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 50 + 128),
			MRC_RX_OUT_OF_WINDOW);
	fill_window(test, win);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 50 + 130), MRC_RX_NEW);
	/* A PSN held beyond the cumulative point: no change. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_set_size(win, 1024), -EBUSY);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 50 + 128), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 50 + 129), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 0U);
	KUNIT_ASSERT_EQ(test, mrc_rxwin_set_size(win, 1024), 0);
	fill_window(test, win);
}

static void psn_wrap(struct kunit *test)
{
	struct mrc_rxwin *win = new_win(test, 0xfffffff0, 128);
	struct mrc_rxwin *odd = new_win(test, 0xffffff00, 384);
	u32 psn;

	/* Reverse order across the wrap: 0xfffffff0 + 40 is 0x18. */
	for (psn = 0x18; psn != 0xfffffff0; psn--)
		KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, psn), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 40U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 0xfffffff0), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), 0x19U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 0xffffffff),
			MRC_RX_DUPLICATE);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 0x19 + 128),
			MRC_RX_OUT_OF_WINDOW);

	/* A 384-PSN window (512-bit ring) stays contiguous across 2^32. */
	for (psn = 0xffffff01; psn != 0x80; psn++)
		KUNIT_ASSERT_EQ(test, mrc_rxwin_accept(odd, psn), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(odd, 0x80), MRC_RX_OUT_OF_WINDOW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(odd, 0xffffff00), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(odd), 0x80U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(odd), 0U);
}

static void reset_forgets(struct kunit *test)
{
	struct mrc_rxwin *win = new_win(test, 0, 128);

	mrc_rxwin_accept(win, 3);
	mrc_rxwin_reset(win, 1);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), 1U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 0U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 3), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_accept(win, 1), MRC_RX_NEW);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), 2U);
}

static void sack_encodes_exact_psns(struct kunit *test)
{
	static const u32 held[] = { 1, 2, 63, 64, 65, 130, 191, 192, 255 };
	struct mrc_rxwin *win = new_win(test, 0xffffffe0, 256);
	u64 bm[MRC_SACK_MAX_WORDS];
	unsigned int i;
	u32 base;

	/* Empty window: one word of zeroes from the cumulative point. */
	memset(bm, 0xff, sizeof(bm));
	KUNIT_EXPECT_EQ(test, mrc_rxwin_fill_sack(win, &base, 4, bm), 1U);
	KUNIT_EXPECT_EQ(test, base, 0xffffffe0U);
	KUNIT_EXPECT_EQ(test, bm[0], 0ULL);

	/* Offsets from cum, so the set straddles the PSN wrap. */
	for (i = 0; i < ARRAY_SIZE(held); i++)
		mrc_rxwin_accept(win, 0xffffffe0 + held[i]);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_fill_sack(win, &base, 4, bm), 4U);
	KUNIT_EXPECT_EQ(test, base, 0xffffffe0U);
	KUNIT_EXPECT_EQ(test, bm[0], BIT_ULL(1) | BIT_ULL(2) | BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, bm[1], BIT_ULL(0) | BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, bm[2], BIT_ULL(2) | BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, bm[3], BIT_ULL(0) | BIT_ULL(63));

	/* Fewer words: the caller's limit wins. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_fill_sack(win, &base, 2, bm), 2U);
	KUNIT_EXPECT_EQ(test, bm[1], BIT_ULL(0) | BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, mrc_rxwin_fill_sack(win, &base, 0, bm), 1U);
	/* The last word holding a PSN decides the count. */
	mrc_rxwin_reset(win, base);
	mrc_rxwin_accept(win, base + 70);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_fill_sack(win, &base, 4, bm), 2U);
	KUNIT_EXPECT_EQ(test, bm[1], BIT_ULL(6));
	KUNIT_EXPECT_EQ(test, bm[2], 0ULL);
	KUNIT_EXPECT_EQ(test, bm[3], 0ULL);
	mrc_rxwin_reset(win, base);
	for (i = 0; i < ARRAY_SIZE(held); i++)
		mrc_rxwin_accept(win, 0xffffffe0 + held[i]);

	/* Trailing empty words are not worth sending. */
	mrc_rxwin_accept(win, 0xffffffe0);
	mrc_rxwin_accept(win, 0xffffffe0 + 3);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), 0xffffffe4U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_fill_sack(win, &base, 4, bm), 4U);
	KUNIT_EXPECT_EQ(test, base, 0xffffffe4U);
	/* Offsets 63, 64, 65 from the old cum are 59, 60, 61 now. */
	KUNIT_EXPECT_EQ(test, bm[0], BIT_ULL(59) | BIT_ULL(60) | BIT_ULL(61));
}

static void sack_at_arbitrary_base(struct kunit *test)
{
	struct mrc_rxwin *win = new_win(test, 1000, 128);
	u64 bm[3];

	mrc_rxwin_accept(win, 1000);	/* cum 1001 */
	mrc_rxwin_accept(win, 1005);
	mrc_rxwin_accept(win, 1030);
	mrc_rxwin_accept(win, 1128);	/* last PSN of the window */

	/* PSNs before cum read as received; beyond the window as not. */
	mrc_rxwin_sack_at(win, 990, 3, bm);
	KUNIT_EXPECT_EQ(test, bm[0],
			GENMASK_ULL(10, 0) | BIT_ULL(15) | BIT_ULL(40));
	KUNIT_EXPECT_EQ(test, bm[1], 0ULL);
	KUNIT_EXPECT_EQ(test, bm[2], BIT_ULL(1128 - 990 - 128));

	mrc_rxwin_sack_at(win, 500, 1, bm);
	KUNIT_EXPECT_EQ(test, bm[0], ~0ULL);
	mrc_rxwin_sack_at(win, 1129, 1, bm);
	KUNIT_EXPECT_EQ(test, bm[0], 0ULL);
	/* Unaligned bases inside the window; 1020..1083 crosses the ring's end. */
	mrc_rxwin_sack_at(win, 1127, 1, bm);
	KUNIT_EXPECT_EQ(test, bm[0], BIT_ULL(1));
	mrc_rxwin_sack_at(win, 1020, 1, bm);
	KUNIT_EXPECT_EQ(test, bm[0], BIT_ULL(10));
}

/*
 * Random arrivals around a window that starts near the wrap, checked
 * against a model that remembers every PSN in a flat array.
 */
#define MODEL_PSNS	20000

static void matches_model(struct kunit *test)
{
	const u32 start = 0xffffd000, size = 384;
	struct mrc_rxwin *win = new_win(test, start, size);
	bool *got = kunit_kzalloc(test, MODEL_PSNS, GFP_KERNEL);
	u32 cum = 0, held = 0, off, step;
	enum mrc_rx_verdict want;
	struct rnd_state rnd;
	u64 bm[4];
	u32 base, w, i;

	KUNIT_ASSERT_NOT_NULL(test, got);
	prandom_seed_state(&rnd, 42);
	for (step = 0; step < 200000 && cum + size + 64 < MODEL_PSNS; step++) {
		/* Mostly near the cumulative point, sometimes beyond. */
		off = cum + (prandom_u32_state(&rnd) % (size + 64)) - 32;
		if (off >= MODEL_PSNS)
			off = 0;
		if (off < cum || got[off])
			want = MRC_RX_DUPLICATE;
		else if (off >= cum + size)
			want = MRC_RX_OUT_OF_WINDOW;
		else
			want = MRC_RX_NEW;
		KUNIT_ASSERT_EQ_MSG(test, mrc_rxwin_accept(win, start + off),
				    want, "step %u offset %u", step, off);
		if (want == MRC_RX_NEW) {
			got[off] = true;
			held++;
			while (got[cum]) {
				cum++;
				held--;
			}
		}
		KUNIT_ASSERT_EQ(test, mrc_rxwin_cum_psn(win), start + cum);
		KUNIT_ASSERT_EQ(test, mrc_rxwin_held(win), held);
		if (step % 64)
			continue;
		mrc_rxwin_fill_sack(win, &base, 4, bm);
		KUNIT_ASSERT_EQ(test, base, start + cum);
		for (w = 0; w < 4; w++)
			for (i = 0; i < 64; i++)
				KUNIT_ASSERT_EQ(test, !!(bm[w] & BIT_ULL(i)),
						got[cum + 64 * w + i]);
	}
	KUNIT_EXPECT_GT(test, cum, 10000U);
}

/*
 * What a repeated READ request may be answered for again: the PSNs from
 * its first that were received, before the cumulative point or held; a
 * PSN never received (a packet still to come) stops the run.
 */
static void received_run(struct kunit *test)
{
	struct mrc_rxwin *win = new_win(test, 0xfffffff0, 128);
	u32 i;

	for (i = 0; i < 20; i++)		/* [0xfffffff0, 4) in order */
		KUNIT_ASSERT_EQ(test, mrc_rxwin_accept(win, 0xfffffff0 + i), MRC_RX_NEW);
	KUNIT_ASSERT_EQ(test, mrc_rxwin_accept(win, 6), MRC_RX_NEW);
	KUNIT_ASSERT_EQ(test, mrc_rxwin_accept(win, 7), MRC_RX_NEW);
	KUNIT_ASSERT_EQ(test, mrc_rxwin_cum_psn(win), 4U);
	/* Up to the cumulative point, across the wrap, and no further. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_received_run(win, 0xfffffffc, 16), 8U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_received_run(win, 0xfffffffc, 5), 5U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_received_run(win, 3, 512), 1U);
	/* The cumulative PSN and PSNs beyond it not held: none. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_received_run(win, 4, 512), 0U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_received_run(win, 5, 512), 0U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_received_run(win, 100, 512), 0U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_received_run(win, 0x7ffffff0, 512), 0U);
	/* Held PSNs count, up to the next hole. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_received_run(win, 6, 512), 2U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_received_run(win, 7, 512), 1U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_received_run(win, 6, 0), 0U);
	/* Counting records nothing. */
	KUNIT_EXPECT_EQ(test, mrc_rxwin_cum_psn(win), 4U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_held(win), 2U);
	KUNIT_EXPECT_EQ(test, mrc_rxwin_check(win, 5), MRC_RX_NEW);
}

static void verdict_names(struct kunit *test)
{
	unsigned int v;

	for (v = 0; v < MRC_RX_VERDICT_COUNT; v++) {
		KUNIT_EXPECT_NOT_NULL(test, mrc_rx_verdict_name(v));
		KUNIT_EXPECT_STRNEQ(test, mrc_rx_verdict_name(v), "?");
	}
	KUNIT_EXPECT_STREQ(test, mrc_rx_verdict_name(MRC_RX_OUT_OF_WINDOW),
			   "out-of-window");
	KUNIT_EXPECT_STREQ(test, mrc_rx_verdict_name(MRC_RX_VERDICT_COUNT),
			   "?");
}

static struct kunit_case mrc_rxwin_cases[] = {
	KUNIT_CASE(psn_serial_arithmetic),
	KUNIT_CASE(init_checks_size),
	KUNIT_CASE(in_order),
	KUNIT_CASE(reordered),
	KUNIT_CASE(duplicates),
	KUNIT_CASE(out_of_window),
	KUNIT_CASE(window_full),
	KUNIT_CASE(set_size_narrows),
	KUNIT_CASE(psn_wrap),
	KUNIT_CASE(reset_forgets),
	KUNIT_CASE(sack_encodes_exact_psns),
	KUNIT_CASE(sack_at_arbitrary_base),
	KUNIT_CASE(matches_model),
	KUNIT_CASE(received_run),
	KUNIT_CASE(verdict_names),
	{}
};

static struct kunit_suite mrc_rxwin_suite = {
	.name = "mrc_rxwin",
	.test_cases = mrc_rxwin_cases,
};

kunit_test_suite(mrc_rxwin_suite);

MODULE_LICENSE("Dual BSD/GPL");
