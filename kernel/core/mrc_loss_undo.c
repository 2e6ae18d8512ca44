// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Spurious loss detection: the ring of recent inferred losses and the
 * blames of the last timeouts (mrc_loss_undo.h).
 */
#include <linux/string.h>

#include "mrc_loss_undo.h"
#include "mrc_psn.h"

/**
 * mrc_loss_undo_init() - no loss remembered
 * @u: the state
 */
void mrc_loss_undo_init(struct mrc_loss_undo *u)
{
	memset(u, 0, sizeof(*u));
	u->reo_mult = 1;
}

/**
 * mrc_loss_undo_record() - remember a loss just inferred
 * @u: the state
 * @psn: the PSN marked lost
 * @ev: the EV it was last sent on
 * @ev_seq: its per-EV sequence on that transmission
 * @blamed: the loss made @ev ASSUMED_BAD
 * @bad_ts: @ev's bad_ts then (meaningful when @blamed)
 */
void mrc_loss_undo_record(struct mrc_loss_undo *u, u32 psn, u16 ev,
			  u32 ev_seq, bool blamed, u32 bad_ts)
{
	struct mrc_loss_rec *r = &u->rec[u->next];

	u->next = (u->next + 1) % MRC_LOSS_UNDO_RING;
	if (!r->valid)
		u->live++;
	r->psn = psn;
	r->ev = ev;
	r->ev_seq = ev_seq;
	r->blamed = blamed;
	r->bad_ts = bad_ts;
	r->valid = 1;
	if (++u->reo_quiet >= MRC_REO_PERSIST) {
		u->reo_quiet = 0;
		if (u->reo_mult > 1)
			u->reo_mult--;
	}
}

/**
 * mrc_loss_undo_match() - whether an answer's echo undoes a recorded loss
 * @u: the state
 * @psn: the PSN it answers (an ACK's BTH PSN, a READ response's own)
 * @ev: the EV it echoes
 * @ev_seq: the per-EV sequence it echoes
 * @out: on a match, the record (which is then forgotten)
 *
 * A match means the transmission inferred lost arrived: the loss was
 * spurious.
 *
 * Return: true on a match.
 */
bool mrc_loss_undo_match(struct mrc_loss_undo *u, u32 psn, u16 ev,
			 u32 ev_seq, struct mrc_loss_rec *out)
{
	struct mrc_loss_rec *r;
	unsigned int i;

	for (i = 0; u->live && i < MRC_LOSS_UNDO_RING; i++) {
		r = &u->rec[i];
		if (!r->valid || r->psn != psn || r->ev != ev ||
		    r->ev_seq != ev_seq)
			continue;
		*out = *r;
		r->valid = 0;
		u->live--;
		u->undone++;
		return true;
	}
	return false;
}

/**
 * mrc_loss_undo_rto_record() - remember an EV a timeout made ASSUMED_BAD
 * @u: the state
 * @ev: the EV
 * @bad_ts: its bad_ts then
 * @rto_ts: when the timeout fired
 *
 * A run of timeouts longer than MRC_LOSS_UNDO_RTO keeps its first blames:
 * the later ones retransmit on EVs that are already in doubt.
 */
void mrc_loss_undo_rto_record(struct mrc_loss_undo *u, u16 ev, u32 bad_ts,
			      u32 rto_ts)
{
	struct mrc_rto_blame *b;

	if (u->nrto >= MRC_LOSS_UNDO_RTO)
		return;
	b = &u->rto[u->nrto++];
	b->ev = ev;
	b->bad_ts = bad_ts;
	b->rto_ts = rto_ts;
}

/**
 * mrc_loss_undo_rto_verdict() - the first acknowledgment after timeouts
 * @u: the state
 * @echo_ts: the send time it echoes, 1.024 us units
 * @out: room for MRC_LOSS_UNDO_RTO blames
 *
 * A packet sent at @echo_ts arrived and advanced the acknowledged PSNs:
 * every timeout that fired after it was spurious. Those timeouts' blames
 * are copied to @out and count as losses undone; all blames are then
 * forgotten, since the next acknowledgment no longer tells about them.
 *
 * An @echo_ts from after the timeouts (a retransmission's: each copy
 * carries its own time), or 0 (none echoed), says a packet sent after
 * them advanced the PSNs, so they were needed. Waiting instead for a
 * later answer that echoes an earlier time would take the first
 * transmission of a later PSN, sent before the timeout on another path,
 * as proof that the lost one arrived.
 *
 * Return: the number of blames copied to @out.
 */
unsigned int mrc_loss_undo_rto_verdict(struct mrc_loss_undo *u, u32 echo_ts,
				       struct mrc_rto_blame *out)
{
	unsigned int i, n = 0;

	for (i = 0; echo_ts && i < u->nrto; i++)
		if (mrc_psn_before(echo_ts, u->rto[i].rto_ts))
			out[n++] = u->rto[i];
	u->nrto = 0;
	u->undone += n;
	return n;
}

/**
 * mrc_loss_undo_widen() - an inferred loss was found spurious
 * @u: the state
 * @now: the time now, 1.024 us units
 * @rtt_ts: the smoothed round trip, 1.024 us units
 *
 * Raises the reordering window's multiplier, once per round trip: the
 * spurious losses of one reordering event come together and count once.
 */
void mrc_loss_undo_widen(struct mrc_loss_undo *u, u32 now, u32 rtt_ts)
{
	if (u->reo_mult > 1 && now - u->reo_widen_ts < rtt_ts)
		return;
	u->reo_widen_ts = now;
	u->reo_quiet = 0;
	if (u->reo_mult < MRC_REO_MULT_MAX)
		u->reo_mult++;
}

/**
 * mrc_loss_undo_probe_sent() - a tail loss probe left
 * @u: the state
 * @psn: the PSN it carries again
 * @lost_ev: the EV of the transmission it stands in for
 * @lost_seq: that transmission's per-EV sequence
 * @probe_ev: the probe's EV
 * @probe_seq: its per-EV sequence
 * @sole: @psn was the only PSN outstanding
 *
 * Only a probe of a whole flight is judged. With more outstanding, the
 * per-EV gaps and the time rule find the losses, and a probe that
 * overtakes an original waiting in a congested queue would blame a path
 * that is only slow. A probe on the same EV (the only one usable, or no
 * packet could be built) tells nothing of the EV: an answer to it shows
 * the EV delivers. Only the newest probe is awaited.
 */
void mrc_loss_undo_probe_sent(struct mrc_loss_undo *u, u32 psn, u16 lost_ev,
			      u32 lost_seq, u16 probe_ev, u32 probe_seq,
			      bool sole)
{
	struct mrc_loss_probe *p = &u->probe;

	p->valid = sole && lost_ev != probe_ev;
	p->psn = psn;
	p->lost_ev = lost_ev;
	p->lost_seq = lost_seq;
	p->probe_ev = probe_ev;
	p->probe_seq = probe_seq;
}

/**
 * mrc_loss_undo_probe_echo() - whether an answer convicts the probed copy
 * @u: the state
 * @psn: the PSN the answer is for
 * @ev: the EV it echoes
 * @ev_seq: the per-EV sequence it echoes
 * @earlier_arrived: the answer says an earlier copy of @psn had arrived
 *	(it echoes that copy's time, not its own)
 * @lost_ev: on true, the EV of the transmission found lost
 * @lost_seq: on true, its per-EV sequence
 *
 * An answer echoing the probe's copy, with none having echoed the
 * transmission it stood in for, finds that transmission lost, unless the
 * responder had it already and had not yet acknowledged it: a duplicate
 * is answered at once, with the first copy's time. An answer echoing the
 * transmission itself shows the probe was not needed. Any of these ends
 * the wait.
 *
 * Return: true when the probed transmission is found lost.
 */
bool mrc_loss_undo_probe_echo(struct mrc_loss_undo *u, u32 psn, u16 ev,
			      u32 ev_seq, bool earlier_arrived, u16 *lost_ev,
			      u32 *lost_seq)
{
	struct mrc_loss_probe *p = &u->probe;

	if (!p->valid || p->psn != psn)
		return false;
	if (ev == p->lost_ev && ev_seq == p->lost_seq) {
		p->valid = 0;
		return false;
	}
	if (ev != p->probe_ev || ev_seq != p->probe_seq)
		return false;
	p->valid = 0;
	if (earlier_arrived)
		return false;
	*lost_ev = p->lost_ev;
	*lost_seq = p->lost_seq;
	return true;
}
