// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the responder's receive window (kernel/core/mrc_rxwin.c) against a
 * reference model: a plain array of received flags over a ring twice
 * the largest window, advanced one PSN at a time. Every verdict, the
 * cumulative point, the held count and every SACK bit must agree.
 *
 * Input: window size (1 byte) and start PSN (4 bytes), then operations,
 * each an opcode byte and its arguments. PSNs are mostly given relative
 * to the cumulative point (where packets land), sometimes raw.
 */
#include <errno.h>
#include <string.h>

#include <linux/minmax.h>

#include "fuzz_util.h"
#include "mrc_psn.h"
#include "mrc_rxwin.h"
#include "mrc_wire.h"

#define REF_RING	(2 * MRC_RXWIN_MAX)

struct ref {
	u32 cum;
	u32 size;
	u32 held;
	u8 got[REF_RING];	/* by psn % REF_RING; never set for cum */
};

static enum mrc_rx_verdict ref_check(const struct ref *r, u32 psn)
{
	u32 off = psn - r->cum;

	/* Only the window behind the cumulative point can come again. */
	if (off >= r->size)
		return r->cum - psn <= r->size ? MRC_RX_DUPLICATE :
						 MRC_RX_OUT_OF_WINDOW;
	return r->got[psn % REF_RING] ? MRC_RX_DUPLICATE : MRC_RX_NEW;
}

static void ref_accept(struct ref *r, u32 psn)
{
	if (ref_check(r, psn) != MRC_RX_NEW)
		return;
	r->got[psn % REF_RING] = 1;
	r->held++;
	while (r->got[r->cum % REF_RING]) {
		r->got[r->cum % REF_RING] = 0;
		r->held--;
		r->cum++;
	}
}

static void ref_reset(struct ref *r, u32 psn)
{
	memset(r->got, 0, sizeof(r->got));
	r->cum = psn;
	r->held = 0;
}

/*
 * Whether the model holds @psn as received, for a SACK. Returns -1 where
 * serial order is undefined (near 2^31 away): the rxwin may say either.
 */
static int ref_sack_bit(const struct ref *r, u32 psn)
{
	s32 d = mrc_psn_diff(psn, r->cum);

	if (d >= (1 << 30) || d <= -(1 << 30))
		return -1;
	if (d < 0)
		return 1;
	if ((u32)d >= r->size)
		return 0;
	return r->got[psn % REF_RING];
}

static void check_sack(const struct ref *r, u32 base, unsigned int nwords,
		       const u64 *bitmap)
{
	unsigned int w, i;

	for (w = 0; w < nwords; w++)
		for (i = 0; i < 64; i++) {
			u32 psn = base + 64 * w + i;
			int want = ref_sack_bit(r, psn);
			int got = (bitmap[w] >> i) & 1;

			FUZZ_CHECK(want < 0 || want == got,
				   "sack bit of psn %u (cum %u, base %u): %d, want %d",
				   psn, r->cum, base, got, want);
		}
}

static void check_state(const struct mrc_rxwin *win, const struct ref *r)
{
	FUZZ_CHECK(mrc_rxwin_cum_psn(win) == r->cum, "cum %u, want %u",
		   mrc_rxwin_cum_psn(win), r->cum);
	FUZZ_CHECK(mrc_rxwin_held(win) == r->held, "held %u, want %u",
		   mrc_rxwin_held(win), r->held);
}

static u32 rel_psn(struct fin *in, const struct ref *r)
{
	return r->cum + (u32)(s32)(s16)fin_u16(in);
}

static void do_accept(struct mrc_rxwin *win, struct ref *r, u32 psn,
		      bool commit)
{
	enum mrc_rx_verdict want = ref_check(r, psn), got;

	got = commit ? mrc_rxwin_accept(win, psn) : mrc_rxwin_check(win, psn);
	FUZZ_CHECK(got == want, "psn %u (cum %u size %u): %s, want %s", psn,
		   r->cum, r->size, mrc_rx_verdict_name(got),
		   mrc_rx_verdict_name(want));
	if (commit)
		ref_accept(r, psn);
}

static void do_fill_sack(struct mrc_rxwin *win, struct ref *r, u8 arg)
{
	/* One spare word: fill_sack must clamp what it is asked for. */
	u64 bitmap[MRC_SACK_MAX_WORDS + 1];
	unsigned int nwords = arg % (MRC_SACK_MAX_WORDS + 2), used, w, want;
	u32 base;

	memset(bitmap, 0xa5, sizeof(bitmap));
	used = mrc_rxwin_fill_sack(win, &base, nwords, bitmap);
	nwords = clamp_t(unsigned int, nwords, 1, MRC_SACK_MAX_WORDS);
	FUZZ_CHECK(base == r->cum, "sack base %u, cum %u", base, r->cum);
	FUZZ_CHECK(bitmap[MRC_SACK_MAX_WORDS] == 0xa5a5a5a5a5a5a5a5ULL,
		   "fill_sack wrote past %u words", MRC_SACK_MAX_WORDS);
	check_sack(r, base, nwords, bitmap);
	FUZZ_CHECK(!(bitmap[0] & 1), "cum psn %u reported received", base);
	for (want = 1, w = 1; w < nwords; w++)
		if (bitmap[w])
			want = w + 1;
	FUZZ_CHECK(used == want, "sack words %u, want %u", used, want);
}

static void run_op(struct mrc_rxwin *win, struct ref *r, struct fin *in)
{
	u64 bitmap[MRC_SACK_MAX_WORDS];
	unsigned int n, i;
	u32 psn;

	switch (fin_u8(in) % 8) {
	case 0:
		do_accept(win, r, rel_psn(in, r), true);
		break;
	case 1:	/* a burst in order, as one message's packets arrive */
		psn = rel_psn(in, r);
		n = fin_u8(in) + 1;
		for (i = 0; i < n; i++)
			do_accept(win, r, psn + i, true);
		break;
	case 2:	/* a burst in reverse, as sprayed packets may arrive */
		psn = rel_psn(in, r);
		n = fin_u8(in) + 1;
		for (i = n; i-- > 0;)
			do_accept(win, r, psn + i, true);
		break;
	case 3:
		do_accept(win, r, rel_psn(in, r), false);
		break;
	case 4:
		psn = fin_u32(in);
		do_accept(win, r, psn, fin_u8(in) & 1);
		break;
	case 5:
		n = fin_u8(in) % (MRC_SACK_MAX_WORDS + 1);
		psn = rel_psn(in, r);
		mrc_rxwin_sack_at(win, psn, n, bitmap);
		check_sack(r, psn, n, bitmap);
		break;
	case 6:
		do_fill_sack(win, r, fin_u8(in));
		break;
	default:
		psn = fin_u32(in);
		mrc_rxwin_reset(win, psn);
		ref_reset(r, psn);
		break;
	}
	check_state(win, r);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fin in = { data, size };
	static struct ref r;
	struct mrc_rxwin win = {};
	u32 usize = (fin_u8(&in) % (MRC_RXWIN_MAX / MRC_RXWIN_UNIT) + 1) *
		    MRC_RXWIN_UNIT;
	u32 start = fin_u32(&in);

	FUZZ_CHECK(mrc_rxwin_init(&win, start, usize) == 0, "init %u", usize);
	FUZZ_CHECK(mrc_rxwin_init(&(struct mrc_rxwin){}, 0, usize + 1) ==
		   -EINVAL, "size %u accepted", usize + 1);
	ref_reset(&r, start);
	r.size = usize;
	while (in.n)
		run_op(&win, &r, &in);
	mrc_rxwin_destroy(&win);
	mrc_rxwin_destroy(&win);
	return 0;
}
