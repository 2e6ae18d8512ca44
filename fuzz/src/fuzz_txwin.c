// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the requester's send window (kernel/core/mrc_txwin.c): SACK
 * scoreboard, loss inference and retransmission order, driven by any
 * mix of sends, ACKs, SACKs and loss marks. After every operation the
 * whole window is walked and its counters, scan point and hint checked
 * (check_core.h); return values are checked against what the header
 * promises.
 *
 * Input: size (2 bytes) and start PSN (4 bytes), then operations, each
 * an opcode byte and its arguments. PSNs are mostly relative to una.
 */
#include <errno.h>
#include <string.h>

#include <linux/minmax.h>

#include "check_core.h"

/* SACKs longer than the wire's: the window takes any length. */
#define SACK_WORDS	8

struct ctx {
	struct mrc_txwin win;
	u32 now;
	u32 wait;
	u32 nlost_cb;
};

static u32 rel_psn(struct fin *in, const struct mrc_txwin *w)
{
	return w->una + (u32)(s32)(s16)fin_u16(in);
}

static void on_lost_cb(void *arg, u32 psn)
{
	struct ctx *c = arg;

	/* Only a transmission's first PSN is reported. */
	FUZZ_CHECK(!(mrc_txwin_entry(&c->win, psn)->flags & MRC_TXE_CONT),
		   "detect_losses reported psn %u, sent in another's run", psn);
	c->nlost_cb++;
}

static u32 wait_cb(void *arg, u16 ev)
{
	struct ctx *c = arg;

	return c->wait + ev;
}

/* Outstanding PSNs whose flags have all of @mask. */
static u32 count_flags(const struct mrc_txwin *w, u8 mask)
{
	u32 psn, n = 0;

	for (psn = w->una; psn != w->nxt; psn++)
		n += (mrc_txwin_entry(w, psn)->flags & mask) == mask;
	return n;
}

static void do_ack(struct mrc_txwin *w, u32 cum)
{
	u32 out = w->nxt - w->una, n = cum - w->una, got;

	got = mrc_txwin_on_ack(w, cum);
	FUZZ_CHECK(got == (n <= out ? n : 0), "ack %u over [%u, %u]: %u",
		   cum, w->una, w->nxt, got);
	if (got)
		FUZZ_CHECK(w->una == cum, "una %u after ack %u", w->una, cum);
}

static void do_sack(struct mrc_txwin *w, struct fin *in)
{
	u64 bitmap[SACK_WORDS];
	unsigned int nwords = fin_u8(in) % (SACK_WORDS + 1), i;
	u32 base = rel_psn(in, w), before = w->nsacked, newly;

	for (i = 0; i < nwords; i++)
		bitmap[i] = fin_u64(in);
	newly = mrc_txwin_on_sack(w, base, nwords, bitmap);
	FUZZ_CHECK(w->nsacked == before + newly, "sacked %u -> %u, newly %u",
		   before, w->nsacked, newly);
}

static void do_retransmit(struct ctx *c, u16 ev)
{
	struct mrc_txwin *w = &c->win;
	u32 psn = w->una, n = 0, lost = w->nlost;

	u32 from = psn, p;

	while (mrc_txwin_next_retransmit(w, &psn)) {
		const struct mrc_tx_entry *e = mrc_txwin_entry(w, psn);

		FUZZ_CHECK(e && (e->flags & MRC_TXE_LOST),
			   "next_retransmit gave psn %u, not LOST", psn);
		/* The lowest LOST one at or after where it started looking. */
		for (p = from; p != psn; p++)
			FUZZ_CHECK(!(mrc_txwin_entry(w, p)->flags & MRC_TXE_LOST),
				   "next_retransmit gave %u, %u is LOST", psn, p);
		from = psn + 1;
		FUZZ_CHECK(!mrc_txwin_on_retransmit(w, psn, ev, c->now),
			   "retransmit of %u refused", psn);
		FUZZ_CHECK(++n <= lost, "%u retransmissions, %u were lost", n,
			   lost);
		psn++;
	}
	FUZZ_CHECK(!w->nlost, "%u LOST left after a full pass", w->nlost);
}

static void run_op(struct ctx *c, struct fin *in)
{
	struct mrc_loss_clock clk = { .wait = wait_cb };
	struct mrc_txwin *w = &c->win;
	u32 psn, n, i, i_dup, scan, out = w->nxt - w->una;
	int ret;

	switch (fin_u8(in) % 12) {
	case 0:
		n = fin_u8(in) + 1;
		for (i = 0; i < n; i++) {
			ret = mrc_txwin_push(w, fin_u8(in), c->now++, &psn);
			FUZZ_CHECK(ret == (out + i == w->size ? -ENOSPC : 0),
				   "push with %u of %u outstanding: %d",
				   out + i, w->size, ret);
			if (ret)
				break;
			FUZZ_CHECK(psn == w->nxt - 1, "pushed psn %u, nxt %u",
				   psn, w->nxt);
		}
		break;
	case 1:
		do_ack(w, rel_psn(in, w));
		break;
	case 2:
		do_sack(w, in);
		break;
	case 3:
		mrc_txwin_mark_lost(w, rel_psn(in, w));
		break;
	case 4:
		mrc_txwin_mark_all_lost(w);
		break;
	case 5:
		/* Only a timeout's marks are taken back; every one of them. */
		n = count_flags(w, MRC_TXE_RTO);
		FUZZ_CHECK(count_flags(w, MRC_TXE_RTO | MRC_TXE_LOST) == n,
			   "%u RTO marks, not all LOST", n);
		i = w->nlost;
		FUZZ_CHECK(mrc_txwin_clear_lost(w) == n && w->nlost == i - n &&
			   !count_flags(w, MRC_TXE_RTO) &&
			   count_flags(w, MRC_TXE_LOST) == w->nlost,
			   "clear_lost of %u RTO marks: %u LOST -> %u", n, i,
			   w->nlost);
		break;
	case 6:
		n = w->nlost;
		c->nlost_cb = 0;
		scan = w->scan;
		i_dup = fin_u8(in) % 8;
		clk.now = c->now;
		clk.pending = false;
		c->wait = fin_u16(in);
		psn = fin_u8(in) & 1;	/* with the time rule */
		i = mrc_txwin_detect_losses(w, i_dup, psn ? &clk : NULL,
					    on_lost_cb, c);
		FUZZ_CHECK(i >= c->nlost_cb && w->nlost == n + i,
			   "detect_losses: %u, callback %u, nlost %u -> %u", i,
			   c->nlost_cb, n, w->nlost);
		/* What it passed over is SACKED or LOST now, or judged with its run. */
		for (; scan != w->scan; scan++)
			FUZZ_CHECK(mrc_txwin_entry(w, scan)->flags,
				   "detect_losses passed psn %u unmarked", scan);
		/*
		 * Without the reordering wait it stops only where too few
		 * SACKED PSNs follow to prove any hole lost.
		 */
		if (!psn && w->scan != w->nxt)
			FUZZ_CHECK(w->scan_sacked < max_t(u32, i_dup, 1),
				   "detect_losses stopped at %u, %u SACKED after",
				   w->scan, w->scan_sacked);
		/* A hole it waits for is still outstanding, and due later. */
		if (clk.pending)
			FUZZ_CHECK(w->scan != w->nxt &&
				   mrc_psn_before(clk.now, clk.due),
				   "time rule waits for %u at %u, now %u",
				   w->scan, clk.due, clk.now);
		break;
	case 7:
		mrc_txwin_mark_ev_lost(w, fin_u8(in));
		break;
	case 8:
		do_retransmit(c, fin_u8(in));
		break;
	case 9:
		psn = rel_psn(in, w);
		ret = mrc_txwin_on_retransmit(w, psn, fin_u8(in), c->now);
		FUZZ_CHECK(!ret == mrc_psn_in_range(psn, w->una, w->nxt),
			   "on_retransmit(%u) over [%u, %u): %d", psn, w->una,
			   w->nxt, ret);
		break;
	case 10:
		psn = rel_psn(in, w);
		n = fin_u8(in);
		if (fin_u8(in) & 1)
			mrc_txwin_set_cont(w, psn, n, fin_u32(in));
		else
			mrc_txwin_set_ev(w, psn, n, fin_u32(in));
		break;
	default:
		if (fin_u8(in) & 1) {
			do_ack(w, fin_u32(in));
		} else {
			mrc_txwin_reset(w, fin_u32(in));
			FUZZ_CHECK(!mrc_txwin_outstanding(w), "reset left %u",
				   mrc_txwin_outstanding(w));
		}
		break;
	}
	c->now += fin_u8(in);
	check_txwin(w);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fin in = { data, size };
	struct ctx c = {};
	u32 wsize = fin_u16(&in) % MRC_TXWIN_MAX + 1;

	FUZZ_CHECK(mrc_txwin_init(&c.win, fin_u32(&in), wsize) == 0,
		   "init %u", wsize);
	c.now = fin_u32(&in);
	while (in.n)
		run_op(&c, &in);
	mrc_txwin_destroy(&c.win);
	mrc_txwin_destroy(&c.win);
	return 0;
}
