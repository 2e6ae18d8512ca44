// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MRC receive window: duplicate detection and SACK state for out-of-order
 * placement. See mrc_rxwin.h for the invariants.
 */
#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/find.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "mrc_psn.h"
#include "mrc_rxwin.h"
#include "mrc_wire.h"

static const char * const mrc_rx_verdict_names[MRC_RX_VERDICT_COUNT] = {
	[MRC_RX_NEW]		= "new",
	[MRC_RX_DUPLICATE]	= "duplicate",
	[MRC_RX_OUT_OF_WINDOW]	= "out-of-window",
};

const char *mrc_rx_verdict_name(enum mrc_rx_verdict v)
{
	if ((unsigned int)v >= MRC_RX_VERDICT_COUNT)
		return "?";
	return mrc_rx_verdict_names[v];
}

int mrc_rxwin_init(struct mrc_rxwin *win, u32 start_psn, u32 size)
{
	u32 ring;

	if (!size || size > MRC_RXWIN_MAX || size % MRC_RXWIN_UNIT)
		return -EINVAL;
	ring = roundup_pow_of_two(size);
	win->map = bitmap_zalloc(ring, GFP_KERNEL_ACCOUNT);
	if (!win->map)
		return -ENOMEM;
	win->mask = ring - 1;
	win->size = size;
	win->cum_psn = start_psn;
	win->held = 0;
	return 0;
}

int mrc_rxwin_set_size(struct mrc_rxwin *win, u32 size)
{
	if (!size || size % MRC_RXWIN_UNIT || size > win->mask + 1)
		return -EINVAL;
	if (win->held)
		return -EBUSY;
	win->size = size;
	return 0;
}

void mrc_rxwin_destroy(struct mrc_rxwin *win)
{
	bitmap_free(win->map);
	win->map = NULL;
}

void mrc_rxwin_reset(struct mrc_rxwin *win, u32 start_psn)
{
	bitmap_zero(win->map, win->mask + 1);
	win->cum_psn = start_psn;
	win->held = 0;
}

enum mrc_rx_verdict mrc_rxwin_check(const struct mrc_rxwin *win, u32 psn)
{
	u32 off = psn - win->cum_psn;

	/*
	 * A sender has at most one window outstanding, so only the window
	 * behind the cumulative point can come again. Anything older is not
	 * a retransmission: it gets no answer, which leaves a blind spoofer
	 * one window of PSNs to hit, not half the PSN space.
	 */
	if (off >= win->size)
		return win->cum_psn - psn <= win->size ?
			MRC_RX_DUPLICATE : MRC_RX_OUT_OF_WINDOW;
	if (off && test_bit(psn & win->mask, win->map))
		return MRC_RX_DUPLICATE;
	return MRC_RX_NEW;
}

/*
 * Length of the run of set bits starting at ring index @start, wrapping at
 * the end of the ring. The ring always holds a clear bit (the cumulative
 * point's), so the run is shorter than the ring.
 */
static u32 mrc_ring_run(const unsigned long *map, u32 nbits, u32 start)
{
	u32 end = find_next_zero_bit(map, nbits, start);

	if (end < nbits || !start)
		return end - start;
	return nbits - start + find_next_zero_bit(map, start, 0);
}

/* Clear @len bits from ring index @start, wrapping at the end. */
static void mrc_ring_clear(unsigned long *map, u32 nbits, u32 start, u32 len)
{
	u32 first = min(len, nbits - start);

	bitmap_clear(map, start, first);
	if (len > first)
		bitmap_clear(map, 0, len - first);
}

/* The cumulative PSN arrived: move past it and every held PSN after it. */
static void mrc_rxwin_advance(struct mrc_rxwin *win)
{
	u32 nbits = win->mask + 1;
	u32 start, run;

	win->cum_psn++;
	if (!win->held)
		return;
	start = win->cum_psn & win->mask;
	run = mrc_ring_run(win->map, nbits, start);
	if (!run)
		return;
	mrc_ring_clear(win->map, nbits, start, run);
	win->held -= run;
	win->cum_psn += run;
}

enum mrc_rx_verdict mrc_rxwin_accept(struct mrc_rxwin *win, u32 psn)
{
	enum mrc_rx_verdict v = mrc_rxwin_check(win, psn);

	if (v != MRC_RX_NEW)
		return v;
	if (psn == win->cum_psn) {
		mrc_rxwin_advance(win);
	} else {
		__set_bit(psn & win->mask, win->map);
		win->held++;
	}
	return MRC_RX_NEW;
}

u32 mrc_rxwin_received_run(const struct mrc_rxwin *win, u32 psn, u32 max)
{
	u32 n = 0;

	while (n < max && mrc_rxwin_check(win, psn + n) == MRC_RX_DUPLICATE)
		n++;
	return n;
}

/* @n (<= 64) ring bits from index @start, wrapping, as a word. */
static u64 mrc_ring_bits(const unsigned long *map, u32 mask, u32 start,
			 u32 n)
{
	u32 i = 0, idx, end, bit;
	u64 out = 0;

	while (i < n) {
		idx = (start + i) & mask;
		end = idx + min(n - i, mask + 1 - idx);
		for (bit = find_next_bit(map, end, idx); bit < end;
		     bit = find_next_bit(map, end, bit + 1))
			out |= BIT_ULL(i + bit - idx);
		i += end - idx;
	}
	return out;
}

/* Received bits of the 64 PSNs from @base. */
static u64 mrc_rxwin_word(const struct mrc_rxwin *win, u32 base)
{
	/* Bit i is PSN base + i, which is cum_psn + i - d. */
	s64 d = mrc_psn_diff(win->cum_psn, base);
	s64 lo = max_t(s64, d + 1, 0);
	s64 hi = min_t(s64, d + win->size, 64);
	u64 word = 0;

	if (d >= 64)
		return ~0ULL;
	if (d > 0)
		word = GENMASK_ULL(d - 1, 0);
	if (win->held && lo < hi)
		word |= mrc_ring_bits(win->map, win->mask, base + (u32)lo,
				      hi - lo) << lo;
	return word;
}

void mrc_rxwin_sack_at(const struct mrc_rxwin *win, u32 base,
		       unsigned int nwords, u64 *bitmap)
{
	unsigned int w;

	for (w = 0; w < nwords; w++)
		bitmap[w] = mrc_rxwin_word(win, base + 64 * w);
}

unsigned int mrc_rxwin_fill_sack(const struct mrc_rxwin *win, u32 *base,
				 unsigned int nwords, u64 *bitmap)
{
	unsigned int used = 1, w;

	nwords = clamp_t(unsigned int, nwords, 1, MRC_SACK_MAX_WORDS);
	*base = win->cum_psn;
	mrc_rxwin_sack_at(win, *base, nwords, bitmap);
	for (w = 1; w < nwords; w++)
		if (bitmap[w])
			used = w + 1;
	return used;
}
