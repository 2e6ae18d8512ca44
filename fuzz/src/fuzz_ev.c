// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the EV table (kernel/core/mrc_ev.c): path choice and path health under
 * any order of sends, acknowledgments, losses, probes and denials. The
 * EV index and probe id of acknowledgments and probe replies come from
 * the network, so they are taken raw from the input. After every
 * operation the table is walked (check_core.h); choices and the
 * min_active rule are checked against mrc_ev.c's comments.
 *
 * Input: count (2 bytes), min_active (1 byte), seed (2 bytes), then
 * operations, each an opcode byte and its arguments.
 */
#include <errno.h>
#include <string.h>

#include "check_core.h"

struct ctx {
	struct mrc_ev_table t;
	u32 now;
	u32 last_probe_id;
	u16 last_probe_ev;
};

static bool any_bad(const struct mrc_ev_table *t)
{
	return mrc_ev_nbad(t) != 0;
}

static void do_loss(struct ctx *c, u16 idx)
{
	struct mrc_ev_table *t = &c->t;
	/* How it was found: from the clock, so inputs keep their layout. */
	enum mrc_ev_why why = (c->now >> 3) & 3;
	u16 before = t->ngood;
	bool went_bad, was_good = idx < t->count &&
				  t->ev[idx].state == MRC_EV_GOOD;
	u64 counted = idx < t->count ? t->st[idx].c[MRC_EVS_LOSS_GAP + why] : 0;

	went_bad = mrc_ev_on_loss(t, idx, c->now, why);
	FUZZ_CHECK(went_bad == was_good, "on_loss(%u): %d, was GOOD %d", idx,
		   went_bad, was_good);
	if (idx < t->count)
		FUZZ_CHECK(t->st[idx].c[MRC_EVS_LOSS_GAP + why] == counted + 1,
			   "loss %u of EV %u not counted", why, idx);
	/* Fewer than min_active GOOD: one ASSUMED_BAD comes back at once. */
	if (went_bad && before - 1 < t->min_active)
		FUZZ_CHECK(t->ngood == before, "ngood %u -> %u, min_active %u",
			   before, t->ngood, t->min_active);
	else if (went_bad)
		FUZZ_CHECK(t->ngood == before - 1, "ngood %u -> %u", before,
			   t->ngood);
}

static void do_probe(struct ctx *c, u32 interval)
{
	u16 idx = 0;
	u32 id = 0;

	if (!mrc_ev_next_probe(&c->t, c->now, interval, &idx, &id))
		return;
	FUZZ_CHECK(idx < c->t.count &&
		   c->t.ev[idx].state == MRC_EV_ASSUMED_BAD && id,
		   "probe of EV %u id %u", idx, id);
	c->last_probe_ev = idx;
	c->last_probe_id = id;
}

static void do_reply(struct ctx *c, struct fin *in)
{
	struct mrc_ev_table *t = &c->t;
	u16 idx = c->last_probe_ev;
	u32 id = c->last_probe_id;
	u16 before = t->ngood;
	bool good;

	/* The echo of our last probe, or whatever a peer made up. */
	if (fin_u8(in) & 1) {
		idx = fin_u16(in);
		id = fin_u32(in);
	}
	good = mrc_ev_on_probe_reply(t, idx, id);
	FUZZ_CHECK(t->ngood == before + good, "probe reply: ngood %u -> %u",
		   before, t->ngood);
	if (good)
		FUZZ_CHECK(t->ev[idx].state == MRC_EV_GOOD, "EV %u not GOOD",
			   idx);
}

/* The last EV not denied stays allowed; anything else is applied. */
static void do_deny(struct ctx *c, u16 idx, bool deny)
{
	struct mrc_ev_table *t = &c->t;
	bool last = idx < t->count && deny &&
		    t->ev[idx].state != MRC_EV_DENIED &&
		    t->ndenied + 1 == t->count;
	int ret = mrc_ev_set_denied(t, idx, deny);

	if (idx >= t->count)
		FUZZ_CHECK(ret == -EINVAL, "set_denied(%u) of %u: %d", idx,
			   t->count, ret);
	else if (last)
		FUZZ_CHECK(ret == -EBUSY, "denied the last EV %u: %d", idx, ret);
	else
		FUZZ_CHECK(!ret && (t->ev[idx].state == MRC_EV_DENIED) == deny,
			   "set_denied(%u, %d): %d, state %u", idx, deny, ret,
			   t->ev[idx].state);
}

static void run_op(struct ctx *c, struct fin *in)
{
	struct mrc_ev_table *t = &c->t;
	bool bad = any_bad(t), ce;
	u16 idx;
	u32 seq;

	switch (fin_u8(in) % 11) {
	case 0:
		idx = mrc_ev_choose(t);
		check_ev_choice(t, idx, bad);
		seq = t->ev[idx].tx_seq;
		FUZZ_CHECK(mrc_ev_on_send(t, idx) == seq, "tx_seq");
		break;
	case 1:
		check_ev_choice(t, mrc_ev_choose_retx(t), bad);
		break;
	case 2:
		check_ev_choice(t, mrc_ev_choose_spread(t), bad);
		break;
	case 3:
		idx = fin_u16(in);
		ce = fin_u8(in) & 1;
		mrc_ev_on_delivered(t, idx, ce, fin_u32(in));
		break;
	case 4:
		do_loss(c, fin_u16(in));
		break;
	case 5:
		idx = fin_u16(in);
		seq = fin_u32(in);
		mrc_ev_queue_delay(t, idx, seq ? seq : 1, c->now);
		break;
	case 6:
		do_probe(c, fin_u16(in));
		break;
	case 7:
		do_reply(c, in);
		break;
	case 8:
		do_deny(c, fin_u16(in), fin_u8(in) & 1);
		break;
	case 9:
		mrc_ev_reset(t);
		FUZZ_CHECK(!any_bad(t), "ASSUMED_BAD after reset");
		break;
	default:
		/* An index the sender chose itself is below count. */
		if (t->count)
			do_loss(c, fin_u16(in) % t->count);
		break;
	}
	c->now += fin_u16(in);
	check_ev(t);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fin in = { data, size };
	struct ctx c = {};
	u16 count = fin_u16(&in), min_active = fin_u8(&in);
	int ret;

	/* Mostly small tables, where states collide; sometimes the largest. */
	count = count & 0x8000 ? count % MRC_EV_COUNT_MAX + 1 :
				 count % 64 + 1;
	ret = mrc_ev_init_auto(&c.t, count, min_active, fin_u16(&in));
	FUZZ_CHECK(!ret, "init %u: %d", count, ret);
	FUZZ_CHECK(mrc_ev_init_auto(&(struct mrc_ev_table){},
				    MRC_EV_COUNT_MAX + 1, 0, 0) == -EINVAL,
		   "oversized table accepted");
	check_ev(&c.t);
	while (in.n)
		run_op(&c, &in);
	mrc_ev_destroy(&c.t);
	mrc_ev_destroy(&c.t);
	return 0;
}
