/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * MRC receive window: the responder's record of which PSNs arrived.
 *
 * The window holds a cumulative point (every PSN before it was received)
 * and a bitmap of the PSNs received beyond it. It accepts PSNs in
 * [cum_psn, cum_psn + size), the MPR of the wire: size is a multiple of
 * 128 PSNs, at most 8192. Arrivals beyond that are out of window; PSNs
 * before the cumulative point or already in the bitmap are duplicates.
 *
 * The bitmap is a ring of roundup_pow_of_two(size) bits indexed by
 * psn & (ring - 1). A power-of-two ring divides 2^32, so consecutive
 * PSNs stay on consecutive bits across the PSN wrap. The bit of cum_psn
 * itself is always clear and no bit at or beyond cum_psn + size is ever
 * set, which bounds every scan.
 *
 * No locking inside: the caller serialises all calls on a window.
 */
#ifndef MRC_RXWIN_H
#define MRC_RXWIN_H

#include <linux/types.h>

#define MRC_RXWIN_UNIT	128	/* MPR granularity, PSNs */
#define MRC_RXWIN_MAX	8192	/* largest window, PSNs */

/**
 * enum mrc_rx_verdict - what a window makes of an arriving PSN
 * @MRC_RX_NEW: first arrival inside the window; recorded
 * @MRC_RX_DUPLICATE: before the cumulative point or already received
 * @MRC_RX_OUT_OF_WINDOW: at or beyond cum_psn + size; not recorded
 * @MRC_RX_VERDICT_COUNT: number of verdicts
 */
enum mrc_rx_verdict {
	MRC_RX_NEW,
	MRC_RX_DUPLICATE,
	MRC_RX_OUT_OF_WINDOW,
	MRC_RX_VERDICT_COUNT
};

/**
 * struct mrc_rxwin - receive window state
 * @map: ring bitmap of PSNs received beyond @cum_psn
 * @mask: ring size in bits minus one (the ring is a power of two)
 * @size: window in PSNs (MPR), a multiple of %MRC_RXWIN_UNIT
 * @cum_psn: every PSN before it has been received
 * @held: PSNs received beyond @cum_psn (held out of order)
 */
struct mrc_rxwin {
	unsigned long *map;
	u32 mask;
	u32 size;
	u32 cum_psn;
	u32 held;
};

/**
 * mrc_rxwin_init() - allocate a receive window
 * @win: window to set up
 * @start_psn: first PSN expected
 * @size: window in PSNs: a multiple of %MRC_RXWIN_UNIT, at most
 *        %MRC_RXWIN_MAX
 *
 * Context: process context; allocates with GFP_KERNEL_ACCOUNT (the
 * window is charged to the memory cgroup of the QP's creator).
 * Return: 0, -EINVAL for a bad @size or -ENOMEM.
 */
int mrc_rxwin_init(struct mrc_rxwin *win, u32 start_psn, u32 size);

/**
 * mrc_rxwin_set_size() - change the window (the MPR) before data arrives
 * @win: an initialised window holding no PSN beyond its cumulative point
 * @size: the new window: a multiple of %MRC_RXWIN_UNIT, at most the ring
 *	allocated at init
 *
 * Return: 0, -EINVAL for a bad @size, -EBUSY while PSNs are held.
 */
int mrc_rxwin_set_size(struct mrc_rxwin *win, u32 size);

/**
 * mrc_rxwin_destroy() - free a receive window
 * @win: window set up by mrc_rxwin_init(), or zeroed; may be called twice
 */
void mrc_rxwin_destroy(struct mrc_rxwin *win);

/**
 * mrc_rxwin_reset() - forget every arrival and restart at a PSN
 * @win: an initialised window
 * @start_psn: first PSN expected from now on
 */
void mrc_rxwin_reset(struct mrc_rxwin *win, u32 start_psn);

/**
 * mrc_rxwin_check() - classify a PSN without recording it
 * @win: the window
 * @psn: PSN of an arriving packet
 *
 * Lets a responder validate a packet (keys, bounds) before it commits to
 * having received it with mrc_rxwin_accept().
 *
 * Return: the verdict mrc_rxwin_accept() would give now.
 */
enum mrc_rx_verdict mrc_rxwin_check(const struct mrc_rxwin *win, u32 psn);

/**
 * mrc_rxwin_accept() - classify and record an arriving PSN
 * @win: the window
 * @psn: PSN of an arriving packet
 *
 * A new PSN is recorded; when it is the cumulative point, that point
 * advances over it and every contiguous PSN already held, a word of the
 * bitmap at a time.
 *
 * Return: %MRC_RX_NEW when recorded, otherwise why not.
 */
enum mrc_rx_verdict mrc_rxwin_accept(struct mrc_rxwin *win, u32 psn);

/**
 * mrc_rxwin_received_run() - PSNs received in a row from a PSN
 * @win: the window
 * @psn: the first PSN
 * @max: most PSNs to count
 *
 * Counts from @psn while each PSN was received: before the cumulative
 * point or held in the bitmap (mrc_rxwin_check() says duplicate). What a
 * repeated request may be answered for again: a PSN not received was
 * never executed, and belongs to a packet still to come.
 *
 * Return: the count, 0..@max.
 */
u32 mrc_rxwin_received_run(const struct mrc_rxwin *win, u32 psn, u32 max);

/**
 * mrc_rxwin_sack_at() - SACK bitmap of an arbitrary PSN range
 * @win: the window
 * @base: first PSN of the range
 * @nwords: 64-bit words to fill
 * @bitmap: @nwords words; bit i of word w is set when PSN
 *          @base + 64 * w + i has been received
 *
 * PSNs before the cumulative point count as received; PSNs at or beyond
 * the window's end as not received. PSNs compare in serial arithmetic:
 * one more than 2^31 before the cumulative point reads as after it, so
 * @base must lie within 2^31 - 64 * @nwords PSNs of it (the SACKs built
 * from the cumulative point on always do).
 */
void mrc_rxwin_sack_at(const struct mrc_rxwin *win, u32 base,
		       unsigned int nwords, u64 *bitmap);

/**
 * mrc_rxwin_fill_sack() - SACKH fields for the range after the cumulative
 *                         point
 * @win: the window
 * @base: set to the cumulative PSN (bit 0 of word 0, never received)
 * @nwords: most words the caller can send, 1..%MRC_SACK_MAX_WORDS
 * @bitmap: @nwords words, filled as by mrc_rxwin_sack_at()
 *
 * Windows wider than 64 * @nwords PSNs need further SACKs, built with
 * mrc_rxwin_sack_at() from @base + 64 * @nwords on.
 *
 * Return: the words worth sending: the fewest that cover every held PSN
 * in range, at least 1 and at most @nwords.
 */
unsigned int mrc_rxwin_fill_sack(const struct mrc_rxwin *win, u32 *base,
				 unsigned int nwords, u64 *bitmap);

/**
 * mrc_rx_verdict_name() - name of a verdict, for tracing
 * @v: the verdict
 *
 * Return: a static string, "?" for values out of range.
 */
const char *mrc_rx_verdict_name(enum mrc_rx_verdict v);

/**
 * mrc_rxwin_cum_psn() - the cumulative point
 * @win: the window
 *
 * Return: the PSN expected next; every PSN before it has been received.
 */
static inline u32 mrc_rxwin_cum_psn(const struct mrc_rxwin *win)
{
	return win->cum_psn;
}

/**
 * mrc_rxwin_held() - PSNs received out of order
 * @win: the window
 *
 * Return: how many PSNs beyond the cumulative point have been received.
 */
static inline u32 mrc_rxwin_held(const struct mrc_rxwin *win)
{
	return win->held;
}

/**
 * mrc_rxwin_size() - window size
 * @win: the window
 *
 * Return: the window in PSNs (the AETH receive window field).
 */
static inline u32 mrc_rxwin_size(const struct mrc_rxwin *win)
{
	return win->size;
}

#endif /* MRC_RXWIN_H */
