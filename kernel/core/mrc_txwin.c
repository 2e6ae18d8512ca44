// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MRC send window: outstanding PSNs, SACK scoreboard, loss inference and
 * retransmission order. See mrc_txwin.h for the model.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/slab.h>

#include "mrc_txwin.h"

static struct mrc_tx_entry *mrc_txe(struct mrc_txwin *win, u32 psn)
{
	return &win->ent[psn & win->mask];
}

static bool mrc_txwin_outstanding_psn(const struct mrc_txwin *win, u32 psn)
{
	return mrc_psn_in_range(psn, win->una, win->nxt);
}

int mrc_txwin_init(struct mrc_txwin *win, u32 start_psn, u32 size)
{
	u32 ring;

	if (!size || size > MRC_TXWIN_MAX)
		return -EINVAL;
	ring = roundup_pow_of_two(size);
	win->ent = kcalloc(ring, sizeof(*win->ent), GFP_KERNEL_ACCOUNT);
	if (!win->ent)
		return -ENOMEM;
	win->mask = ring - 1;
	win->size = size;
	mrc_txwin_reset(win, start_psn);
	return 0;
}

void mrc_txwin_destroy(struct mrc_txwin *win)
{
	kfree(win->ent);
	win->ent = NULL;
}

void mrc_txwin_reset(struct mrc_txwin *win, u32 start_psn)
{
	win->una = start_psn;
	win->nxt = start_psn;
	win->scan = start_psn;
	win->retx_hint = start_psn;
	win->nsacked = 0;
	win->nlost = 0;
	win->scan_sacked = 0;
	win->held = false;
}

int mrc_txwin_set_size(struct mrc_txwin *win, u32 size)
{
	if (!size || size > win->mask + 1)
		return -EINVAL;
	if (win->nxt != win->una)
		return -EBUSY;
	win->size = size;
	return 0;
}

int mrc_txwin_push(struct mrc_txwin *win, u16 ev, u32 ts, u32 *psn)
{
	struct mrc_tx_entry *e;

	if (win->nxt - win->una >= win->size)
		return -ENOSPC;
	e = mrc_txe(win, win->nxt);
	e->ts = ts;
	e->ev = ev;
	e->flags = 0;
	e->tx_count = 1;
	*psn = win->nxt++;
	return 0;
}

u32 mrc_txwin_on_ack(struct mrc_txwin *win, u32 cum_psn)
{
	struct mrc_tx_entry *e;
	u32 n, psn;

	if (win->held && mrc_psn_in_range(win->hold, win->una, cum_psn))
		cum_psn = win->hold;
	n = cum_psn - win->una;
	/* Stale ACKs wrap to huge values, so one test covers both ends. */
	if (!n || n > win->nxt - win->una)
		return 0;
	if (win->nsacked || win->nlost) {
		for (psn = win->una; psn != cum_psn; psn++) {
			e = mrc_txe(win, psn);
			if (e->flags & MRC_TXE_SACKED) {
				win->nsacked--;
				if (!mrc_psn_before(psn, win->scan))
					win->scan_sacked--;
			}
			if (e->flags & MRC_TXE_LOST)
				win->nlost--;
		}
	}
	win->una = cum_psn;
	if (mrc_psn_before(win->scan, cum_psn))
		win->scan = cum_psn;
	if (mrc_psn_before(win->retx_hint, cum_psn))
		win->retx_hint = cum_psn;
	return n;
}

static bool mrc_txwin_sack_one(struct mrc_txwin *win, u32 psn)
{
	struct mrc_tx_entry *e;

	if (!mrc_txwin_outstanding_psn(win, psn))
		return false;
	e = mrc_txe(win, psn);
	if (e->flags & MRC_TXE_SACKED)
		return false;
	if (e->flags & MRC_TXE_LOST) {
		e->flags &= ~(MRC_TXE_LOST | MRC_TXE_TRIMMED | MRC_TXE_RTO);
		win->nlost--;
	}
	if (!win->nsacked || mrc_psn_after(e->ts, win->sacked_ts))
		win->sacked_ts = e->ts;
	e->flags |= MRC_TXE_SACKED;
	win->nsacked++;
	if (!mrc_psn_before(psn, win->scan))
		win->scan_sacked++;
	return true;
}

u32 mrc_txwin_on_sack(struct mrc_txwin *win, u32 base, unsigned int nwords,
		      const u64 *bitmap)
{
	unsigned int w, i;
	u32 newly = 0;
	u64 word;

	for (w = 0; w < nwords; w++) {
		for (word = bitmap[w]; word; word &= word - 1) {
			i = __ffs64(word);
			newly += mrc_txwin_sack_one(win, base + 64 * w + i);
		}
	}
	return newly;
}

bool mrc_txwin_ack_acceptable(const struct mrc_txwin *win, u32 cum_psn,
			      u32 base, unsigned int nwords,
			      const u64 *bitmap)
{
	unsigned int w;
	u64 word;

	/* cum_psn in (una, nxt]: stale values wrap to huge offsets. */
	if (cum_psn - win->una - 1 < win->nxt - win->una)
		return true;
	for (w = 0; w < nwords; w++) {
		for (word = bitmap[w]; word; word &= word - 1) {
			u32 psn = base + 64 * w + __ffs64(word);

			if (mrc_txwin_outstanding_psn(win, psn) &&
			    !(win->ent[psn & win->mask].flags & MRC_TXE_SACKED))
				return true;
		}
	}
	return false;
}

bool mrc_txwin_nack_acceptable(const struct mrc_txwin *win, u32 cum_psn)
{
	return mrc_txwin_outstanding_psn(win, cum_psn) &&
	       !(win->ent[cum_psn & win->mask].flags & MRC_TXE_SACKED);
}

u32 mrc_txwin_ack_sacked_prefix(struct mrc_txwin *win)
{
	u32 n = 0;

	while (n < win->nxt - win->una &&
	       (win->ent[(win->una + n) & win->mask].flags & MRC_TXE_SACKED))
		n++;
	return n ? mrc_txwin_on_ack(win, win->una + n) : 0;
}

/* Mark an outstanding entry LOST unless it is SACKED or LOST already. */
static bool mrc_txwin_lose(struct mrc_txwin *win, u32 psn)
{
	struct mrc_tx_entry *e = mrc_txe(win, psn);

	if (e->flags & (MRC_TXE_SACKED | MRC_TXE_LOST))
		return false;
	e->flags |= MRC_TXE_LOST;
	win->nlost++;
	if (mrc_psn_before(psn, win->retx_hint))
		win->retx_hint = psn;
	return true;
}

bool mrc_txwin_mark_lost(struct mrc_txwin *win, u32 psn)
{
	if (!mrc_txwin_outstanding_psn(win, psn))
		return false;
	mrc_txe(win, psn)->flags &= ~MRC_TXE_RTO;
	return mrc_txwin_lose(win, psn);
}

/*
 * Whether an echo of (@ev, @ev_seq) answers @e's newest copy: an echo of
 * an older copy says nothing of the copy still on its way.
 */
static bool mrc_txe_is_copy(const struct mrc_tx_entry *e, u16 ev, u32 ev_seq)
{
	return e->ev == ev && e->ev_seq == ev_seq;
}

bool mrc_txwin_mark_trimmed(struct mrc_txwin *win, u32 psn, u16 ev,
			    u32 ev_seq)
{
	const struct mrc_tx_entry *e = mrc_txwin_entry(win, psn);

	if (!e || !mrc_txe_is_copy(e, ev, ev_seq) ||
	    !mrc_txwin_mark_lost(win, psn))
		return false;
	mrc_txe(win, psn)->flags |= MRC_TXE_TRIMMED;
	return true;
}

u32 mrc_txwin_mark_all_lost(struct mrc_txwin *win)
{
	u32 psn, n = 0;

	for (psn = win->una; psn != win->nxt; psn++) {
		if (mrc_txwin_lose(win, psn)) {
			mrc_txe(win, psn)->flags |= MRC_TXE_RTO;
			n++;
		}
	}
	return n;
}

u32 mrc_txwin_clear_lost(struct mrc_txwin *win)
{
	u32 psn, n = 0;

	for (psn = win->una; win->nlost && psn != win->nxt; psn++) {
		struct mrc_tx_entry *e = mrc_txe(win, psn);

		if (e->flags & MRC_TXE_RTO) {
			e->flags &= ~(MRC_TXE_LOST | MRC_TXE_RTO);
			win->nlost--;
			n++;
		}
	}
	return n;
}

/*
 * Whether the hole @e, before @dupthresh SACKED PSNs, is overdue: sent
 * before a packet that arrived, and missing for longer than its EV's wait.
 * If it is not overdue yet but will be, @clk says when.
 */
static bool mrc_txwin_overdue(const struct mrc_txwin *win,
			      const struct mrc_tx_entry *e,
			      struct mrc_loss_clock *clk, void *ctx)
{
	u32 due;

	if (!mrc_psn_before(e->ts, win->sacked_ts))
		return false;
	due = e->ts + clk->wait(ctx, e->ev);
	if (!mrc_psn_before(clk->now, due))
		return true;
	clk->due = due;
	clk->pending = true;
	return false;
}

u32 mrc_txwin_detect_losses(struct mrc_txwin *win, u32 dupthresh,
			    struct mrc_loss_clock *clk,
			    void (*lost)(void *ctx, u32 psn), void *ctx)
{
	struct mrc_tx_entry *e;
	bool run_lost = false;
	u32 n = 0;

	dupthresh = max(dupthresh, 1U);
	/* scan_sacked only shrinks as the scan moves: nothing to find. */
	if (win->scan_sacked < dupthresh)
		return 0;
	while (win->scan != win->nxt) {
		e = mrc_txe(win, win->scan);
		if (e->flags & MRC_TXE_SACKED) {
			win->scan_sacked--;
			run_lost = false;
		} else if (e->flags & MRC_TXE_CONT) {
			/* Judged with its transmission's first PSN. */
			if (run_lost)
				n += mrc_txwin_lose(win, win->scan);
		} else {
			if (win->scan_sacked < dupthresh)
				break;
			/* Too recent to tell from reordering: look again later. */
			if (clk && !mrc_txwin_overdue(win, e, clk, ctx))
				break;
			run_lost = mrc_txwin_lose(win, win->scan);
			if (run_lost) {
				n++;
				if (lost)
					lost(ctx, win->scan);
			}
		}
		win->scan++;
	}
	return n;
}

u32 mrc_txwin_mark_ev_lost(struct mrc_txwin *win, u16 ev)
{
	u32 psn, n = 0;

	for (psn = win->una; psn != win->nxt; psn++)
		if (mrc_txe(win, psn)->ev == ev)
			n += mrc_txwin_lose(win, psn);
	return n;
}

bool mrc_txwin_read_hole_lost(const struct mrc_txwin *win, u32 hole, u32 psn,
			      u16 ev, u32 ev_seq, u32 reo)
{
	const struct mrc_tx_entry *h = mrc_txwin_entry(win, hole);
	const struct mrc_tx_entry *a = mrc_txwin_entry(win, psn);

	if (!h || !a || !mrc_txe_is_copy(a, ev, ev_seq) || h->ev != ev)
		return false;
	if (mrc_psn_before(h->ts + reo, a->ts))
		return true;
	return h->ev_seq == ev_seq && psn - hole >= MRC_TXWIN_READ_DUPTHRESH;
}

void mrc_txwin_note_echo(struct mrc_txwin *win, u32 psn, u16 ev, u32 ev_seq)
{
	struct mrc_tx_entry *e;

	if (!mrc_txwin_outstanding_psn(win, psn))
		return;
	e = mrc_txe(win, psn);
	if (mrc_txe_is_copy(e, ev, ev_seq))
		e->flags |= MRC_TXE_ECHOED;
}

bool mrc_txwin_next_retransmit(struct mrc_txwin *win, u32 *psn)
{
	u32 p = *psn;
	bool from_hint;

	if (!win->nlost)
		return false;
	if (mrc_psn_before(p, win->retx_hint))
		p = win->retx_hint;
	else if (!mrc_txwin_outstanding_psn(win, p))
		return false;
	from_hint = p == win->retx_hint;
	for (; p != win->nxt; p++) {
		if (mrc_txe(win, p)->flags & MRC_TXE_LOST) {
			if (from_hint)
				win->retx_hint = p;
			*psn = p;
			return true;
		}
	}
	if (from_hint)
		win->retx_hint = p;
	return false;
}

int mrc_txwin_on_retransmit(struct mrc_txwin *win, u32 psn, u16 ev, u32 ts)
{
	struct mrc_tx_entry *e;

	if (!mrc_txwin_outstanding_psn(win, psn))
		return -ERANGE;
	e = mrc_txe(win, psn);
	if (e->flags & MRC_TXE_LOST) {
		e->flags &= ~MRC_TXE_LOST;
		win->nlost--;
	}
	e->flags &= ~(MRC_TXE_CONT | MRC_TXE_TRIMMED | MRC_TXE_ECHOED |
		      MRC_TXE_RTO);
	e->ev = ev;
	e->ts = ts;
	if (e->tx_count < U8_MAX)
		e->tx_count++;
	return 0;
}
