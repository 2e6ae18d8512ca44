// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EV table: per-packet path choice and path health.
 *
 * Choice: an EV whose acknowledgment just came back cleanly is reused
 * first (a FIFO of recycled EVs, as REPS does): it is known to work and
 * not to be congested. Otherwise a round robin spreads packets evenly
 * over the GOOD EVs, skipping those with a penalty (ECN marks).
 *
 * Health: a loss blamed on a GOOD EV makes it ASSUMED_BAD at once; it
 * then carries only probes until MRC_EV_PROBES_TO_GOOD consecutive
 * probes are answered. Fewer than min_active GOOD EVs is not allowed
 * while ASSUMED_BAD ones exist: the one with the most probe answers in a
 * row, else the one bad for longest, is readmitted. Retransmissions take
 * only EVs that just delivered (mrc_ev_choose_retx()).
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "mrc_ev.h"

/**
 * mrc_ev_init() - set up a table with every EV GOOD
 * @t: the table
 * @count: EVs, 1..MRC_EV_COUNT_MAX
 * @min_active: GOOD EVs to keep (clamped to @count)
 * @wire: @count values the EVs are sent with, EV 0 first (copied)
 *
 * Return: 0, -EINVAL for a bad @count or -ENOMEM.
 */
int mrc_ev_init(struct mrc_ev_table *t, u16 count, u16 min_active,
		const struct mrc_ev_wire *wire)
{
	u16 i;

	memset(t, 0, sizeof(*t));
	if (!count || count > MRC_EV_COUNT_MAX)
		return -EINVAL;
	t->ev = kvcalloc(count, sizeof(*t->ev), GFP_KERNEL_ACCOUNT);
	t->st = kvcalloc(count, sizeof(*t->st), GFP_KERNEL_ACCOUNT);
	t->recycle = kvcalloc(count, sizeof(*t->recycle), GFP_KERNEL_ACCOUNT);
	if (!t->ev || !t->st || !t->recycle) {
		mrc_ev_destroy(t);
		return -ENOMEM;
	}
	t->count = count;
	t->ngood = count;
	t->min_active = min(min_active, count);
	t->last_delivered = count;
	t->next_probe_id = 1;
	for (i = 0; i < count; i++) {
		t->ev[i].sport = wire[i].sport;
		t->ev[i].flow_label = wire[i].flow_label;
		t->ev[i].value = wire[i].value;
	}
	return 0;
}

/**
 * mrc_ev_auto_wire() - the EVs of the AUTO profile
 * @wire: @count entries to fill
 * @count: EVs, at most MRC_EV_COUNT_MAX
 * @seed: spreads the source ports of different QPs apart
 *
 * Consecutive source ports from @seed in the RoCE v2 range 0xc000..0xffff
 * (distinct for any count up to 2^14), flow label 0.
 */
void mrc_ev_auto_wire(struct mrc_ev_wire *wire, u16 count, u16 seed)
{
	u16 i;

	for (i = 0; i < count; i++) {
		wire[i].sport = MRC_EV_SPORT_BASE |
				((seed + i) & MRC_EV_SPORT_MASK);
		wire[i].flow_label = 0;
		wire[i].value = 0;
	}
}

/**
 * mrc_ev_init_auto() - mrc_ev_init() with the AUTO profile's EVs
 * @t: the table
 * @count: EVs, 1..MRC_EV_COUNT_MAX
 * @min_active: GOOD EVs to keep (clamped to @count)
 * @seed: as for mrc_ev_auto_wire()
 *
 * Return: 0, -EINVAL for a bad @count or -ENOMEM.
 */
int mrc_ev_init_auto(struct mrc_ev_table *t, u16 count, u16 min_active,
		     u16 seed)
{
	struct mrc_ev_wire *wire;
	int err;

	memset(t, 0, sizeof(*t));
	if (!count || count > MRC_EV_COUNT_MAX)
		return -EINVAL;
	wire = kvcalloc(count, sizeof(*wire), GFP_KERNEL_ACCOUNT);
	if (!wire)
		return -ENOMEM;
	mrc_ev_auto_wire(wire, count, seed);
	err = mrc_ev_init(t, count, min_active, wire);
	kvfree(wire);
	return err;
}

/**
 * mrc_ev_destroy() - free a table (also one that failed to initialise)
 * @t: the table
 */
void mrc_ev_destroy(struct mrc_ev_table *t)
{
	kvfree(t->ev);
	kvfree(t->st);
	kvfree(t->recycle);
	t->ev = NULL;
	t->st = NULL;
	t->recycle = NULL;
	t->count = 0;
}

static bool mrc_ev_pop_recycled(struct mrc_ev_table *t, u16 *idx)
{
	while (t->rc_len) {
		u16 i = t->recycle[t->rc_head];

		t->rc_head = (t->rc_head + 1) % t->count;
		t->rc_len--;
		t->ev[i].recycled = false;
		if (t->ev[i].state == MRC_EV_GOOD && !t->ev[i].penalty) {
			*idx = i;
			return true;
		}
	}
	return false;
}

static void mrc_ev_push_recycled(struct mrc_ev_table *t, u16 idx)
{
	if (t->ev[idx].recycled || t->rc_len == t->count)
		return;
	t->recycle[(t->rc_head + t->rc_len) % t->count] = idx;
	t->rc_len++;
	t->ev[idx].recycled = true;
}

/* Next EV in round-robin order that is in @state; penalties optional. */
static bool mrc_ev_round_robin(struct mrc_ev_table *t, u8 state,
			       bool honour_penalty, u16 *idx)
{
	u16 n;

	for (n = 0; n < t->count; n++) {
		struct mrc_ev *ev = &t->ev[t->cursor];
		u16 i = t->cursor;

		t->cursor = (t->cursor + 1) % t->count;
		if (ev->state != state)
			continue;
		if (honour_penalty && ev->penalty) {
			ev->penalty--;
			continue;
		}
		*idx = i;
		return true;
	}
	return false;
}

/**
 * mrc_ev_reset() - forget what was learnt of the paths
 * @t: an initialised table
 *
 * For a QP going back to RESET, which may connect to another peer over
 * other paths: every EV not DENIED is GOOD again, with no sequence, RTT,
 * penalty or probe state. Wire values, the DENIED marks (administrative) and
 * the counters stay. Allocates nothing, so it may run under a spinlock.
 */
void mrc_ev_reset(struct mrc_ev_table *t)
{
	u16 i;

	t->ngood = 0;
	for (i = 0; i < t->count; i++) {
		struct mrc_ev *ev = &t->ev[i];
		struct mrc_ev_wire wire = {
			.flow_label = ev->flow_label, .sport = ev->sport,
			.value = ev->value,
		};
		bool denied = ev->state == MRC_EV_DENIED;

		memset(ev, 0, sizeof(*ev));
		ev->sport = wire.sport;
		ev->flow_label = wire.flow_label;
		ev->value = wire.value;
		ev->state = denied ? MRC_EV_DENIED : MRC_EV_GOOD;
		t->ngood += !denied;
	}
	t->rc_head = 0;
	t->rc_len = 0;
	t->cursor = 0;
	t->probe_cursor = 0;
	t->last_delivered = t->count;
}

/**
 * mrc_ev_choose() - the EV for the next packet
 * @t: the table
 *
 * Return: an EV index. When every EV is penalised the round robin ignores
 * penalties; when none is GOOD (all denied or bad, which min_active only
 * allows when it is 0) an ASSUMED_BAD one. Never a DENIED one: at least
 * one EV is always allowed (mrc_ev_set_denied()).
 */
u16 mrc_ev_choose(struct mrc_ev_table *t)
{
	u16 idx;

	if (mrc_ev_pop_recycled(t, &idx))
		return idx;
	return mrc_ev_choose_spread(t);
}

/**
 * mrc_ev_choose_spread() - the EV for a run of packets sent together
 * @t: the table
 *
 * mrc_ev_choose() without recycling. Recycling works packet by packet: a
 * run on a recycled EV gets that EV back with the ACK its last packet
 * asks for, and a few EVs would then carry every run.
 *
 * Return: an EV index.
 */
u16 mrc_ev_choose_spread(struct mrc_ev_table *t)
{
	u16 idx = 0;

	if (mrc_ev_round_robin(t, MRC_EV_GOOD, true, &idx) ||
	    mrc_ev_round_robin(t, MRC_EV_GOOD, false, &idx) ||
	    mrc_ev_round_robin(t, MRC_EV_ASSUMED_BAD, false, &idx))
		return idx;
	return 0;	/* not reached: some EV is always allowed */
}

/**
 * mrc_ev_choose_retx() - the EV for a retransmission
 * @t: the table
 *
 * A retransmission lost again costs a timeout, and the time spent in
 * timeouts without progress is what the timeout and retry_cnt attributes
 * bound; so it takes an EV that has just shown it delivers: a recycled
 * one, else the one credited last, and only when neither is GOOD any
 * more the round robin's choice. An EV readmitted for min_active, or one
 * not yet found dead, proved nothing.
 *
 * Return: an EV index.
 */
u16 mrc_ev_choose_retx(struct mrc_ev_table *t)
{
	u16 idx;

	if (mrc_ev_pop_recycled(t, &idx))
		return idx;
	if (mrc_ev_has_proven(t))
		return t->last_delivered;
	return mrc_ev_choose(t);
}

/**
 * mrc_ev_choose_other() - the EV for resending what a trim cut
 * @t: the table
 * @avoid: the EV the packet was trimmed on
 *
 * A trim says @avoid's path is congested: the resend takes the next GOOD
 * EV after it, or @avoid itself when no other is GOOD.
 *
 * Return: an EV index.
 */
u16 mrc_ev_choose_other(struct mrc_ev_table *t, u16 avoid)
{
	u16 n, i;

	if (avoid >= t->count)
		return mrc_ev_choose_retx(t);
	for (n = 1; n < t->count; n++) {
		i = (avoid + n) % t->count;
		if (t->ev[i].state == MRC_EV_GOOD)
			return i;
	}
	return avoid;
}

/**
 * mrc_ev_on_send() - account a packet sent on an EV
 * @t: the table
 * @idx: the EV (below @t->count)
 *
 * Return: the packet's per-EV sequence number.
 */
u32 mrc_ev_on_send(struct mrc_ev_table *t, u16 idx)
{
	return t->ev[idx].tx_seq++;
}

/**
 * mrc_ev_on_delivered() - an acknowledgment echoed this EV
 * @t: the table
 * @idx: the echoed EV index (from the network: checked here)
 * @ce: the acknowledgment reported congestion marks
 * @rtt_ts: round trip in 1.024 us units, 0 when unknown
 */
void mrc_ev_on_delivered(struct mrc_ev_table *t, u16 idx, bool ce,
			 u32 rtt_ts)
{
	struct mrc_ev *ev;

	if (idx >= t->count)
		return;
	ev = &t->ev[idx];
	t->st[idx].c[MRC_EVS_DELIVERED]++;
	if (rtt_ts)
		ev->srtt = ev->srtt ? ev->srtt - (ev->srtt >> 3) + rtt_ts :
				      rtt_ts << 3;
	if (ce) {
		ev->penalty = MRC_EV_CE_PENALTY;
		return;
	}
	if (ev->state == MRC_EV_GOOD) {
		mrc_ev_push_recycled(t, idx);
		t->last_delivered = idx;
	}
}

/* Every state change goes through here, so the owner hears of it. */
static void mrc_ev_set_state(struct mrc_ev_table *t, u16 idx, u8 state,
			     enum mrc_ev_why why)
{
	u8 old = t->ev[idx].state;

	t->ev[idx].state = state;
	t->st[idx].c[MRC_EVS_STATE_CHANGES]++;
	if (t->changed)
		t->changed(t, idx, old, why);
}

/*
 * Bring back an ASSUMED_BAD EV: the one with the most probe answers in a
 * row (its path works again), and among equals the one bad for longest.
 */
static void mrc_ev_readmit(struct mrc_ev_table *t, u32 now_ts)
{
	u32 age, oldest = 0;
	u16 i, pick = t->count;

	for (i = 0; i < t->count; i++) {
		const struct mrc_ev *ev = &t->ev[i];

		if (ev->state != MRC_EV_ASSUMED_BAD)
			continue;
		age = now_ts - ev->bad_ts;
		if (pick == t->count || ev->probe_ok > t->ev[pick].probe_ok ||
		    (ev->probe_ok == t->ev[pick].probe_ok && age > oldest)) {
			pick = i;
			oldest = age;
		}
	}
	if (pick == t->count)
		return;
	t->ngood++;
	t->readmitted++;
	mrc_ev_set_state(t, pick, MRC_EV_GOOD, MRC_EV_WHY_READMIT);
}

/**
 * mrc_ev_on_loss() - a packet last sent on this EV was lost
 * @t: the table
 * @idx: the EV
 * @now_ts: current time, 1.024 us units
 * @why: how the loss was found (one of the MRC_EV_WHY_LOSS_* values)
 *
 * Return: true when the EV went from GOOD to ASSUMED_BAD.
 */
bool mrc_ev_on_loss(struct mrc_ev_table *t, u16 idx, u32 now_ts,
		    enum mrc_ev_why why)
{
	struct mrc_ev *ev;

	if (idx >= t->count)
		return false;
	ev = &t->ev[idx];
	if (why <= MRC_EV_WHY_LOSS_TIMEOUT)
		t->st[idx].c[MRC_EVS_LOSS_GAP + why]++;
	else if (why == MRC_EV_WHY_LOSS_PROBE)
		t->st[idx].c[MRC_EVS_LOSS_PROBE]++;
	if (ev->state != MRC_EV_GOOD)
		return false;
	ev->bad_ts = now_ts;
	ev->probe_ts = now_ts;
	ev->probe_ok = 0;
	ev->probe_id = 0;
	t->ngood--;
	t->marked_bad++;
	mrc_ev_set_state(t, idx, MRC_EV_ASSUMED_BAD, why);
	if (t->ngood < t->min_active)
		mrc_ev_readmit(t, now_ts);
	return true;
}

/**
 * mrc_ev_queue_delay() - an RTT sample's delay above the EV's base RTT
 * @t: the table
 * @idx: the EV (from the network: checked here)
 * @rtt_ts: the sample, 1.024 us units (non-zero)
 * @now_ts: current time, 1.024 us units
 *
 * Each EV keeps its own base (the lowest RTT of the last ~10 s): paths
 * differ in length, and a long path is not a queue. The base is taken
 * again from the next sample once it is older, so a path that became
 * longer for good stops looking queued.
 *
 * Return: the sample minus the base, 0 for a new base or a bad @idx.
 */
u32 mrc_ev_queue_delay(struct mrc_ev_table *t, u16 idx, u32 rtt_ts,
		       u32 now_ts)
{
	struct mrc_ev *ev;

	if (idx >= t->count)
		return 0;
	ev = &t->ev[idx];
	if (!ev->min_rtt || rtt_ts <= ev->min_rtt ||
	    now_ts - ev->min_rtt_ts > MRC_EV_MIN_RTT_TS) {
		ev->min_rtt = rtt_ts;
		ev->min_rtt_ts = now_ts;
		return 0;
	}
	return rtt_ts - ev->min_rtt;
}

/**
 * mrc_ev_next_probe() - an ASSUMED_BAD EV due for a probe
 * @t: the table
 * @now_ts: current time, 1.024 us units
 * @interval_ts: time between probes of one EV
 * @idx: set to the EV to probe
 * @probe_id: set to the id the probe must carry
 *
 * A probe still unanswered when the next one is due breaks the run of
 * successes. The search goes on where the last one stopped, so a caller
 * that sends only a few probes at a time still reaches every EV.
 *
 * Return: true when a probe is to be sent.
 */
bool mrc_ev_next_probe(struct mrc_ev_table *t, u32 now_ts, u32 interval_ts,
		       u16 *idx, u32 *probe_id)
{
	u16 n;

	for (n = 0; n < t->count; n++) {
		u16 i = t->probe_cursor;
		struct mrc_ev *ev = &t->ev[i];

		t->probe_cursor = (t->probe_cursor + 1) % t->count;

		if (ev->state != MRC_EV_ASSUMED_BAD ||
		    now_ts - ev->probe_ts < interval_ts)
			continue;
		if (ev->probe_id)
			ev->probe_ok = 0;
		ev->probe_ts = now_ts;
		ev->probe_id = t->next_probe_id++;
		if (!t->next_probe_id)
			t->next_probe_id = 1;
		*idx = i;
		*probe_id = ev->probe_id;
		return true;
	}
	return false;
}

/**
 * mrc_ev_on_probe_reply() - a PROBE_REPLY arrived
 * @t: the table
 * @idx: echoed EV index (from the network: checked here)
 * @probe_id: echoed probe id
 *
 * Return: true when the EV is GOOD again.
 */
bool mrc_ev_on_probe_reply(struct mrc_ev_table *t, u16 idx, u32 probe_id)
{
	struct mrc_ev *ev;

	if (idx >= t->count)
		return false;
	ev = &t->ev[idx];
	if (ev->state != MRC_EV_ASSUMED_BAD || !probe_id ||
	    probe_id != ev->probe_id)
		return false;
	ev->probe_id = 0;
	if (++ev->probe_ok < MRC_EV_PROBES_TO_GOOD)
		return false;
	ev->probe_ok = 0;
	t->ngood++;
	t->recovered++;
	mrc_ev_push_recycled(t, idx);
	mrc_ev_set_state(t, idx, MRC_EV_GOOD, MRC_EV_WHY_PROBE_OK);
	return true;
}

/**
 * mrc_ev_undo_loss() - a loss that made an EV ASSUMED_BAD was spurious
 * @t: the table
 * @idx: the EV
 * @bad_ts: the time that loss marked it bad (its bad_ts then)
 *
 * The packet was delayed, not lost: the EV is GOOD again at once, unless
 * a later loss marked it bad since (its bad_ts moved on) or it left that
 * state another way.
 *
 * Return: true when the EV is GOOD again.
 */
bool mrc_ev_undo_loss(struct mrc_ev_table *t, u16 idx, u32 bad_ts)
{
	struct mrc_ev *ev;

	if (idx >= t->count)
		return false;
	ev = &t->ev[idx];
	if (ev->state != MRC_EV_ASSUMED_BAD || ev->bad_ts != bad_ts)
		return false;
	ev->probe_id = 0;
	ev->probe_ok = 0;
	t->ngood++;
	t->undone++;
	mrc_ev_set_state(t, idx, MRC_EV_GOOD, MRC_EV_WHY_LOSS_UNDONE);
	return true;
}

/**
 * mrc_ev_set_denied() - take an EV out of use, or give it back
 * @t: the table
 * @idx: the EV
 * @denied: deny (true) or allow (false, it comes back GOOD)
 *
 * The last EV not denied cannot be denied: with none allowed the QP would
 * have to send on a path the administrator took away.
 *
 * Return: 0, -EINVAL for an index out of range, or -EBUSY for the last EV
 * not denied.
 */
int mrc_ev_set_denied(struct mrc_ev_table *t, u16 idx, bool denied)
{
	struct mrc_ev *ev;

	if (idx >= t->count)
		return -EINVAL;
	ev = &t->ev[idx];
	if (denied && ev->state != MRC_EV_DENIED) {
		if (t->ndenied + 1 >= t->count)
			return -EBUSY;
		if (ev->state == MRC_EV_GOOD)
			t->ngood--;
		t->ndenied++;
		mrc_ev_set_state(t, idx, MRC_EV_DENIED, MRC_EV_WHY_DENY);
	} else if (!denied && ev->state == MRC_EV_DENIED) {
		ev->probe_ok = 0;
		t->ngood++;
		t->ndenied--;
		mrc_ev_set_state(t, idx, MRC_EV_GOOD, MRC_EV_WHY_UNDENY);
	}
	return 0;
}

/**
 * mrc_ev_limit_room() - whether a QP may hold @nev EVs under a device limit
 * @held: EVs the device's QPs hold together, the QP's own included
 * @own: EVs of @held the QP holds now and gives back (0 for a new QP)
 * @nev: EVs it would hold instead
 * @limit: EVs the device's QPs may hold together
 *
 * Written so that no sum wraps, whatever the values: a table that counts
 * wrongly must not let a QP past the limit.
 *
 * Return: true if @held - @own + @nev stays within @limit.
 */
bool mrc_ev_limit_room(u32 held, u32 own, u32 nev, u32 limit)
{
	u32 others = held - min(own, held);

	return nev <= limit && others <= limit - nev;
}
