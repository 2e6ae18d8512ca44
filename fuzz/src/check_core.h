/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Invariants of the send window and the EV table, as their headers state
 * them (kernel/core/mrc_txwin.h, kernel/core/mrc_ev.h), checked by walking the
 * whole state. The harnesses call these after every operation.
 */
#ifndef MRC_FUZZ_CHECK_CORE_H
#define MRC_FUZZ_CHECK_CORE_H

#include "fuzz_util.h"
#include "mrc_ev.h"
#include "mrc_psn.h"
#include "mrc_txwin.h"

static inline void check_txwin(const struct mrc_txwin *w)
{
	u32 out = w->nxt - w->una, sacked = 0, lost = 0, after_scan = 0, psn;

	FUZZ_CHECK(out <= w->size, "%u outstanding, size %u", out, w->size);
	FUZZ_CHECK(w->scan - w->una <= out, "scan %u outside [%u, %u]",
		   w->scan, w->una, w->nxt);
	FUZZ_CHECK(w->retx_hint - w->una <= out, "retx_hint %u outside [%u, %u]",
		   w->retx_hint, w->una, w->nxt);
	for (psn = w->una; psn != w->nxt; psn++) {
		const struct mrc_tx_entry *e = mrc_txwin_entry(w, psn);

		FUZZ_CHECK(e, "outstanding psn %u has no entry", psn);
		FUZZ_CHECK((e->flags & (MRC_TXE_SACKED | MRC_TXE_LOST)) !=
			   (MRC_TXE_SACKED | MRC_TXE_LOST),
			   "psn %u both SACKED and LOST", psn);
		sacked += !!(e->flags & MRC_TXE_SACKED);
		lost += !!(e->flags & MRC_TXE_LOST);
		if (!mrc_psn_before(psn, w->scan))
			after_scan += !!(e->flags & MRC_TXE_SACKED);
		FUZZ_CHECK(!(e->flags & MRC_TXE_LOST) ||
			   !mrc_psn_before(psn, w->retx_hint),
			   "LOST psn %u before retx_hint %u", psn, w->retx_hint);
		FUZZ_CHECK(e->tx_count >= 1, "psn %u never sent", psn);
	}
	FUZZ_CHECK(sacked == w->nsacked, "nsacked %u, counted %u", w->nsacked,
		   sacked);
	FUZZ_CHECK(lost == w->nlost, "nlost %u, counted %u", w->nlost, lost);
	FUZZ_CHECK(after_scan == w->scan_sacked, "scan_sacked %u, counted %u",
		   w->scan_sacked, after_scan);
	FUZZ_CHECK(mrc_txwin_in_flight(w) <= out, "in flight %u of %u",
		   mrc_txwin_in_flight(w), out);
}

static inline void check_ev(const struct mrc_ev_table *t)
{
	u16 i, good = 0, denied = 0, recycled = 0;

	FUZZ_CHECK(t->count && t->count <= MRC_EV_COUNT_MAX, "count %u",
		   t->count);
	FUZZ_CHECK(t->cursor < t->count && t->probe_cursor < t->count &&
		   t->rc_head < t->count && t->rc_len <= t->count &&
		   t->last_delivered <= t->count,
		   "cursor %u probe_cursor %u rc %u+%u last %u of %u", t->cursor,
		   t->probe_cursor, t->rc_head, t->rc_len, t->last_delivered,
		   t->count);
	FUZZ_CHECK(t->next_probe_id, "probe id 0 would be issued");
	for (i = 0; i < t->count; i++) {
		FUZZ_CHECK(t->ev[i].state <= MRC_EV_DENIED, "EV %u state %u", i,
			   t->ev[i].state);
		good += t->ev[i].state == MRC_EV_GOOD;
		denied += t->ev[i].state == MRC_EV_DENIED;
		recycled += t->ev[i].recycled;
	}
	FUZZ_CHECK(good == t->ngood, "ngood %u, counted %u", t->ngood, good);
	FUZZ_CHECK(denied == t->ndenied && denied < t->count,
		   "ndenied %u, counted %u of %u", t->ndenied, denied, t->count);
	FUZZ_CHECK(recycled == t->rc_len, "%u flagged recycled, FIFO holds %u",
		   recycled, t->rc_len);
	for (i = 0; i < t->rc_len; i++) {
		u16 idx = t->recycle[(t->rc_head + i) % t->count];

		FUZZ_CHECK(idx < t->count && t->ev[idx].recycled,
			   "FIFO slot %u holds EV %u", i, idx);
	}
}

/* What mrc_ev_choose*() may return given the table before the call. */
static inline void check_ev_choice(const struct mrc_ev_table *t, u16 idx,
				   bool any_bad)
{
	FUZZ_CHECK(idx < t->count, "chose EV %u of %u", idx, t->count);
	FUZZ_CHECK(t->ev[idx].state != MRC_EV_DENIED, "chose DENIED EV %u",
		   idx);
	if (t->ngood)
		FUZZ_CHECK(t->ev[idx].state == MRC_EV_GOOD,
			   "chose EV %u in state %u with %u GOOD", idx,
			   t->ev[idx].state, t->ngood);
	else if (any_bad)
		FUZZ_CHECK(t->ev[idx].state == MRC_EV_ASSUMED_BAD,
			   "chose EV %u in state %u, none GOOD", idx,
			   t->ev[idx].state);
}

#endif
